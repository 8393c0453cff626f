"""The probes behind `python -m bot check`; each reads, none changes anything."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

import httpx
from alembic.script import ScriptDirectory
from alembic.script.revision import RevisionError

from bot.a2a import A2AClient, RetryPolicy, errors
from bot.a2a.http import new_http_client
from bot.accounts import (
    EncryptionKeyError,
    InvalidEncryptionKey,
    TokenCipher,
    TokenRegistry,
    WrongEncryptionKey,
)
from bot.accounts.crypto import SETTING_NAME
from bot.settings import Settings
from bot.storage import Database, StorageUnavailable
from bot.storage.engine import parse_url, sqlite_path
from bot.storage.migrate import alembic_config

# Short enough that check never seems to hang; a healthy endpoint answers tasks/get at once.
UPSTREAM_TIMEOUT = httpx.Timeout(5.0)
UPSTREAM_DEADLINE = 10.0
MIGRATE = "`python -m bot migrate` (or `run`, which migrates on start)"
NO_TOKEN = "only people who link their own account can ask"  # noqa: S105 - not a secret

# warning: worth the operator's attention, but the bot can run (check still exits 0).
Status = Literal["ok", "warning", "failed", "skipped"]


@dataclass(frozen=True)
class Outcome:
    status: Status
    detail: str = ""

    @classmethod
    def ok(cls, detail: str = "") -> Outcome:
        return cls("ok", detail)

    @classmethod
    def warning(cls, detail: str) -> Outcome:
        return cls("warning", detail)

    @classmethod
    def failed(cls, detail: str) -> Outcome:
        return cls("failed", detail)

    @classmethod
    def skipped(cls, detail: str) -> Outcome:
        return cls("skipped", detail)


# --- database and encryption key ------------------------------------------------------------


async def storage(settings: Settings) -> tuple[Outcome, Outcome]:
    """(database, encryption key): the key is checked against the tokens the database holds."""
    cipher: TokenCipher | None = None
    key_problem: str | None = None
    try:
        cipher = TokenCipher.from_setting(settings.token_encryption_key)
    except InvalidEncryptionKey as error:
        key_problem = str(error)
    try:
        url = parse_url(settings.database_url)
    except ValueError as error:
        return Outcome.failed(str(error)), _key_unchecked(cipher, key_problem)
    path = sqlite_path(url) if url.get_backend_name() == "sqlite" else None
    if path is not None and not path.exists():
        shown = url.render_as_string(hide_password=True)
        database = Outcome.ok(f"{shown} does not exist yet: {MIGRATE} creates it")
        return database, _key_outcome(cipher, key_problem, stored=0)
    async with Database(settings.database_url) as db:
        try:
            revision = await db.revision()
        except StorageUnavailable as error:
            database = Outcome.failed(f"{db.display_url}: {error}")
            return database, _key_unchecked(cipher, key_problem)
        database = _revision_outcome(db.display_url, revision)
        if database.status == "failed":
            return database, _key_unchecked(cipher, key_problem)
        if revision is None or key_problem is not None:
            return database, _key_outcome(cipher, key_problem, stored=0)
        try:
            stored = await TokenRegistry(db, cipher).check_startup()
        except WrongEncryptionKey as error:
            return database, Outcome.failed(f"cannot decrypt the stored tokens: {error}")
        except EncryptionKeyError as error:
            return database, Outcome.failed(str(error))
        except StorageUnavailable as error:
            return database, Outcome.failed(f"stored tokens could not be read: {error}")
    return database, _key_outcome(cipher, None, stored=stored)


def _revision_outcome(shown: str, revision: str | None) -> Outcome:
    if revision is None:
        return Outcome.ok(f"{shown} has no tables yet: {MIGRATE} creates them")
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    try:
        pending = list(script.iterate_revisions(head, revision))
    except RevisionError:
        return Outcome.failed(
            f"{shown} is at revision {revision}, which this version of the bot does not know "
            "(was it migrated by a newer version?)"
        )
    if not pending:
        return Outcome.ok(f"{shown} at revision {revision}")
    count = f"{len(pending)} migration{'s' if len(pending) > 1 else ''}"
    return Outcome.ok(f"{shown} at revision {revision}; {count} pending: run {MIGRATE}")


def _key_outcome(cipher: TokenCipher | None, problem: str | None, *, stored: int) -> Outcome:
    if problem is not None:
        return Outcome.failed(problem)
    if cipher is None:
        if stored:
            return Outcome.failed(f"not set, but {_tokens(stored)} stored")
        return Outcome.ok("not set; needed once someone links a token (`python -m bot genkey`)")
    keys = f"{cipher.key_count} key{'s' if cipher.key_count > 1 else ''}"
    if not stored:
        return Outcome.ok(f"{keys}; no tokens stored yet")
    return Outcome.ok(f"{keys}; decrypts the stored tokens ({_tokens(stored)} stored)")


def _key_unchecked(cipher: TokenCipher | None, problem: str | None) -> Outcome:
    if problem is not None:
        return Outcome.failed(problem)
    what = f"{SETTING_NAME} is not set" if cipher is None else f"{SETTING_NAME} parses"
    return Outcome.skipped(f"{what}; stored tokens not checked: the database check failed")


def _tokens(count: int) -> str:
    return "1 token is" if count == 1 else f"{count} tokens are"


# --- Magisterium ----------------------------------------------------------------------------


async def magisterium(settings: Settings) -> Outcome:
    """One ``tasks/get`` for a task that does not exist: "Task not found" means the endpoint
    answered and accepted the token, and it costs no quota."""
    url = settings.magisterium_api_url
    host = display_host(url)
    secret = settings.magisterium_token
    token = secret.get_secret_value().strip() if secret is not None else ""
    async with new_http_client(max_connections=1) as http:
        client = A2AClient(
            http,
            url,
            retry=RetryPolicy(max_attempts=1),
            deadline=UPSTREAM_DEADLINE,
            timeout=UPSTREAM_TIMEOUT,
        )
        try:
            await client.get_task(f"bot-check-{uuid.uuid4()}", client.policy(token))
        except errors.TaskNotFound:
            pass  # the expected answer: the token may read tasks, and this one does not exist
        except errors.Unauthorized as error:
            if not token:
                return Outcome.ok(f"{host} answers; MAGISTERIUM_TOKEN is not set: {NO_TOKEN}")
            return Outcome.failed(f"Magisterium refused MAGISTERIUM_TOKEN (401): {error.message}")
        except errors.PlanRequired as error:
            return Outcome.failed(f"MAGISTERIUM_TOKEN has no paid plan (403): {error.message}")
        except errors.RateLimited:
            return Outcome.ok(f"{host} accepted MAGISTERIUM_TOKEN (rate-limited right now)")
        except (errors.TransportError, errors.DeadlineExceeded) as error:
            return Outcome.failed(f"cannot reach {host}: {error.message}")
        except errors.A2AError as error:
            return Outcome.failed(f"{host} answered unexpectedly: {error.message}")
        except httpx.InvalidURL:
            return Outcome.failed("MAGISTERIUM_API_URL is not a valid URL")
    if not token:
        return Outcome.ok(f"{host} answers; MAGISTERIUM_TOKEN is not set: {NO_TOKEN}")
    return Outcome.ok(f"{host} accepted MAGISTERIUM_TOKEN")


def display_host(url: str, setting: str = "MAGISTERIUM_API_URL") -> str:
    """Host and port only: a URL could carry credentials."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return setting
    if not parts.hostname:
        return setting
    return f"{parts.hostname}:{port}" if port else parts.hostname

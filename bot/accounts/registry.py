"""``TokenRegistry``: users' own Magisterium tokens, stored encrypted, one per Discord user."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, cast, get_args

from pydantic import SecretStr
from sqlalchemy import func, select, update

from bot.accounts._rows import AccountRows
from bot.accounts.crypto import SETTING_NAME, Purpose, TokenCipher
from bot.accounts.errors import (
    StoredTokensNeedTheirKey,
    TokenBindingError,
    TokenDecryptionError,
    WrongEncryptionKey,
)
from bot.storage import LinkedAccountRow, rows_of_user
from bot.storage.deletion import UserDataDeleters
from bot.storage.models import AnswerFeedbackRow, OAuthStateRow
from bot.storage.upsert import dialect_insert

log = logging.getLogger(__name__)

AccountStatus = Literal["valid", "invalid", "rate_limited"]
ACCOUNT_STATUSES: frozenset[str] = frozenset(get_args(AccountStatus))
NOTE_MAX_LENGTH = 200
# Rows decrypted by check_startup: enough to tell a wrong key, cheap on a big table.
_STARTUP_SAMPLE = 20
_REPLACED_ON_RELINK = (
    "token_ciphertext",
    "status",
    "note",
    "linked_at",
    "updated_at",
    "refresh_ciphertext",
    "expires_at",
)

Row = LinkedAccountRow
_ACCOUNT_COLUMNS = select(
    Row.token_ciphertext,
    Row.refresh_ciphertext,
    Row.status,
    Row.note,
    Row.linked_at,
    Row.updated_at,
    Row.expires_at,
)


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What deleting everything stored about a person deleted: rows by table name."""

    rows: Mapping[str, int]

    @property
    def token(self) -> bool:
        """A token was linked (and is deleted)."""
        return self.count(Row.__tablename__) > 0

    @property
    def votes(self) -> int:
        """How many of the person's votes on answers were deleted."""
        return self.count(AnswerFeedbackRow.__tablename__)

    @property
    def anything(self) -> bool:
        return any(count > 0 for count in self.rows.values())

    def count(self, table: str) -> int:
        return self.rows.get(table, 0)


@dataclass(frozen=True, slots=True)
class LinkedAccount:
    user_id: int
    token: SecretStr = field(repr=False)
    status: AccountStatus
    note: str | None
    linked_at: datetime
    updated_at: datetime
    # Signed in with Magisterium: the refresh token and when the token expires (else None).
    refresh_token: SecretStr | None = field(default=None, repr=False)
    expires_at: datetime | None = None


class TokenRegistry(AccountRows[LinkedAccount]):
    """Link, read and unlink users' tokens. ``cipher`` is None when TOKEN_ENCRYPTION_KEY is
    unset: the registry then stores nothing, and ``check_startup`` fails if tokens exist.

    With a ``cache``, :meth:`get` serves accounts from memory while they are current, and every
    change made through the registry invalidates them (here and, through Redis, elsewhere)."""

    _row = Row
    _owner = "discord_user_id"
    _access = Purpose.ACCESS_TOKEN
    _refresh = Purpose.REFRESH_TOKEN

    def _register_deleters(self, user_data: UserDataDeleters) -> None:
        user_data.register(Row.__tablename__, rows_of_user(Row))
        # A sign-in in progress is about the person too: unlinking ends it.
        user_data.register(OAuthStateRow.__tablename__, rows_of_user(OAuthStateRow))

    async def link(
        self,
        user_id: int,
        token: SecretStr,
        *,
        status: AccountStatus = "valid",
        note: str | None = None,
        refresh_token: SecretStr | None = None,
        expires_at: datetime | None = None,
    ) -> LinkedAccount:
        """Store the user's token (replacing any previous one, refresh token included);
        linked_at restarts now. A refresh token is encrypted exactly like the token."""
        _check_status(status)
        note = _clip(note)
        ciphertext, refresh = self._encrypt(user_id, token, refresh_token)
        now = self._clock()
        insert = dialect_insert(self._db.dialect_name, Row).values(
            discord_user_id=user_id,
            token_ciphertext=ciphertext,
            status=status,
            note=note,
            linked_at=now,
            updated_at=now,
            refresh_ciphertext=refresh,
            expires_at=expires_at,
        )
        replace = {name: insert.excluded[name] for name in _REPLACED_ON_RELINK}
        statement = insert.on_conflict_do_update(index_elements=[Row.discord_user_id], set_=replace)
        try:
            async with self._db.session() as session:
                await session.execute(statement)
        finally:
            await self._changed(user_id)
        log.info("linked a token (%s%s)", status, ", with a refresh token" if refresh else "")
        return LinkedAccount(user_id, token, status, note, now, now, refresh_token, expires_at)

    async def get(self, user_id: int, *, fresh: bool = False) -> LinkedAccount | None:
        """The user's account; ``fresh``: from the database, and the cache forgets what it held
        (the caller suspects it changed: a refused token, a refresh)."""
        return await super().get(user_id, fresh=fresh)

    def forget(self, user_id: int) -> None:
        """Magisterium refused the user's token: read it from the database next time."""
        if self._cache is not None:
            self._cache.forget(user_id)

    async def _read(self, user_id: int) -> LinkedAccount | None:
        row = await self._db.first(_ACCOUNT_COLUMNS.where(Row.discord_user_id == user_id))
        if row is None:
            return None
        token, refresh = self._decrypt(user_id, row)
        return LinkedAccount(
            user_id=user_id,
            token=token,
            status=cast(AccountStatus, row.status),
            note=row.note,
            linked_at=row.linked_at,
            updated_at=row.updated_at,
            refresh_token=refresh,
            expires_at=row.expires_at,
        )

    async def statuses(self, user_ids: Iterable[int]) -> dict[int, AccountStatus]:
        """The status of each user's token, in one query; users without a token are absent."""
        wanted = set(user_ids)
        if not wanted:
            return {}
        statement = select(Row.discord_user_id, Row.status).where(Row.discord_user_id.in_(wanted))
        async with self._db.session() as session:
            rows = (await session.execute(statement)).all()
        return {user_id: cast(AccountStatus, status) for user_id, status in rows}

    async def set_status(
        self, user_id: int, status: AccountStatus, note: str | None = None
    ) -> bool:
        """Record what the upstream said about the token; False when the user has none."""
        _check_status(status)
        statement = (
            update(Row)
            .where(Row.discord_user_id == user_id)
            .values(status=status, note=_clip(note), updated_at=self._clock())
        )
        return await self._update(user_id, statement)

    async def mark_invalid(self, user_id: int, note: str | None = None) -> bool:
        return await self.set_status(user_id, "invalid", note)

    async def unlink(self, user_id: int) -> bool:
        """Delete the token and everything else stored about the user, in one transaction.
        True when a token was linked."""
        return (await self.delete_everything(user_id)).token

    async def delete_everything(self, user_id: int) -> Forgotten:
        """Delete the token and everything else stored about the user, in one transaction;
        what was deleted."""
        try:
            deleted = await self._db.delete_user_data(user_id)
        finally:
            await self._changed(user_id)
        return Forgotten(deleted)

    async def count(self) -> int:
        async with self._db.session() as session:
            return (await session.execute(select(func.count()).select_from(Row))).scalar_one()

    async def check_startup(self) -> int:
        """Fail early with an operator-readable error when stored tokens cannot be read;
        returns how many tokens are stored."""
        async with self._db.session() as session:
            total = (await session.execute(select(func.count()).select_from(Row))).scalar_one()
            sample = (
                await session.execute(
                    select(Row.discord_user_id, Row.token_ciphertext)
                    .order_by(Row.updated_at.desc())
                    .limit(_STARTUP_SAMPLE)
                )
            ).all()
        if total == 0:
            return 0
        if self._cipher is None:
            raise StoredTokensNeedTheirKey(f"{_tokens(total)} stored but {SETTING_NAME} is not set")
        readable = sum(
            _decrypts(self._cipher, user_id, ciphertext) for user_id, ciphertext in sample
        )
        if readable == 0:
            raise WrongEncryptionKey(
                f"{SETTING_NAME} decrypts none of the {len(sample)} stored tokens checked "
                f"({_tokens(total)} stored). Was the key replaced? List the new key first and "
                "the old one after it, comma-separated, then run `python -m bot rotate-keys`."
            )
        if readable < len(sample):
            log.warning(
                "%d of %d stored tokens checked cannot be decrypted with %s",
                len(sample) - readable,
                len(sample),
                SETTING_NAME,
            )
        log.info("%s stored; encryption key checked", _tokens(total))
        return total


def _check_status(status: str) -> None:
    if status not in ACCOUNT_STATUSES:
        raise ValueError(f"unknown account status {status!r}")


def _clip(note: str | None) -> str | None:
    return None if note is None else note[:NOTE_MAX_LENGTH]


def _decrypts(cipher: TokenCipher, user_id: int, ciphertext: str) -> bool:
    try:
        cipher.decrypt(user_id, ciphertext, Purpose.ACCESS_TOKEN)
    except TokenBindingError:
        return True  # the key fits; this one row was copied from another user
    except TokenDecryptionError:
        return False
    return True


def _tokens(count: int) -> str:
    return f"{count} token is" if count == 1 else f"{count} tokens are"

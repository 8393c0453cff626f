"""One-time sign-in states: bound to one Discord user, good for ten minutes, started once by
one browser, finished once, by that browser only: a callback in any other browser uses the
state up. A state ``/server link`` made is bound to that
server too (``guild_id``): it links that server's account, never the person's, and a person's
state never links a server's.

Only a hash of the state is stored (it travels in URLs), with the PKCE verifier encrypted like
a token and the hash of the starting browser's cookie (bot.oauth.binding). Starting and taking
a state are each one conditional UPDATE, so two browsers or two callbacks racing with the same
state cannot both succeed, in one process or several.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pydantic import SecretStr
from sqlalchemy import ColumnElement, delete, update

from bot.accounts.crypto import Purpose, TokenCipher
from bot.accounts.errors import TokenDecryptionError
from bot.accounts.wall_clock import Clock, utcnow
from bot.oauth.binding import browser_hash, same_browser
from bot.oauth.config import STATE_LIFETIME_SECONDS
from bot.oauth.errors import OAuthUnavailable, StateProblem
from bot.storage import Database
from bot.storage.models import OAuthStateRow

Row = OAuthStateRow
VERIFIER_BYTES = 48  # 64 URL-safe characters (RFC 7636: 43 to 128)
KEPT_AFTER_EXPIRY = timedelta(days=1)  # long enough to tell "expired" from "unknown"


def state_hash(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


@dataclass(frozen=True)
class SignInState:
    user_id: int
    locale: str
    verifier: SecretStr = field(repr=False)
    discord_name: str | None
    expires_at: datetime
    started: bool
    guild_id: int | None = None  # a server's sign-in (/server link): the server it links
    guild_name: str | None = None  # what its start page names it


@dataclass(frozen=True)
class SignInFor:
    """Whose sign-in a state is, whatever its condition: for the pages that say what went
    wrong (in the person's language, naming the command that starts again)."""

    locale: str
    for_server: bool


def _same_scope(user_id: int, guild_id: int | None) -> ColumnElement[bool]:
    """The person's states of one kind: theirs for themselves, or theirs for one server."""
    scope = Row.guild_id.is_(None) if guild_id is None else Row.guild_id == guild_id
    return (Row.discord_user_id == user_id) & scope


class StateStore:
    def __init__(self, db: Database, cipher: TokenCipher, *, clock: Clock = utcnow) -> None:
        self._db = db
        self._cipher = cipher
        self._clock = clock

    async def create(
        self,
        user_id: int,
        locale: str,
        discord_name: str | None = None,
        *,
        guild_id: int | None = None,
        guild_name: str | None = None,
    ) -> str:
        """A new state for ``user_id`` (and a PKCE verifier kept with it); the state. It
        replaces the person's other states of the same kind (for themselves, or for that
        server): only the newest link works. ``guild_id``: a sign-in for that server."""
        state = secrets.token_urlsafe(32)
        verifier = SecretStr(secrets.token_urlsafe(VERIFIER_BYTES))
        now = self._clock()
        row = Row(
            state_hash=state_hash(state),
            discord_user_id=user_id,
            discord_name=discord_name,
            verifier_ciphertext=self._cipher.encrypt(user_id, verifier, Purpose.PKCE_VERIFIER),
            locale=locale,
            created_at=now,
            expires_at=now + timedelta(seconds=STATE_LIFETIME_SECONDS),
            guild_id=guild_id,
            guild_name=guild_name,
        )
        async with self._db.session() as session:
            await session.execute(delete(Row).where(_same_scope(user_id, guild_id)))
            session.add(row)
            await session.execute(delete(Row).where(Row.expires_at < now - KEPT_AFTER_EXPIRY))
        return state

    async def peek(self, state: str) -> SignInState:
        """The state's details, leaving it as it is. Raises :class:`StateProblem` unless it is
        usable (it may be started already: see ``started``)."""
        return self._usable(await self._row(state))

    async def startable(self, state: str) -> SignInState:
        """The state's details if a browser may still start it: not started, and with the
        Discord name its page shows (states made before that name was kept have none)."""
        found = await self.peek(state)
        if found.started:
            raise StateProblem("replayed")
        if not found.discord_name:
            raise StateProblem("unknown")
        return found

    async def start(self, state: str, browser_secret: SecretStr) -> SignInState:
        """Start the sign-in in the browser holding ``browser_secret``: once only."""
        found = await self.startable(state)
        now = self._clock()
        statement = (
            update(Row)
            .where(
                Row.state_hash == state_hash(state),
                Row.started_at.is_(None),
                Row.used_at.is_(None),
                Row.expires_at > now,
            )
            .values(started_at=now, browser_hash=browser_hash(browser_secret))
        )
        async with self._db.session() as session:
            result = await session.execute(statement)
        if getattr(result, "rowcount", 0) != 1:
            raise StateProblem("replayed")  # another browser started it a moment ago
        return found

    async def take(self, state: str, browser_secret: SecretStr | None) -> SignInState:
        """Use the state up: the callback, in the browser that started the sign-in. Raises
        :class:`StateProblem` unless it is usable. A callback in another browser uses it up
        too: its code was seen outside the browser it was meant for, so no browser may
        finish that sign-in (the person runs the command again)."""
        row = await self._row(state)
        found = self._usable(row)
        if not same_browser(browser_secret, row.browser_hash):
            await self._use_up(row.state_hash)
            raise StateProblem("other_browser")
        if not await self._use_up(row.state_hash, browser_hash=row.browser_hash):
            raise StateProblem("replayed")  # another callback took it a moment ago
        return found

    async def _use_up(self, hashed: str, *, browser_hash: str | None = None) -> bool:
        """Mark the state used, unless it is already (or its browser changed meanwhile, when
        ``browser_hash`` is given); whether this call did."""
        condition = [Row.state_hash == hashed, Row.used_at.is_(None)]
        if browser_hash is not None:
            condition.append(Row.browser_hash == browser_hash)
        statement = update(Row).where(*condition).values(used_at=self._clock())
        async with self._db.session() as session:
            result = await session.execute(statement)
        return getattr(result, "rowcount", 0) == 1

    async def end_others(self, user_id: int, state: str, guild_id: int | None = None) -> None:
        """Delete ``user_id``'s states of the same kind but ``state``: after a sign-in, no other
        link works (one made by another process at the very moment of a new link, say)."""
        async with self._db.session() as session:
            await session.execute(
                delete(Row).where(
                    _same_scope(user_id, guild_id), Row.state_hash != state_hash(state)
                )
            )

    async def locale_of(self, state: str) -> str | None:
        """The language of the person a state belongs to, whatever its condition."""
        async with self._db.session() as session:
            row = await session.get(Row, state_hash(state))
        return None if row is None else row.locale

    async def whose(self, state: str) -> SignInFor | None:
        """The language of the person a state belongs to and whether it is a server's."""
        async with self._db.session() as session:
            row = await session.get(Row, state_hash(state))
        return None if row is None else SignInFor(row.locale, row.guild_id is not None)

    async def _row(self, state: str) -> Row:
        async with self._db.session() as session:
            row = await session.get(Row, state_hash(state))
        if row is None:
            raise StateProblem("unknown")
        return row

    def _usable(self, row: Row) -> SignInState:
        if row.used_at is not None:
            raise StateProblem("replayed")
        if self._clock() >= row.expires_at:
            raise StateProblem("expired")
        try:
            verifier = self._cipher.decrypt(
                row.discord_user_id, row.verifier_ciphertext, Purpose.PKCE_VERIFIER
            )
        except TokenDecryptionError:
            # The key that encrypted it was dropped (TOKEN_ENCRYPTION_KEY changed without
            # rotate-keys): this sign-in cannot finish; the person starts a new one.
            raise OAuthUnavailable("a sign-in's stored verifier cannot be decrypted") from None
        return SignInState(
            row.discord_user_id,
            row.locale,
            verifier,
            discord_name=row.discord_name,
            expires_at=row.expires_at,
            started=row.started_at is not None,
            guild_id=row.guild_id,
            guild_name=row.guild_name,
        )

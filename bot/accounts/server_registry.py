"""``ServerRegistry``: a server's own Magisterium account, linked by one of its admins.

The token is encrypted for the guild id and :data:`Purpose.SERVER_ACCESS_TOKEN`, so a row copied
to another server (or into a person's row) decrypts for nobody. The account belongs to the
server: ``/server unlink`` and the bot's removal delete it with its usage rows. The admin who
linked it is a person, though: when they delete their data (``/account unlink``) their id is
cleared from the row and the account keeps serving the server.

Signed in with Magisterium (``/server link`` with sign-in configured), the account also keeps
its refresh token (encrypted for the guild and :data:`Purpose.SERVER_REFRESH_TOKEN`) and when the
token expires. With a ``cache`` (:class:`ServerAccountCache`), :meth:`ServerRegistry.get` serves
accounts from memory while they are current: every change made here drops this process's entry
at once and bumps the guild's version in Redis for the others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from pydantic import SecretStr
from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.accounts._rows import AccountRows
from bot.accounts.crypto import Purpose
from bot.accounts.registry import NOTE_MAX_LENGTH, AccountStatus
from bot.storage import ServerAccountRow, ServerTokenUsageRow
from bot.storage.deletion import UserDataDeleters
from bot.storage.housekeeping import rowcount
from bot.storage.models import OAuthStateRow
from bot.storage.upsert import dialect_insert

log = logging.getLogger(__name__)

Row = ServerAccountRow
DEFAULT_PER_HOUR = 20
DEFAULT_QA_PER_HOUR = 5
# A member's hourly allowance, at most: the token's own limits are 15 and 2 a minute.
MAX_PER_HOUR = 900
MAX_QA_PER_HOUR = 120

# A relink replaces the token and who linked it; the allowances the admins set stay.
_REPLACED_ON_RELINK = (
    "token_ciphertext",
    "status",
    "note",
    "discord_user_id",
    "linked_at",
    "updated_at",
    "refresh_ciphertext",
    "expires_at",
)
_ACCOUNT_COLUMNS = select(
    Row.token_ciphertext,
    Row.refresh_ciphertext,
    Row.expires_at,
    Row.status,
    Row.note,
    Row.discord_user_id,
    Row.linked_at,
    Row.updated_at,
    Row.per_hour,
    Row.qa_per_hour,
)


@dataclass(frozen=True, slots=True)
class Allowance:
    """Each member's requests an hour on the server's account; 0 turns a kind off."""

    per_hour: int
    qa_per_hour: int

    def __post_init__(self) -> None:
        if not 0 <= self.per_hour <= MAX_PER_HOUR or not 0 <= self.qa_per_hour <= MAX_QA_PER_HOUR:
            raise ValueError(f"allowance out of range: {self.per_hour}, {self.qa_per_hour}")


DEFAULT_ALLOWANCE = Allowance(DEFAULT_PER_HOUR, DEFAULT_QA_PER_HOUR)


@dataclass(frozen=True, slots=True)
class ServerAccount:
    guild_id: int
    token: SecretStr = field(repr=False)
    status: AccountStatus
    note: str | None
    linked_by: int | None  # the admin who linked it; None once they deleted their data
    linked_at: datetime
    updated_at: datetime
    allowance: Allowance
    # Signed in with Magisterium: the refresh token and when the token expires (else None).
    refresh_token: SecretStr | None = field(default=None, repr=False)
    expires_at: datetime | None = None


class ServerRegistry(AccountRows[ServerAccount]):
    """Link, read and unlink servers' tokens. ``cipher`` is None when TOKEN_ENCRYPTION_KEY is
    unset: nothing can be linked then."""

    _row = Row
    _owner = "guild_id"
    _access = Purpose.SERVER_ACCESS_TOKEN
    _refresh = Purpose.SERVER_REFRESH_TOKEN

    def _register_deleters(self, user_data: UserDataDeleters) -> None:
        user_data.register(Row.__tablename__, _forget_linking_admin)

    async def link(
        self,
        guild_id: int,
        admin_id: int,
        token: SecretStr,
        *,
        status: AccountStatus = "valid",
        note: str | None = None,
        refresh_token: SecretStr | None = None,
        expires_at: datetime | None = None,
    ) -> ServerAccount:
        """Store the server's token (replacing any previous one, refresh token included; the
        allowances are kept, or the defaults for a first link); linked_at restarts now."""
        ciphertext, refresh = self._encrypt(guild_id, token, refresh_token)
        now = self._clock()
        note = None if note is None else note[:NOTE_MAX_LENGTH]
        insert = dialect_insert(self._db.dialect_name, Row).values(
            guild_id=guild_id,
            token_ciphertext=ciphertext,
            status=status,
            note=note,
            discord_user_id=admin_id,
            linked_at=now,
            updated_at=now,
            per_hour=DEFAULT_ALLOWANCE.per_hour,
            qa_per_hour=DEFAULT_ALLOWANCE.qa_per_hour,
            refresh_ciphertext=refresh,
            expires_at=expires_at,
        )
        replace = {name: insert.excluded[name] for name in _REPLACED_ON_RELINK}
        statement = insert.on_conflict_do_update(
            index_elements=[Row.guild_id], set_=replace
        ).returning(Row.per_hour, Row.qa_per_hour)
        try:
            async with self._db.session() as session:
                per_hour, qa_per_hour = (await session.execute(statement)).one()
        finally:
            await self._changed(guild_id)
        allowance = Allowance(per_hour, qa_per_hour)
        log.info("linked a server's token (%s%s)", status, ", signed in" if refresh else "")
        return ServerAccount(
            guild_id, token, status, note, admin_id, now, now, allowance, refresh_token, expires_at
        )

    async def get(self, guild_id: int, *, fresh: bool = False) -> ServerAccount | None:
        """The server's account; ``fresh``: from the database, and the cache forgets what it
        held (the caller suspects it changed, or shows it to an admin)."""
        return await super().get(guild_id, fresh=fresh)

    async def set_allowance(self, guild_id: int, allowance: Allowance) -> bool:
        """Each member's hourly allowance; False when the server has no account linked."""
        statement = (
            update(Row)
            .where(Row.guild_id == guild_id)
            .values(
                per_hour=allowance.per_hour,
                qa_per_hour=allowance.qa_per_hour,
                updated_at=self._clock(),
            )
        )
        return await self._update(guild_id, statement)

    async def mark_invalid(self, guild_id: int, token: SecretStr, note: str | None = None) -> bool:
        """Magisterium refused ``token`` (or would not refresh it): mark the server's account
        for relinking, unless an admin linked another token meanwhile."""
        account = await self.get(guild_id, fresh=True)
        if account is None or account.token.get_secret_value() != token.get_secret_value():
            return False
        statement = (
            update(Row)
            .where(Row.guild_id == guild_id, Row.updated_at == account.updated_at)
            .values(status="invalid", note=note, updated_at=self._clock())
        )
        return await self._update(guild_id, statement)

    async def unlink(self, guild_id: int) -> bool:
        """Delete the server's account, every usage row of it and any sign-in for it still in
        progress, in one transaction. True when an account was linked."""
        states = delete(OAuthStateRow).where(OAuthStateRow.guild_id == guild_id)
        try:
            async with self._db.session() as session:
                await session.execute(
                    delete(ServerTokenUsageRow).where(ServerTokenUsageRow.guild_id == guild_id)
                )
                await session.execute(states)
                deleted = await session.execute(delete(Row).where(Row.guild_id == guild_id))
        finally:
            await self._changed(guild_id)
        return rowcount(deleted) > 0

    async def _read(self, guild_id: int) -> ServerAccount | None:
        row = await self._db.first(_ACCOUNT_COLUMNS.where(Row.guild_id == guild_id))
        if row is None:
            return None
        token, refresh = self._decrypt(guild_id, row)
        return ServerAccount(
            guild_id=guild_id,
            token=token,
            status=cast(AccountStatus, row.status),
            note=row.note,
            linked_by=row.discord_user_id,
            linked_at=row.linked_at,
            updated_at=row.updated_at,
            allowance=Allowance(row.per_hour, row.qa_per_hour),
            refresh_token=refresh,
            expires_at=row.expires_at,
        )


async def _forget_linking_admin(session: AsyncSession, user_id: int) -> int:
    """The user-data deleter: the servers' accounts this admin linked stay, without their id."""
    result = await session.execute(
        update(Row).where(Row.discord_user_id == user_id).values(discord_user_id=None)
    )
    return rowcount(result)

"""What a server's admins chose for how the bot is asked there: ``/server mentions`` (whether a
message that mentions the bot is a question). A server with no row has the defaults (mentions
on); removing the bot from the server deletes its row.

Read on every mention in a server, so the read is one primary-key SELECT without an ORM session.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select

from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database
from bot.storage.housekeeping import rowcount
from bot.storage.models import ServerSettingsRow as Row
from bot.storage.upsert import dialect_insert

MENTIONS_BY_DEFAULT = True


@dataclass(frozen=True)
class ServerSettings:
    mentions_enabled: bool = MENTIONS_BY_DEFAULT


DEFAULTS = ServerSettings()


class ServerSettingsStore:
    def __init__(self, db: Database, *, clock: Clock = utcnow) -> None:
        self._db = db
        self.clock = clock

    async def get(self, guild_id: int) -> ServerSettings:
        """The server's settings; the defaults when it set none. ``StorageUnavailable`` when
        the database cannot be read: the caller decides (a mention is then left unanswered,
        since the admins may have turned mentions off)."""
        query = select(Row.mentions_enabled).where(Row.guild_id == guild_id)
        row = await self._db.first(query)
        return DEFAULTS if row is None else ServerSettings(mentions_enabled=bool(row[0]))

    async def mentions_enabled(self, guild_id: int) -> bool:
        return (await self.get(guild_id)).mentions_enabled

    async def set_mentions(self, guild_id: int, enabled: bool) -> None:
        """Turn mentions on or off for the server (``/server mentions``)."""
        now = self.clock()
        insert = dialect_insert(self._db.dialect_name, Row).values(
            guild_id=guild_id, mentions_enabled=enabled, updated_at=now
        )
        async with self._db.session() as session:
            await session.execute(
                insert.on_conflict_do_update(
                    index_elements=[Row.guild_id],
                    set_={"mentions_enabled": enabled, "updated_at": now},
                )
            )

    async def forget_server(self, guild_id: int) -> bool:
        """Delete the server's settings (the bot was removed); True when it had any."""
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.guild_id == guild_id))
        return bool(rowcount(result))

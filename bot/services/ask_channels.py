"""Ask channels: the channels where every new message (a text channel) or post (a forum) is a
question without a mention (``/server askchannel``; needs the Message Content intent).

Every message of every server the bot sees asks "is this an ask channel?", so the answer comes
from memory: the rows are read once per process, at the first question, and this process's own
``/server askchannel`` changes update them. That is enough with several processes too: a
server's commands and its messages arrive on the same shard, so on the same process. A server
has at most :data:`MAX_PER_SERVER`; removing the bot from a server, or deleting the channel,
deletes its rows.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import delete, func, select

from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database, StorageUnavailable
from bot.storage.housekeeping import rowcount
from bot.storage.models import AskChannelRow as Row
from bot.storage.upsert import dialect_insert

log = logging.getLogger(__name__)

MAX_PER_SERVER = 10
RELOAD_AFTER_FAILURE = 30.0  # seconds before a failed first read is tried again


class AskChannelKind(StrEnum):
    TEXT = "text"  # each new message starts a thread on it
    FORUM = "forum"  # each new post is a thread already


@dataclass(frozen=True)
class AskChannel:
    channel_id: int
    guild_id: int
    kind: AskChannelKind


class TooManyAskChannels(Exception):
    """The server already has :data:`MAX_PER_SERVER` ask channels."""


class AskChannelStore:
    def __init__(self, db: Database, *, clock: Clock = utcnow) -> None:
        self._db = db
        self.clock = clock
        self._known: dict[int, AskChannel] | None = None
        self._loading = asyncio.Lock()
        self._retry_at = 0.0

    async def find(self, channel_id: int) -> AskChannel | None:
        """The ask channel ``channel_id`` is, if it is one. None, too, while the database
        cannot be read (logged once per try, retried after :data:`RELOAD_AFTER_FAILURE`)."""
        known = self._known if self._known is not None else await self._load()
        return None if known is None else known.get(channel_id)

    async def of_server(self, guild_id: int) -> list[AskChannel]:
        """The server's ask channels, read from the database (an admin's view: never stale)."""
        query = select(Row.channel_id, Row.kind).where(Row.guild_id == guild_id)
        async with self._db.session() as session:
            rows = (await session.execute(query.order_by(Row.channel_id))).all()
        return [AskChannel(int(cid), guild_id, AskChannelKind(kind)) for cid, kind in rows]

    async def set(self, guild_id: int, channel_id: int, kind: AskChannelKind) -> bool:
        """Make ``channel_id`` an ask channel; False when it already was one (of that kind).
        :class:`TooManyAskChannels` when the server has :data:`MAX_PER_SERVER` others."""
        now = self.clock()
        async with self._db.session() as session:
            existing = await session.scalar(select(Row.kind).where(Row.channel_id == channel_id))
            if existing is None:
                count = await session.scalar(
                    select(func.count()).select_from(Row).where(Row.guild_id == guild_id)
                )
                if (count or 0) >= MAX_PER_SERVER:
                    raise TooManyAskChannels
            values = {"guild_id": guild_id, "kind": kind.value, "updated_at": now}
            insert = dialect_insert(self._db.dialect_name, Row).values(
                channel_id=channel_id, **values
            )
            await session.execute(
                insert.on_conflict_do_update(index_elements=[Row.channel_id], set_=values)
            )
        if self._known is not None:
            self._known[channel_id] = AskChannel(channel_id, guild_id, kind)
        return existing != kind.value

    async def off(self, guild_id: int, channel_id: int) -> bool:
        """Stop ``channel_id`` being an ask channel; False when it was not one."""
        async with self._db.session() as session:
            result = await session.execute(
                delete(Row).where(Row.guild_id == guild_id, Row.channel_id == channel_id)
            )
        self._drop(lambda known: (known.guild_id, known.channel_id) == (guild_id, channel_id))
        return bool(rowcount(result))

    async def forget_channel(self, channel_id: int) -> bool:
        """The channel was deleted; True when it was an ask channel. Discord reports every
        channel deleted in every server: one the store knows is no ask channel costs nothing."""
        known = self._known if self._known is not None else await self._load()
        if known is not None and channel_id not in known:
            return False
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.channel_id == channel_id))
        self._drop(lambda channel: channel.channel_id == channel_id)
        return bool(rowcount(result))

    async def forget_server(self, guild_id: int) -> int:
        """Delete every ask channel of the server (the bot was removed); how many went."""
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.guild_id == guild_id))
        self._drop(lambda channel: channel.guild_id == guild_id)
        return rowcount(result)

    def _drop(self, matches: Callable[[AskChannel], bool]) -> None:
        if self._known is None:
            return
        for channel_id in [cid for cid, channel in self._known.items() if matches(channel)]:
            del self._known[channel_id]

    async def _load(self) -> dict[int, AskChannel] | None:
        async with self._loading:
            if self._known is not None:
                return self._known
            now = asyncio.get_running_loop().time()
            if now < self._retry_at:
                return None
            query = select(Row.channel_id, Row.guild_id, Row.kind)
            try:
                async with self._db.session() as session:
                    rows = (await session.execute(query)).all()
            except StorageUnavailable as error:
                self._retry_at = now + RELOAD_AFTER_FAILURE
                log.warning("ask channels unread (messages there go unanswered): %s", error)
                return None
            self._known = {
                int(cid): AskChannel(int(cid), int(gid), AskChannelKind(kind))
                for cid, gid, kind in rows
            }
            return self._known

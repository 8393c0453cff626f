"""Which Magisterium conversation a message of the bot's, or a thread it made, continues.

A public answer (a mention's reply, a public ``/ask``, a related question, "New conversation",
a private answer posted with "Share in channel") is recorded under its message id; a thread
the bot made for a related question under the thread's id. A reply to that message, or a
mention in that thread, then asks in the same ``contextId``, whoever writes it. A thread
started on a message has the message's id in Discord, so a thread on a recorded answer
continues that answer too.

A row holds the message or thread id, the server, the contextId and the task id: no one's
identity, no text. It lives as long as Magisterium keeps the task (:data:`RETENTION`, 24 h
from the answer; a new answer in the same thread moves it on). An expired row is never used,
and is deleted: the first record a process writes, and then at most one an hour
(:data:`bot.storage.housekeeping.PURGE_EVERY`), deletes every expired row.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import delete, select

from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database
from bot.storage.housekeeping import OccasionalPurge, rowcount
from bot.storage.models import AnswerConversationRow as Row
from bot.storage.upsert import dialect_insert

log = logging.getLogger(__name__)

# Magisterium keeps a task, and so its conversation, 24 hours.
RETENTION = timedelta(hours=24)
ID_LENGTH = 128  # the columns' width: a longer contextId is not recorded (nothing to continue)


class Kind(StrEnum):
    MESSAGE = "message"  # one of the bot's answers
    THREAD = "thread"  # a thread the bot made for a conversation


@dataclass(frozen=True)
class Conversation:
    """The conversation a message or thread continues, until ``expires_at``."""

    context_id: str
    task_id: str | None
    kind: Kind
    expires_at: datetime


class AnswerConversationStore:
    def __init__(
        self, db: Database, *, clock: Clock = utcnow, retention: timedelta = RETENTION
    ) -> None:
        self._db = db
        self.clock = clock
        self.retention = retention
        self._purges = OccasionalPurge(self.purge, rows="expired answer conversations")

    async def remember(
        self,
        message_id: int,
        *,
        kind: Kind,
        guild_id: int | None,
        context_id: str,
        task_id: str | None,
    ) -> bool:
        """Record that ``message_id`` (a message, or a thread) continues ``context_id`` for
        the next :attr:`retention`; recording it again replaces it. False when the ids do not
        fit the columns (nothing recorded)."""
        if not context_id or len(context_id) > ID_LENGTH:
            return False
        if task_id is not None and len(task_id) > ID_LENGTH:
            task_id = None
        now = self.clock()
        values = {
            "kind": kind.value,
            "guild_id": guild_id,
            "context_id": context_id,
            "task_id": task_id,
            "expires_at": now + self.retention,
        }
        insert = dialect_insert(self._db.dialect_name, Row).values(message_id=message_id, **values)
        async with self._db.session() as session:
            await session.execute(
                insert.on_conflict_do_update(index_elements=[Row.message_id], set_=values)
            )
        await self._purges.after_write(now)
        return True

    async def find(self, message_id: int) -> Conversation | None:
        """The conversation ``message_id`` (a message or a thread) continues; None when it
        continues none, or no longer (expired)."""
        query = select(Row.context_id, Row.task_id, Row.kind, Row.expires_at).where(
            Row.message_id == message_id, Row.expires_at > self.clock()
        )
        row = await self._db.first(query)
        if row is None:
            return None
        context_id, task_id, kind, expires_at = row
        return Conversation(context_id, task_id, Kind(kind), expires_at)

    async def forget_server(self, guild_id: int) -> int:
        """Delete every row of the server (the bot was removed); how many went."""
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.guild_id == guild_id))
        return rowcount(result)

    async def purge(self, now: datetime | None = None) -> int:
        """Delete every expired row; how many went."""
        cutoff = now or self.clock()
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.expires_at <= cutoff))
        return rowcount(result)

"""Where each person's DM conversation stands: the contextId it continues, kept across restarts."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import delete, select

from bot.storage import Database, rows_of_user
from bot.storage.models import DMConversationRow as Row


class ConversationStore:
    def __init__(self, db: Database) -> None:
        self._db = db
        db.user_data.register(Row.__tablename__, rows_of_user(Row))

    async def context_of(self, user_id: int) -> str | None:
        async with self._db.session() as session:
            return await session.scalar(
                select(Row.context_id).where(Row.discord_user_id == user_id)
            )

    async def remember(self, user_id: int, context_id: str) -> None:
        async with self._db.session() as session:
            row = await session.get(Row, user_id)
            now = datetime.now(UTC)
            if row is None:
                session.add(Row(discord_user_id=user_id, context_id=context_id, updated_at=now))
            else:
                row.context_id, row.updated_at = context_id, now

    async def forget(self, user_id: int) -> bool:
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.discord_user_id == user_id))
            return bool(getattr(result, "rowcount", 0))

"""The answer-conversation store on SQLite and PostgreSQL: a message or a thread continues a
contextId for 24 hours, is replaced when recorded again, is never used once expired, and
expired rows are deleted as new ones are recorded (at most once an hour)."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from bot.services.answer_conversations import (
    ID_LENGTH,
    RETENTION,
    AnswerConversationStore,
    Conversation,
    Kind,
)
from bot.storage import Database
from bot.storage.housekeeping import PURGE_EVERY
from bot.storage.models import AnswerConversationRow
from tests.support.fakes import FakeWallClock

T0 = dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)
PARISH, ABBEY = 900, 901
ANSWER, THREAD, OTHER = 1_300_000_000_000_000_001, 1_300_000_000_000_000_002, 77


@pytest.fixture
def clock() -> FakeWallClock:
    return FakeWallClock(T0)


@pytest.fixture
def store(database: Database, clock: FakeWallClock) -> AnswerConversationStore:
    return AnswerConversationStore(database, clock=clock)


async def count(database: Database) -> int:
    async with database.session() as session:
        found = await session.scalar(select(func.count()).select_from(AnswerConversationRow))
        return int(found or 0)


def test_retention_is_the_24_hours_magisterium_keeps_a_task() -> None:
    assert dt.timedelta(hours=24) == RETENTION


async def test_an_answer_continues_its_conversation_for_24_hours(
    store: AnswerConversationStore, clock: FakeWallClock
) -> None:
    assert await store.remember(
        ANSWER, kind=Kind.MESSAGE, guild_id=PARISH, context_id="ctx-1", task_id="task-1"
    )
    expected = Conversation("ctx-1", "task-1", Kind.MESSAGE, T0 + RETENTION)
    assert await store.find(ANSWER) == expected
    assert await store.find(OTHER) is None
    clock.advance(hours=23, minutes=59)
    assert await store.find(ANSWER) == expected
    clock.advance(minutes=1)
    assert await store.find(ANSWER) is None  # expired: never used


async def test_recording_again_replaces_and_moves_the_expiry_on(
    store: AnswerConversationStore, clock: FakeWallClock
) -> None:
    await store.remember(THREAD, kind=Kind.THREAD, guild_id=None, context_id="a", task_id="t1")
    clock.advance(hours=20)
    await store.remember(THREAD, kind=Kind.THREAD, guild_id=None, context_id="a", task_id="t2")
    clock.advance(hours=10)
    found = await store.find(THREAD)
    assert found == Conversation("a", "t2", Kind.THREAD, T0 + dt.timedelta(hours=20) + RETENTION)


async def test_a_thread_started_on_an_answer_takes_over_its_row(
    store: AnswerConversationStore,
) -> None:
    """Discord gives a thread started on a message that message's id."""
    await store.remember(ANSWER, kind=Kind.MESSAGE, guild_id=PARISH, context_id="c", task_id="1")
    await store.remember(ANSWER, kind=Kind.THREAD, guild_id=PARISH, context_id="c", task_id="2")
    found = await store.find(ANSWER)
    assert found is not None and (found.kind, found.task_id) == (Kind.THREAD, "2")


async def test_ids_that_do_not_fit_are_not_recorded(
    store: AnswerConversationStore, database: Database
) -> None:
    long_id = "c" * (ID_LENGTH + 1)
    assert not await store.remember(
        ANSWER, kind=Kind.MESSAGE, guild_id=None, context_id=long_id, task_id=None
    )
    assert not await store.remember(
        ANSWER, kind=Kind.MESSAGE, guild_id=None, context_id="", task_id=None
    )
    assert await count(database) == 0
    assert await store.remember(
        ANSWER, kind=Kind.MESSAGE, guild_id=None, context_id="ok", task_id="t" * (ID_LENGTH + 1)
    )
    found = await store.find(ANSWER)
    assert found is not None and found.task_id is None  # the conversation still continues


async def test_expired_rows_are_deleted_as_new_ones_are_recorded_at_most_hourly(
    store: AnswerConversationStore, database: Database, clock: FakeWallClock
) -> None:
    async def record(message_id: int) -> None:
        await store.remember(
            message_id, kind=Kind.MESSAGE, guild_id=PARISH, context_id="c", task_id=None
        )

    await record(1)  # T0, and the process's first purge
    clock.advance(minutes=30)
    await record(2)  # expires at T0 + 24 h 30
    clock.now = T0 + RETENTION + dt.timedelta(minutes=10)
    await record(3)  # a purge: row 1 expired
    assert await count(database) == 2 and await store.find(1) is None
    clock.now = T0 + RETENTION + dt.timedelta(minutes=40)
    await record(4)  # row 2 expired, but the last purge was 30 minutes ago
    assert await count(database) == 3 and await store.find(2) is None
    clock.now += PURGE_EVERY - dt.timedelta(minutes=29)
    await record(5)
    assert await count(database) == 3  # rows 3, 4 and 5
    assert await store.find(3) is not None


async def test_purge_deletes_only_expired_rows(
    store: AnswerConversationStore, clock: FakeWallClock
) -> None:
    await store.remember(1, kind=Kind.MESSAGE, guild_id=None, context_id="c1", task_id=None)
    clock.advance(hours=12)
    await store.remember(2, kind=Kind.THREAD, guild_id=None, context_id="c2", task_id=None)
    assert await store.purge(T0 + dt.timedelta(hours=25)) == 1
    assert await store.purge(T0 + dt.timedelta(hours=25)) == 0
    assert await store.find(2) is not None


async def test_forgetting_a_server_deletes_its_rows_only(
    store: AnswerConversationStore, database: Database
) -> None:
    await store.remember(1, kind=Kind.MESSAGE, guild_id=PARISH, context_id="c", task_id=None)
    await store.remember(2, kind=Kind.THREAD, guild_id=PARISH, context_id="c", task_id=None)
    await store.remember(3, kind=Kind.MESSAGE, guild_id=ABBEY, context_id="d", task_id=None)
    assert await store.forget_server(PARISH) == 2
    assert await count(database) == 1 and await store.find(3) is not None


async def test_a_row_names_no_one(database: Database) -> None:
    columns = {column.name for column in AnswerConversationRow.__table__.columns}
    assert columns == {"message_id", "kind", "guild_id", "context_id", "task_id", "expires_at"}

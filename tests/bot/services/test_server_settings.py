"""The server settings store on SQLite and PostgreSQL: mentions on by default, set, changed,
per server, forgotten with the server."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from bot.services.server_settings import ServerSettings, ServerSettingsStore
from bot.storage import Database
from bot.storage.models import ServerSettingsRow
from tests.support.fakes import FakeWallClock

T0 = dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)
PARISH, ABBEY = 900, 901


@pytest.fixture
def clock() -> FakeWallClock:
    return FakeWallClock(T0)


@pytest.fixture
def store(database: Database, clock: FakeWallClock) -> ServerSettingsStore:
    return ServerSettingsStore(database, clock=clock)


async def test_a_server_that_set_nothing_has_mentions_on(store: ServerSettingsStore) -> None:
    assert await store.get(PARISH) == ServerSettings(mentions_enabled=True)
    assert await store.mentions_enabled(PARISH) is True


async def test_mentions_off_then_on_again_for_one_server_only(
    store: ServerSettingsStore, database: Database, clock: FakeWallClock
) -> None:
    await store.set_mentions(PARISH, False)
    assert await store.mentions_enabled(PARISH) is False
    assert await store.mentions_enabled(ABBEY) is True
    clock.advance(minutes=5)
    await store.set_mentions(PARISH, True)
    assert await store.mentions_enabled(PARISH) is True
    async with database.session() as session:
        rows = (await session.execute(select(ServerSettingsRow))).scalars().all()
    assert [(r.guild_id, r.mentions_enabled, r.updated_at) for r in rows] == [
        (PARISH, True, T0 + dt.timedelta(minutes=5))
    ]


async def test_forgetting_a_server_deletes_its_row_only(store: ServerSettingsStore) -> None:
    await store.set_mentions(PARISH, False)
    await store.set_mentions(ABBEY, False)
    assert await store.forget_server(PARISH) is True
    assert await store.forget_server(PARISH) is False
    assert await store.mentions_enabled(PARISH) is True  # back to the default
    assert await store.mentions_enabled(ABBEY) is False

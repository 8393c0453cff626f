"""The ask channels store on SQLite and PostgreSQL: set, changed, turned off, at most
MAX_PER_SERVER a server, forgotten with the channel or the server; what a message's lookup
reads comes from memory after the first read, and stays right through this process's changes."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.services.ask_channels import (
    MAX_PER_SERVER,
    AskChannel,
    AskChannelKind,
    AskChannelStore,
    TooManyAskChannels,
)
from bot.storage import Database, StorageUnavailable
from tests.support.fakes import FakeWallClock

T0 = dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)
PARISH, ABBEY = 900, 901
TEXT, FORUM = AskChannelKind.TEXT, AskChannelKind.FORUM


@pytest.fixture
def store(database: Database) -> AskChannelStore:
    return AskChannelStore(database, clock=FakeWallClock(T0))


async def test_set_then_found_by_a_message_and_listed_for_its_server(
    store: AskChannelStore,
) -> None:
    assert await store.find(10) is None  # the first read: nothing yet
    assert await store.set(PARISH, 10, TEXT) is True
    assert await store.set(PARISH, 11, FORUM) is True
    assert await store.set(ABBEY, 20, TEXT) is True
    assert await store.find(10) == AskChannel(10, PARISH, TEXT)
    assert await store.find(11) == AskChannel(11, PARISH, FORUM)
    assert [c.channel_id for c in await store.of_server(PARISH)] == [10, 11]
    assert await store.of_server(ABBEY) == [AskChannel(20, ABBEY, TEXT)]


async def test_setting_it_again_changes_nothing_and_says_so(store: AskChannelStore) -> None:
    assert await store.set(PARISH, 10, TEXT) is True
    assert await store.set(PARISH, 10, TEXT) is False
    assert await store.of_server(PARISH) == [AskChannel(10, PARISH, TEXT)]


async def test_off_for_its_own_server_only(store: AskChannelStore) -> None:
    await store.set(PARISH, 10, TEXT)
    await store.find(10)  # loaded into memory
    assert await store.off(ABBEY, 10) is False  # another server cannot turn it off
    assert await store.find(10) is not None
    assert await store.off(PARISH, 10) is True
    assert await store.find(10) is None and await store.of_server(PARISH) == []
    assert await store.off(PARISH, 10) is False


async def test_at_most_max_per_server_and_an_existing_one_can_still_change(
    store: AskChannelStore,
) -> None:
    for channel_id in range(MAX_PER_SERVER):
        await store.set(PARISH, channel_id, TEXT)
    with pytest.raises(TooManyAskChannels):
        await store.set(PARISH, 999, TEXT)
    assert await store.find(999) is None
    assert await store.set(PARISH, 0, FORUM) is True  # a change, not one more
    assert await store.set(ABBEY, 999, TEXT) is True  # another server has its own count


async def test_forgotten_with_the_channel_and_with_the_server(store: AskChannelStore) -> None:
    await store.set(PARISH, 10, TEXT)
    await store.set(PARISH, 11, FORUM)
    await store.set(ABBEY, 20, TEXT)
    await store.find(10)
    assert await store.forget_channel(11) is True
    assert await store.forget_channel(11) is False
    assert await store.find(11) is None
    assert await store.forget_server(PARISH) == 1
    assert await store.find(10) is None and await store.of_server(PARISH) == []
    assert await store.find(20) == AskChannel(20, ABBEY, TEXT)


async def test_a_deleted_channel_that_was_none_costs_no_database_write(
    store: AskChannelStore, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.set(PARISH, 10, TEXT)
    await store.find(10)  # loaded into memory

    def down() -> object:
        raise StorageUnavailable("a database write was attempted")

    monkeypatch.setattr(database, "session", down)
    assert await store.forget_channel(12) is False  # answered from memory
    with pytest.raises(StorageUnavailable):
        await store.forget_channel(10)  # an ask channel: deleted in the database


async def test_a_new_process_reads_what_another_stored(
    store: AskChannelStore, database: Database
) -> None:
    await store.set(PARISH, 10, FORUM)
    restarted = AskChannelStore(database)
    assert await restarted.find(10) == AskChannel(10, PARISH, FORUM)


async def test_an_unreadable_database_answers_none_and_is_read_again_later(
    database: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await AskChannelStore(database).set(PARISH, 10, TEXT)
    store = AskChannelStore(database)
    real_session = database.session

    def down() -> object:
        raise StorageUnavailable("database down")

    monkeypatch.setattr(database, "session", down)
    assert await store.find(10) is None
    assert await store.find(10) is None  # not read again at once: one warning, not one a message
    assert len([r for r in caplog.records if "ask channels unread" in r.getMessage()]) == 1
    monkeypatch.setattr(database, "session", real_session)
    store._retry_at = 0.0
    assert await store.find(10) == AskChannel(10, PARISH, TEXT)

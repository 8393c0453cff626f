"""The timezone store on SQLite and PostgreSQL: the resolution order in one SELECT, the
fallback, per-user deletion and forgetting a server."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import event, select

from bot.daily import Feed, ScheduleStore
from bot.daily.personal_store import PersonalScheduleStore
from bot.services.timezones import TimezoneStore, ZoneSource
from bot.storage import Database
from bot.storage.models import PersonTimezoneRow, ServerTimezoneRow
from tests.support.fakes import FakeWallClock

T0 = dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)
ALICE, BOB = 11, 12
PARISH = 900


@pytest.fixture
def clock() -> FakeWallClock:
    return FakeWallClock(T0)


@pytest.fixture
def store(database: Database, clock: FakeWallClock) -> TimezoneStore:
    return TimezoneStore(database, clock=clock)


async def _mydaily(
    database: Database, user_id: int, feed: Feed, zone: str, at: dt.datetime
) -> None:
    await PersonalScheduleStore(database).save(
        user_id=user_id, feed=feed, post_time=dt.time(7), timezone=zone, locale="en", now=at
    )


async def _daily(database: Database, feed: Feed, zone: str, at: dt.datetime) -> None:
    await ScheduleStore(database).save(
        guild_id=PARISH,
        feed=feed,
        channel_id=1,
        post_time=dt.time(7),
        timezone=zone,
        role_id=None,
        owner_id=BOB,
        token_source="shared",
        now=at,
    )


async def test_nothing_set_is_the_utc_fallback(store: TimezoneStore) -> None:
    for user_id, guild_id in ((ALICE, None), (ALICE, PARISH), (None, PARISH), (None, None)):
        zone = await store.resolve(user_id, guild_id)
        assert (zone.name, zone.source, zone.fallback) == ("UTC", ZoneSource.FALLBACK, True)


async def test_the_order_person_mydaily_server_daily(
    database: Database, store: TimezoneStore, clock: FakeWallClock
) -> None:
    await _daily(database, Feed.SAINTS, "Europe/Warsaw", T0)
    assert (await store.resolve(ALICE, PARISH)).source is ZoneSource.SERVER_DAILY
    await store.set_server(PARISH, "Europe/Rome")
    assert await _named(store, ALICE, PARISH) == ("Europe/Rome", ZoneSource.SERVER)
    await _mydaily(database, ALICE, Feed.SAINTS, "Asia/Manila", T0)
    assert await _named(store, ALICE, PARISH) == ("Asia/Manila", ZoneSource.PERSONAL_DAILY)
    await store.set_person(ALICE, "Asia/Seoul")
    assert await _named(store, ALICE, PARISH) == ("Asia/Seoul", ZoneSource.PERSON)
    # Bob set nothing of his own: the server's; in a DM, nothing applies to him.
    assert await _named(store, BOB, PARISH) == ("Europe/Rome", ZoneSource.SERVER)
    assert await _named(store, BOB, None) == ("UTC", ZoneSource.FALLBACK)
    # In a DM only Alice's own settings apply; the server's alone, without a person.
    assert await _named(store, ALICE, None) == ("Asia/Seoul", ZoneSource.PERSON)
    assert await _named(store, None, PARISH) == ("Europe/Rome", ZoneSource.SERVER)

    await store.set_person(ALICE, None)  # back to automatic
    assert await _named(store, ALICE, PARISH) == ("Asia/Manila", ZoneSource.PERSONAL_DAILY)
    await store.set_server(PARISH, None)
    assert await _named(store, None, PARISH) == ("Europe/Warsaw", ZoneSource.SERVER_DAILY)


async def _named(
    store: TimezoneStore, user_id: int | None, guild_id: int | None
) -> tuple[str, ZoneSource]:
    zone = await store.resolve(user_id, guild_id)
    return zone.name, zone.source


async def test_the_most_recently_set_schedule_wins(
    database: Database, store: TimezoneStore
) -> None:
    await _mydaily(database, ALICE, Feed.SAINTS, "Asia/Tokyo", T0)
    await _mydaily(database, ALICE, Feed.READINGS, "Europe/Paris", T0 + dt.timedelta(hours=1))
    await _daily(database, Feed.READINGS, "Africa/Lagos", T0 + dt.timedelta(hours=1))
    await _daily(database, Feed.SAINTS, "America/Bogota", T0)
    assert await _named(store, ALICE, None) == ("Europe/Paris", ZoneSource.PERSONAL_DAILY)
    assert await _named(store, None, PARISH) == ("Africa/Lagos", ZoneSource.SERVER_DAILY)
    await _mydaily(database, ALICE, Feed.SAINTS, "Asia/Tokyo", T0 + dt.timedelta(hours=2))
    assert await _named(store, ALICE, None) == ("Asia/Tokyo", ZoneSource.PERSONAL_DAILY)


async def test_setting_again_replaces_and_a_zone_no_longer_known_is_skipped(
    database: Database, store: TimezoneStore, clock: FakeWallClock
) -> None:
    await store.set_person(ALICE, "Asia/Seoul")
    clock.advance(minutes=5)
    await store.set_person(ALICE, "Europe/Berlin")
    async with database.session() as session:
        rows = (await session.execute(select(PersonTimezoneRow))).scalars().all()
    assert [(r.timezone, r.updated_at) for r in rows] == [("Europe/Berlin", clock.now)]

    await store.set_server(PARISH, "Europe/Rome")
    async with database.session() as session:  # a zone the tz database has since dropped
        (await session.get(PersonTimezoneRow, ALICE)).timezone = "Mars/Olympus_Mons"  # type: ignore[union-attr]
    assert await _named(store, ALICE, PARISH) == ("Europe/Rome", ZoneSource.SERVER)


async def test_resolving_is_one_round_trip(database: Database, store: TimezoneStore) -> None:
    await store.set_person(ALICE, "Asia/Seoul")
    statements: list[str] = []
    engine = database._engine.sync_engine

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        await store.resolve(ALICE, PARISH)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(statements) == 1


async def test_unlink_deletes_the_persons_zone_only(
    database: Database, store: TimezoneStore
) -> None:
    await store.set_person(ALICE, "Asia/Seoul")
    await store.set_person(BOB, "Europe/Rome")
    await store.set_server(PARISH, "Europe/Warsaw")
    deleted = await database.delete_user_data(ALICE)
    assert deleted["person_timezones"] == 1
    assert await _named(store, ALICE, None) == ("UTC", ZoneSource.FALLBACK)
    assert await _named(store, BOB, None) == ("Europe/Rome", ZoneSource.PERSON)
    assert await _named(store, None, PARISH) == ("Europe/Warsaw", ZoneSource.SERVER)


async def test_forgetting_a_server(database: Database, store: TimezoneStore) -> None:
    await store.set_server(PARISH, "Europe/Warsaw")
    await store.set_server(PARISH + 1, "Europe/Rome")
    assert await store.forget_server(PARISH) is True
    assert await store.forget_server(PARISH) is False
    async with database.session() as session:
        left = (await session.execute(select(ServerTimezoneRow.guild_id))).scalars().all()
    assert left == [PARISH + 1]


async def test_a_database_that_is_down_gives_utc(caplog: pytest.LogCaptureFixture) -> None:
    async with Database("postgresql+asyncpg://nobody@127.0.0.1:1/none") as down:
        zone = await TimezoneStore(down).resolve(ALICE, PARISH)
    assert zone.fallback and zone.name == "UTC"
    assert any("timezone unknown, using UTC" in r.getMessage() for r in caplog.records)


def test_today_follows_the_zones_rules_on_dst_days() -> None:
    from bot.services.timezones import ResolvedZone

    los_angeles = ResolvedZone("America/Los_Angeles", ZoneSource.PERSON)
    # 07:30 UTC on 9 March 2026 is 00:30 PDT (clocks sprang forward on the 8th); a fixed PST
    # offset would say 23:30 on the 8th.
    assert los_angeles.today(dt.datetime(2026, 3, 9, 7, 30, tzinfo=dt.UTC)) == dt.date(2026, 3, 9)
    berlin = ResolvedZone("Europe/Berlin", ZoneSource.PERSON)
    # 22:30 UTC on 24 October 2026 is 00:30 CEST on the 25th (before falling back at 03:00);
    # a fixed CET offset would say 23:30 on the 24th.
    assert berlin.today(dt.datetime(2026, 10, 24, 22, 30, tzinfo=dt.UTC)) == dt.date(2026, 10, 25)
    with pytest.raises(ValueError, match="aware"):
        berlin.today(dt.datetime(2026, 10, 24, 22, 30))

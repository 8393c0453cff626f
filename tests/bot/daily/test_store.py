"""``ScheduleStore`` on SQLite and PostgreSQL: schedules, their per-date claims, and what an
unlinking admin leaves behind; then two "bot processes" (two ``Database`` objects, two pools)
racing for the same claim."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from alembic import command
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import IntegrityError

from bot.daily.schedule import Feed, Schedule, ScheduleStatus, TokenSource
from bot.daily.store import OWNER_UNLINKED, ScheduleStore
from bot.storage import Database
from bot.storage.engine import create_engine, parse_url
from bot.storage.migrate import HEAD_REVISION, alembic_config

UTC = dt.UTC
NOW = dt.datetime(2026, 6, 10, 5, 0, tzinfo=UTC)
DAY = dt.date(2026, 6, 10)
LEASE = dt.timedelta(minutes=10)
GUILD, OTHER_GUILD = 111_111_111_111_111_111, 222_222_222_222_222_222
ADMIN, OTHER_ADMIN = 900_000_000_000_000_001, 900_000_000_000_000_002


async def save(
    store: ScheduleStore,
    *,
    guild_id: int = GUILD,
    feed: Feed = Feed.SAINTS,
    channel_id: int = 333_333_333_333_333_333,
    post_time: dt.time = dt.time(7, 0),
    timezone: str = "Europe/Berlin",
    role_id: int | None = None,
    owner_id: int = ADMIN,
    token_source: TokenSource = "own",  # noqa: S107 (a source name, not a secret)
    now: dt.datetime = NOW,
    locale: str | None = None,
) -> Schedule:
    return await store.save(
        guild_id=guild_id,
        feed=feed,
        channel_id=channel_id,
        post_time=post_time,
        timezone=timezone,
        role_id=role_id,
        owner_id=owner_id,
        token_source=token_source,
        now=now,
        locale=locale,
    )


async def fetch(store: ScheduleStore, guild_id: int = GUILD, feed: Feed = Feed.SAINTS) -> Schedule:
    schedule = await store.get(guild_id, feed)
    assert schedule is not None
    return schedule


# -- schedules


async def test_save_get_and_of_guild_roundtrip(database: Database) -> None:
    store = ScheduleStore(database)
    assert await store.get(GUILD, Feed.SAINTS) is None
    assert await store.of_guild(GUILD) == []
    berlin_noon = dt.datetime(2026, 6, 10, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))

    saved = await save(
        store, post_time=dt.time(19, 5), role_id=444_444_444_444_444_444, now=berlin_noon
    )
    readings = await save(store, feed=Feed.READINGS, token_source="shared", now=berlin_noon)
    await save(store, guild_id=OTHER_GUILD)

    assert saved == Schedule(
        guild_id=GUILD,
        feed=Feed.SAINTS,
        channel_id=333_333_333_333_333_333,
        post_time=dt.time(19, 5),
        timezone="Europe/Berlin",
        role_id=444_444_444_444_444_444,
        owner_id=ADMIN,
        token_source="own",
        status=ScheduleStatus.ACTIVE,
        status_reason=None,
        active_since=dt.datetime(2026, 6, 10, 10, 0, tzinfo=UTC),
    )
    assert saved.active_since.tzinfo is UTC  # stored and read back as UTC
    assert await store.get(GUILD, Feed.SAINTS) == saved
    assert await store.get(GUILD, Feed.READINGS) == readings
    assert readings.on_shared_token
    assert await store.of_guild(GUILD) == [readings, saved]  # ordered by feed
    assert [s.guild_id for s in await store.of_guild(OTHER_GUILD)] == [OTHER_GUILD]


async def test_saving_again_replaces_the_config_and_resets_the_status_but_keeps_the_history(
    database: Database,
) -> None:
    store = ScheduleStore(database)
    first = await save(store)
    assert await store.claim(first, DAY, claimant="a", now=NOW, lease=LEASE)
    await store.posted(first, DAY, claimant="a", message_id=555, now=NOW)
    await store.record_failure(first, "HTTP 500", now=NOW, retry_at=NOW + LEASE)
    await store.set_status(GUILD, Feed.SAINTS, ScheduleStatus.PAUSED, "token refused", now=NOW)
    later = NOW + dt.timedelta(hours=3)

    again = await save(
        store,
        channel_id=777,
        post_time=dt.time(8, 30),
        timezone="America/New_York",
        role_id=888,
        owner_id=OTHER_ADMIN,
        token_source="shared",
        now=later,
    )

    assert again == await fetch(store)
    assert (again.channel_id, again.post_time, again.timezone, again.role_id) == (
        777,
        dt.time(8, 30),
        "America/New_York",
        888,
    )
    assert (again.owner_id, again.token_source, again.active_since) == (
        OTHER_ADMIN,
        "shared",
        later,
    )
    assert (again.status, again.status_reason) == (ScheduleStatus.ACTIVE, None)
    assert (again.failures, again.retry_at) == (0, None)
    assert (again.last_posted_date, again.last_posted_at, again.last_message_id) == (
        DAY,
        NOW,
        555,
    )
    assert again.last_error == "token refused"  # history: status shows the last error
    # The claim survives: setting it again the same day does not post that day again.
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "posted"}
    assert not await store.claim(again, DAY, claimant="b", now=later, lease=LEASE)


async def test_remove_deletes_one_schedule_and_keeps_its_claims(database: Database) -> None:
    store = ScheduleStore(database)
    saints = await save(store)
    await save(store, feed=Feed.READINGS)
    assert await store.claim(saints, DAY, claimant="a", now=NOW, lease=LEASE)

    assert await store.remove(GUILD, Feed.SAINTS) is True
    assert await store.remove(GUILD, Feed.SAINTS) is False

    assert await store.get(GUILD, Feed.SAINTS) is None
    assert [s.feed for s in await store.of_guild(GUILD)] == [Feed.READINGS]
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}


async def test_remove_guild_deletes_its_schedules_and_claims_only(database: Database) -> None:
    store = ScheduleStore(database)
    saints = await save(store)
    readings = await save(store, feed=Feed.READINGS)
    elsewhere = await save(store, guild_id=OTHER_GUILD)
    for schedule in (saints, readings, elsewhere):
        assert await store.claim(schedule, DAY, claimant="a", now=NOW, lease=LEASE)

    assert await store.remove_guild(GUILD) == 2
    assert await store.remove_guild(GUILD) == 0

    assert await store.of_guild(GUILD) == []
    assert await store.claims(GUILD, Feed.SAINTS) == {}
    assert await store.claims(GUILD, Feed.READINGS) == {}
    assert await store.of_guild(OTHER_GUILD) == [elsewhere]
    assert await store.claims(OTHER_GUILD, Feed.SAINTS) == {DAY: "sending"}


async def test_live_is_every_schedule_not_disabled(database: Database) -> None:
    store = ScheduleStore(database)
    await save(store)
    await save(store, feed=Feed.READINGS)
    await save(store, guild_id=OTHER_GUILD)
    await store.set_status(GUILD, Feed.READINGS, ScheduleStatus.PAUSED, "paused", now=NOW)
    await store.set_status(OTHER_GUILD, Feed.SAINTS, ScheduleStatus.DISABLED, "gone", now=NOW)

    live = {(s.guild_id, s.feed): s.status for s in await store.live()}

    assert live == {
        (GUILD, Feed.SAINTS): ScheduleStatus.ACTIVE,
        (GUILD, Feed.READINGS): ScheduleStatus.PAUSED,
    }


async def test_the_language_is_stored_read_back_and_replaced_by_the_next_save(
    database: Database,
) -> None:
    store = ScheduleStore(database)
    polish = await save(store, locale="pl")
    assert polish.locale == "pl"
    assert await fetch(store) == polish
    latin_american = await save(store, feed=Feed.READINGS, locale="es_419")
    assert [s.locale for s in await store.of_guild(GUILD)] == ["es_419", "pl"]
    assert {s.feed: s.locale for s in await store.live()} == {
        Feed.SAINTS: "pl",
        Feed.READINGS: latin_american.locale,
    }
    # /daily set again without a language: the server's language again (the config is replaced).
    assert (await save(store)).locale is None
    assert (await fetch(store)).locale is None
    await store.set_status(GUILD, Feed.READINGS, ScheduleStatus.PAUSED, "token", now=NOW)
    assert (await fetch(store, feed=Feed.READINGS)).locale == "es_419"  # status leaves it


# -- status, failures and notes


async def test_record_failure_counts_and_sets_the_retry(database: Database) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    retry = NOW + dt.timedelta(minutes=1)

    await store.record_failure(schedule, "HTTP 503", now=NOW, retry_at=retry)
    await store.record_failure(schedule, "x" * 1000, now=NOW + LEASE, retry_at=retry + LEASE)

    stored = await fetch(store)
    assert stored.failures == 2
    assert stored.retry_at == retry + LEASE
    assert stored.last_error == "x" * 300  # clipped to the column
    assert stored.last_error_at == NOW + LEASE
    assert stored.status is ScheduleStatus.ACTIVE  # transient: still active
    other = await save(store, guild_id=OTHER_GUILD)
    assert (other.failures, other.last_error) == (0, None)


async def test_set_status_records_the_reason_and_active_clears_the_failures(
    database: Database,
) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    await store.record_failure(schedule, "HTTP 503", now=NOW, retry_at=NOW + LEASE)
    paused_at = NOW + dt.timedelta(hours=1)

    await store.set_status(
        GUILD, Feed.SAINTS, ScheduleStatus.PAUSED, "token revoked", now=paused_at
    )

    paused = await fetch(store)
    assert (paused.status, paused.status_reason) == (ScheduleStatus.PAUSED, "token revoked")
    assert (paused.last_error, paused.last_error_at) == ("token revoked", paused_at)
    assert paused.failures == 1  # a pause does not touch the failure count

    await store.set_status(GUILD, Feed.SAINTS, ScheduleStatus.ACTIVE, None, now=paused_at + LEASE)

    resumed = await fetch(store)
    assert (resumed.status, resumed.status_reason) == (ScheduleStatus.ACTIVE, None)
    assert (resumed.failures, resumed.retry_at) == (0, None)
    assert (resumed.last_error, resumed.last_error_at) == ("token revoked", paused_at)

    await store.set_status(GUILD, Feed.SAINTS, ScheduleStatus.DISABLED, "y" * 400, now=NOW)
    disabled = await fetch(store)
    assert disabled.status is ScheduleStatus.DISABLED
    assert disabled.status_reason == disabled.last_error == "y" * 300


async def test_note_records_an_error_without_changing_the_status(database: Database) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)

    await store.note(schedule, "the role was deleted", now=NOW + LEASE)

    noted = await fetch(store)
    assert (noted.last_error, noted.last_error_at) == ("the role was deleted", NOW + LEASE)
    assert (noted.status, noted.failures, noted.retry_at) == (ScheduleStatus.ACTIVE, 0, None)


# -- claims


async def test_a_claim_is_exclusive(database: Database) -> None:
    store = ScheduleStore(database)
    saints = await save(store)
    readings = await save(store, feed=Feed.READINGS)
    elsewhere = await save(store, guild_id=OTHER_GUILD)

    assert await store.claim(saints, DAY, claimant="a", now=NOW, lease=LEASE) is True
    assert await store.claim(saints, DAY, claimant="b", now=NOW, lease=LEASE) is False
    assert await store.claim(saints, DAY, claimant="a", now=NOW, lease=LEASE) is False
    # Claims are per (server, feed, local date).
    next_day = DAY + dt.timedelta(days=1)
    assert await store.claim(saints, next_day, claimant="b", now=NOW, lease=LEASE) is True
    assert await store.claim(readings, DAY, claimant="b", now=NOW, lease=LEASE) is True
    assert await store.claim(elsewhere, DAY, claimant="b", now=NOW, lease=LEASE) is True

    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending", next_day: "sending"}


async def test_a_sending_claim_is_taken_over_only_after_its_lease(database: Database) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    assert await store.claim(schedule, DAY, claimant="dead", now=NOW, lease=LEASE)

    assert not await store.claim(schedule, DAY, claimant="b", now=NOW + LEASE, lease=LEASE)
    later = NOW + LEASE + dt.timedelta(seconds=1)
    assert await store.claim(schedule, DAY, claimant="b", now=later, lease=LEASE)
    # Taken over: the lease restarts for the new claimant, and the old one lost it.
    assert not await store.claim(schedule, DAY, claimant="c", now=later, lease=LEASE)
    await store.release(schedule, DAY, claimant="dead")
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}
    assert not await store.claim(schedule, DAY, claimant="c", now=later + LEASE, lease=LEASE)
    await store.release(schedule, DAY, claimant="b")
    assert await store.claims(GUILD, Feed.SAINTS) == {}


async def test_a_posted_claim_is_never_taken_over(database: Database) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    assert await store.claim(schedule, DAY, claimant="a", now=NOW, lease=LEASE)
    await store.posted(schedule, DAY, claimant="a", message_id=1, now=NOW)

    for later in (NOW + LEASE * 2, NOW + dt.timedelta(days=30)):
        assert not await store.claim(schedule, DAY, claimant="b", now=later, lease=LEASE)
    await store.release(schedule, DAY, claimant="a")  # a posted claim is not released either
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "posted"}


async def test_release_gives_back_only_the_claimants_own_sending_claim(
    database: Database,
) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    assert await store.claim(schedule, DAY, claimant="a", now=NOW, lease=LEASE)

    await store.release(schedule, DAY, claimant="b")
    await store.release(schedule, DAY + dt.timedelta(days=1), claimant="a")
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}

    await store.release(schedule, DAY, claimant="a")
    assert await store.claims(GUILD, Feed.SAINTS) == {}
    # Released: a later tick (any process) can claim it again at once.
    assert await store.claim(schedule, DAY, claimant="b", now=NOW, lease=LEASE)


async def test_posted_finalises_the_claim_and_updates_the_schedule(database: Database) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    await store.record_failure(schedule, "HTTP 500", now=NOW, retry_at=NOW + LEASE)
    assert await store.claim(schedule, DAY, claimant="a", now=NOW, lease=LEASE)
    sent_at = NOW + dt.timedelta(minutes=3)

    await store.posted(schedule, DAY, claimant="a", message_id=987_654_321_987_654_321, now=sent_at)

    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "posted"}
    stored = await fetch(store)
    assert (stored.last_posted_date, stored.last_posted_at, stored.last_message_id) == (
        DAY,
        sent_at,
        987_654_321_987_654_321,
    )
    assert stored.last_posted_at is not None
    assert stored.last_posted_at.tzinfo is UTC
    assert (stored.failures, stored.retry_at) == (0, None)
    assert stored.last_error == "HTTP 500"  # kept for status; the post is what changed


async def test_posted_by_a_process_that_lost_its_claim_leaves_the_claim_alone(
    database: Database,
) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    assert await store.claim(schedule, DAY, claimant="slow", now=NOW, lease=LEASE)
    later = NOW + LEASE * 2
    assert await store.claim(schedule, DAY, claimant="new", now=later, lease=LEASE)

    await store.posted(schedule, DAY, claimant="slow", message_id=1, now=later)

    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}  # still the new one's
    await store.posted(schedule, DAY, claimant="new", message_id=2, now=later)
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "posted"}
    assert (await fetch(store)).last_message_id == 2


async def test_prune_claims_drops_older_dates_of_every_server(database: Database) -> None:
    store = ScheduleStore(database)
    schedule = await save(store)
    elsewhere = await save(store, guild_id=OTHER_GUILD)
    days = [DAY - dt.timedelta(days=n) for n in range(4)]  # DAY, DAY-1, DAY-2, DAY-3
    for day in days:
        assert await store.claim(schedule, day, claimant="a", now=NOW, lease=LEASE)
    assert await store.claim(elsewhere, days[3], claimant="a", now=NOW, lease=LEASE)
    await store.posted(schedule, days[3], claimant="a", message_id=1, now=NOW)

    assert await store.prune_claims(before=days[1]) == 3

    assert set(await store.claims(GUILD, Feed.SAINTS)) == {days[0], days[1]}
    assert await store.claims(OTHER_GUILD, Feed.SAINTS) == {}
    assert await store.prune_claims(before=days[1]) == 0


# -- user data


async def test_an_admin_unlinking_pauses_their_own_schedules_and_forgets_them(
    database: Database,
) -> None:
    store = ScheduleStore(database)
    own = await save(store)
    shared = await save(store, feed=Feed.READINGS, token_source="shared")
    disabled = await save(store, guild_id=OTHER_GUILD)
    await store.set_status(
        OTHER_GUILD, Feed.SAINTS, ScheduleStatus.DISABLED, "channel gone", now=NOW
    )
    paused_shared = await save(
        store, guild_id=OTHER_GUILD, feed=Feed.READINGS, token_source="shared"
    )
    await store.set_status(
        OTHER_GUILD, Feed.READINGS, ScheduleStatus.PAUSED, "shared gone", now=NOW
    )
    someone_else = await save(store, guild_id=3, owner_id=OTHER_ADMIN)

    deleted = await database.delete_user_data(ADMIN)

    assert deleted == {"daily_schedules": 4}
    own_after = await fetch(store, GUILD, own.feed)
    assert (own_after.status, own_after.status_reason, own_after.owner_id) == (
        ScheduleStatus.PAUSED,
        OWNER_UNLINKED,
        None,
    )
    shared_after = await fetch(store, GUILD, shared.feed)
    assert (shared_after.status, shared_after.status_reason, shared_after.owner_id) == (
        ScheduleStatus.ACTIVE,
        None,
        None,
    )
    disabled_after = await fetch(store, OTHER_GUILD, disabled.feed)
    assert (disabled_after.status, disabled_after.status_reason, disabled_after.owner_id) == (
        ScheduleStatus.DISABLED,
        "channel gone",
        None,
    )
    paused_after = await fetch(store, OTHER_GUILD, paused_shared.feed)
    assert (paused_after.status, paused_after.status_reason, paused_after.owner_id) == (
        ScheduleStatus.PAUSED,
        "shared gone",
        None,
    )
    assert await fetch(store, 3) == someone_else
    assert await database.delete_user_data(ADMIN) == {"daily_schedules": 0}


# -- two processes racing


async def race(
    stores: list[ScheduleStore], schedule: Schedule, day: dt.date, now: dt.datetime
) -> list[bool]:
    """20 concurrent claims, 10 from each store, each with a claimant of its own."""
    attempts = [
        stores[n % 2].claim(schedule, day, claimant=f"bot{n % 2}-task{n}", now=now, lease=LEASE)
        for n in range(20)
    ]
    return await asyncio.gather(*attempts)


async def two_processes_claim_once_per_date(url: str) -> None:
    async with Database(url) as first, Database(url) as second:
        await first.migrate()
        stores = [ScheduleStore(first), ScheduleStore(second)]
        schedule = await save(stores[0])
        assert await stores[1].get(GUILD, Feed.SAINTS) == schedule  # the same database

        for offset in range(5):
            day = DAY + dt.timedelta(days=offset)
            results = await race(stores, schedule, day, NOW + dt.timedelta(days=offset))
            assert results.count(True) == 1, (day, results)

        # A claim left sending by a dead process: after the lease exactly one taker too.
        stale = DAY + dt.timedelta(days=5)
        assert await stores[0].claim(schedule, stale, claimant="dead", now=NOW, lease=LEASE)
        results = await race(stores, schedule, stale, NOW + LEASE * 2)
        assert results.count(True) == 1, results

        claims = await stores[1].claims(GUILD, Feed.SAINTS)
        assert claims == {DAY + dt.timedelta(days=n): "sending" for n in range(6)}


async def test_two_processes_on_postgresql_claim_a_date_once(postgres_url: str) -> None:
    await two_processes_claim_once_per_date(postgres_url)


async def test_two_processes_on_one_sqlite_file_claim_a_date_once(sqlite_url: str) -> None:
    await two_processes_claim_once_per_date(sqlite_url)


# -- migration 0004: the language column


async def _alembic(url: str, action: str, revision: str) -> None:
    """``alembic upgrade|downgrade revision`` on the database at ``url``."""
    engine = create_engine(parse_url(url))

    def run(connection: Connection) -> None:
        getattr(command, action)(alembic_config(connection), revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(run)
    finally:
        await engine.dispose()


async def _columns(database: Database) -> set[str]:
    async with database.session() as session:
        connection = await session.connection()
        found = await connection.run_sync(lambda sync: inspect(sync).get_columns("daily_schedules"))
        return {column["name"] for column in found}


_OLD_ROW = text(
    "INSERT INTO daily_schedules (guild_id, feed, channel_id, post_time, timezone, token_source,"
    " status, active_since, failures, updated_at, last_error)"
    " VALUES (:guild, 'saints', 333, '07:00', 'Europe/Berlin', 'shared', 'active', :now, 0,"
    " :now, 'HTTP 500')"
)


async def test_migration_0004_adds_the_language_to_existing_schedules_and_reverts(
    database_url: str,
) -> None:
    await _alembic(database_url, "upgrade", "0003")
    async with Database(database_url) as database:
        assert await database.revision() == "0003"
        async with database.session() as session:
            await session.execute(_OLD_ROW, {"guild": GUILD, "now": NOW})

        assert await database.migrate() == HEAD_REVISION
        assert "locale" in await _columns(database)
        store = ScheduleStore(database)
        old = await fetch(store)
        assert (old.locale, old.last_error, old.timezone) == (None, "HTTP 500", "Europe/Berlin")
        await save(store, locale="de")
        assert (await fetch(store)).locale == "de"

    await _alembic(database_url, "downgrade", "0003")
    async with Database(database_url) as database:
        assert await database.revision() == "0003"
        assert "locale" not in await _columns(database)
        # The rows and the table's constraints survive (SQLite rebuilds the table to drop it).
        async with database.session() as session:
            count = await session.execute(text("SELECT count(*) FROM daily_schedules"))
            assert count.scalar_one() == 1
        with pytest.raises(IntegrityError):
            async with database.session() as session:
                await session.execute(
                    text("UPDATE daily_schedules SET status = 'sleeping' WHERE guild_id = :g"),
                    {"g": GUILD},
                )
        assert await database.migrate() == HEAD_REVISION
        assert (await fetch(ScheduleStore(database))).locale is None

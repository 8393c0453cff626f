"""``PersonalScheduleStore`` on SQLite and PostgreSQL (the ``database`` fixture): a replace that
keeps the DM channel and the history, whose token is read with the schedule, the claim taken
once (and a stale one taken over once), and the user-data deleter ``/account unlink`` runs."""

from __future__ import annotations

import datetime as dt

from pydantic import SecretStr

from bot.accounts import TokenCipher, TokenRegistry, generate_key
from bot.daily import Feed, ScheduleStatus
from bot.daily.personal_store import PersonalScheduleStore
from bot.storage import Database

UTC = dt.UTC
SET_AT = dt.datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DAY = dt.date(2026, 12, 1)
SLOT = dt.datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
LEASE = dt.timedelta(minutes=2)
ANNA, BEN = 900_000_000_000_000_001, 900_000_000_000_000_002


async def save(store: PersonalScheduleStore, user_id: int = ANNA, **changes: object) -> None:
    values: dict[str, object] = {
        "user_id": user_id,
        "feed": Feed.SAINTS,
        "post_time": dt.time(7, 0),
        "timezone": "Europe/Berlin",
        "locale": "en",
        "now": SET_AT,
        **changes,
    }
    await store.save(**values)  # type: ignore[arg-type]


async def test_a_replace_keeps_the_dm_channel_and_history_and_resumes(database: Database) -> None:
    store = PersonalScheduleStore(database)
    await save(store, dm_channel_id=555)
    schedule = await store.get(ANNA, Feed.SAINTS)
    assert schedule is not None
    assert await store.claim_or_take_over(schedule, DAY, claimant="a", now=SLOT, lease=LEASE)
    await store.posted(schedule, DAY, claimant="a", message_id=42, now=SLOT)
    await store.set_status(ANNA, Feed.SAINTS, ScheduleStatus.PAUSED, "closed", now=SLOT)

    await save(store, post_time=dt.time(8, 0), locale="de", now=SLOT)  # from a server: no DM id
    replaced = await store.get(ANNA, Feed.SAINTS)
    assert replaced is not None
    assert (replaced.post_time, replaced.locale, replaced.dm_channel_id) == (dt.time(8), "de", 555)
    assert (replaced.status, replaced.status_reason) == (ScheduleStatus.ACTIVE, None)
    assert (replaced.last_posted_date, replaced.last_message_id) == (DAY, 42)
    assert replaced.active_since == SLOT


async def test_whose_token_is_read_with_the_schedule(database: Database) -> None:
    store = PersonalScheduleStore(database)
    registry = TokenRegistry(database, TokenCipher.from_setting(SecretStr(generate_key())))
    await save(store, ANNA)
    await save(store, BEN)
    await registry.link(ANNA, SecretStr("pro-anna"))
    sources = {s.user_id: s.token_source for s in await store.live()}
    assert sources == {ANNA: "own", BEN: "shared"}
    await store.set_status(BEN, Feed.SAINTS, ScheduleStatus.DISABLED, "gone", now=SLOT)
    assert [s.user_id for s in await store.live()] == [ANNA]


async def test_a_claim_is_taken_once_and_a_stale_one_taken_over_once(database: Database) -> None:
    store = PersonalScheduleStore(database)
    await save(store)
    schedule = await store.get(ANNA, Feed.SAINTS)
    assert schedule is not None
    assert await store.claim_or_take_over(schedule, DAY, claimant="a", now=SLOT, lease=LEASE)
    second = await store.claim_or_take_over(schedule, DAY, claimant="b", now=SLOT, lease=LEASE)
    assert second is None
    later = SLOT + LEASE + dt.timedelta(seconds=1)
    kinds = [
        await store.claim_or_take_over(schedule, DAY, claimant=who, now=later, lease=LEASE)
        for who in ("b", "c")
    ]
    assert kinds == ["taken_over", None]
    await store.release(schedule, DAY, claimant="a")  # not a's any more: kept
    assert await store.claims(ANNA, Feed.SAINTS) == {DAY: "sending"}
    await store.posted(schedule, DAY, claimant="b", message_id=7, now=later)
    assert await store.claims(ANNA, Feed.SAINTS) == {DAY: "posted"}


async def test_the_user_data_deleter_removes_schedules_and_claims(database: Database) -> None:
    store = PersonalScheduleStore(database)
    await save(store, ANNA)
    await save(store, ANNA, feed=Feed.READINGS)
    await save(store, BEN)
    for user_id in (ANNA, BEN):
        schedule = await store.get(user_id, Feed.SAINTS)
        assert schedule is not None
        assert await store.claim(schedule, DAY, claimant="a", now=SLOT, lease=LEASE)
    assert "personal_daily_schedules" in database.user_data.names

    deleted = await database.delete_user_data(ANNA)
    assert deleted["personal_daily_schedules"] == 2
    assert await store.of_user(ANNA) == []
    assert await store.claims(ANNA, Feed.SAINTS) == {}
    assert [s.user_id for s in await store.of_user(BEN)] == [BEN]
    assert await store.claims(BEN, Feed.SAINTS) == {DAY: "sending"}

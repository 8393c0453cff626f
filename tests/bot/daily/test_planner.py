"""The daily planner on its own: no harness, no Discord; a real ``ScheduleStore`` on SQLite and
PostgreSQL (the ``database`` fixture), and a fake upstream standing in for tokens and Magisterium.

Due or not at the exact edges of a slot, a claim taken once, one fetch per feed and date,
tokens that stop working, failures retried inside the grace window and given up after it, and
the reasons ``/daily status`` shows; then the minute the loop ticks for.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.a2a.results import Martyrology
from bot.daily.planner import (
    MINUTE,
    UNREACHABLE,
    Content,
    DailyPlanner,
    Fetch,
    Outcome,
    SchedulerConfig,
    Tick,
    TokenRefused,
    by_feed_and_day,
    due_day,
    failure_reason,
    minute_to_tick,
    seconds_until,
)
from bot.daily.schedule import Feed, Schedule, ScheduleStatus, TokenSource
from bot.daily.store import OWNER_UNLINKED, ScheduleStore
from bot.storage import Database

UTC = dt.UTC
US = dt.timedelta(microseconds=1)
GRACE = dt.timedelta(hours=6)
LEASE = dt.timedelta(minutes=5)
# 07:00 in Berlin on Tuesday 1 December 2026 (UTC+1); the schedules are set the day before.
DAY = dt.date(2026, 12, 1)
SLOT = dt.datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
SET_AT = dt.datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
GUILD = 111_111_111_111_111_111
ADMIN, OTHER_ADMIN = 900_000_000_000_000_001, 900_000_000_000_000_002
TOKEN_GONE = "Your token stopped working."  # a pause reason the fake upstream gives
SAINTS = Martyrology(query="2026-12-01", text="Saint Eligius, bishop.")


def schedule(**changes: Any) -> Schedule:
    base = Schedule(
        guild_id=GUILD,
        feed=Feed.SAINTS,
        channel_id=333,
        post_time=dt.time(7, 0),
        timezone="Europe/Berlin",
        role_id=None,
        owner_id=ADMIN,
        token_source="shared",
        status=ScheduleStatus.ACTIVE,
        status_reason=None,
        active_since=SET_AT,
    )
    return dataclasses.replace(base, **changes)


@dataclasses.dataclass(frozen=True)
class Post:
    schedule: Schedule
    day: dt.date


class FakeUpstream:
    """Tokens and Magisterium as the planner sees them; every fetch is recorded."""

    pause_reasons = frozenset({TOKEN_GONE})

    def __init__(self) -> None:
        self.problems: dict[tuple[int, Feed], str] = {}
        self.refused_at_choice: set[int | None] = set()  # owners whose token is refused
        self.refused_at_call: set[int | None] = set()  # owners Magisterium answers 401 for
        self.error: Exception | None = None  # what every fetch raises, if set
        self.known: tuple[str, str] | None = None  # how known_failure explains it
        self.fetches: list[tuple[Feed, dt.date, int | None]] = []

    async def token_problems(self, schedules: Sequence[Schedule]) -> Mapping[tuple[int, Feed], str]:
        return {s.key: self.problems[s.key] for s in schedules if s.key in self.problems}

    async def fetcher(self, schedule: Schedule) -> Fetch:
        owner = schedule.owner_id
        if owner in self.refused_at_choice:
            raise TokenRefused(TOKEN_GONE)

        async def fetch(feed: Feed, day: dt.date) -> Content:
            self.fetches.append((feed, day, owner))
            if owner in self.refused_at_call:
                raise TokenRefused(TOKEN_GONE)
            if self.error is not None:
                raise self.error
            return SAINTS

        return fetch

    def known_failure(self, error: Exception) -> tuple[str, str] | None:
        return self.known


@pytest.fixture
def store(database: Database) -> ScheduleStore:
    return ScheduleStore(database)


@pytest.fixture
def upstream() -> FakeUpstream:
    return FakeUpstream()


def planner_of(store: ScheduleStore, upstream: FakeUpstream, claimant: str = "a") -> DailyPlanner:
    return DailyPlanner(store, upstream, config=SchedulerConfig(lease=LEASE), claimant=claimant)


async def save(
    store: ScheduleStore,
    *,
    guild_id: int = GUILD,
    owner_id: int = ADMIN,
    token_source: TokenSource = "shared",  # noqa: S107 (a source name, not a secret)
) -> Schedule:
    return await store.save(
        guild_id=guild_id,
        feed=Feed.SAINTS,
        channel_id=333,
        post_time=dt.time(7, 0),
        timezone="Europe/Berlin",
        role_id=None,
        owner_id=owner_id,
        token_source=token_source,
        now=SET_AT,
    )


async def stored(store: ScheduleStore, guild_id: int = GUILD) -> Schedule:
    found = await store.get(guild_id, Feed.SAINTS)
    assert found is not None
    return found


async def due_posts(planner: DailyPlanner, now: dt.datetime) -> tuple[Tick, list[Post]]:
    """A tick at ``now`` and the posts it finds due (every guild served)."""
    tick = await planner.begin(now)
    posts = []
    for live in tick.schedules:
        day = await tick.due(live)
        if day is not None:
            posts.append(Post(live, day))
    return tick, posts


# -- due or not, at the exact edges


@pytest.mark.parametrize(
    ("now", "due"),
    [
        (SLOT - US, None),
        (SLOT, DAY),
        (SLOT + GRACE - US, DAY),
        (SLOT + GRACE, None),
    ],
    ids=["just-before-the-slot", "the-slot", "last-instant-of-grace", "grace-over"],
)
def test_due_from_the_slot_to_the_end_of_the_grace_window(
    now: dt.datetime, due: dt.date | None
) -> None:
    assert due_day(schedule(), now, grace=GRACE) == due


def test_a_dead_claimants_post_is_resent_while_discord_still_knows_its_nonce() -> None:
    # Discord deduplicates a nonce for "a few minutes"; the takeover comes one tick after the
    # lease at the latest, and must come within three minutes of the claim.
    assert SchedulerConfig().lease + MINUTE <= dt.timedelta(minutes=3)


def test_a_slot_before_the_schedule_was_set_is_never_due() -> None:
    set_after_the_slot = schedule(active_since=SLOT + US)
    assert due_day(set_after_the_slot, SLOT + MINUTE, grace=GRACE) is None
    assert due_day(schedule(active_since=SLOT), SLOT, grace=GRACE) == DAY


def test_a_date_posted_already_is_not_due_again() -> None:
    assert due_day(schedule(last_posted_date=DAY), SLOT, grace=GRACE) is None
    assert due_day(schedule(last_posted_date=DAY - dt.timedelta(days=1)), SLOT, grace=GRACE) == DAY


def test_a_failed_post_waits_for_its_retry_time_to_the_microsecond() -> None:
    waiting = schedule(retry_at=SLOT + 2 * MINUTE, failures=2)
    assert due_day(waiting, SLOT + 2 * MINUTE - US, grace=GRACE) is None
    assert due_day(waiting, SLOT + 2 * MINUTE, grace=GRACE) == DAY


def test_posts_are_grouped_by_feed_and_date() -> None:
    saints = [Post(schedule(guild_id=n), DAY) for n in range(3)]
    readings = Post(schedule(feed=Feed.READINGS), DAY)
    tomorrow = Post(schedule(guild_id=9), DAY + dt.timedelta(days=1))
    groups = by_feed_and_day([saints[0], readings, saints[1], tomorrow, saints[2]])
    assert groups == {
        (Feed.SAINTS, DAY): saints,
        (Feed.READINGS, DAY): [readings],
        (Feed.SAINTS, DAY + dt.timedelta(days=1)): [tomorrow],
    }


async def test_a_tick_needs_an_aware_instant(store: ScheduleStore, upstream: FakeUpstream) -> None:
    with pytest.raises(ValueError, match="aware"):
        await planner_of(store, upstream).begin(SLOT.replace(tzinfo=None))


# -- the claim: once per (schedule, local date)


async def test_a_slot_is_claimed_once_across_planners(
    store: ScheduleStore, upstream: FakeUpstream
) -> None:
    mine, theirs = planner_of(store, upstream, "a"), planner_of(store, upstream, "b")
    saved = await save(store)
    tick = await mine.begin(SLOT)
    assert await tick.claim(saved, DAY) == "new"
    assert await tick.claim(saved, DAY) is None  # the same planner, again
    other = await theirs.begin(SLOT + LEASE)
    assert await other.claim(saved, DAY) is None  # the lease has not run out yet
    assert (tick.report.already_claimed, other.report.already_claimed) == (1, 1)
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}

    # The claimant died mid-post: once its lease has run out, the slot is taken over, once.
    later = await theirs.begin(SLOT + LEASE + MINUTE)
    assert await later.claim(saved, DAY) == "taken_over"
    await later.posted(saved, DAY, message_id=42)
    assert later.report.posted == 1
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "posted"}
    assert (await stored(store)).last_message_id == 42

    much_later = await mine.begin(SLOT + 2 * GRACE)
    assert await much_later.claim(saved, DAY) is None  # a posted slot is never taken over
    tomorrow = DAY + dt.timedelta(days=1)
    assert await much_later.claim(saved, tomorrow) == "new"  # the next date is a new slot


@pytest.mark.parametrize(
    ("outcome", "status"),
    [(Outcome.FAILED, ScheduleStatus.ACTIVE), (Outcome.DISABLED, ScheduleStatus.DISABLED)],
)
async def test_a_post_not_sent_gives_its_claim_back_and_records_why(
    store: ScheduleStore, upstream: FakeUpstream, outcome: Outcome, status: ScheduleStatus
) -> None:
    saved = await save(store)
    tick = await planner_of(store, upstream).begin(SLOT)
    assert await tick.claim(saved, DAY) == "new"
    await tick.not_sent(saved, DAY, outcome, "Discord said no.")

    assert await store.claims(GUILD, Feed.SAINTS) == {}
    after = await stored(store)
    assert (after.status, after.last_error) == (status, "Discord said no.")
    if outcome is Outcome.DISABLED:
        assert after.status_reason == "Discord said no."
        assert (tick.report.disabled, tick.report.failed) == (1, 0)
        assert await store.live() == []  # given up: no tick looks at it again
    else:
        assert (after.failures, after.retry_at) == (1, SLOT + MINUTE)
        assert (tick.report.disabled, tick.report.failed) == (0, 1)
        assert tick.report.errors == [f"{GUILD}: Discord said no."]
        assert await tick.claim(saved, DAY) == "new"  # free for the retry


# -- one fetch per feed and date, with the first token that works


async def test_one_fetch_serves_every_post_of_a_feed_and_date(
    store: ScheduleStore, upstream: FakeUpstream
) -> None:
    for guild_id in (1, 2, 3):
        await save(store, guild_id=guild_id)
    tick, posts = await due_posts(planner_of(store, upstream), SLOT)
    assert len(posts) == 3
    content, ready = await tick.fetch(Feed.SAINTS, DAY, posts)
    assert content == SAINTS
    assert ready == posts
    assert upstream.fetches == [(Feed.SAINTS, DAY, ADMIN)]
    assert tick.report.fetches == 1


@pytest.mark.parametrize(("refused_at", "fetches"), [("choice", 1), ("call", 2)])
async def test_a_refused_token_pauses_its_posts_and_the_next_token_fetches(
    store: ScheduleStore, upstream: FakeUpstream, refused_at: str, fetches: int
) -> None:
    await save(store, guild_id=1, owner_id=ADMIN, token_source="own")
    await save(store, guild_id=2, owner_id=OTHER_ADMIN, token_source="own")
    await save(store, guild_id=3, owner_id=ADMIN, token_source="own")
    refused = upstream.refused_at_choice if refused_at == "choice" else upstream.refused_at_call
    refused.add(ADMIN)
    tick, posts = await due_posts(planner_of(store, upstream), SLOT)
    posts.sort(key=lambda post: post.schedule.guild_id)

    content, ready = await tick.fetch(Feed.SAINTS, DAY, posts)

    assert content == SAINTS
    assert [post.schedule.guild_id for post in ready] == [2]
    assert tick.report.paused == 2
    assert tick.report.fetches == fetches  # a fetch refused by Magisterium was still made
    for guild_id in (1, 3):
        paused = await stored(store, guild_id)
        assert (paused.status, paused.status_reason) == (ScheduleStatus.PAUSED, TOKEN_GONE)
    assert (await stored(store, 2)).status is ScheduleStatus.ACTIVE


async def test_when_no_token_works_nothing_is_fetched(
    store: ScheduleStore, upstream: FakeUpstream
) -> None:
    await save(store, owner_id=ADMIN, token_source="own")
    upstream.refused_at_choice.add(ADMIN)
    tick, posts = await due_posts(planner_of(store, upstream), SLOT)
    assert await tick.fetch(Feed.SAINTS, DAY, posts) == (None, [])
    assert upstream.fetches == []
    assert (tick.report.fetches, tick.report.paused, tick.report.failed) == (0, 1, 0)


# -- a failed fetch: retried inside the grace window, given up after it


@pytest.mark.parametrize(
    ("known", "reason"),
    [
        (None, UNREACHABLE),
        (("Magisterium is busy", "Try again later."), "Magisterium is busy: Try again later."),
    ],
    ids=["unexpected", "known"],
)
async def test_a_failed_fetch_is_retried_within_the_grace_window_then_given_up(
    store: ScheduleStore, upstream: FakeUpstream, known: tuple[str, str] | None, reason: str
) -> None:
    await save(store)
    planner = planner_of(store, upstream)
    upstream.error, upstream.known = RuntimeError("upstream fell over"), known

    tick, posts = await due_posts(planner, SLOT)
    assert await tick.fetch(Feed.SAINTS, DAY, posts) == (None, [])
    assert (tick.report.failed, tick.report.errors) == (1, [f"{GUILD}: {reason}"])
    failed = await stored(store)
    assert (failed.status, failed.last_error, failed.last_error_at) == (
        ScheduleStatus.ACTIVE,
        reason,
        SLOT,
    )
    assert (failed.failures, failed.retry_at) == (1, SLOT + MINUTE)
    assert await store.claims(GUILD, Feed.SAINTS) == {}

    assert (await due_posts(planner, SLOT + MINUTE - US))[1] == []  # backing off
    _, retried = await due_posts(planner, SLOT + MINUTE)
    assert [post.day for post in retried] == [DAY]
    assert (await due_posts(planner, SLOT + GRACE - US))[1] != []  # still inside the window
    given_up = await due_posts(planner, SLOT + GRACE)
    assert given_up[1] == []
    assert (await stored(store)).last_error == reason  # what /daily status keeps showing


def test_the_reason_of_a_failure_is_its_explanation_or_unreachable() -> None:
    assert failure_reason(None) == UNREACHABLE
    assert failure_reason(("Title", "Text.")) == "Title: Text."


# -- tokens: paused when due and unusable, resumed once they work


async def test_a_due_schedule_whose_token_cannot_work_is_paused_one_not_due_is_left_alone(
    store: ScheduleStore, upstream: FakeUpstream
) -> None:
    saved = await save(store)
    upstream.problems[saved.key] = TOKEN_GONE
    planner = planner_of(store, upstream)

    early, posts = await due_posts(planner, SLOT - MINUTE)
    assert (posts, early.report.paused) == ([], 0)
    assert (await stored(store)).status is ScheduleStatus.ACTIVE

    tick, posts = await due_posts(planner, SLOT)
    assert (posts, tick.report.paused) == ([], 1)
    paused = await stored(store)
    assert (paused.status, paused.status_reason, paused.last_error) == (
        ScheduleStatus.PAUSED,
        TOKEN_GONE,
        TOKEN_GONE,
    )


@pytest.mark.parametrize(
    ("reason", "token_works", "resumes"),
    [
        (TOKEN_GONE, True, True),
        (TOKEN_GONE, False, False),
        (OWNER_UNLINKED, True, False),  # not a token reason: /daily set must be run again
    ],
    ids=["token-works-again", "token-still-broken", "owner-unlinked"],
)
async def test_a_paused_schedule_resumes_only_once_its_token_works(
    store: ScheduleStore,
    upstream: FakeUpstream,
    reason: str,
    token_works: bool,
    resumes: bool,
) -> None:
    saved = await save(store)
    await store.set_status(GUILD, Feed.SAINTS, ScheduleStatus.PAUSED, reason, now=SET_AT)
    if not token_works:
        upstream.problems[saved.key] = reason

    tick, posts = await due_posts(planner_of(store, upstream), SLOT)

    assert [post.day for post in posts] == ([DAY] if resumes else [])
    after = await stored(store)
    if resumes:
        assert (after.status, after.status_reason) == (ScheduleStatus.ACTIVE, None)
    else:
        assert (after.status, after.status_reason) == (ScheduleStatus.PAUSED, reason)
    assert tick.report.paused == 0  # already paused: not paused again


# -- the end of a tick: old claims pruned once an hour


async def test_old_claims_are_pruned_at_most_once_an_hour(
    store: ScheduleStore, upstream: FakeUpstream
) -> None:
    saved = await save(store)
    planner = planner_of(store, upstream)
    tick = await planner.begin(SLOT)
    old, older = DAY - dt.timedelta(days=4), DAY - dt.timedelta(days=5)
    for day in (older, DAY):
        assert await tick.claim(saved, day) == "new"
    await planner.end(tick)
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}

    assert await tick.claim(saved, old) == "new"
    await planner.end(await planner.begin(SLOT + 59 * MINUTE))
    assert old in await store.claims(GUILD, Feed.SAINTS)  # pruned less than an hour ago
    await planner.end(await planner.begin(SLOT + 60 * MINUTE))
    assert await store.claims(GUILD, Feed.SAINTS) == {DAY: "sending"}


# -- the minute the loop ticks for


@pytest.mark.parametrize(
    ("last", "now", "ticks"),
    [
        (None, SLOT + dt.timedelta(seconds=30.5), SLOT),
        (SLOT - MINUTE, SLOT, SLOT),
        (SLOT - MINUTE, SLOT - US, SLOT),  # woke a microsecond early: on to the next minute
        (SLOT - MINUTE, SLOT + 3 * MINUTE + US, SLOT + 3 * MINUTE),  # late: the current one
        (SLOT + 5 * MINUTE, SLOT, SLOT + 6 * MINUTE),  # the clock was set back
        (None, dt.datetime(2026, 12, 1, 7, 0, 59, tzinfo=dt.timezone(MINUTE * 60)), SLOT),
    ],
    ids=["first", "on-time", "early", "late", "clock-set-back", "any-zone"],
)
def test_the_loop_ticks_each_whole_minute_once(
    last: dt.datetime | None, now: dt.datetime, ticks: dt.datetime
) -> None:
    minute = minute_to_tick(last, now)
    assert minute == ticks
    assert minute.tzinfo is UTC


def test_the_loop_waits_until_the_next_minute_and_never_a_negative_time() -> None:
    assert seconds_until(SLOT + MINUTE, SLOT + dt.timedelta(seconds=15)) == 45.0
    assert seconds_until(SLOT, SLOT + MINUTE) == 0.0

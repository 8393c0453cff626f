"""The decisions of a daily post, without Discord: what is due, the claim, the fetch, the outcome.

One tick (``cogs.daily.sender`` drives it) goes: :meth:`DailyPlanner.begin` reads the live
schedules and what stops their tokens; :meth:`Tick.due` says which local date a schedule is
due for (resuming or pausing it on its token); :meth:`Tick.fetch` fetches each feed and date
once, whatever the number of servers; :meth:`Tick.claim` takes the (schedule, local date) slot
in the database, so a post goes out once across ticks, restarts and processes; the sender
sends, and :meth:`Tick.posted` or :meth:`Tick.not_sent` records the outcome, with the reason
``/daily status`` shows. :meth:`DailyPlanner.end` closes the tick.

The same planner runs a server's schedules and a person's (``/mydaily``): each kind is its own
:class:`DailyPlanner` on its own store (:class:`ScheduleBook`) and upstream, and the person's
tick joins the server's (:meth:`DailyPlanner.begin` ``joining=``): one report, and one fetch
per feed and date for both (:attr:`Tick.fetched`).

The services layer (tokens, Magisterium) comes in as an :class:`Upstream`; reasons are
recorded in English and translated where shown (``cogs.daily.reasons``).
"""

from __future__ import annotations

import datetime as dt
import enum
import logging
import os
import socket
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from bot.a2a import errors
from bot.a2a.results import Martyrology, NotFound, Readings
from bot.daily.pace import DEFAULT_POSTS_PER_SECOND
from bot.daily.post_times import DEFAULT_GRACE, backoff, due_date, slot_instant
from bot.daily.schedule import Feed, ScheduleStatus, Slotted
from bot.daily.slots import ClaimKind
from bot.i18n import N_

log = logging.getLogger(__name__)

MINUTE = dt.timedelta(minutes=1)
# Claims of older dates can never be due again (grace < 1 day); pruned once an hour.
CLAIM_RETENTION = dt.timedelta(days=3)
PRUNE_EVERY = dt.timedelta(hours=1)

# Translators: Magisterium is a proper name (the AI service the bot asks); never translated.
UNREACHABLE = N_("Magisterium could not be reached (unexpected error); retrying.")
# Translators: why a daily post failed: an error's title, then its explanation.
FAILED = N_("{title}: {text}")

Content = Readings | Martyrology | NotFound
Fetch = Callable[[Feed, dt.date], Awaitable[Content]]
S = TypeVar("S", bound=Slotted)
S_contra = TypeVar("S_contra", bound=Slotted, contravariant=True)


class TokenRefused(Exception):
    """A schedule's token cannot be used: the schedule pauses, ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Upstream(Protocol[S_contra]):
    """The services layer as the planner uses it (``cogs.daily.upstream`` adapts the bot's)."""

    @property
    def pause_reasons(self) -> frozenset[str]:
        """The token reasons a schedule pauses for; it resumes once its token works again."""
        ...

    async def token_problems(self, schedules: Sequence[S_contra]) -> Mapping[tuple[int, Feed], str]:
        """Why each schedule's token cannot be used now, by schedule key (absent: it can)."""
        ...

    async def fetcher(self, schedule: S_contra) -> Fetch:
        """A fetch with ``schedule``'s token. It, or the fetch, raises :class:`TokenRefused`."""
        ...

    def known_failure(self, error: Exception) -> tuple[str, str] | None:
        """(title, text) in English of a failure the bot can explain; None: unexpected."""
        ...


class ScheduleBook(Protocol[S]):
    """A store of schedules and their claims, as the planner uses it (``bot.daily.slots``)."""

    async def live(self) -> list[S]: ...
    async def set_status(
        self,
        owner: int,
        feed: Feed,
        status: ScheduleStatus,
        reason: str | None,
        /,
        *,
        now: dt.datetime,
    ) -> None: ...
    async def record_failure(
        self, schedule: S, error: str, /, *, now: dt.datetime, retry_at: dt.datetime
    ) -> None: ...
    async def note(self, schedule: S, error: str, /, *, now: dt.datetime) -> None: ...
    async def claim_or_take_over(
        self,
        schedule: S,
        day: dt.date,
        /,
        *,
        claimant: str,
        now: dt.datetime,
        lease: dt.timedelta,
    ) -> ClaimKind | None: ...
    async def release(self, schedule: S, day: dt.date, /, *, claimant: str) -> None: ...
    async def posted(
        self, schedule: S, day: dt.date, /, *, claimant: str, message_id: int, now: dt.datetime
    ) -> None: ...
    async def prune_claims(self, before: dt.date, /) -> int: ...


class Outcome(enum.StrEnum):
    """What becomes of a claimed post that did not go out."""

    FAILED = "failed"  # transient: retried on a later tick inside the grace window
    DISABLED = "disabled"  # posting there cannot work: given up until an admin runs /daily set
    # The person cannot receive it (DMs closed): paused until they run /mydaily set again.
    PAUSED = "paused"


@dataclass(frozen=True)
class SchedulerConfig:
    grace: dt.timedelta = DEFAULT_GRACE
    concurrency: int = 16  # sends in flight at once; discord.py queues per-route rate limits
    # Posts started a second by the whole bot (each process its shards' share), under Discord's
    # global limit of 50 requests a second (``bot.daily.pace``); 0: as fast as sends return.
    posts_per_second: float = DEFAULT_POSTS_PER_SECOND
    # After this, a "sending" claim is stale and another tick takes it over. A send takes
    # seconds; the takeover resends with the same nonce, which Discord deduplicates for only "a
    # few minutes": the lease (plus the minute until the next tick) must stay inside that.
    lease: dt.timedelta = dt.timedelta(minutes=2)


@dataclass
class TickReport:
    """What one tick did, for logs, tests and the benchmark."""

    due: int = 0
    posted: int = 0
    failed: int = 0  # transient: retried on a later tick inside the grace window
    paused: int = 0
    disabled: int = 0
    already_claimed: int = 0
    fetches: int = 0
    errors: list[str] = field(default_factory=list)
    # Seconds from each post's due minute to its sending, for the metrics.
    delays: list[float] = field(default_factory=list)


class Planned(Protocol):
    """A post due at a tick: whatever else the sender keeps with it."""

    @property
    def schedule(self) -> Any: ...  # the tick's kind of schedule (a Slotted)

    @property
    def day(self) -> dt.date: ...


P = TypeVar("P", bound=Planned)
# The day's content per feed and date, or why it could not be fetched, for every tick at once.
Fetched = dict[tuple[Feed, dt.date], Content | Exception]


def due_day(schedule: Slotted, now: dt.datetime, *, grace: dt.timedelta) -> dt.date | None:
    """The local date ``schedule`` should post for at ``now``: due (``bot.daily.post_times``),
    not posted yet, and not waiting for a retry. Its status and token are not looked at."""
    day = due_date(schedule, now, grace=grace)
    if day is None:
        return None
    if schedule.last_posted_date is not None and schedule.last_posted_date >= day:
        return None
    if schedule.retry_at is not None and now < schedule.retry_at:
        return None
    return day


def by_feed_and_day(posts: Iterable[P]) -> dict[tuple[Feed, dt.date], list[P]]:
    """Posts grouped for fetching: one upstream call per feed and local date."""
    groups: dict[tuple[Feed, dt.date], list[P]] = defaultdict(list)
    for post in posts:
        groups[(post.schedule.feed, post.day)].append(post)
    return groups


def failure_reason(known: tuple[str, str] | None) -> str:
    """The reason recorded for a failed fetch: the known error's title and text, in English."""
    if known is None:
        return UNREACHABLE
    title, text = known
    return FAILED.format(title=title, text=text)


def whole_minute(instant: dt.datetime) -> dt.datetime:
    return instant.astimezone(dt.UTC).replace(second=0, microsecond=0)


def minute_to_tick(last: dt.datetime | None, now: dt.datetime) -> dt.datetime:
    """The whole minute a tick at ``now`` stands for; never ``last``'s or one before it (a
    wake-up a little early, or a clock set back, moves on from ``last`` instead)."""
    minute = whole_minute(now)
    if last is not None and minute <= last:
        return last + MINUTE
    return minute


def seconds_until(instant: dt.datetime, now: dt.datetime) -> float:
    return max(0.0, (instant - now).total_seconds())


def new_claimant() -> str:
    """Who holds a claim: readable in the database, unique per planner."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class DailyPlanner(Generic[S]):
    """The long-lived part: the store, the upstream, who claims, when claims were pruned;
    ``serves``: which schedules this process posts (all when None)."""

    def __init__(
        self,
        store: ScheduleBook[S],
        upstream: Upstream[S],
        *,
        config: SchedulerConfig | None = None,
        claimant: str | None = None,
        serves: Callable[[S], bool] | None = None,
    ) -> None:
        self.store = store
        self.upstream = upstream
        self.config = config or SchedulerConfig()
        self.claimant = claimant or new_claimant()
        self.serves = serves
        self._pruned_at: dt.datetime | None = None

    async def begin(self, now: dt.datetime, *, joining: Tick[Any] | None = None) -> Tick[S]:
        """A tick at ``now`` (aware): the live schedules and their token problems, read.
        ``joining``: another planner's tick at the same instant, whose report and fetched
        content this one shares."""
        if now.tzinfo is None or now.utcoffset() is None:
            raise ValueError("tick(now) needs an aware datetime")
        schedules = await self.store.live()
        if self.serves is not None:
            schedules = [s for s in schedules if self.serves(s)]
        problems = await self.upstream.token_problems(schedules)
        tick = Tick(self, now, schedules, problems)
        if joining is not None:
            tick.report, tick.fetched = joining.report, joining.fetched
        return tick

    async def prune(self, tick: Tick[S]) -> None:
        """Drop claims no slot can be due for again (hourly)."""
        if self._pruned_at is None or tick.now - self._pruned_at >= PRUNE_EVERY:
            self._pruned_at = tick.now
            await self.store.prune_claims((tick.now - CLAIM_RETENTION).date())

    async def end(self, tick: Tick[S]) -> TickReport:
        """Prune old claims (hourly) and log what the tick did (and any tick it joined)."""
        report = tick.report
        await self.prune(tick)
        if report.due:
            log.info(
                "daily tick: %d due, %d posted, %d failed, %d fetches",
                report.due,
                report.posted,
                report.failed,
                report.fetches,
            )
        return report


@dataclass
class Tick(Generic[S]):
    """One tick's decisions and records; every failure ends in a schedule's record."""

    planner: DailyPlanner[S]
    now: dt.datetime
    schedules: list[S]
    problems: Mapping[tuple[int, Feed], str]
    report: TickReport = field(default_factory=TickReport)
    fetched: Fetched = field(default_factory=dict)
    # When the tick began, on a monotonic clock: its sends go out over the tick (paced).
    started: float = field(default_factory=time.monotonic)

    @property
    def store(self) -> ScheduleBook[S]:
        return self.planner.store

    # -- which schedules are due

    async def due(self, schedule: S) -> dt.date | None:
        """The local date ``schedule`` posts for now, or None. A paused schedule whose token
        works again resumes; a due one whose token does not is paused."""
        problem = self.problems.get(schedule.key)
        if schedule.status is ScheduleStatus.PAUSED:
            if schedule.status_reason not in self.planner.upstream.pause_reasons or problem:
                return None
            await self._set_status(schedule, ScheduleStatus.ACTIVE, None)
            log.info("daily %s of %s resumed", schedule.feed, schedule.where)
        day = due_day(schedule, self.now, grace=self.planner.config.grace)
        if day is None:
            return None
        if problem is not None:
            await self.pause(schedule, problem)
            return None
        return day

    # -- one fetch per feed and date

    async def fetch(
        self, feed: Feed, day: dt.date, posts: list[P]
    ) -> tuple[Content | None, list[P]]:
        """The day's content, fetched with the first of the posts' tokens that works; and the
        posts still to send (those whose token was refused are paused, not sent). Fetched once
        per feed and date for this tick and any tick joining it: a joining tick gets the
        content, or the failure, without another call."""
        ready = list(posts)
        earlier = self.fetched.get((feed, day))
        if isinstance(earlier, Exception):
            await self._record_failed_fetch(ready, earlier)
            return None, []
        if earlier is not None:
            return earlier, ready
        refused: set[tuple[str, int | None]] = set()
        for post in posts:
            schedule = post.schedule
            who = (schedule.token_source, schedule.owner_id)
            if who in refused:
                continue
            try:
                fetch = await self.planner.upstream.fetcher(schedule)
                self.report.fetches += 1
                content = await fetch(feed, day)
            except TokenRefused as error:
                refused.add(who)
                ready = await self._pause_all(ready, who, error.reason)
                continue
            except Exception as error:
                self.fetched[(feed, day)] = error
                await self._fetch_failed(feed, day, ready, error)
                return None, []
            self.fetched[(feed, day)] = content
            return content, ready
        return None, []

    async def _pause_all(self, posts: list[P], who: tuple[str, int | None], reason: str) -> list[P]:
        """Pause the posts of the token ``who``; the others."""
        kept = []
        for post in posts:
            if (post.schedule.token_source, post.schedule.owner_id) == who:
                await self.pause(post.schedule, reason)
            else:
                kept.append(post)
        return kept

    async def _fetch_failed(
        self, feed: Feed, day: dt.date, posts: list[P], error: Exception
    ) -> None:
        known = self.planner.upstream.known_failure(error)
        if known is None:
            log.error("daily %s for %s: unexpected error", feed, day, exc_info=error)
        else:
            log.warning("daily %s for %s: %s", feed, day, type(error).__name__)
        if isinstance(error, errors.Unauthorized):
            log.error("daily posts: the operator's MAGISTERIUM_TOKEN was refused (401)")
        await self._record_failed_fetch(posts, error)

    async def _record_failed_fetch(self, posts: list[P], error: Exception) -> None:
        reason = failure_reason(self.planner.upstream.known_failure(error))
        for post in posts:
            await self.failed(post.schedule, reason)

    # -- the claim and the outcome

    async def claim(self, schedule: S, day: dt.date) -> ClaimKind | None:
        """The (schedule, day) slot, if this tick may send it: ``"new"``, or ``"taken_over"``
        from a process that died mid-post (its message may have gone out); None: not ours."""
        config = self.planner.config
        claimed = await self.store.claim_or_take_over(
            schedule, day, claimant=self.planner.claimant, now=self.now, lease=config.lease
        )
        if claimed is None:
            self.report.already_claimed += 1
        return claimed

    async def posted(
        self, schedule: S, day: dt.date, message_id: int, *, sent_earlier: bool = False
    ) -> None:
        """The post went out: sent by this tick, or ``sent_earlier`` by a claimant that died
        before recording it (its delay is not known)."""
        await self.store.posted(
            schedule, day, claimant=self.planner.claimant, message_id=message_id, now=self.now
        )
        self.report.posted += 1
        if not sent_earlier:
            self.report.delays.append(self.seconds_late(schedule, day))

    def seconds_late(self, schedule: S, day: dt.date) -> float:
        """From ``schedule``'s due minute on ``day`` to now: the tick's instant, plus the time
        the tick has run."""
        slot = slot_instant(day, schedule.post_time, schedule.zone)
        return (self.now - slot).total_seconds() + time.monotonic() - self.started

    async def not_sent(
        self,
        schedule: S,
        day: dt.date,
        outcome: Outcome,
        reason: str,
    ) -> None:
        """The claimed post did not go out: the claim is given back; retried, paused (until
        set again: ``reason`` is no token reason) or disabled."""
        await self.store.release(schedule, day, claimant=self.planner.claimant)
        if outcome is Outcome.DISABLED:
            await self.disable(schedule, reason)
        elif outcome is Outcome.PAUSED:
            await self.pause(schedule, reason)
        else:
            await self.failed(schedule, reason)

    async def note(self, schedule: S, reason: str) -> None:
        """A problem that did not stop the post."""
        await self.store.note(schedule, reason, now=self.now)

    async def pause(self, schedule: S, reason: str) -> None:
        self.report.paused += 1
        log.info("daily %s of %s paused", schedule.feed, schedule.where)
        await self._set_status(schedule, ScheduleStatus.PAUSED, reason)

    async def disable(self, schedule: S, reason: str) -> None:
        self.report.disabled += 1
        log.info("daily %s of %s disabled: %s", schedule.feed, schedule.where, reason)
        await self._set_status(schedule, ScheduleStatus.DISABLED, reason)

    async def failed(self, schedule: S, reason: str) -> None:
        """A transient failure: retried after a backoff, while the grace window lasts."""
        self.report.failed += 1
        self.report.errors.append(f"{schedule.key[0]}: {reason}")
        retry_at = self.now + backoff(schedule.failures + 1)
        await self.store.record_failure(schedule, reason, now=self.now, retry_at=retry_at)

    async def _set_status(self, schedule: S, status: ScheduleStatus, reason: str | None) -> None:
        await self.store.set_status(*schedule.key, status, reason, now=self.now)

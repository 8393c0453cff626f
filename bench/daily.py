"""Benchmark: one daily-post tick with N schedules due in the same minute, through the real bot.

Run by hand from the repository root (offline, some seconds):

    .venv/bin/python bench/daily.py [--schedules 1000] [--latency-ms 50] [--concurrency 16]
        [--database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test] [--breakdown]

The bot is ``create_bot(settings)`` with the test harness's settings (operator token, no Redis,
one process), started by the offline harness (``devtools.discord.Harness``: dpytest underneath, a
fake Discord that answers every request at once), against the fake Magisterium on loopback TCP
with a fixed latency per request and its rate limits off. The database is SQLite in a temporary
directory, or, with ``--database-url``, a fresh PostgreSQL database created on that server for
the run and dropped afterwards (the database named in the URL is only connected to, to create
and drop it).

Setup (timed apart): N guilds, each with the bot and one text channel; N schedules saved with
``ScheduleStore.save`` (operator's shared token), half saints and half readings, spread over
timezones whose local date at the tick is the same, plus two (UTC+12, UTC+14) already on the
next date; each slot is the local wall time of the tick in its zone, so all N are due at once.

Measured: ``await cog.tick(now)`` once: upstream calls by skill against the goal (one per
distinct (feed, local date)), posts against the goal (exactly N, one per channel), the
``TickReport``, wall and CPU time, posts per second; then ``tick(now + 1 min)``: no post (nothing
is posted twice), and its wall time, the steady-state cost of a tick with nothing due; then
``--idle-ticks`` more such ticks (min, median, max, and the garbage collector's share of the
max). Exits 1 when a goal is missed.

``--breakdown`` times the tick's awaited parts (database calls, sends, fetches); ``--profile``
runs the first tick under cProfile (main thread only: aiosqlite's work runs in its own thread).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import datetime as dt
import gc
import io
import logging
import pstats
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from bot.app import MagisteriumBot, create_bot  # noqa: E402
from bot.daily import Feed  # noqa: E402
from bot.daily.planner import SchedulerConfig, Tick, TickReport  # noqa: E402
from bot.daily.post_times import local_date  # noqa: E402
from devtools.discord import Harness  # noqa: E402
from devtools.discord.fixtures import harness_settings  # noqa: E402
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402
from tests.support.databases import admin_execute  # noqa: E402

# The tick: 12:00 UTC on Monday 15 June 2026. Every zone but the last two is on 2026-06-15 then;
# Auckland (00:00) and Kiritimati (02:00) are already on 2026-06-16.
NOW = dt.datetime(2026, 6, 15, 12, 0, tzinfo=dt.UTC)
ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Warsaw",
    "Africa/Lagos",
    "Asia/Kolkata",
    "America/New_York",
    "America/Sao_Paulo",
    "America/Los_Angeles",
    "Pacific/Pago_Pago",
    "Pacific/Auckland",
    "Pacific/Kiritimati",
)
ADMIN_ID = 4242  # who ran /daily set; the schedules post with the operator's shared token


def schedule_plan(count: int) -> list[tuple[Feed, str]]:
    """(feed, zone) of each schedule: feeds alternate, zones cycle independently of feeds."""
    feeds = (Feed.SAINTS, Feed.READINGS)
    return [(feeds[i % 2], ZONES[(i // 2) % len(ZONES)]) for i in range(count)]


def expected_pairs(plan: list[tuple[Feed, str]]) -> set[tuple[Feed, dt.date]]:
    return {(feed, local_date(NOW, ZoneInfo(zone))) for feed, zone in plan}


# --- the database ------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def database(url: str | None) -> AsyncIterator[tuple[str, str]]:
    """(SQLAlchemy URL, description) of an empty database for this run; removed afterwards."""
    if url is None:
        with tempfile.TemporaryDirectory(prefix="daily-bench-") as directory:
            yield f"sqlite+aiosqlite:///{directory}/bot.db", f"SQLite (WAL), {directory}/bot.db"
        return
    server = make_url(url)
    if server.drivername != "postgresql+asyncpg":
        raise SystemExit("--database-url: a postgresql+asyncpg:// URL (SQLite is the default)")
    name = f"daily_bench_{uuid.uuid4().hex[:12]}"
    await admin_execute(server, f'CREATE DATABASE "{name}"')
    fresh = server.set(database=name)
    try:
        yield (
            fresh.render_as_string(hide_password=False),
            f"PostgreSQL, fresh database {fresh.render_as_string(hide_password=True)} "
            "(dropped at exit)",
        )
    finally:
        await admin_execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- measuring -----------------------------------------------------------------------------------


class Timers:
    """Seconds spent inside some awaited calls, summed over calls (overlapping ones too)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: Counter[str] = Counter()
        self._undo = contextlib.ExitStack()

    def wrap(self, owner: Any, attribute: str, label: str) -> None:
        """Time ``owner.attribute`` (a coroutine function) until :meth:`close`."""
        original = getattr(owner, attribute)
        had_own = attribute in vars(owner)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.seconds[label] = self.seconds.get(label, 0.0) + time.perf_counter() - started
                self.calls[label] += 1

        setattr(owner, attribute, timed)
        if had_own:
            self._undo.callback(setattr, owner, attribute, original)
        else:  # an instance attribute over a method: removing it brings the method back
            self._undo.callback(delattr, owner, attribute)

    def print_and_reset(self) -> None:
        print("  breakdown       (seconds summed over calls; concurrent calls overlap)")
        for label, seconds in sorted(self.seconds.items(), key=lambda item: -item[1]):
            calls = self.calls[label]
            per_call = 1000 * seconds / calls
            print(f"    {label:<34}{calls:6d} calls {seconds:8.3f}s {per_call:8.2f} ms/call")
        self.seconds.clear()
        self.calls.clear()

    def close(self) -> None:
        self._undo.close()


PACKAGES = (  # (label, path fragment), first match wins
    ("sqlalchemy", "/sqlalchemy/"),
    ("asyncpg", "/asyncpg/"),
    ("aiosqlite, sqlite3", "sqlite"),
    ("dpytest + devtools/discord (fake Discord)", "/discord/ext/test/"),
    ("dpytest + devtools/discord (fake Discord)", "/devtools/discord/"),
    ("discord.py", "/discord/"),
    ("httpx, httpcore, aiohttp (fake upstream)", "/http"),
    ("httpx, httpcore, aiohttp (fake upstream)", "/aiohttp/"),
    ("the bot (bot/, cogs/)", "/bot/"),
    ("the bot (bot/, cogs/)", "/cogs/"),
    ("event loop: epoll wait (idle)", "<method 'poll'"),
    ("greenlet (SQLAlchemy's async bridge)", "greenlet"),
    ("asyncio", "/asyncio/"),
    ("other", ""),
)


def by_package(stats: pstats.Stats) -> dict[str, float]:
    totals: dict[str, float] = {}
    for (filename, _, function), row in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{filename}:{function}"
        label = next(label for label, fragment in PACKAGES if fragment in where)
        totals[label] = totals.get(label, 0.0) + row[2]  # tottime
    return totals


@contextlib.contextmanager
def profiled(enabled: bool, top: int = 20) -> Iterator[None]:
    if not enabled:
        yield
        return
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("tottime").print_stats(top)
        print(out.getvalue())
        totals = by_package(stats)
        print("own time (tottime) by package, main thread:")
        for label, seconds in sorted(totals.items(), key=lambda item: -item[1]):
            print(f"  {label:<44}{seconds:8.3f}s {100 * seconds / sum(totals.values()):5.1f}%")
        print()


@dataclass
class Timed:
    wall: float
    cpu: float


@contextlib.contextmanager
def timed() -> Iterator[Timed]:
    result = Timed(0.0, 0.0)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield result
    finally:
        result.wall, result.cpu = time.perf_counter() - wall, time.process_time() - cpu


# --- the run ---------------------------------------------------------------------------------


async def populate(
    bot: MagisteriumBot, harness: Harness, plan: list[tuple[Feed, str]]
) -> tuple[Timed, Timed]:
    """One guild per schedule, then the schedules; (guilds' time, schedules' time)."""
    store = bot.services.schedules
    with timed() as guilds_time:
        channels = [harness.make_guild(f"Guild {i}") for i in range(len(plan))]
    with timed() as save_time:
        for channel, (feed, zone) in zip(channels, plan, strict=True):
            await store.save(
                guild_id=channel.guild.id,
                feed=feed,
                channel_id=channel.id,
                post_time=NOW.astimezone(ZoneInfo(zone)).time().replace(second=0, microsecond=0),
                timezone=zone,
                role_id=None,
                owner_id=ADMIN_ID,
                token_source="shared",
                now=NOW - dt.timedelta(days=1),
            )
    return guilds_time, save_time


def print_setup(
    args: argparse.Namespace,
    plan: list[tuple[Feed, str]],
    *,
    server_url: str,
    database_label: str,
    concurrency: int,
    times: tuple[Timed, Timed, Timed],
) -> None:
    boot, guilds, saves = times
    n = len(plan)
    print(f"database:    {database_label}")
    print(
        f"upstream:    fake Magisterium at {server_url}, {args.latency_ms:g} ms latency per "
        "request, rate limits off"
    )
    print("discord:     the harness's fake Discord (dpytest) answers every send at once;")
    print("             Discord's own rate limits are NOT modelled (discord.py queues sends per")
    print("             route and globally in production, ~50 requests/s per bot)")
    print(f"concurrency: {concurrency} sends in flight (Settings.daily_post_concurrency)")
    print(
        f"setup:       bot start {boot.wall:.2f}s; {n} guilds {guilds.wall:.2f}s; "
        f"{n} schedules saved one by one {saves.wall:.2f}s"
    )
    feeds = Counter(feed.value for feed, _ in plan)
    print(
        f"schedules:   {n} ({', '.join(f'{count} {feed}' for feed, count in feeds.items())}), "
        f"all due at {NOW.isoformat()}"
    )
    zones_by_date: dict[dt.date, list[str]] = {}
    for zone in dict.fromkeys(zone for _, zone in plan):
        zones_by_date.setdefault(local_date(NOW, ZoneInfo(zone)), []).append(zone)
    for day, zones in sorted(zones_by_date.items()):
        count = sum(1 for _, zone in plan if zone in zones)
        print(f"             local date {day} ({count} schedules): {', '.join(zones)}")
    pairs = expected_pairs(plan)
    shown = ", ".join(f"{feed}/{day}" for feed, day in sorted(pairs))
    print(f"goal:        {len(pairs)} upstream calls (distinct feed/date pairs: {shown}),")
    print(f"             {n} posts, one per channel")
    print()


def upstream_calls(fake: FakeMagisterium) -> dict[str, int]:
    return {feed.value: fake.count(skill=feed.skill) for feed in Feed}


def instrument(bot: MagisteriumBot, cog: Any) -> Timers:
    """Timers around the tick's awaited parts (``--breakdown``)."""
    timers = Timers()
    store = bot.services.schedules
    timers.wrap(store, "live", "ScheduleStore.live")
    timers.wrap(cog.sender, "_check", "DailySender._check")
    timers.wrap(Tick, "fetch", "Tick.fetch")
    for name in ("claim", "claim_or_take_over"):  # whichever the planner calls
        if hasattr(store, name):
            timers.wrap(store, name, f"ScheduleStore.{name}")
    timers.wrap(discord.abc.Messageable, "send", "channel.send (fake Discord)")
    timers.wrap(store, "posted", "ScheduleStore.posted")
    return timers


def print_report(report: TickReport) -> None:
    fields = asdict(report)
    errors = fields.pop("errors")
    fields["latest_delay"] = f"{max(fields.pop('delays'), default=0.0):.1f}s"  # one per post
    print("  TickReport      " + ", ".join(f"{k}={v}" for k, v in fields.items()))
    print(f"                  errors={len(errors)}{' ' + str(errors[:3]) if errors else ''}")


async def first_tick(
    args: argparse.Namespace,
    cog: Any,
    harness: Harness,
    fake: FakeMagisterium,
    plan: list[tuple[Feed, str]],
) -> list[str]:
    """The tick with everything due; the goals it missed."""
    pairs = expected_pairs(plan)
    with profiled(args.profile), timed() as first:
        report = await cog.tick(NOW)
    sent = harness.channel_messages
    calls = upstream_calls(fake)
    channels = len({message.place.channel_id for message in sent})
    missed = []
    if sum(calls.values()) != len(pairs):
        missed.append(f"{sum(calls.values())} upstream calls, not {len(pairs)}")
    if not len(sent) == channels == len(plan):
        missed.append(f"{len(sent)} posts in {channels} channels, not {len(plan)}")
    goal_by_feed = Counter(feed.value for feed, _ in pairs)
    print(f"tick 1 at {NOW:%H:%M} UTC, {len(plan)} due:")
    print(
        f"  upstream calls  {sum(calls.values())} (goal {len(pairs)}): "
        + ", ".join(f"{feed} {n} (goal {goal_by_feed[feed]})" for feed, n in calls.items())
        + ("" if sum(calls.values()) == len(pairs) else "   <-- MISSED THE GOAL")
    )
    print(
        f"  posts sent      {len(sent)} (goal {len(plan)}), in {channels} channels"
        + ("" if len(sent) == channels == len(plan) else "   <-- MISSED THE GOAL")
    )
    print_report(report)
    print(f"  wall time       {first.wall:.3f}s (CPU of this process {first.cpu:.3f}s)")
    print(f"  posts/second    {len(sent) / first.wall:.0f}")
    return missed


async def second_tick(
    cog: Any, harness: Harness, fake: FakeMagisterium, plan: list[tuple[Feed, str]]
) -> list[str]:
    """A minute later, nothing due; the goals it missed."""
    posts, calls = len(harness.channel_messages), sum(upstream_calls(fake).values())
    later = NOW + dt.timedelta(minutes=1)
    with timed() as idle:
        report = await cog.tick(later)
    again = len(harness.channel_messages) - posts
    more_calls = sum(upstream_calls(fake).values()) - calls
    print(f"tick 2 at {later:%H:%M} UTC, nothing due:")
    print(f"  posts sent      {again} (goal 0)" + ("" if again == 0 else "   <-- DOUBLE POSTS"))
    print(f"  upstream calls  {more_calls} (goal 0)")
    print_report(report)
    print(
        f"  wall time       {idle.wall:.3f}s (CPU {idle.cpu:.3f}s): the steady-state cost "
        f"of a tick with {len(plan)} schedules, none due"
    )
    if again or more_calls:
        return [f"the second tick posted {again} and called upstream {more_calls} times"]
    return []


async def run_ticks(
    args: argparse.Namespace,
    bot: MagisteriumBot,
    harness: Harness,
    fake: FakeMagisterium,
    plan: list[tuple[Feed, str]],
) -> list[str]:
    """Run and print the ticks; the goals missed."""
    cog: Any = bot.get_cog("DailyCog")
    timers = instrument(bot, cog) if args.breakdown else Timers()
    try:
        missed = await first_tick(args, cog, harness, fake, plan)
        if args.breakdown:
            timers.print_and_reset()
        missed += await second_tick(cog, harness, fake, plan)
        if args.breakdown:
            timers.print_and_reset()
    finally:
        timers.close()
    after = NOW + dt.timedelta(minutes=1)
    if await idle_ticks(args.idle_ticks, cog, harness, after):
        missed.append("an idle tick posted")
    return missed


class GcTime:
    """Seconds the garbage collector ran while installed (gc.callbacks)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started

    def __enter__(self) -> GcTime:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


async def idle_ticks(count: int, cog: Any, harness: Harness, after: dt.datetime) -> int:
    """More ticks with nothing due, a minute apart: the spread of the steady-state cost.
    Returns how many posts they sent (none expected)."""
    if count < 1:
        return 0
    before = len(harness.channel_messages)
    samples: list[tuple[float, float]] = []  # (wall, of which the garbage collector)
    for minute in range(1, count + 1):
        with GcTime() as collector, timed() as idle:
            await cog.tick(after + dt.timedelta(minutes=minute))
        samples.append((idle.wall, collector.seconds))
    posts = len(harness.channel_messages) - before
    samples.sort()
    worst, worst_gc = samples[-1]
    print(
        f"ticks 3-{count + 2}, nothing due: posts {posts} (goal 0); wall time min "
        f"{samples[0][0]:.3f}s, median {samples[len(samples) // 2][0]:.3f}s, "
        f"max {worst:.3f}s (of which the garbage collector {worst_gc:.3f}s)"
    )
    return posts


async def bench(args: argparse.Namespace) -> list[str]:
    plan = schedule_plan(args.schedules)
    fake = FakeMagisterium(latency=args.latency_ms / 1000, rate_limits_enabled=False)
    async with (
        running_fake_server(fake) as server,
        database(args.database_url) as (database_url, database_label),
    ):
        overrides = {"daily_post_concurrency": args.concurrency}
        bot = create_bot(harness_settings(server.url, database_url, **overrides))
        started = time.perf_counter()
        async with Harness.start(bot) as harness:
            boot = Timed(time.perf_counter() - started, 0.0)
            guilds, saves = await populate(bot, harness, plan)
            cog: Any = bot.get_cog("DailyCog")
            concurrency = cog.sender.planner.config.concurrency
            print_setup(
                args,
                plan,
                server_url=server.url,
                database_label=database_label,
                concurrency=concurrency,
                times=(boot, guilds, saves),
            )
            return await run_ticks(args, bot, harness, fake, plan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedules", type=int, default=1000, help="schedules due (1000)")
    parser.add_argument(
        "--latency-ms", type=float, default=50.0, help="fake Magisterium latency per request (50)"
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=SchedulerConfig().concurrency,
        help="Settings.daily_post_concurrency, sends in flight (the setting's default; max 50)",
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server (postgresql+asyncpg://...): a fresh database is created on it "
        "for the run and dropped afterwards. Default: SQLite in a temporary directory",
    )
    parser.add_argument(
        "--idle-ticks", type=int, default=10, help="more ticks with nothing due, timed (10)"
    )
    parser.add_argument(
        "--breakdown", action="store_true", help="time the tick's database calls, sends, fetches"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the first tick")
    args = parser.parse_args()
    if args.schedules < 1 or not 1 <= args.concurrency <= 50 or args.latency_ms < 0:
        parser.error("--schedules >= 1, --concurrency in 1..50, --latency-ms >= 0")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # "PyNaCl is not installed"
    missed = asyncio.run(bench(args))
    if missed:
        sys.exit("goal missed: " + "; ".join(missed))


if __name__ == "__main__":
    main()

"""Benchmark: 5,000 servers' daily posts due in the same minute, over the real run path.

Run by hand from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth, and Redis
on 127.0.0.1:6379, as the tests use; minutes per run):

    .venv/bin/python bench/daily_fanout.py [--servers 5000] [--processes 1,2,4]
        [--feeds saints|saints,readings] [--concurrency 16[,32]] [--latency-ms 200]
        [--discord-latency-ms 100] [--global-limit 50] [--due minute|start]

For each process count (and each ``--concurrency``), a run of its own, from nothing:

- the fake Magisterium on loopback TCP (its per-token limits on, ``--latency-ms`` per request);
- the Discord stand-in (``devtools.discord_standin``) with ``--servers`` servers, each with a
  text channel, spread over the shards by ``(guild_id >> 22) % N``, and Discord's REST limits:
  5 messages per 5 s per channel, and the global limit (``--global-limit`` requests a second
  over every route but the interaction endpoints, shared by every process on the token). Each
  REST request is answered ``--discord-latency-ms`` late (Discord's own round trip, which is
  what makes ``DAILY_POST_CONCURRENCY`` a rate);
- a fresh PostgreSQL database (dropped afterwards), and Redis (``--redis-url``: a logical
  database of its own, so that nobody else's cached saints of today make the upstream count
  wrong; only the entries of the dates measured are deleted, before the run and before the
  due minute, so the day's content is fetched cold as on a real morning);
- a schedule per server and feed, seeded in bulk before the bots start, in twelve time zones
  (two or three local dates), each at the local wall time of one instant, the due minute;
- ``N`` processes of ``python -m bot run`` (``SHARD_COUNT=N``, ``SHARD_IDS=i``), on one
  operator token (the schedules' ``shared`` token) of the run's own.

``--due minute`` (the default): once every process is ready (its first tick posted a probe
server's post), the schedules are timed for the next whole minute at least 10 s ahead, so
every process's tick for that minute finds them all due at once; one sentinel server per
shard is due a minute later, so the next tick shows itself (its log line) and can be checked
for posts it should not make. ``--due start``: the schedules are due before the bots start and
their first tick sends them (no wait for a minute, no next-tick check: the CI smoke run).

Printed per run: the time from the due minute until the last post landed at the stand-in (and
from the first post to the last), posts per feed against the goal (each server's post once,
none deduplicated by nonce, none by a later tick), upstream calls by feed against the goal (one
per feed and local date, across every process), the 429s the stand-in gave by scope (global,
per route) and those discord.py logged, the ticks' own report, and per process its CPU ms per
post over the tick and its RSS; then a table of every run. Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import re
import secrets
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from aiohttp import web  # noqa: E402
from redis.asyncio import Redis  # noqa: E402
from sqlalchemy import insert, select, update  # noqa: E402

from bench.daily import ZONES, database  # noqa: E402
from bot.cache.public import cache_key  # noqa: E402
from bot.cache.store import DEFAULT_PREFIX  # noqa: E402
from bot.daily import Feed  # noqa: E402
from bot.daily.planner import SchedulerConfig  # noqa: E402
from bot.daily.post_times import local_date  # noqa: E402
from bot.storage import Database  # noqa: E402
from bot.storage.models import DailyClaimRow, DailyScheduleRow  # noqa: E402
from cogs.daily.post import nonce_of  # noqa: E402
from devtools.discord_standin import Channel, StandIn, shard_of  # noqa: E402
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402
from tests.support.real_run import START_TIMEOUT, BotProcess, bot_env  # noqa: E402

DISCORD_EPOCH_MS = 1_420_070_400_000
POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/9"
# The probe and sentinel servers' zones (UTC by other names): none of the main servers'.
PROBE_ZONE, SENTINEL_ZONE = "Etc/UTC", "Etc/GMT"
CHANNEL_LIMIT = (5, 5.0)  # Discord: 5 messages per 5 s per channel
# The bot's log line at the end of a tick that had something due (bot.daily.planner).
TICK = re.compile(r"daily tick: (\d+) due, (\d+) posted, (\d+) failed, (\d+) fetches")
# discord.py's warnings for each 429 it was given, and for each global one.
RATE_LIMITED = "We are being rate limited."
GLOBAL_HIT = "Global rate limit has been hit."
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Config:
    servers: int = 5000
    processes: int = 1
    feeds: tuple[Feed, ...] = (Feed.SAINTS,)
    concurrency: int = SchedulerConfig().concurrency
    latency_ms: float = 200.0  # the fake Magisterium's, per request
    discord_latency_ms: float = 100.0  # the stand-in's, per REST request
    global_limit: int = 50  # requests a second; 0: none
    due: str = "minute"  # or "start"
    profile: bool = False  # each bot under cProfile, its stats written at its exit
    postgres_url: str = POSTGRES_URL
    redis_url: str = REDIS_URL


# --- the servers and their schedules -------------------------------------------------------


@dataclass(frozen=True)
class Server:
    guild_id: int
    channel_id: int
    shard: int
    zone: str
    role: str  # "main", "probe" (readiness) or "sentinel" (the next tick)


def guild_ids(count: int, *, start_ms: int) -> list[int]:
    """``count`` snowflakes a day or more old, one per millisecond going back from
    ``start_ms``: consecutive milliseconds spread them evenly over any shard count."""
    ids = []
    for i in range(count):
        ms = start_ms - i
        ids.append((ms << 22) | secrets.randbits(20))  # room for its roles' +1 and owner's +2
    return ids


def add_servers(standin: StandIn, config: Config) -> list[Server]:
    """The main servers (zones cycling on each shard), then a probe and a sentinel server on
    each shard."""
    shards = config.processes
    start_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS - 86_400_000
    servers = []
    for i, guild_id in enumerate(guild_ids(config.servers, start_ms=start_ms)):
        guild = standin.world.add_guild(f"Parish {i}", guild_id=guild_id)
        zone = ZONES[(i // shards) % len(ZONES)]  # every shard gets every zone (and date)
        servers.append(
            Server(guild.id, guild.channels[0].id, shard_of(guild.id, shards), zone, "main")
        )
    ms = start_ms - config.servers - 1
    for role in ("probe", "sentinel"):
        for shard in range(shards):
            while ms % shards != shard:
                ms -= 1
            guild = standin.world.add_guild(f"{role} {shard}", guild_id=(ms << 22) | 1)
            assert shard_of(guild.id, shards) == shard
            zone = PROBE_ZONE if role == "probe" else SENTINEL_ZONE
            servers.append(Server(guild.id, guild.channels[0].id, shard, zone, role))
            ms -= 1
    return servers


def local_slot(instant: dt.datetime, zone: str) -> str:
    return instant.astimezone(ZoneInfo(zone)).strftime("%H:%M")


def schedule_row(server: Server, feed: Feed, slot: str, now: dt.datetime) -> dict[str, Any]:
    """A schedule as ``ScheduleStore.save`` writes it (``/daily set`` by the server's owner,
    posting with the operator's shared token), active since ten minutes ago."""
    return {
        "guild_id": server.guild_id,
        "feed": feed.value,
        "channel_id": server.channel_id,
        "post_time": slot,
        "timezone": server.zone,
        "role_id": None,
        "discord_user_id": server.guild_id + 2,  # the stand-in's owner of that server
        "token_source": "shared",
        "status": "active",
        "status_reason": None,
        "active_since": now - dt.timedelta(minutes=10),
        "failures": 0,
        "retry_at": None,
        "updated_at": now - dt.timedelta(minutes=10),
        "locale": None,
    }


async def seed(database_url: str, servers: Sequence[Server], config: Config) -> dt.datetime:
    """Every schedule, in one statement. With ``--due start`` the main ones are due a minute
    ago; with ``--due minute`` they wait, not due, for :func:`time_schedules` (a slot twelve
    hours ahead: neither today's nor yesterday's is due), and the probes are due a minute ago.
    Returns the seeding instant."""
    now = dt.datetime.now(dt.UTC)
    due_now = now - dt.timedelta(minutes=1)
    later = now + dt.timedelta(hours=12)
    rows = []
    for server in servers:
        if server.role == "probe" and config.due == "minute":
            rows.append(schedule_row(server, Feed.SAINTS, local_slot(due_now, server.zone), now))
        elif server.role == "sentinel" and config.due == "minute":
            rows.append(schedule_row(server, Feed.SAINTS, local_slot(later, server.zone), now))
        elif server.role == "main":
            instant = due_now if config.due == "start" else later
            rows.extend(
                schedule_row(server, feed, local_slot(instant, server.zone), now)
                for feed in config.feeds
            )
    async with Database(database_url) as db:
        await db.migrate()
        async with db.session() as session:
            await session.execute(insert(DailyScheduleRow), rows)
    return now


async def time_schedules(database_url: str, due: dt.datetime) -> None:
    """The main schedules at ``due``'s local time in each zone, the sentinels a minute later."""
    async with Database(database_url) as db, db.session() as session:
        for zone in sorted(set(ZONES)):
            await session.execute(
                update(DailyScheduleRow)
                .where(DailyScheduleRow.timezone == zone)
                .values(post_time=local_slot(due, zone))
            )
        await session.execute(
            update(DailyScheduleRow)
            .where(DailyScheduleRow.timezone == SENTINEL_ZONE)
            .values(post_time=local_slot(due + dt.timedelta(minutes=1), SENTINEL_ZONE))
        )


async def claims_by_state(database_url: str) -> Counter[str]:
    """The daily claims by state: every post made is ``posted``; ``sending`` is one lost."""
    async with Database(database_url) as db, db.session() as session:
        return Counter(await session.scalars(select(DailyClaimRow.state)))


def main_pairs(
    due: dt.datetime, feeds: Iterable[Feed], servers: Iterable[Server]
) -> set[tuple[Feed, dt.date]]:
    """The (feed, local date) pairs the main servers post for at ``due``: the upstream goal."""
    zones = {server.zone for server in servers if server.role == "main"}
    return {(feed, local_date(due, ZoneInfo(zone))) for feed in feeds for zone in zones}


async def forget_cached(redis_url: str, pairs: Iterable[tuple[Feed, dt.date]]) -> int:
    """Delete the shared cache's entries (and fill locks) of these feeds and dates."""
    keys = []
    for feed, day in pairs:
        key = cache_key(feed.skill, day.isoformat())
        keys += [f"{DEFAULT_PREFIX}:{key}", f"{DEFAULT_PREFIX}:fill:{key}"]
    redis = Redis.from_url(redis_url)
    try:
        return int(await redis.delete(*keys))
    finally:
        await redis.aclose()


# --- the stand-in, served with Discord's round trip ----------------------------------------


@contextlib.asynccontextmanager
async def serving(standin: StandIn, latency: float) -> AsyncIterator[StandIn]:
    """As ``running_standin``, each REST request answered ``latency`` seconds late (the
    wait is before it is acted on, so the stand-in's record of it is when it took effect)."""

    @web.middleware
    async def round_trip(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if latency and request.path.startswith("/api/"):
            await asyncio.sleep(latency)
        return await handler(request)

    app = standin.app()
    app.middlewares.append(round_trip)
    runner = web.AppRunner(app, shutdown_timeout=0.5, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server: Any = site._server
    port = server.sockets[0].getsockname()[1]
    standin.base_url = f"http://127.0.0.1:{port}"
    try:
        yield standin
    finally:
        await runner.cleanup()


# --- the bot processes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Usage:
    cpu: float  # seconds, user + system
    rss_mb: float
    peak_mb: float


def usage(pid: int) -> Usage:
    """The process's CPU time and memory, from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / CLOCK_TICKS  # utime, stime
    memory = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            memory[name] = int(value.split()[0]) / 1024
    return Usage(cpu, memory.get("VmRSS", 0.0), memory.get("VmHWM", 0.0))


@dataclass(frozen=True)
class TickLine:
    due: int
    posted: int
    failed: int
    fetches: int
    seen: float  # time.monotonic() when the bench read it


class BenchBot(BotProcess):
    """A bot process whose log is scanned once, line by line, for its ticks' lines."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path, shard: int) -> None:
        super().__init__(process, log_path)
        self.shard = shard
        self.ticks: list[TickLine] = []
        self.rate_limited = 0
        self.global_hits = 0
        self._scanned = 0

    def _scan(self) -> None:
        while self._scanned < len(self.lines):
            line = self.lines[self._scanned]
            self._scanned += 1
            found = TICK.search(line)
            if found:
                due, posted, failed, fetches = map(int, found.groups())
                self.ticks.append(TickLine(due, posted, failed, fetches, time.monotonic()))
            self.rate_limited += RATE_LIMITED in line
            self.global_hits += GLOBAL_HIT in line

    async def tick(self, number: int, *, within: float) -> TickLine:
        """The log line of this process's ``number``-th tick that had something due, awaited
        for at most ``within`` seconds."""
        try:
            async with asyncio.timeout(within):
                while True:
                    self._new_line.clear()
                    self._scan()
                    if len(self.ticks) >= number:
                        return self.ticks[number - 1]
                    if self._reader.done():
                        raise AssertionError(
                            f"shard {self.shard}'s bot exited; see {self.log_path}"
                        )
                    await self._new_line.wait()
        except TimeoutError:
            raise AssertionError(
                f"after {within:.0f} s, shard {self.shard}'s bot has logged {len(self.ticks)} "
                f"ticks, not {number}; see {self.log_path}"
            ) from None


async def start_bot(
    env: dict[str, str], workdir: Path, shard: int, *, profile: bool = False
) -> BenchBot:
    await asyncio.to_thread(workdir.mkdir, parents=True, exist_ok=True)
    profiler = ["-m", "cProfile", "-o", str(workdir / "bot.prof")] if profile else []
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *profiler,
        "-m",
        "bot",
        "run",
        cwd=workdir,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    return BenchBot(process, workdir / f"shard{shard}.log", shard)


@contextlib.asynccontextmanager
async def running_bots(
    envs: Sequence[dict[str, str]], workdir: Path, *, profile: bool = False
) -> AsyncIterator[list[BenchBot]]:
    bots: list[BenchBot] = []
    try:
        for shard, env in enumerate(envs):
            bots.append(await start_bot(env, workdir / f"shard{shard}", shard, profile=profile))
        yield bots
    finally:
        for bot in bots:
            await bot.kill()


# --- what the stand-in saw -------------------------------------------------------------------


@dataclass
class Posts:
    """The channel messages the stand-in created, matched to the posts expected."""

    expected: dict[int, tuple[Server, Feed]]  # nonce -> whose post
    landed: dict[int, float] = field(default_factory=dict)  # nonce -> first creation (monotonic)
    resent: Counter[int] = field(default_factory=Counter)  # nonce -> sends after the first
    unexpected: int = 0
    cursor: int = 0

    def read(self, standin: StandIn) -> None:
        requests = standin.rest.requests
        while self.cursor < len(requests):
            request = requests[self.cursor]
            self.cursor += 1
            if request.kind != "channel_message" or request.method != "POST":
                continue
            if request.status != 200 or not isinstance(request.payload, dict):
                continue
            nonce = int(request.payload.get("nonce") or 0)
            if nonce not in self.expected:
                self.unexpected += 1
            elif nonce in self.landed:
                self.resent[nonce] += 1
            else:
                self.landed[nonce] = request.at

    def of_role(self, role: str) -> list[int]:
        return [n for n, (server, _) in self.expected.items() if server.role == role]


def expected_posts(
    servers: Iterable[Server], config: Config, due: dt.datetime, seeded: dt.datetime
) -> dict[int, tuple[Server, Feed]]:
    posts = {}
    for server in servers:
        if server.role == "main":
            instant = due
            feeds: Iterable[Feed] = config.feeds
        elif config.due == "minute":
            # The probe's slot was the minute before seeding; the sentinel's, after the due one.
            minute = dt.timedelta(minutes=1)
            instant = seeded - minute if server.role == "probe" else due + minute
            feeds = (Feed.SAINTS,)
        else:
            continue
        day = local_date(instant, ZoneInfo(server.zone))
        for feed in feeds:
            posts[nonce_of(server.guild_id, feed, day)] = (server, feed)
    return posts


def duplicates_in(channels: Iterable[Channel]) -> int:
    """Messages beyond the first with one nonce in one channel (what people would see)."""
    extra = 0
    for channel in channels:
        nonces = Counter(m.get("nonce") for m in channel.messages)
        extra += sum(n - 1 for n in nonces.values())
    return extra


# --- one run -------------------------------------------------------------------------------


@dataclass
class ProcessFigures:
    shard: int
    due: int
    posted: int
    failed: int
    fetches: int
    cpu_ms_per_post: float
    rss_mb: float
    peak_mb: float
    rate_limited: int  # 429s discord.py logged
    global_hits: int


@dataclass
class Result:
    config: Config
    due_at: dt.datetime
    start_seconds: float  # from starting the bots until every one was ready
    first_post: float  # seconds after the due minute (--due start: after the bots' start)
    last_post: float
    posts: Counter[Feed]
    goal_per_feed: int
    deduplicated: int  # sends Discord dropped by nonce (the post had gone out already)
    visible_duplicates: int
    later_posts: int  # main posts made by a later tick than the due one
    unexpected: int
    upstream: Counter[Feed]
    pairs: set[tuple[Feed, dt.date]]
    refused: Counter[str]  # "global <kind>" / "route <kind>" -> 429s the stand-in gave
    processes: list[ProcessFigures]
    claims: Counter[str]
    bench_cpu: float
    missed: list[str] = field(default_factory=list)
    logs: Path | None = None


def print_result(result: Result) -> None:
    config = result.config
    feeds = ",".join(f.value for f in config.feeds)
    print(
        f"--- {config.servers} servers x {feeds}, {config.processes} process(es), "
        f"DAILY_POST_CONCURRENCY={config.concurrency}"
    )
    if config.due == "minute":
        print(
            f"  due at            {result.due_at:%H:%M:%S} UTC, every process ready "
            f"{result.start_seconds:.1f} s after its start"
        )
    else:
        print(
            f"  due at            {result.due_at:%H:%M:%S} UTC, before the bots started (their "
            "first tick sends the posts: times from the bots' start, CPU including it)"
        )
    span = result.last_post - result.first_post
    total = sum(result.posts.values())
    since = "the due minute" if config.due == "minute" else "the bots' start"
    print(
        f"  last post         {result.last_post:.1f} s after {since} "
        f"(first {result.first_post:.1f} s; first to last {span:.1f} s, "
        f"{total / span if span > 0 else float('nan'):.1f} posts/s)"
    )
    goal = result.goal_per_feed
    print(
        "  posts             "
        + ", ".join(f"{f.value} {result.posts[f]} (goal {goal})" for f in config.feeds)
        + f"; deduplicated by nonce {result.deduplicated}, visible duplicates "
        f"{result.visible_duplicates}, by a later tick {result.later_posts}, "
        f"unexpected {result.unexpected}"
    )
    goal_by_feed = Counter(feed for feed, _ in result.pairs)
    print(
        "  upstream calls    "
        + ", ".join(
            f"{f.value} {result.upstream[f]} (goal {goal_by_feed[f]}: one per local date)"
            for f in config.feeds
        )
        + " across every process"
    )
    refused = ", ".join(f"{k} {v}" for k, v in sorted(result.refused.items())) or "none"
    print(f"  429s given        {refused}")
    print(f"  claims            {dict(result.claims)}")
    for p in result.processes:
        print(
            f"  shard {p.shard}           tick: {p.due} due, {p.posted} posted, {p.failed} failed, "
            f"{p.fetches} fetches; {p.cpu_ms_per_post:.2f} CPU ms/post; RSS {p.rss_mb:.0f} MB "
            f"(peak {p.peak_mb:.0f}); 429s logged {p.rate_limited} (global {p.global_hits})"
        )
    print(f"  bench process     {result.bench_cpu:.1f} CPU s (stand-in, fake Magisterium)")
    if result.logs:
        print(f"  logs              {result.logs}")
    for missed in result.missed:
        print(f"  GOAL MISSED       {missed}")
    print(flush=True)


async def run_once(config: Config, workdir: Path) -> Result:  # noqa: PLR0915
    cpu_started = time.process_time()
    fake = FakeMagisterium(latency=config.latency_ms / 1000)
    standin = StandIn(
        recommended_shards=config.processes, limits={"channel_message": CHANNEL_LIMIT}
    )
    if config.global_limit:
        standin.ratelimits.limit_globally(config.global_limit, 1.0)
    servers = add_servers(standin, config)
    token = f"pro-daily-fanout-{uuid.uuid4().hex[:12]}"
    n = config.processes
    fanout_budget = 120.0 + config.servers * len(config.feeds) / 10
    async with (
        running_fake_server(fake) as upstream,
        serving(standin, config.discord_latency_ms / 1000),
        database(config.postgres_url) as (database_url, _label),
    ):
        seeded = await seed(database_url, servers, config)
        provisional_due = (seeded - dt.timedelta(minutes=1)).replace(second=0, microsecond=0)
        await forget_cached(config.redis_url, main_pairs(provisional_due, config.feeds, servers))
        await forget_cached(config.redis_url, main_pairs(seeded, config.feeds, servers))
        envs = [
            bot_env(
                standin,
                upstream.url,
                database_url,
                SHARD_COUNT=str(n),
                SHARD_IDS=str(shard),
                REDIS_URL=config.redis_url,
                MAGISTERIUM_TOKEN=token,
                DAILY_POST_CONCURRENCY=str(config.concurrency),
            )
            for shard in range(n)
        ]
        async with asyncio.timeout(START_TIMEOUT * 2 + 180 + fanout_budget):
            started, started_at = time.monotonic(), dt.datetime.now(dt.UTC)
            async with running_bots(envs, workdir, profile=config.profile) as bots:
                before = {bot.shard: usage(bot.pid) for bot in bots}
                await standin.connected(set(range(n)), timeout=START_TIMEOUT)
                if config.due == "minute":
                    # Ready: each process's first tick posted its probe server's post.
                    await asyncio.gather(*(bot.tick(1, within=START_TIMEOUT) for bot in bots))
                    start_seconds = time.monotonic() - started
                    due = whole_minute_after(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=10))
                    pairs = main_pairs(due, config.feeds, servers)
                    await forget_cached(config.redis_url, pairs)
                    await time_schedules(database_url, due)
                    # Until just before the due minute (a wall-clock instant, not work): the
                    # processes' CPU is counted from there.
                    await asyncio.sleep((due - dt.datetime.now(dt.UTC)).total_seconds() - 1)
                    before = {bot.shard: usage(bot.pid) for bot in bots}
                    main_tick, since = 2, due
                else:
                    due, since = provisional_due, started_at
                    pairs = main_pairs(seeded - dt.timedelta(minutes=1), config.feeds, servers)
                    start_seconds = float("nan")
                    main_tick = 1
                posts = Posts(expected_posts(servers, config, due, seeded))
                posts.read(standin)  # the probes' posts
                upstream_from = len(fake.requests)
                refused_from = len(standin.ratelimits.refused)
                # Each process's tick for the due minute: its log line when it is over.
                lines: dict[int, TickLine] = {}
                after: dict[int, Usage] = {}

                async def main_tick_of(bot: BenchBot) -> None:
                    lines[bot.shard] = await bot.tick(main_tick, within=fanout_budget + 90)
                    after[bot.shard] = usage(bot.pid)

                await asyncio.gather(*(main_tick_of(bot) for bot in bots))
                posts.read(standin)
                upstream_calls = Counter(
                    feed
                    for r in fake.requests[upstream_from:]
                    for feed in config.feeds
                    if r.method == "message/send" and r.skill == feed.skill
                )
                refused = Counter(
                    f"{'global' if is_global else 'route'} {kind}"
                    for kind, status, is_global in standin.ratelimits.refused[refused_from:]
                    if status == 429
                )
                sentinels = posts.of_role("sentinel")
                if config.due == "minute":
                    # The next tick: each process's sentinel post, and its tick's log line.
                    await asyncio.gather(*(bot.tick(3, within=180) for bot in bots))
                    posts.read(standin)
                    missing = [n for n in sentinels if n not in posts.landed]
                    if missing:
                        raise AssertionError(f"{len(missing)} sentinel posts never came")
                for bot in bots:
                    status = await bot.terminate(timeout=60)
                    if status != 0:
                        raise AssertionError(f"shard {bot.shard} exited {status}; {bot.log_path}")
        claims = await claims_by_state(database_url)
    return figures(
        config,
        standin,
        servers=servers,
        bots=bots,
        posts=posts,
        due=due,
        since=since,
        pairs=pairs,
        upstream=upstream_calls,
        refused=refused,
        lines=lines,
        usage_before=before,
        usage_after=after,
        claims=claims,
        start_seconds=start_seconds,
        bench_cpu=time.process_time() - cpu_started,
        token=token,
    )


def whole_minute_after(instant: dt.datetime) -> dt.datetime:
    minute = instant.replace(second=0, microsecond=0)
    return minute if minute == instant else minute + dt.timedelta(minutes=1)


def figures(
    config: Config,
    standin: StandIn,
    *,
    servers: list[Server],
    bots: list[BenchBot],
    posts: Posts,
    due: dt.datetime,
    since: dt.datetime,
    pairs: set[tuple[Feed, dt.date]],
    upstream: Counter[Feed],
    refused: Counter[str],
    lines: dict[int, TickLine],
    usage_before: dict[int, Usage],
    usage_after: dict[int, Usage],
    claims: Counter[str],
    start_seconds: float,
    bench_cpu: float,
    token: str,
) -> Result:
    # Monotonic instants (the stand-in's records) against the wall clock's due minute.
    offset = time.time() - time.monotonic()
    main = posts.of_role("main")
    landed = sorted(posts.landed[n] + offset for n in main if n in posts.landed)
    since_ts = since.timestamp()
    ended = {shard: line.seen for shard, line in lines.items()}
    later = sum(
        1 for n in main if n in posts.landed and posts.landed[n] > ended[posts.expected[n][0].shard]
    )
    processes = []
    for bot in bots:
        line = lines[bot.shard]
        cpu = usage_after[bot.shard].cpu - usage_before[bot.shard].cpu
        processes.append(
            ProcessFigures(
                shard=bot.shard,
                due=line.due,
                posted=line.posted,
                failed=line.failed,
                fetches=line.fetches,
                cpu_ms_per_post=1000 * cpu / max(1, line.posted),
                rss_mb=usage_after[bot.shard].rss_mb,
                peak_mb=usage_after[bot.shard].peak_mb,
                rate_limited=bot.rate_limited,
                global_hits=bot.global_hits,
            )
        )
    main_servers = [s for s in servers if s.role == "main"]
    result = Result(
        config=config,
        due_at=due,
        start_seconds=start_seconds,
        first_post=(landed[0] - since_ts) if landed else float("nan"),
        last_post=(landed[-1] - since_ts) if landed else float("nan"),
        posts=Counter(posts.expected[n][1] for n in main if n in posts.landed),
        goal_per_feed=len(main_servers),
        deduplicated=sum(posts.resent.values()),
        visible_duplicates=duplicates_in(standin.world.channels.values()),
        later_posts=later,
        unexpected=posts.unexpected,
        upstream=upstream,
        pairs=pairs,
        refused=refused,
        processes=processes,
        claims=claims,
        bench_cpu=bench_cpu,
        logs=bots[0].log_path.parent.parent if bots else None,
    )
    result.missed = missed_goals(result, bots, standin, token)
    return result


def missed_goals(result: Result, bots: list[BenchBot], standin: StandIn, token: str) -> list[str]:
    missed = []
    config = result.config
    for feed in config.feeds:
        if result.posts[feed] != result.goal_per_feed:
            missed.append(f"{result.posts[feed]} {feed.value} posts, not {result.goal_per_feed}")
    if result.deduplicated or result.visible_duplicates or result.unexpected:
        missed.append("posts sent more than once")
    if result.later_posts:
        missed.append(f"{result.later_posts} posts made by a later tick")
    goal = Counter(feed for feed, _ in result.pairs)
    for feed in config.feeds:
        if result.upstream[feed] != goal[feed]:
            missed.append(f"{result.upstream[feed]} {feed.value} upstream calls, not {goal[feed]}")
    failed = sum(p.failed for p in result.processes)
    if failed:
        missed.append(f"{failed} posts failed in the due tick")
    for bot in bots:
        log = bot.log()
        if "Traceback" in log:
            missed.append(f"a Traceback in shard {bot.shard}'s log")
        if standin.token in log or token in log:
            missed.append(f"a token in shard {bot.shard}'s log")
    if standin.rest.problems:
        missed.append(f"stand-in problems: {standin.rest.problems[:3]}")
    return missed


# --- every run -------------------------------------------------------------------------------


async def bench(configs: Sequence[Config], workdir: Path) -> list[Result]:
    results = []
    for number, config in enumerate(configs):
        result = await run_once(config, workdir / f"run{number}-{config.processes}p")
        print_result(result)
        results.append(result)
    return results


def print_table(results: Sequence[Result]) -> None:
    print(
        "| processes | concurrency | posts (goal) | later/dup | upstream calls (goal) "
        "| 429s global / route | due → last post | first → last | CPU ms/post | RSS MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        goal = len(r.pairs)
        global_429 = sum(v for k, v in r.refused.items() if k.startswith("global"))
        route_429 = sum(v for k, v in r.refused.items() if k.startswith("route"))
        cpu = " / ".join(f"{p.cpu_ms_per_post:.2f}" for p in r.processes)
        rss = " / ".join(f"{p.rss_mb:.0f}" for p in r.processes)
        posts = sum(r.posts.values())
        print(
            f"| {r.config.processes} | {r.config.concurrency} "
            f"| {posts} ({r.goal_per_feed * len(r.config.feeds)}) "
            f"| {r.later_posts}/{r.deduplicated + r.visible_duplicates} "
            f"| {sum(r.upstream.values())} ({goal}) | {global_429} / {route_429} "
            f"| {r.last_post:.1f} s | {r.last_post - r.first_post:.1f} s | {cpu} | {rss} |"
        )


def integers(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=5000, help="servers, each scheduled (5000)")
    parser.add_argument(
        "--processes", type=integers, default=[1, 2, 4], help="bot processes (shards), a run each"
    )
    parser.add_argument(
        "--feeds",
        default="saints",
        help="the feeds each server posts: saints, readings, or saints,readings (saints)",
    )
    parser.add_argument(
        "--concurrency",
        type=integers,
        default=[SchedulerConfig().concurrency],
        help="DAILY_POST_CONCURRENCY values, a run each (the setting's default)",
    )
    parser.add_argument("--latency-ms", type=float, default=200.0, help="upstream latency (200)")
    parser.add_argument(
        "--discord-latency-ms", type=float, default=100.0, help="Discord's REST round trip (100)"
    )
    parser.add_argument(
        "--global-limit",
        type=int,
        default=50,
        help="Discord's global limit, requests a second per bot (50; 0: none)",
    )
    parser.add_argument("--due", choices=("minute", "start"), default="minute")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="run each bot under cProfile (stats in its log directory, bot.prof)",
    )
    parser.add_argument("--postgres-url", default=POSTGRES_URL)
    parser.add_argument("--redis-url", default=REDIS_URL)
    parser.add_argument("--workdir", type=Path, help="where the bots' logs go (a new temp dir)")
    args = parser.parse_args()
    feeds = tuple(Feed(name.strip()) for name in args.feeds.split(",") if name.strip())
    if args.servers < 1 or not feeds or min(args.processes) < 1:
        parser.error("--servers >= 1, --processes >= 1, a feed at least")
    configs = [
        Config(
            servers=args.servers,
            processes=processes,
            feeds=feeds,
            concurrency=concurrency,
            latency_ms=args.latency_ms,
            discord_latency_ms=args.discord_latency_ms,
            global_limit=args.global_limit,
            due=args.due,
            profile=args.profile,
            postgres_url=args.postgres_url,
            redis_url=args.redis_url,
        )
        for concurrency in args.concurrency
        for processes in args.processes
    ]
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="daily-fanout-"))
    print(f"bench/daily_fanout.py {' '.join(sys.argv[1:])}")
    print(
        f"upstream {args.latency_ms:g} ms per request (limits on); Discord: "
        f"{args.discord_latency_ms:g} ms per REST request, {CHANNEL_LIMIT[0]} messages per "
        f"{CHANNEL_LIMIT[1]:g} s per channel, global {args.global_limit or 'none'}/s; "
        f"logs under {workdir}\n",
        flush=True,
    )
    results = asyncio.run(bench(configs, workdir))
    print_table(results)
    missed = [
        f"{r.config.processes}p/{r.config.concurrency}: {m}" for r in results for m in r.missed
    ]
    if missed:
        sys.exit("goal missed: " + "; ".join(missed))


if __name__ == "__main__":
    main()

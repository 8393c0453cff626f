"""Benchmark over the real run path: ``python -m bot run`` shard processes on the Discord
stand-in, beside discord.py's own no-op bot (the floor) in the same run.

Run by hand from the repository root (PostgreSQL on 127.0.0.1:5432 with trust auth and Redis
on 127.0.0.1:6379 running; about five minutes with the defaults on 2 cores):

    .venv/bin/python bench/real_run_load.py [--people 1000] [--within 1.0]
        [--upstream-latency 2.0] [--goal-people 200] [--goal-latency 0.5]
        [--steady-rate 20] [--steady-seconds 30] [--steady-latency 0.5]
        [--processes 1,2,4] [--scenario burst|goal|steady|all] [--check] [--json PATH]

For each process count N, a fresh stand-in (``devtools.discord_standin``, in this process) with
8 servers spread over N shards, and N processes (``SHARD_COUNT=N``, ``SHARD_IDS=i``) on one
fresh PostgreSQL database and Redis (``REDIS_URL``), against the fake Magisterium (in this
process, Magisterium's per-token limits on). Every interaction comes from a person of its own
with their own linked token (encrypted rows, as ``/account link`` writes them), so the
per-token limits are never what holds an answer back. First the floor's N processes
(``python -m devtools.bench.floor_bot``: discord.py's ``AutoShardedBot`` whose commands only
defer and send "ok") take every scenario, then the bot's N processes take the same
interactions (same people, channels and options; new interaction ids). Scenarios:

  (a) burst:  ``--people`` /ask delivered over the gateway evenly within ``--within`` seconds,
      the upstream answering in ``--upstream-latency``;
  (a') goal:  ``--goal-people`` /ask at once (back to back), upstream ``--goal-latency``: the
      run the completion goal is judged on;
  (c) steady: ``--steady-rate`` commands/s for ``--steady-seconds``, /ask, /search, /readings
      and /saints in turn, every one asking something new (a question or a query of its own,
      a date the shared cache holds nothing of), upstream ``--steady-latency``.

Timestamps are the stand-in's (``time.monotonic()`` in this process): an interaction is sent
when its INTERACTION_CREATE has been written to its shard's socket; its first response is the
arrival of its interaction callback; it is complete at the arrival of the request after which
the person sees an answer (nothing "thinking…" any more). Completion overhead = complete - sent
- upstream calls made for it (matched by what they carried) x the latency. CPU: utime+stime of
the N processes (``/proc/<pid>/stat``) before and after, over the interactions answered (an
answer or a busy notice). RSS: VmRSS and VmHWM (``/proc/<pid>/status``, the peak reset before
each scenario). Upstream: the fake's requests during the scenario, and its 429s.

Goals (issue 19, item 2), printed met/MISSED beside the figures; the exit status is 0 whatever
they say unless ``--check`` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import math
import re
import secrets
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.accounts import generate_key  # noqa: E402
from bot.cache.public import cache_key  # noqa: E402
from bot.cache.store import RedisCache  # noqa: E402
from bot.render.look import ERROR  # noqa: E402
from bot.settings import Settings  # noqa: E402
from devtools.bench.real_run import (  # noqa: E402
    BOT_COMMAND,
    CLOCK_TICKS,
    FLOOR_COMMAND,
    REDIS_URL,
    START_TIMEOUT,
    Child,
    Memory,
    bot_env,
    fresh_postgres,
    guild_id_on,
    link_tokens,
    registered_commands,
    running_shards,
)
from devtools.bench.sampling import hot_spots, sampling  # noqa: E402
from devtools.discord.records import StoredMessage  # noqa: E402
from devtools.discord_standin import (  # noqa: E402
    Channel,
    Delivered,
    Guild,
    Person,
    StandIn,
    running_standin,
)
from devtools.discord_standin.rest import RestRequest  # noqa: E402
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402
from devtools.fake_magisterium.dates import SUPPORTED_YEARS  # noqa: E402
from devtools.fake_magisterium.rpc import RATE_LIMITED  # noqa: E402

GUILDS = 8
STEADY_COMMANDS = ("ask", "search", "readings", "saints")
ANSWERED, BUSY, UNANSWERED = "answered", "told busy", "unanswered"
BUSY_TITLE = "Magisterium is busy"
# Goals (issue 19, item 2).
GOAL_FIRST_RATIO = 1.5
GOAL_CPU_MS = 1.0
GOAL_COMPLETION_RATIO = 10.0
GOAL_THROUGHPUT_RATIO = 1.8
# What an interaction's upstream request carries that says whose it is: "<tag>-<index>" in a
# question or query, or its date.
MARKER = re.compile(r"\b([0-9a-f]{8})-(\d{6})\b")
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


# --- what is asked ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One interaction to send: who asks what, where, and what its upstream request carries."""

    command: str
    options: dict[str, str]
    person: Person
    channel: Channel
    key: str


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    latency: float
    offsets: list[float]  # seconds from the start at which each interaction is sent
    commands: list[str]

    def plans(
        self,
        tag: str,
        standin: StandIn,
        channels: Sequence[Channel],
        days: dict[str, list[dt.date]],
    ) -> list[Plan]:
        """Interaction ``i`` by a new person in ``channels[i]``; a /readings or /saints asks
        for the next of ``days[command]``."""
        plans = []
        unused = {command: iter(dates) for command, dates in days.items()}
        for index, command in enumerate(self.commands):
            marker = f"{tag}-{index:06d}"
            person = standin.world.add_person(f"{self.name}{index}")
            if command == "ask":
                options = {"question": f"What does the Church teach on grace? ({marker})"}
                key = marker
            elif command == "search":
                options = {"query": f"grace {marker}"}
                key = marker
            else:
                key = next(unused[command]).isoformat()
                options = {"date": key}
            plans.append(Plan(command, options, person, channels[index], key))
        return plans


def scenarios(args: argparse.Namespace) -> list[Scenario]:
    chosen: list[Scenario] = []
    if args.scenario in ("burst", "all"):
        people, within = args.people, args.within
        chosen.append(
            Scenario(
                "burst",
                f"(a) burst: {people} /ask within {within:g} s, "
                f"upstream {args.upstream_latency:g} s",
                args.upstream_latency,
                [within * i / people for i in range(people)],
                ["ask"] * people,
            )
        )
    if args.scenario in ("goal", "all"):
        people = args.goal_people
        chosen.append(
            Scenario(
                "goal",
                f"(a') goal run: {people} /ask at once, upstream {args.goal_latency:g} s",
                args.goal_latency,
                [0.0] * people,
                ["ask"] * people,
            )
        )
    if args.scenario in ("steady", "all"):
        count = round(args.steady_rate * args.steady_seconds)
        chosen.append(
            Scenario(
                "steady",
                f"(c) steady: {args.steady_rate:g}/s for {args.steady_seconds:g} s ({count}), "
                f"/{', /'.join(STEADY_COMMANDS)} in turn, upstream {args.steady_latency:g} s",
                args.steady_latency,
                [i / args.steady_rate for i in range(count)],
                [STEADY_COMMANDS[i % len(STEADY_COMMANDS)] for i in range(count)],
            )
        )
    return chosen


# --- what happened to each -------------------------------------------------------------------


@dataclass(eq=False)
class Asked:
    plan: Plan
    delivered: Delivered
    sent: float
    first: float | None = None  # its interaction callback arrived
    final: float | None = None  # the request after which an answer is shown arrived
    outcome: str = UNANSWERED
    calls: int = 0  # upstream requests carrying its key


def token_of(path: str) -> str:
    """The interaction token in a callback or webhook path."""
    return path.split("?", 1)[0].split("/")[3]


def outcome_of(shown: list[StoredMessage]) -> str:
    message = shown[-1].data
    embeds = message.get("embeds") or []
    if not embeds:
        return ANSWERED if message.get("content") == "ok" else "error: no embed"
    first = embeds[0]
    if first.get("color") == ERROR.value:
        title = str(first.get("title"))
        return BUSY if title.startswith(BUSY_TITLE) else f"error: {title}"
    return ANSWERED


class Tracker:
    """Watches every callback and webhook request as the stand-in answers it: the first
    response and completion of each interaction sent, and when every one has completed."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.by_token: dict[str, Asked] = {}
        self.early: dict[str, list[RestRequest]] = {}
        self.pending = 0
        self.all_sent = False
        self._done = asyncio.Event()

    @contextlib.contextmanager
    def listening(self) -> Iterator[Tracker]:
        self.standin.rest.listeners.append(self.seen)
        try:
            yield self
        finally:
            self.standin.rest.listeners.remove(self.seen)

    def seen(self, request: RestRequest) -> None:
        if request.kind not in ("callback", "webhook"):
            return
        token = token_of(request.path)
        asked = self.by_token.get(token)
        if asked is None:  # answered before the bench noted it as sent
            self.early.setdefault(token, []).append(request)
        else:
            self._note(asked, request)

    def _note(self, asked: Asked, request: RestRequest) -> None:
        if asked.first is None and request.kind == "callback":
            asked.first = request.at
        if asked.final is None and (shown := self.standin.answer(asked.delivered)) is not None:
            asked.final = request.at
            asked.outcome = outcome_of(shown)
            self.pending -= 1
            self._check()

    def add(self, asked: Asked) -> None:
        self.by_token[asked.delivered.session.token] = asked
        self.pending += 1
        for request in self.early.pop(asked.delivered.session.token, []):
            self._note(asked, request)

    def sent_all(self) -> None:
        self.all_sent = True
        self._check()

    def _check(self) -> None:
        if self.all_sent and self.pending == 0:
            self._done.set()

    async def done(self, *, guard: float) -> None:
        """Until every interaction has completed, or ``guard`` seconds (the rest unanswered)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(guard):
                await self._done.wait()


class LoopLag:
    """How late this process's event loop (the stand-in's and the fake's) wakes a timer."""

    def __init__(self, every: float = 0.01) -> None:
        self.every = every
        self.lags: list[float] = []

    async def _run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(self.every)
            self.lags.append(time.monotonic() - before - self.every)

    @contextlib.asynccontextmanager
    async def watching(self) -> AsyncIterator[LoopLag]:
        task = asyncio.get_running_loop().create_task(self._run())
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection in this process while a scenario runs: what the stand-in keeps
    of every earlier interaction would make each collection a pause of tens of milliseconds
    on the loop that timestamps the bots' requests."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def machine_busy_seconds() -> float:
    """CPU time every process on the machine has used (``/proc/stat``: all but idle and
    iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLOCK_TICKS


def count_calls(asked: list[Asked], requests: Sequence[Any]) -> None:
    """Each upstream message/send matched to the interaction whose key it carries."""
    by_key = {a.plan.key: a for a in asked}
    for request in requests:
        if request.method != "message/send":
            continue
        carried = json.dumps(request.parts)
        keys = {f"{m[0]}-{m[1]}" for m in MARKER.findall(carried)} | set(ISO_DATE.findall(carried))
        for key in keys:
            if key in by_key:
                by_key[key].calls += 1
                break


# --- figures ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass(frozen=True)
class Spread:
    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            return cls(math.nan, math.nan, math.nan)
        return cls(percentile(values, 0.5), percentile(values, 0.99), max(values))


@dataclass
class Run:
    """One scenario through N processes of the bot, or of the floor."""

    scenario: Scenario
    processes: int
    kind: str  # "bot" or "floor"
    asked: list[Asked]
    cpu_seconds: float
    bench_cpu_seconds: float
    memory: list[Memory]
    upstream_calls: int
    upstream_429s: int
    lag: Spread
    wall: float
    others_cpu_seconds: float  # the machine's other processes (PostgreSQL, Redis, anyone's)
    outcomes: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.outcomes = Counter(a.outcome for a in self.asked)

    @property
    def first(self) -> Spread:
        return Spread.of([1000 * (a.first - a.sent) for a in self.asked if a.first is not None])

    def _overheads(self) -> list[float]:
        latency = self.scenario.latency
        return [
            1000 * (a.final - a.sent - a.calls * latency)
            for a in self.asked
            if a.final is not None and a.outcome == ANSWERED
        ]

    @property
    def overhead(self) -> Spread:
        """Completion overhead (the floor's calls nothing upstream: its completion)."""
        return Spread.of(self._overheads())

    @property
    def answered(self) -> int:
        return self.outcomes[ANSWERED]

    @property
    def busy(self) -> int:
        return self.outcomes[BUSY]

    @property
    def unanswered(self) -> int:
        return self.outcomes[UNANSWERED]

    @property
    def errors(self) -> int:
        return len(self.asked) - self.answered - self.busy - self.unanswered

    @property
    def cpu_ms_per_answer(self) -> float:
        responded = self.answered + self.busy
        return 1000 * self.cpu_seconds / responded if responded else math.nan

    @property
    def bench_cpu_ms(self) -> float:
        """This process's CPU (the stand-in, the fake, the bench) per interaction."""
        return 1000 * self.bench_cpu_seconds / len(self.asked) if self.asked else math.nan

    @property
    def throughput(self) -> float:
        """Answers a second, from the first sent to the last answered."""
        done = [a for a in self.asked if a.final is not None and a.outcome == ANSWERED]
        if not done:
            return 0.0
        span = max(a.final for a in done if a.final) - min(a.sent for a in self.asked)
        return len(done) / span if span > 0 else math.inf

    def summary(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.name,
            "processes": self.processes,
            "kind": self.kind,
            "interactions": len(self.asked),
            "first_ms": vars(self.first),
            "overhead_ms": vars(self.overhead),
            "cpu_ms_per_answer": self.cpu_ms_per_answer,
            "rss_kib": [m.rss_kib for m in self.memory],
            "hwm_kib": [m.peak_kib for m in self.memory],
            "upstream_calls": self.upstream_calls,
            "upstream_429s": self.upstream_429s,
            "answered": self.answered,
            "told_busy": self.busy,
            "errors": self.errors,
            "unanswered": self.unanswered,
            "outcomes": dict(self.outcomes),
            "throughput": self.throughput,
            "bench_loop_lag_ms": vars(self.lag),
            "bench_cpu_seconds": self.bench_cpu_seconds,
            "wall_seconds": self.wall,
            "others_cpu_seconds": self.others_cpu_seconds,
        }


# --- running -------------------------------------------------------------------------------


async def send_all(
    standin: StandIn, scenario: Scenario, plans: list[Plan], tracker: Tracker
) -> None:
    """Each interaction at its offset (the load generator paces itself with sleeps); the loop
    gets a turn after each, so that the stand-in answers the bots meanwhile."""
    start = time.monotonic()
    for offset, plan in zip(scenario.offsets, plans, strict=True):
        delay = start + offset - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        delivered = await standin.slash(plan.person, plan.channel, plan.command, **plan.options)
        tracker.add(Asked(plan, delivered, time.monotonic()))
        await asyncio.sleep(0)
    tracker.sent_all()


async def measure(
    standin: StandIn,
    scenario: Scenario,
    plans: list[Plan],
    *,
    kind: str,
    children: list[Child],
    fake: FakeMagisterium,
    guard: float,
) -> Run:
    fake.latency = scenario.latency
    for child in children:
        child.reset_peak()
    upstream_from = len(fake.requests)
    machine = machine_busy_seconds()
    cpu = sum(c.cpu_seconds() for c in children)
    bench_cpu, started = time.process_time(), time.monotonic()
    tracker = Tracker(standin)
    with tracker.listening(), collector_paused():
        async with LoopLag().watching() as lag:
            await send_all(standin, scenario, plans, tracker)
            await tracker.done(guard=guard)
    wall = time.monotonic() - started
    cpu = sum(c.cpu_seconds() for c in children) - cpu
    bench_cpu = time.process_time() - bench_cpu
    others = max(0.0, machine_busy_seconds() - machine - cpu - bench_cpu)
    requests = fake.requests[upstream_from:]
    asked = list(tracker.by_token.values())
    count_calls(asked, requests)
    refused = [r for r in requests if r.http_status == 429 or r.error_code == RATE_LIMITED]
    return Run(
        scenario,
        len(children),
        kind,
        asked,
        cpu,
        bench_cpu,
        [c.memory() for c in children],
        len(requests),
        len(refused),
        Spread.of([1000 * x for x in lag.lags]),
        wall,
        others,
    )


async def warm_up(standin: StandIn, plans: list[Plan]) -> None:
    """One of each command on each shard, unmeasured: imports, pools and code paths warm."""
    delivered = [await standin.slash(p.person, p.channel, p.command, **p.options) for p in plans]
    for d in delivered:
        await standin.answered(d, timeout=120)


class FreshDays:
    """Days no interaction of this run asked for and that the shared cache (Redis, shared by
    every run for 12 hours) holds nothing of, for /readings and /saints: each is a call
    upstream. Drawn from the years the fake Magisterium has readings and saints for."""

    SKILLS: ClassVar[dict[str, str]] = {
        "readings": "liturgical_readings",
        "saints": "saints_of_the_day",
    }

    def __init__(self, cache: RedisCache) -> None:
        self.cache = cache
        self.used: set[dt.date] = set()

    async def take(self, command: str, count: int) -> list[dt.date]:
        first, last = dt.date(SUPPORTED_YEARS.start, 1, 1), dt.date(SUPPORTED_YEARS[-1], 12, 31)
        span = (last - first).days + 1
        days: list[dt.date] = []
        while len(days) < count:
            day = first + dt.timedelta(days=secrets.randbelow(span))
            if day in self.used:
                continue
            self.used.add(day)
            if await self.cache.get(cache_key(self.SKILLS[command], day.isoformat())) is None:
                days.append(day)
        return days

    async def for_commands(self, commands: Sequence[str]) -> dict[str, list[dt.date]]:
        counts = Counter(c for c in commands if c in self.SKILLS)
        return {command: await self.take(command, n) for command, n in counts.items()}


async def layout_plans(
    args: argparse.Namespace,
    standin: StandIn,
    guilds: list[Guild],
    processes: int,
    days: FreshDays,
) -> tuple[dict[str, list[Plan]], list[Plan]]:
    """Every scenario's interactions for one layout, and a warm-up of each command per shard.
    Questions, queries and dates are new (nothing in the shared cache answers them)."""
    tag = secrets.token_hex(3)
    plans: dict[str, list[Plan]] = {}
    for number, scenario in enumerate(scenarios(args)):
        # Interaction i in guild (i + i // 4) % 8: every command on every shard.
        count = len(scenario.commands)
        channels = [
            guilds[(i + i // len(STEADY_COMMANDS)) % len(guilds)].channels[0] for i in range(count)
        ]
        plans[scenario.name] = scenario.plans(
            f"{tag}{number:02d}", standin, channels, await days.for_commands(scenario.commands)
        )
    # Guild j is on shard j % processes: each command once on each shard.
    count = len(STEADY_COMMANDS) * processes
    commands = [STEADY_COMMANDS[i // processes] for i in range(count)]
    warm = Scenario("warm", "warm-up", 0.0, [0.0] * count, commands)
    channels = [guilds[i % processes].channels[0] for i in range(count)]
    warm_plans = warm.plans(f"{tag}99", standin, channels, await days.for_commands(commands))
    return plans, warm_plans


@dataclass
class Context:
    args: argparse.Namespace
    commands: list[Any]
    fake: FakeMagisterium
    upstream_url: str
    database_url: str
    key: str
    operator_token: str
    workdir: Path
    days: FreshDays


@contextlib.asynccontextmanager
async def profiled(ctx: Context, children: list[Child], name: str) -> AsyncIterator[None]:
    """With ``--profile``: py-spy sampling the processes meanwhile, its summary printed."""
    if ctx.args.profile is None:
        yield
        return
    async with sampling([c.pid for c in children], ctx.args.profile, name) as outputs:
        yield
    print(f"  profile of {name} ({ctx.args.profile}/{name}-<pid>.txt):", flush=True)
    print(textwrap.indent(hot_spots(outputs), "    "), flush=True)


async def run_processes(
    ctx: Context,
    standin: StandIn,
    *,
    kind: str,
    processes: int,
    plans: dict[str, list[Plan]],
    warm: list[Plan],
) -> list[Run]:
    """N processes of the bot or the floor: connected, warmed up, then every scenario."""
    command = BOT_COMMAND if kind == "bot" else FLOOR_COMMAND
    before = len(standin.gateway.events)

    def env_of(shard: int) -> dict[str, str]:
        return bot_env(
            standin,
            upstream_url=ctx.upstream_url,
            database_url=ctx.database_url,
            key=ctx.key,
            token=ctx.operator_token,
            REDIS_URL=REDIS_URL,
        )

    def identified() -> bool:
        fresh = [e for e in standin.gateway.events[before:] if e.kind == "identify"]
        return len(fresh) >= processes and set(range(processes)) <= set(standin.gateway.owner)

    runs: list[Run] = []
    workdir = ctx.workdir / f"{processes}-processes"
    async with running_shards(command, env_of, processes, workdir, kind) as children:
        await standin.until(identified, timeout=START_TIMEOUT, what=f"{processes} {kind} shards")
        await warm_up(standin, warm)
        for scenario in scenarios(ctx.args):
            async with profiled(ctx, children, f"{kind}-{processes}-{scenario.name}"):
                run = await measure(
                    standin,
                    scenario,
                    plans[scenario.name],
                    kind=kind,
                    children=children,
                    fake=ctx.fake,
                    guard=ctx.args.guard,
                )
            print(
                f"  {processes} {kind} process(es), {scenario.name}: {run.answered} answered, "
                f"{run.busy} busy, {run.errors} errors, {run.unanswered} unanswered "
                f"in {run.wall:.1f} s",
                flush=True,
            )
            runs.append(run)
        statuses = [await child.terminate(timeout=60) for child in children]
    for child, status in zip(children, statuses, strict=True):
        log = child.log()
        if status != 0 or "Traceback" in log:
            print(f"  ! {child.log_path}: exit {status}, {log.count('Traceback')} tracebacks")
    return runs


async def run_layout(ctx: Context, processes: int) -> list[Run]:
    """A fresh stand-in with 8 servers over ``processes`` shards; the floor, then the bot."""
    runs: list[Run] = []
    async with running_standin(StandIn(recommended_shards=processes)) as standin:
        standin.commands.register(ctx.commands)
        guilds = [
            standin.world.add_guild(f"Parish {j}", guild_id=guild_id_on(j % processes, processes))
            for j in range(GUILDS)
        ]
        plans, warm = await layout_plans(ctx.args, standin, guilds, processes, ctx.days)
        people = [p.person.id for p in warm] + [p.person.id for ps in plans.values() for p in ps]
        await link_tokens(
            ctx.database_url, ctx.key, [(i, f"pro-bench-{ctx.operator_token}-{i}") for i in people]
        )
        for kind in ("floor", "bot"):
            runs += await run_processes(
                ctx, standin, kind=kind, processes=processes, plans=plans, warm=warm
            )
        if standin.rest.problems or standin.double_acknowledgements():
            print(f"  ! stand-in problems: {standin.rest.problems[:5]}")
            print(f"  ! double acknowledgements: {standin.double_acknowledgements()[:5]}")
    return runs


# --- printing and goals ----------------------------------------------------------------------


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f}"


def print_row(run: Run) -> None:
    first, overhead = run.first, run.overhead
    memory = " ".join(f"{mib(m.rss_kib)}/{mib(m.peak_kib)}" for m in run.memory)
    print(
        f"  {run.processes:>2} {run.kind:<5}"
        f"{first.p50:8.1f}{first.p99:8.1f}{first.max:8.1f}"
        f"{overhead.p50:9.1f}{overhead.p99:9.1f}"
        f"{run.cpu_ms_per_answer:8.2f}{run.throughput:8.1f}"
        f"{run.answered:7d}{run.busy:5d}{run.errors:5d}{run.unanswered:6d}"
        f"{run.upstream_calls:7d}{run.upstream_429s:5d}"
        f"{run.bench_cpu_ms:6.2f}{run.lag.p99:6.0f}{run.lag.max:5.0f}"
        f"{run.others_cpu_seconds / run.wall:7.2f}  {memory}"
    )


HEADER = (
    "   N run   first response ms       overhead ms     CPU ms answers"
    "   ans  busy  err unans upstream 429 bench: CPU   lag  others  RSS/HWM MiB\n"
    "              p50     p99     max      p50      p99  /answer     /s"
    "                            calls       ms/int  p99  max  cores  per process"
)


@dataclass(frozen=True)
class Goal:
    text: str
    met: bool


def goal(text: str, value: float, limit: float) -> Goal:
    met = not math.isnan(value) and value <= limit
    return Goal(text, met)


def ratio(a: float, b: float) -> float:
    return a / b if b > 0 else math.inf


def judge(scenario: Scenario, runs: list[Run]) -> list[Goal]:
    """The goals of issue 19's item 2 for one scenario, per process count."""
    goals: list[Goal] = []
    by = {(r.processes, r.kind): r for r in runs}
    counts = sorted({r.processes for r in runs})
    for n in counts:
        bot, floor = by[(n, "bot")], by[(n, "floor")]
        first = ratio(bot.first.p99, floor.first.p99)
        goals.append(
            goal(
                f"N={n} first response p99 {first:.2f}x the floor's (<= {GOAL_FIRST_RATIO:g}x)",
                first,
                GOAL_FIRST_RATIO,
            )
        )
        goals.append(
            goal(
                f"N={n} CPU per answer {bot.cpu_ms_per_answer:.2f} ms (<= {GOAL_CPU_MS:g} ms)",
                bot.cpu_ms_per_answer,
                GOAL_CPU_MS,
            )
        )
        if scenario.name == "goal":
            completion = ratio(bot.overhead.p99, floor.overhead.p99)
            goals.append(
                goal(
                    f"N={n} completion overhead p99 {completion:.1f}x the floor's completion p99"
                    f" (<= {GOAL_COMPLETION_RATIO:g}x)",
                    completion,
                    GOAL_COMPLETION_RATIO,
                )
            )
        lost = bot.unanswered + bot.errors + floor.unanswered + floor.errors
        goals.append(goal(f"N={n} neither answered nor told busy: {lost} (0)", lost, 0))
        goals.append(goal(f"N={n} upstream 429s: {bot.upstream_429s} (0)", bot.upstream_429s, 0))
    if 1 in counts and 2 in counts:
        scaling = ratio(by[(2, "bot")].throughput, by[(1, "bot")].throughput)
        floor_scaling = ratio(by[(2, "floor")].throughput, by[(1, "floor")].throughput)
        text = f"throughput 1 -> 2 processes {scaling:.2f}x (floor {floor_scaling:.2f}x)"
        if scenario.name == "burst":
            goals.append(
                goal(f"{text} (>= {GOAL_THROUGHPUT_RATIO:g}x)", -scaling, -GOAL_THROUGHPUT_RATIO)
            )
        else:
            why = "offered at a fixed rate" if scenario.name == "steady" else "judged on (a)"
            print(f"  {text} (not a goal here: {why})")
    return goals


def print_scenario(scenario: Scenario, runs: list[Run]) -> list[Goal]:
    print()
    print(scenario.title)
    print(HEADER)
    for run in sorted(runs, key=lambda r: (r.processes, r.kind != "bot")):
        print_row(run)
        others = {k: n for k, n in run.outcomes.items() if k.startswith("error")}
        for text, n in others.items():
            print(f"          {n} x {text}")
        uncalled = Counter(
            a.plan.command for a in run.asked if a.outcome == ANSWERED and not a.calls
        )
        if run.kind == "bot" and uncalled:
            listed = ", ".join(f"/{command} {n}" for command, n in sorted(uncalled.items()))
            print(f"          answered with no upstream call matched (from the cache): {listed}")
    goals = judge(scenario, runs)
    for g in goals:
        print(f"  {'met   ' if g.met else 'MISSED'}  {g.text}")
    return goals


def print_setup(ctx: Context) -> None:
    args = ctx.args
    print(
        f"processes {args.processes}; per process count: a fresh stand-in (in this process) with "
        f"{GUILDS} servers spread over the shards; the floor's processes, then the bot's"
    )
    defaults = {
        name: "unset" if f.default is None else f.default
        for name, f in Settings.model_fields.items()
    }
    print(
        f"bot: default settings (MAX_IN_FLIGHT {defaults['max_in_flight']}, "
        f"{defaults['max_in_flight_per_token']} per token, {defaults['rate_limit_per_minute']} "
        f"and {defaults['qa_rate_limit_per_minute']} catholic_qa a minute per token, LOG_LEVEL "
        "INFO); PostgreSQL (a fresh database) and Redis"
    )
    print(
        "upstream: the fake Magisterium in this process, its per-token limits on; every "
        "interaction is a person of its own with their own linked token"
    )
    print("floor: python -m devtools.bench.floor_bot (discord.py AutoShardedBot, defer + 'ok')")
    print(
        "columns: bench = this process (the stand-in, the fake Magisterium, the load), its CPU"
        " per interaction and its loop's lag; others = cores the machine's other processes"
        " (PostgreSQL, Redis, anyone else's) used meanwhile"
    )
    print(f"logs: {ctx.workdir}")


async def main_async(args: argparse.Namespace) -> tuple[list[Goal], list[Run]]:
    workdir = Path(tempfile.mkdtemp(prefix="real-run-load-"))
    commands = await registered_commands(workdir)
    fake = FakeMagisterium(latency=args.upstream_latency)  # Magisterium's per-token limits
    async with (
        fresh_postgres() as database_url,
        running_fake_server(fake) as upstream,
        contextlib.AsyncExitStack() as stack,
    ):
        cache = RedisCache.from_url(REDIS_URL)  # only read: which days are cached already
        stack.push_async_callback(cache.close)
        ctx = Context(
            args,
            commands,
            fake,
            upstream.url,
            database_url,
            generate_key(),
            f"pro-bench-{secrets.token_hex(8)}",
            workdir,
            FreshDays(cache),
        )
        print_setup(ctx)
        runs: list[Run] = []
        for processes in args.processes:
            runs += await run_layout(ctx, processes)
    goals: list[Goal] = []
    for scenario in scenarios(args):
        goals += print_scenario(scenario, [r for r in runs if r.scenario.name == scenario.name])
    return goals, runs


def process_counts(text: str) -> list[int]:
    counts = [int(part) for part in text.split(",") if part.strip()]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("process counts are positive integers, e.g. 1,2,4")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=1000, help="/ask in the burst (1000)")
    parser.add_argument("--within", type=float, default=1.0, help="the burst's spread (1.0 s)")
    parser.add_argument("--upstream-latency", type=float, default=2.0, help="burst's (2.0 s)")
    parser.add_argument("--goal-people", type=int, default=200, help="the goal run's (200)")
    parser.add_argument("--goal-latency", type=float, default=0.5, help="the goal run's (0.5 s)")
    parser.add_argument("--steady-rate", type=float, default=20.0, help="commands/s (20)")
    parser.add_argument("--steady-seconds", type=float, default=30.0, help="its length (30 s)")
    parser.add_argument("--steady-latency", type=float, default=0.5, help="its upstream (0.5 s)")
    parser.add_argument("--processes", type=process_counts, default=[1, 2, 4], help="1,2,4")
    parser.add_argument("--scenario", choices=("burst", "goal", "steady", "all"), default="all")
    parser.add_argument(
        "--guard",
        type=float,
        default=300.0,
        help="seconds a scenario may take to complete; the rest count as unanswered (300)",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a goal is missed")
    parser.add_argument(
        "--profile",
        type=Path,
        help="sample the processes with py-spy during each scenario (pip install py-spy), "
        "write the samples here and print where the CPU went",
    )
    parser.add_argument("--json", type=Path, help="write every run's figures and the goals here")
    args = parser.parse_args()
    if args.people < 1 or args.goal_people < 1 or args.steady_rate <= 0:
        parser.error("--people and --goal-people >= 1, --steady-rate > 0")
    started = time.monotonic()
    goals, runs = asyncio.run(main_async(args))
    missed = [g.text for g in goals if not g.met]
    took = time.monotonic() - started
    print(f"\n{len(goals) - len(missed)} of {len(goals)} goals met; total {took:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"runs": [r.summary() for r in runs], "goals": [vars(g) for g in goals]},
                indent=1,
                default=str,
            )
        )
    if args.check and missed:
        sys.exit(1)


if __name__ == "__main__":
    main()

"""Benchmark: the whole bot under load — first response, overhead over the upstream, 429s, memory.

Run by hand from the repository root (offline; about three minutes with the defaults):

    .venv/bin/python bench/bot_load.py [--latency-ms 200] [--steady-seconds 60] [--rate 20]
        [--burst 500] [--burst-users 100] [--burst-per-iteration] [--upstream process|loop]
        [--no-upstream-rate-limits] [--default-caps] [--warm-tokens]
        [--profile cprofile|pyinstrument]

The bot is ``create_bot(harness_settings(...))`` on SQLite in a temporary directory, started by
the offline harness (``devtools.discord.Harness``: real INTERACTION_CREATE payloads through
discord.py's parser and the bot's real CommandTree, limiter, token registry and cache), against
the fake Magisterium (``devtools.fake_magisterium``) on loopback TCP with a fixed latency per
request and, by default, Magisterium's real per-token limits (15 requests/min, 2 catholic_qa/min)
enforced: every upstream 429 is counted. Every person has their own linked token
(``registry.link``). The process-wide caps (``MAX_IN_FLIGHT``, ``UPSTREAM_MAX_CONNECTIONS``) are
lifted out of the way unless ``--default-caps`` keeps the bot's defaults. Each person links just
before the scenarios, so their first command reads their token from the database;
``--warm-tokens`` looks each one up once first (in memory since, as for anyone who used the bot
within ``TOKEN_CACHE_SECONDS``).

Scenarios, each run twice in the same process: through the bot's commands, and through the
floor, a probe command the bench adds to the tree that only defers and answers "ok" (the cost
of discord.py and the harness alone, dispatched the same way):
  (a) burst:  ``--burst`` /ask (500) from ``--burst-users`` people (100, so 5 each, more than
      the 2/min catholic_qa a token may make), all arriving at once and dispatched in one go
      (``--burst-per-iteration``: one per event-loop iteration);
  (b) steady: ``--rate`` commands/s (20) for ``--steady-seconds`` (60), cycling /ask, /search,
      /document, /readings, /saints, spread over 301 people so that no token exceeds
      Magisterium's limits (public content is cached after its first fetch).

Measured per interaction, from its arrival (when Discord would have sent it: the burst's
start, or its slot in the steady schedule; a loop too busy to take it counts against the bot):
first response (until discord.py hands its first request, the defer, to Discord's adapter), end
to end (until it hands over the last request, the final message), upstream calls made for it
and the time inside them, and bot overhead = end to end - upstream calls x latency - time queued
in the bot's limiter (waiting for a token's turn under Magisterium's rate limits is not
overhead). What the person finally sees is sorted into an answer, a clear error (a known
explanation such as "Magisterium is busy for this account", which tells them to wait), or
neither (nothing, a "thinking…" left behind, the generic "Something went wrong", a crashed
task). Upstream: requests and HTTP statuses as the fake counted them (429s included). Memory:
RSS before the burst and its peak during it, over the most interactions in flight then, and
the process's peak RSS (VmHWM).

``--profile`` profiles the bot's runs of both scenarios (cProfile: main thread; pyinstrument:
sampling) and prints the top entries and the time by package; it slows everything down, so
the figures of a profiled run are not the bench's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import logging
import math
import pstats
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import httpx  # noqa: E402
from discord import app_commands  # noqa: E402
from discord.webhook.async_ import async_context  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bot.app import MagisteriumBot, create_bot  # noqa: E402
from bot.app.composition import upstream_capacity  # noqa: E402
from bot.app.error_reporting import GENERIC_TITLE  # noqa: E402
from bot.render.look import ERROR  # noqa: E402
from devtools.discord import Harness, HarnessUser  # noqa: E402
from devtools.discord.fake_discord import FakeDiscord  # noqa: E402
from devtools.discord.fixtures import harness_settings  # noqa: E402
from devtools.discord.records import Session, StoredMessage  # noqa: E402
from devtools.discord.results import InteractionResult  # noqa: E402
from devtools.discord.wire import APPLICATION_COMMAND, JSON  # noqa: E402
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402
from devtools.fake_magisterium.agent_card import A2A_PATH  # noqa: E402
from devtools.fake_magisterium.corpus import DOCUMENTS  # noqa: E402

FLOOR = "bench-floor"
SKILL_COMMANDS = ("ask", "search", "document", "readings", "saints")
STEADY_USERS = 301  # prime to the 5 commands: each person's commands cycle through all five
GOAL_FIRST_P99_MS = 50.0
GOAL_OVERHEAD_P50_MS = 3.0
GOAL_OVERHEAD_P99_MS = 20.0
GOAL_FLOOR_RATIO = 1.5
# Unless --default-caps: the process-wide caps out of the way, never the bottleneck.
LIFTED_CAPS = {"max_in_flight": 100_000, "upstream_max_connections": 2_000}
QUEUED = 0.1  # seconds in the limiter beyond which a request counts as queued for its turn
SETTLE_GUARD_SECONDS = 300.0  # a guard against a hang, not a wait
TIMER_SLACK = 0.001  # asyncio's timers fire up to a millisecond late

QUESTIONS = (
    "What is grace?",
    "Why do Catholics baptise infants?",
    "What does the Church teach about the Eucharist?",
    "What is purgatory?",
    "How should I prepare for confession?",
    "What is the role of Mary in salvation?",
    "Why is Sunday Mass an obligation?",
    "What is natural law?",
    "What does the Church teach about just war?",
    "What is the communion of saints?",
)
SEARCHES = (
    "faith and reason",
    "workers and wages",
    "liturgy",
    "human dignity",
    "Lumen Gentium",
    "family",
    "Rerum Novarum",
    "the Church in the modern world",
)
DATES = ("today", "tomorrow", "yesterday", "next Sunday", "19 March", "2026-12-01")


# --- one interaction, and the instruments around the bot -------------------------------------


@dataclass(eq=False)
class Interaction:
    """One prepared interaction and what happened to it (perf_counter seconds)."""

    command: str
    payload: JSON
    session: Session
    arrived: float = 0.0  # when Discord would have sent it
    dispatched: float = 0.0  # when the bench handed it to discord.py's parser
    first: float | None = None  # discord.py handed its first request (the defer) to Discord
    last: float | None = None  # ... and its last one (the final message)
    finished: float | None = None  # every task the dispatch started is done
    upstream_calls: int = 0
    upstream_seconds: float = 0.0
    limiter_wait: float = 0.0
    pending_tasks: int = 0
    failures: list[BaseException] = field(default_factory=list)
    outcome: str = "neither: still running at the end"


CURRENT: ContextVar[Interaction | None] = ContextVar("bench_interaction", default=None)


class Recorder:
    """Dispatches interactions like the harness does, without awaiting each one, and times them.

    The bench wraps, for its run only: the harness's recording webhook adapter (when discord.py
    hands a request to Discord), ``A2AClient.send_message`` (each upstream call, its limiter
    admissions included), the
    limiter's wait callback, and the loop's task factory (the tasks a dispatch starts). Each
    interaction's tasks inherit a context variable naming it, so the wrappers know whose it is.
    """

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._captured: list[asyncio.Task[Any]] | None = None
        self._undo = contextlib.ExitStack()

    def __enter__(self) -> Recorder:
        self._capture_tasks()
        self._time_discord_requests()
        self._time_upstream_calls()
        return self

    def __exit__(self, *exc: object) -> None:
        self._undo.close()

    def _capture_tasks(self) -> None:
        loop = asyncio.get_running_loop()
        previous = loop.get_task_factory()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
            task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, **kwargs)
            if self._captured is not None:
                self._captured.append(task)
            return task

        loop.set_task_factory(factory)
        self._undo.callback(loop.set_task_factory, previous)

    def _time_discord_requests(self) -> None:
        adapter = self.harness.adapter
        original = adapter.request

        async def request(*args: Any, **kwargs: Any) -> Any:
            current = CURRENT.get()
            if current is not None:
                now = time.perf_counter()
                if current.first is None:
                    current.first = now
                current.last = now
            return await original(*args, **kwargs)

        adapter.request = request  # type: ignore[method-assign]
        self._undo.callback(delattr, adapter, "request")

    def _time_upstream_calls(self) -> None:
        bot: MagisteriumBot = self.harness.bot  # type: ignore[assignment]
        client: Any = bot.services.a2a
        original_send = client.send_message

        async def timed(*args: Any, **kwargs: Any) -> Any:
            current = CURRENT.get()
            started = time.perf_counter()
            try:
                return await original_send(*args, **kwargs)
            finally:
                if current is not None:
                    current.upstream_calls += 1
                    current.upstream_seconds += time.perf_counter() - started

        client.send_message = timed
        self._undo.callback(delattr, client, "send_message")
        limiter: Any = bot.services.limiter
        original_on_wait = limiter._on_wait

        def on_wait(seconds: float) -> None:
            current = CURRENT.get()
            if current is not None:
                current.limiter_wait += seconds
            if original_on_wait is not None:
                original_on_wait(seconds)

        limiter._on_wait = on_wait
        self._undo.callback(setattr, limiter, "_on_wait", original_on_wait)

    def dispatch(self, interaction: Interaction, arrived: float) -> None:
        """INTERACTION_CREATE through discord.py's parser, as ``Harness._dispatch`` sends it."""
        harness = self.harness
        harness.fake.open(interaction.session)
        captured: list[asyncio.Task[Any]] = []
        self._captured = captured
        current = CURRENT.set(interaction)
        adapter = async_context.set(harness.adapter)
        interaction.arrived, interaction.dispatched = arrived, time.perf_counter()
        try:
            harness.state.parsers["INTERACTION_CREATE"](interaction.payload)
        finally:
            async_context.reset(adapter)
            CURRENT.reset(current)
            self._captured = None
        interaction.payload = {}  # parsed: the bench's copy would only weigh on the collector
        self.in_flight += 1
        self._idle.clear()
        interaction.pending_tasks = len(captured)
        if not captured:
            self._finished(interaction)
        for task in captured:
            task.add_done_callback(partial(self._task_done, interaction))

    def _task_done(self, interaction: Interaction, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            interaction.failures.append(error)
        interaction.pending_tasks -= 1
        if interaction.pending_tasks == 0:
            self._finished(interaction)

    def _finished(self, interaction: Interaction) -> None:
        interaction.finished = time.perf_counter()
        interaction.outcome = outcome(interaction, self.harness.fake.messages)
        forget(self.harness.fake, interaction.session)
        self.in_flight -= 1
        if self.in_flight == 0:
            self._idle.set()

    async def wait_idle(self) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SETTLE_GUARD_SECONDS):
                await self._idle.wait()


def prepare(harness: Harness, command: str, user: HarnessUser, options: JSON) -> Interaction:
    """The payload Discord would send for ``/command`` by ``user`` in the harness's guild."""
    payload, session = harness._chat_input(
        APPLICATION_COMMAND,
        command,
        options,
        None,
        user=user,
        where=(None, False, False, None),
        locale=None,
        member_permissions=None,
        app_permissions=None,
    )
    return Interaction(command, payload, session)


def floor_command() -> app_commands.Command[Any, ..., None]:
    """The floor: defer (the "thinking…" state), then answer "ok"; nothing else."""

    @app_commands.command(name=FLOOR, description="bench: defer, then answer ok")
    async def floor(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("ok", wait=True)

    return floor


# --- what the person saw ---------------------------------------------------------------------


def outcome(interaction: Interaction, messages: dict[int, StoredMessage]) -> str:
    """What the person saw last, once it finished: an answer, a clear error (its title) or
    neither (why)."""
    if interaction.failures:
        return f"neither: task raised {type(interaction.failures[0]).__name__}"
    message = InteractionResult(interaction.session, messages).message
    if message is None:
        return "neither: nothing visible"
    if message.loading:
        return "neither: left thinking"
    if interaction.command == FLOOR:
        return "answer" if message.content == "ok" else "neither: not ok"
    embeds = message.embeds
    if not embeds:
        return "neither: no embed"
    first = embeds[0]
    if first.get("color") == ERROR.value:
        title = str(first.get("title"))
        if title == GENERIC_TITLE:
            return f"neither: generic {title!r}"
        return f"clear error: {title}"
    return "answer"


def forget(fake: FakeDiscord, session: Session) -> None:
    """Drop what the fake Discord recorded of a finished interaction: kept, its deep copies
    would make every garbage collection during the run walk the bench's records."""
    fake.sessions.pop(session.token, None)
    for message_id in {*session.message_ids, session.original_id}:
        if message_id is not None:
            fake.messages.pop(message_id, None)
    session.requests.clear()
    fake.requests.clear()  # every request is in its session's list as well


# --- figures -----------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass
class Spread:
    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            return cls(math.nan, math.nan, math.nan)
        return cls(percentile(values, 0.5), percentile(values, 0.99), max(values))

    def row(self, label: str, note: str = "") -> str:
        return f"    {label:<34}{self.p50:9.2f}{self.p99:9.2f}{self.max:9.2f}  {note}".rstrip()


@dataclass
class RunFigures:
    """One scenario's figures through one command set (the bot's, or the floor)."""

    label: str
    interactions: list[Interaction]
    latency: float
    outcomes: Counter[str]
    wall: float
    cpu: float

    @classmethod
    def of(
        cls,
        label: str,
        interactions: list[Interaction],
        *,
        latency: float,
        wall: float,
        cpu: float,
    ) -> RunFigures:
        outcomes = Counter(i.outcome for i in interactions)
        return cls(label, interactions, latency, outcomes, wall, cpu)

    @property
    def first(self) -> Spread:
        return Spread.of(
            [1000 * (i.first - i.arrived) for i in self.interactions if i.first is not None]
        )

    @property
    def first_from_dispatch(self) -> Spread:
        return Spread.of(
            [1000 * (i.first - i.dispatched) for i in self.interactions if i.first is not None]
        )

    @property
    def end_to_end(self) -> Spread:
        return Spread.of(
            [1000 * (i.last - i.arrived) for i in self.interactions if i.last is not None]
        )

    def overheads(self, interactions: Sequence[Interaction] | None = None) -> list[float]:
        return [
            1000 * (i.last - i.arrived - i.upstream_calls * self.latency - i.limiter_wait)
            for i in (self.interactions if interactions is None else interactions)
            if i.last is not None
        ]

    @property
    def overhead(self) -> Spread:
        return Spread.of(self.overheads())

    @property
    def neither(self) -> int:
        return sum(n for kind, n in self.outcomes.items() if kind.startswith("neither"))

    @property
    def upstream_calls(self) -> int:
        return sum(i.upstream_calls for i in self.interactions)


def print_run(run: RunFigures, *, by_command: bool = False) -> None:
    answered = run.outcomes.get("answer", 0)
    clear = {k: n for k, n in run.outcomes.items() if k.startswith("clear error")}
    neither = {k: n for k, n in run.outcomes.items() if k.startswith("neither")}
    print(
        f"  {run.label}: {len(run.interactions)} interactions in {run.wall:.2f}s, CPU of this "
        f"process {run.cpu:.2f}s ({1000 * run.cpu / len(run.interactions):.2f} ms each)"
    )
    print(f"    answered {answered}; clear error {sum(clear.values())}; neither {run.neither}")
    for kind, n in sorted({**clear, **neither}.items()):
        print(f"      {n:5d}  {kind}")
    print(f"    {'(milliseconds)':<34}{'p50':>9}{'p99':>9}{'max':>9}")
    print(run.first.row("first response", "(from arrival)"))
    print(run.first_from_dispatch.row("  from its dispatch", "(the loop took it)"))
    print(run.end_to_end.row("end to end"))
    print(run.overhead.row("overhead", "(e2e - calls x latency - limiter queue)"))
    called = [i for i in run.interactions if i.upstream_calls and i.last is not None]
    if called:
        # Each attempt is admitted by the limiter inside the timed call, so a call's time
        # includes its queueing: take it out of "in calls", and do not subtract it twice.
        beyond = [
            1000 * (i.upstream_seconds - i.limiter_wait - i.upstream_calls * run.latency)
            for i in called
        ]
        outside = [
            1000 * (i.last - i.arrived - i.upstream_seconds)  # type: ignore[operator]
            for i in called
        ]
        print(f"    of the {len(called)} that called upstream ({run.upstream_calls} calls):")
        print(Spread.of(beyond).row("  in calls, beyond the latency", "(client, loopback, fake)"))
        print(Spread.of(outside).row("  outside the calls and the queue"))
    queued = [i.limiter_wait for i in run.interactions if i.limiter_wait > QUEUED]
    if queued:
        print(
            f"    {len(queued)} queued in the bot's limiter for Magisterium's rate limits "
            f"(> {1000 * QUEUED:g} ms; p50 {percentile(queued, 0.5):.1f}s, "
            f"max {max(queued):.1f}s), then went upstream"
        )
    if by_command:
        commands = sorted({i.command for i in run.interactions}, key=SKILL_COMMANDS.index)
        for command in commands:
            mine = [i for i in run.interactions if i.command == command]
            cached = [i for i in mine if not i.upstream_calls]
            print(
                Spread.of(run.overheads(mine)).row(
                    f"  overhead /{command}", f"({len(mine)}; {len(cached)} with no upstream call)"
                )
            )


PAGE_KIB = resource.getpagesize() // 1024


def read_rss_kib() -> int:
    """The resident set now (``/proc/self/statm``: one short line, cheap to read often)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE_KIB


def read_peak_rss_kib() -> int:
    """The process's peak resident set (VmHWM)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


class MemorySampler:
    """RSS every ``every`` seconds while a run goes: its peak, and the most in flight."""

    def __init__(self, every: float = 0.02) -> None:
        self.every = every
        self.in_flight = 0
        self.rss_kib = 0

    async def _run(self, recorder: Recorder) -> None:
        while True:
            self.in_flight = max(self.in_flight, recorder.in_flight)
            self.rss_kib = max(self.rss_kib, read_rss_kib())
            await asyncio.sleep(self.every)

    @contextlib.contextmanager
    def watching(self, recorder: Recorder) -> Iterator[None]:
        task = asyncio.get_running_loop().create_task(self._run(recorder))
        try:
            yield
        finally:
            task.cancel()


# --- the upstream --------------------------------------------------------------------------------


@dataclass
class Upstream:
    url: str
    where: str
    stats: Callable[[], Awaitable[dict[str, Any]]]


@contextlib.asynccontextmanager
async def upstream(mode: str, latency: float, rate_limits: bool) -> AsyncIterator[Upstream]:
    """The fake Magisterium: in a child process (``python -m bot fake-server``), or in this
    process and event loop (``running_fake_server``)."""
    if mode == "loop":
        fake = FakeMagisterium(latency=latency, rate_limits_enabled=rate_limits)
        async with running_fake_server(fake) as server:

            async def local_stats() -> dict[str, Any]:
                return fake.stats()

            yield Upstream(server.url, "in this process and event loop", local_stats)
        return
    command = [sys.executable, "-m", "bot", "fake-server", "--port", "0"]
    command += ["--latency", str(latency)] + ([] if rate_limits else ["--no-rate-limits"])
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(30):
            line = (await process.stdout.readline()).decode()
        url = line.rsplit(" ", 1)[-1].strip()
        if not url.startswith("http"):
            raise SystemExit(f"the fake server did not start: {line!r}")
        async with httpx.AsyncClient(base_url=url.removesuffix(A2A_PATH)) as control:

            async def remote_stats() -> dict[str, Any]:
                response = await control.get("/_fake/stats")
                response.raise_for_status()
                stats: dict[str, Any] = response.json()
                return stats

            yield Upstream(url, f"in a child process ({' '.join(command[1:4])})", remote_stats)
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()


def status_delta(before: dict[str, Any], after: dict[str, Any]) -> Counter[str]:
    delta = Counter(after["by_status"])
    delta.subtract(before["by_status"])
    return +delta


# --- profiling -----------------------------------------------------------------------------------

PACKAGES = (  # (label, path fragment), first match wins
    ("the bench (bench/bot_load.py)", "/bench/"),
    ("devtools/discord + dpytest (fake Discord)", "/devtools/discord/"),
    ("devtools/discord + dpytest (fake Discord)", "/discord/ext/test/"),
    ("fake Magisterium (devtools/fake_magisterium)", "/devtools/fake_magisterium/"),
    ("the bot (bot/, cogs/)", "/bot/"),
    ("the bot (bot/, cogs/)", "/cogs/"),
    ("discord.py", "/discord/"),
    ("sqlalchemy", "/sqlalchemy/"),
    ("aiosqlite, sqlite3", "sqlite"),
    ("httpx, httpcore, anyio", "/httpx/"),
    ("httpx, httpcore, anyio", "/httpcore/"),
    ("httpx, httpcore, anyio", "/anyio/"),
    ("aiohttp (fake server; httpx transport)", "/aiohttp/"),
    ("pydantic", "/pydantic"),
    ("cryptography (Fernet)", "/cryptography/"),
    ("prometheus_client", "/prometheus_client/"),
    ("event loop: epoll wait (idle)", "<method 'poll'"),
    ("asyncio", "/asyncio/"),
    ("stdlib copy/json/re/logging", "/copy.py"),
    ("stdlib copy/json/re/logging", "/json/"),
    ("stdlib copy/json/re/logging", "/re/"),
    ("stdlib copy/json/re/logging", "/logging/"),
    ("greenlet (SQLAlchemy's async bridge)", "greenlet"),
    ("other (C built-ins, stdlib)", ""),
)


def print_cprofile(profile: cProfile.Profile, top: int = 25) -> None:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    print(out.getvalue())
    totals: dict[str, float] = {}
    ours: list[tuple[float, float, int, str]] = []
    for (filename, line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{filename}:{function}"
        label = next(label for label, fragment in PACKAGES if fragment in where)
        totals[label] = totals.get(label, 0.0) + row[2]
        if label.startswith("the bot"):
            short = filename.split("/main/", 1)[-1]
            ours.append((row[3], row[2], row[1], f"{short}:{line}({function})"))
    busy = sum(v for k, v in totals.items() if "idle" not in k)
    print("own time (tottime) by package, main thread (share of the non-idle time):")
    for label, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        share = "" if "idle" in label else f"{100 * seconds / busy:5.1f}%"
        print(f"  {label:<44}{seconds:8.3f}s {share}")
    print("\nthe bot's own functions by cumulative time (cumtime, tottime, calls):")
    for cumulative, own, calls, name in sorted(ours, reverse=True)[:top]:
        print(f"  {cumulative:8.3f}s {own:8.3f}s {calls:7d}  {name}")
    print()


@contextlib.contextmanager
def profiled(kind: str | None, title: str) -> Iterator[None]:
    if kind is None:
        yield
        return
    if kind == "pyinstrument":
        from pyinstrument import Profiler
        from pyinstrument.renderers import ConsoleRenderer

        profiler = Profiler(interval=0.0005, async_mode="disabled")
        profiler.start()
        try:
            yield
        finally:
            profiler.stop()
            print(f"--- pyinstrument: {title} (self time, flat) ---")
            flat = ConsoleRenderer(flat=True, time="percent_of_total", unicode=False, color=False)
            print("\n".join(profiler.output(flat).splitlines()[:45]))
            tree = ConsoleRenderer(unicode=False, color=False, short_mode=False)
            path = Path(tempfile.gettempdir()) / f"bot_load-{title.split(maxsplit=1)[0]}.txt"
            path.write_text(profiler.output(tree))
            print(f"(call tree: {path})\n")
        return
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        print(f"--- cProfile: {title} ---")
        print_cprofile(profile)


# --- the scenarios ---------------------------------------------------------------------------


@dataclass
class Bench:
    args: argparse.Namespace
    harness: Harness
    upstream: Upstream
    latency: float

    async def people(self, prefix: str, count: int) -> list[HarnessUser]:
        """``count`` guild members, each with their own linked Magisterium token."""
        bot: MagisteriumBot = self.harness.bot  # type: ignore[assignment]
        users = [self.harness.user(name=f"{prefix}{i}") for i in range(count)]
        for user in users:
            await bot.services.registry.link(user.id, SecretStr(f"bench-{prefix}-{user.id}"))
            if self.args.warm_tokens:
                await bot.services.registry.get(user.id)
        return users

    async def run(
        self,
        label: str,
        interactions: list[Interaction],
        send: Callable[[Recorder, list[Interaction]], Awaitable[None]],
        memory: MemorySampler | None = None,
    ) -> RunFigures:
        with Recorder(self.harness) as recorder:
            started, cpu = time.perf_counter(), time.process_time()
            with memory.watching(recorder) if memory else contextlib.nullcontext():
                await send(recorder, interactions)
                await recorder.wait_idle()
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        return RunFigures.of(label, interactions, latency=self.latency, wall=wall, cpu=cpu)

    async def warm_up(self) -> None:
        """One of each command, unmeasured: imports, caches and code paths warm."""
        [user] = await self.people("warm", 1)
        plans = [(FLOOR, {}), ("ask", {"question": "Warm-up: what is a sacrament?"})]
        plans += [("search", {"query": "warm up"}), ("document", {"id": next(iter(DOCUMENTS))})]
        plans += [("readings", {"date": "2026-01-01"}), ("saints", {"date": "2026-01-01"})]
        for command, options in plans:
            await self.run("warm-up", [prepare(self.harness, command, user, options)], burst(False))


def burst(per_iteration: bool) -> Callable[[Recorder, list[Interaction]], Awaitable[None]]:
    """All arrive at once. discord.py's gateway task parses every event buffered on its socket
    in one turn, so by default they are dispatched in one go; ``per_iteration`` hands them
    over one per loop iteration instead, each behind whatever else the loop has to run."""

    async def send(recorder: Recorder, interactions: list[Interaction]) -> None:
        arrived = time.perf_counter()
        for interaction in interactions:
            recorder.dispatch(interaction, arrived)
            if per_iteration:
                await asyncio.sleep(0)

    return send


def paced(rate: float) -> Callable[[Recorder, list[Interaction]], Awaitable[None]]:
    """``rate`` arrivals per second. asyncio's timers fire up to a millisecond late (the
    selector waits whole milliseconds), so the bench wakes a millisecond early and an
    interaction arrives at its slot, or when dispatched if that is earlier: a late dispatch
    means the loop was busy, and that counts."""

    async def send(recorder: Recorder, interactions: list[Interaction]) -> None:
        start = time.perf_counter() + 0.01
        for index, interaction in enumerate(interactions):
            slot = start + index / rate
            delay = slot - TIMER_SLACK - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            recorder.dispatch(interaction, min(slot, time.perf_counter()))

    return send


def steady_options(index: int) -> tuple[str, JSON]:
    command = SKILL_COMMANDS[index % len(SKILL_COMMANDS)]
    turn = index // len(SKILL_COMMANDS)
    if command == "ask":
        return command, {"question": QUESTIONS[turn % len(QUESTIONS)]}
    if command == "search":
        return command, {"query": SEARCHES[turn % len(SEARCHES)]}
    if command == "document":
        ids = sorted(DOCUMENTS)
        return command, {"id": ids[turn % len(ids)]}
    return command, {"date": DATES[turn % len(DATES)]}


@dataclass
class Scenario:
    title: str
    bot: RunFigures
    floor: RunFigures
    upstream_statuses: Counter[str]
    memory: MemorySampler | None = None
    rss_before_kib: int = 0


async def scenario_burst(bench: Bench) -> Scenario:
    args = bench.args
    users = await bench.people("burst", args.burst_users)
    floor = [prepare(bench.harness, FLOOR, users[j % len(users)], {}) for j in range(args.burst)]
    asks = [
        prepare(
            bench.harness,
            "ask",
            users[j % len(users)],
            {"question": QUESTIONS[j % len(QUESTIONS)]},
        )
        for j in range(args.burst)
    ]
    send = burst(args.burst_per_iteration)
    floor_run = await bench.run("floor", floor, send)
    before = await bench.upstream.stats()
    gc.collect()
    rss_before = read_rss_kib()
    memory = MemorySampler()
    with profiled(args.profile, "burst (bot)"):
        bot_run = await bench.run("bot (/ask)", asks, send, memory)
    statuses = status_delta(before, await bench.upstream.stats())
    title = (
        f"(a) burst: {args.burst} /ask from {len(users)} people "
        f"({args.burst / len(users):g} each), dispatched "
        + ("one per loop iteration" if args.burst_per_iteration else "in one go")
    )
    return Scenario(title, bot_run, floor_run, statuses, memory, rss_before)


async def scenario_steady(bench: Bench) -> Scenario:
    args = bench.args
    users = await bench.people("steady", STEADY_USERS)
    count = round(args.rate * args.steady_seconds)
    plans = [steady_options(i) for i in range(count)]
    harness = bench.harness
    floor = [prepare(harness, FLOOR, users[i % len(users)], {}) for i in range(count)]
    mixed = [prepare(harness, c, users[i % len(users)], o) for i, (c, o) in enumerate(plans)]
    floor_run = await bench.run("floor", floor, paced(args.rate))
    before = await bench.upstream.stats()
    with profiled(args.profile, "steady (bot)"):
        bot_run = await bench.run("bot (mix of 5)", mixed, paced(args.rate))
    statuses = status_delta(before, await bench.upstream.stats())
    title = (
        f"(b) steady: {args.rate:g} commands/s for {args.steady_seconds:g}s ({count}), "
        f"/{', /'.join(SKILL_COMMANDS)} in turn, {len(users)} people"
    )
    return Scenario(title, bot_run, floor_run, statuses)


def ratio(bot: float, floor: float) -> float:
    return bot / floor if floor > 0 else math.inf


def judge(scenario: Scenario) -> list[str]:
    """Print the goals of one scenario; the ones missed."""
    bot, floor = scenario.bot, scenario.floor
    first_ratio = ratio(bot.first.p50, floor.first.p50)
    overhead_ratio = ratio(bot.overhead.p50, floor.overhead.p50)
    too_many = scenario.upstream_statuses.get("429", 0)
    checks = (
        (
            f"first response p99 {bot.first.p99:.2f} ms < {GOAL_FIRST_P99_MS:g}",
            bot.first.p99,
            GOAL_FIRST_P99_MS,
        ),
        (
            f"overhead p50 {bot.overhead.p50:.2f} ms < {GOAL_OVERHEAD_P50_MS:g}",
            bot.overhead.p50,
            GOAL_OVERHEAD_P50_MS,
        ),
        (
            f"overhead p99 {bot.overhead.p99:.2f} ms < {GOAL_OVERHEAD_P99_MS:g}",
            bot.overhead.p99,
            GOAL_OVERHEAD_P99_MS,
        ),
        (
            f"neither an answer nor a clear error: {bot.neither} (floor {floor.neither}), goal 0",
            bot.neither + floor.neither,
            0.5,
        ),
        (f"upstream 429s: {too_many}, goal 0", too_many, 0.5),
        (
            f"first response p50 / the floor's: {first_ratio:.2f}x <= {GOAL_FLOOR_RATIO:g}x",
            first_ratio,
            GOAL_FLOOR_RATIO + 1e-9,
        ),
        (
            f"overhead p50 / the floor's: {overhead_ratio:.2f}x <= {GOAL_FLOOR_RATIO:g}x",
            overhead_ratio,
            GOAL_FLOOR_RATIO + 1e-9,
        ),
    )
    print("  goals:")
    missed = []
    for text, value, below in checks:
        ok = value < below
        print(f"    {'ok    ' if ok else 'MISSED'}  {text}")
        if not ok:
            missed.append(f"{scenario.title.split(':')[0]} {text}")
    return missed


def print_scenario(scenario: Scenario) -> list[str]:
    print(scenario.title)
    print_run(scenario.bot, by_command=scenario.title.startswith("(b)"))
    print_run(scenario.floor)
    statuses = ", ".join(f"HTTP {k}: {n}" for k, n in sorted(scenario.upstream_statuses.items()))
    print(f"  upstream requests: {sum(scenario.upstream_statuses.values())} ({statuses or 'none'})")
    print(
        f"  ratio to the floor, p50: first response "
        f"{ratio(scenario.bot.first.p50, scenario.floor.first.p50):.2f}x, overhead "
        f"{ratio(scenario.bot.overhead.p50, scenario.floor.overhead.p50):.2f}x"
    )
    memory = scenario.memory
    if memory is not None and memory.in_flight:
        grown = memory.rss_kib - scenario.rss_before_kib
        print(
            f"  memory: RSS {scenario.rss_before_kib / 1024:.1f} MiB before the burst, at most "
            f"{memory.rss_kib / 1024:.1f} MiB during it, with up to {memory.in_flight} "
            f"interactions in flight: {grown / 1024 / memory.in_flight * 1000:.1f} MiB per "
            "1,000 in flight"
        )
        print("          (an upper bound: the growth includes what the fake Discord keeps)")
    missed = judge(scenario)
    print()
    return missed


def print_setup(args: argparse.Namespace, bot: MagisteriumBot, where: Upstream) -> None:
    settings = bot.settings
    capacity = upstream_capacity(settings)
    limits = "ON, Magisterium's: 15 requests/min and 2 catholic_qa/min per token"
    print(f"database:  SQLite in a temporary directory ({settings.database_url.split('///')[-1]})")
    print(
        f"upstream:  fake Magisterium {where.where}, {where.url}; {args.latency_ms:g} ms per "
        f"request; rate limits {limits if not args.no_upstream_rate_limits else 'OFF'}"
    )
    print(
        f"bot:       limiter {settings.rate_limit_per_minute}/min, "
        f"{settings.qa_rate_limit_per_minute} catholic_qa/min per token, wait budget "
        f"{settings.rate_limit_wait_seconds:g}s, in flight {settings.max_in_flight_per_token} per "
        f"token and {capacity.in_flight} overall; HTTP pool {capacity.connections}"
        f"{' (the defaults)' if args.default_caps else ''}; every person has their own linked "
        "token"
    )
    print("discord:   the harness's fake Discord (dpytest + devtools/discord) answers every")
    print("           request")
    print("           at once, in this process: Discord's latency and rate limits are not")
    print("           modelled; 'first response' is when discord.py hands the defer to it.")
    print("measured:  the bench, the harness, the fake Discord and the bot share one process and")
    print("           one event loop: their bookkeeping (deep copies of every request and message")
    print("           the fake Discord keeps) counts in the bot's figures, and in the floor's.")
    print("           Times run from an interaction's arrival. Overhead = end to end - upstream")
    print("           calls x latency - time queued in the bot's limiter: it includes the HTTP")
    print("           client, loopback TCP, the fake's own work (in its process) and its timer's")
    print("           slack. Logging at WARNING (the bot logs each refused request at INFO).")
    print()


async def main_async(args: argparse.Namespace) -> list[str]:
    latency = args.latency_ms / 1000
    async with upstream(args.upstream, latency, not args.no_upstream_rate_limits) as where:
        with tempfile.TemporaryDirectory(prefix="bot-load-") as directory:
            settings = harness_settings(
                where.url,
                f"sqlite+aiosqlite:///{directory}/bot.db",
                rate_limit_per_minute=15,
                qa_rate_limit_per_minute=2,
                rate_limit_wait_seconds=60.0,  # the production default
                **({} if args.default_caps else LIFTED_CAPS),
            )
            bot = create_bot(settings)
            async with Harness.start(bot) as harness:
                bot.tree.add_command(floor_command())
                bench = Bench(args, harness, where, latency)
                print_setup(args, bot, where)
                await bench.warm_up()
                missed: list[str] = []
                if args.burst:
                    missed += print_scenario(await scenario_burst(bench))
                if args.steady_seconds:
                    missed += print_scenario(await scenario_steady(bench))
    print(f"peak RSS of the process (VmHWM): {read_peak_rss_kib() / 1024:.1f} MiB")
    return missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=200.0, help="upstream latency (200)")
    parser.add_argument("--burst", type=int, default=500, help="/ask in the burst (500; 0 skips)")
    parser.add_argument("--burst-users", type=int, default=100, help="people in the burst (100)")
    parser.add_argument(
        "--burst-per-iteration",
        action="store_true",
        help="hand the burst to discord.py one interaction per loop iteration, not in one go",
    )
    parser.add_argument("--rate", type=float, default=20.0, help="steady commands/s (20)")
    parser.add_argument(
        "--steady-seconds", type=float, default=60.0, help="steady scenario length (60; 0 skips)"
    )
    parser.add_argument(
        "--upstream",
        choices=("process", "loop"),
        default="process",
        help="the fake Magisterium in a child process (default), or in this process's loop",
    )
    parser.add_argument(
        "--warm-tokens",
        action="store_true",
        help="look each person's token up once first, as for anyone who used the bot lately",
    )
    parser.add_argument(
        "--default-caps",
        action="store_true",
        help="MAX_IN_FLIGHT and UPSTREAM_MAX_CONNECTIONS at their defaults, not lifted",
    )
    parser.add_argument(
        "--no-upstream-rate-limits", action="store_true", help="the fake never answers 429"
    )
    parser.add_argument(
        "--profile",
        choices=("cprofile", "pyinstrument"),
        help="profile the bot's runs (distorts the figures; pip install pyinstrument)",
    )
    args = parser.parse_args()
    if args.latency_ms < 0 or args.burst < 0 or args.burst_users < 1 or args.rate <= 0:
        parser.error("--latency-ms >= 0, --burst >= 0, --burst-users >= 1, --rate > 0")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # "PyNaCl is not installed"
    started = time.perf_counter()
    missed = asyncio.run(main_async(args))
    print(f"total {time.perf_counter() - started:.0f}s")
    if missed:
        sys.exit("goals missed: " + "; ".join(missed))


if __name__ == "__main__":
    main()

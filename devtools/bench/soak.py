"""The soak workload: many people using every part of the bot at once, with random faults.

Used by ``tests/e2e/test_soak.py`` (bounded, in the normal suite) and ``bench/soak.py`` (longer).
Each round sends batches of interactions through a started :class:`~devtools.discord.Harness`,
``concurrency`` at a time with ``asyncio.gather`` (distinct people within a batch, so nobody
has two interactions in flight): the five skill commands, DM questions, the "Ask Magisterium"
menu, clicks on earlier answers (page turns, previous/next day) and date autocomplete.

The cache is kept small (:data:`SOAK_SETTINGS`) and the dates and searches many, so public
content keeps going upstream and the cache keeps evicting, at a constant size.

Faults: each upstream request, with probability ``fault_rate``, meets one fault drawn from
:data:`FAULT_MIX` (seeded). Every person has linked their own token (so a 429 pauses one
person, as it would); one whose token a 401 marked invalid links it again between batches.

What became of each interaction is judged as Discord would show it: an ``answer``, a clear
``error`` (an error embed with a title), ``lost`` (no response, "thinking…" forever, nothing
shown) or ``crashed`` (the harness call raised: an exception escaped the bot). Between rounds,
:meth:`Soak.settle_round` stops every view (their 10-minute timeout tasks), forgets what the
fake Discord and the fake Magisterium recorded, moves the rate limiter's clock on a window (what
it keeps is bounded by time: the rounds' speed would decide it), closes the database pool's idle
connections, and measures tasks, file descriptors by kind, pooled connections and memory.
Helpers for measuring memory without the machine's load in it (bounded memories, function
caches, pydantic-core's string cache) are used by the test.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import gc
import json
import os
import random
import re
import sys
import time
import tracemalloc
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import pydantic_core
from discord.ext.test import backend
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.app.composition import Services
from bot.cache.store import LocalCache
from bot.render.look import ERROR
from devtools.discord.harness import Harness
from devtools.discord.results import InteractionResult, SentMessage
from devtools.discord.wire import JSON, HarnessUser
from devtools.fake_magisterium import FakeMagisterium, Fault
from devtools.fake_magisterium.corpus import DOCUMENTS
from devtools.fake_magisterium.fake import UpstreamRequest

TRACEBACK_MARKERS = ("Traceback", 'File "', "Error:", "Exception")
NO_MENTIONS: JSON = {"parse": []}

# Every fault of the fault matrix that answers at once (no latency: a soak never sleeps).
FAULT_MIX: list[tuple[Fault, dict[str, Any]]] = [
    (Fault.UNAUTHORIZED, {}),
    (Fault.PLAN_REQUIRED, {}),
    # A short pause: at 45 s (the matrix's), half the people would soon be waiting out one.
    (Fault.RATE_LIMITED, {"retry_after": 5}),
    (Fault.RATE_LIMITED, {"retry_after": 5, "header": True}),
    (Fault.INTERNAL_ERROR, {}),
    (Fault.INVALID_PARAMS, {}),
    (Fault.TASK_NOT_FOUND, {}),
    (Fault.SKILL_NOT_FOUND, {}),
    (Fault.PARSE_ERROR, {}),
    (Fault.INVALID_REQUEST, {}),
    (Fault.METHOD_NOT_FOUND, {}),
    (Fault.UNKNOWN_CODE, {}),
    (Fault.FAILED_TASK, {}),
    (Fault.HTML_502, {}),
    (Fault.HTTP_500, {}),
    (Fault.HTTP_404, {}),
    (Fault.GARBAGE_BODY, {}),
    (Fault.TRUNCATED_JSON, {}),
    (Fault.NOT_A_TASK, {}),
    (Fault.DROP_CONNECTION, {}),
    (Fault.HUGE_ANSWER, {}),
    (Fault.MENTIONS_ANSWER, {}),
]

ACTIONS: dict[str, int] = {  # action -> weight
    "ask": 12,
    "search": 10,
    "document": 10,
    "readings": 10,
    "saints": 10,
    "dm": 12,
    "context_menu": 6,
    "click": 20,
    "autocomplete": 10,
}
QUESTIONS = (
    "What is grace?",
    "What is baptism?",
    "Who may baptise?",
    "What is prayer?",
    "What is the Eucharist?",
    "Why do Catholics confess to a priest?",
    "What is purgatory?",
    "What does the Church teach about marriage?",
)
SEARCH_WORDS = (
    *("church", "liturgy", "freedom", "family", "revelation", "social", "mercy", "dignity"),
    *("council", "priest", "bishop", "marriage", "faith", "reason", "peace", "work", "labour"),
    *("mission", "laity", "religious", "life", "charity", "truth"),
)
FIRST_DAY = dt.date(2026, 1, 1)
DAYS = 730  # two years of readings and saints: far more than the cache holds
TYPED = ("tom", "next sun", "19 mar", "yest", "2026-12", "mon", "")
PAGE_TURNS = ("Next ▶", "◀ Previous")
DAY_BUTTON = re.compile(r"^(readings|saints):day:\d{4}-\d{2}-\d{2}$")
CLICKABLE_PER_USER = 4

# Settings for the soak's bot: limits far above the workload (the bot is measured, not its rate
# pools); no waiting for a turn (a person whose token a 429 paused is told at once, instead of
# stalling a whole batch for the rest of the pause); a small public-content cache.
SOAK_SETTINGS: dict[str, Any] = {
    "rate_limit_per_minute": 100_000,
    "qa_rate_limit_per_minute": 100_000,
    "max_in_flight_per_token": 64,
    "rate_limit_wait_seconds": 0.0,
    "cache_max_entries": 64,
}

Outcome = str  # "answer" | "error" | "lost" | "crashed"


@dataclass(frozen=True)
class SoakConfig:
    users: int = 50
    concurrency: int = 20
    fault_rate: float = 0.10
    seed: int = 20261201


@dataclass(frozen=True)
class Done:
    """What became of one interaction."""

    action: str
    outcome: Outcome
    title: str | None = None  # the error embed's title
    problems: tuple[str, ...] = ()  # traceback text, live mentions, an untitled error…


@dataclass
class RoundReport:
    number: int
    interactions: int
    seconds: float
    actions: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    upstream_requests: int = 0
    problems: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    # The fake Discord's own count: interactions it received, and those never answered or
    # left "thinking…" (DMs are messages, not interactions: judged from their replies).
    dispatched: int = 0
    unanswered: int = 0
    # Measured after the round settled (views stopped, records forgotten).
    leftover_tasks: list[str] = field(default_factory=list)
    server_connections: int = 0  # the fake server's keep-alive connection handlers
    pool_idle: int | None = None  # pooled upstream connections, idle / in use
    pool_in_use: int | None = None
    db_in_use: int | None = None  # the database engine's pool: checked out, size + overflow
    db_capacity: int | None = None
    fds: int = 0
    fd_kinds: Counter[str] = field(default_factory=Counter)
    rss_bytes: int = 0
    traced_bytes: int | None = None

    @property
    def rate(self) -> float:
        return self.interactions / self.seconds if self.seconds else 0.0

    @property
    def accounted(self) -> int:
        return sum(self.outcomes.values())

    def lines(self) -> list[str]:
        traced = "-" if self.traced_bytes is None else f"{self.traced_bytes / 2**20:.1f} MiB"
        pool = f"idle {self.pool_idle} in use {self.pool_in_use}"
        db = f"in use {self.db_in_use} of {self.db_capacity}"
        fds = dict(sorted(self.fd_kinds.items()))
        return [
            f"round {self.number}: {self.interactions} interactions in {self.seconds:.1f}s "
            f"= {self.rate:.1f}/s; upstream requests {self.upstream_requests}",
            f"  actions: {dict(sorted(self.actions.items()))}",
            f"  outcomes: {dict(sorted(self.outcomes.items()))} "
            f"(accounted {self.accounted}/{self.interactions}); Discord saw "
            f"{self.dispatched} interactions, {self.unanswered} unanswered",
            f"  errors shown: {dict(self.errors.most_common())}",
            f"  faults injected: {sum(self.faults.values())} {dict(self.faults.most_common())}",
            f"  problems: {len(self.problems)}; crashes: {len(self.crashes)}",
            f"  after settling: leftover tasks {len(self.leftover_tasks)} "
            f"{self.leftover_tasks[:5]}; fake-server connections {self.server_connections}; "
            f"upstream pool {pool}; database pool {db}; fds {self.fds} {fds}; "
            f"RSS {self.rss_bytes / 2**20:.1f} MiB; "
            f"traced {traced}",
        ]


class Soak:
    """Drives :class:`SoakConfig`'s workload through ``harness`` against ``fake``."""

    def __init__(
        self,
        harness: Harness,
        fake: FakeMagisterium,
        config: SoakConfig,
        *,
        before_forgetting: Callable[[list[UpstreamRequest]], None] | None = None,
    ) -> None:
        self.harness = harness
        self.fake = fake
        self.config = config
        self.rng = random.Random(config.seed)
        # Apart, so that the order requests happen to arrive in never changes the workload.
        self.fault_rng = random.Random(config.seed + 1)
        self.users: list[HarnessUser] = []
        self.targets: list[Any] = []  # messages people wrote, for "Ask Magisterium"
        self.clickable: dict[int, deque[SentMessage]] = {}
        self.before_forgetting = before_forgetting
        self.faults: Counter[str] = Counter()
        self.baseline_tasks: set[asyncio.Task[Any]] = set()
        self._handle = fake.handle
        self._rounds = 0

    # --- setup ----------------------------------------------------------------------------

    async def start(self) -> None:
        """People with their own linked tokens, a few messages to ask about, and faults on."""
        registry = services(self.harness).registry
        for number in range(self.config.users):
            user = self.harness.user(name=f"soak{number}")
            await registry.link(user.id, self._token_of(user))
            self.users.append(user)
            self.clickable[user.id] = deque(maxlen=CLICKABLE_PER_USER)
        writer = self.harness.user(name="writer")
        for question in QUESTIONS[:4]:
            self.targets.append((await self.harness.post(writer, question)).message)
        self.fake.handle = self._handle_with_faults  # type: ignore[method-assign]
        self.baseline_tasks = asyncio.all_tasks()

    def stop(self) -> None:
        self.fake.handle = self._handle  # type: ignore[method-assign]
        self.fake.faults.clear()

    @staticmethod
    def _token_of(user: HarnessUser) -> SecretStr:
        return SecretStr(f"pro-soak-token-{user.id}")

    def _handle_with_faults(self, body: bytes, authorization: str | None) -> Any:
        """The fake's ``handle`` with, now and then, one fault queued just for this request
        (synchronous: no other request can take it)."""
        if self.fault_rng.random() < self.config.fault_rate:
            kind, params = self.fault_rng.choice(FAULT_MIX)
            self.fake.faults.add(kind, **params)
            self.faults[str(kind)] += 1
        try:
            return self._handle(body, authorization)
        finally:
            self.fake.faults.clear()  # one that did not apply (a content fault) is not kept

    # --- rounds ---------------------------------------------------------------------------

    async def run_round(self, interactions: int) -> RoundReport:
        """``interactions`` interactions in batches; then settle and measure."""
        self._rounds += 1
        self.faults.clear()
        requests_before = len(self.fake.requests)
        done: list[Done] = []
        started = time.perf_counter()
        names, weights = list(ACTIONS), list(ACTIONS.values())
        while len(done) < interactions:
            size = min(self.config.concurrency, interactions - len(done))
            people = self.rng.sample(self.users, size)
            actions = self.rng.choices(names, weights, k=size)
            batch = [self._run(action, user) for action, user in zip(actions, people, strict=True)]
            done += await asyncio.gather(*batch)
            await self._relink_refused()
        seconds = time.perf_counter() - started
        report = RoundReport(self._rounds, interactions, seconds)
        report.upstream_requests = len(self.fake.requests) - requests_before
        report.faults = Counter(self.faults)
        for item in done:
            report.actions[item.action] += 1
            report.outcomes[item.outcome] += 1
            if item.outcome == "error":
                report.errors[item.title or "?"] += 1
            report.problems += [f"{item.action}: {p}" for p in item.problems]
            if item.outcome == "crashed":
                report.crashes += [f"{item.action}: {p}" for p in item.problems]
        await self.settle_round(report)
        return report

    async def _relink_refused(self) -> None:
        """People whose token a 401 marked invalid link it again (as /account link would)."""
        registry = services(self.harness).registry
        statuses = await registry.statuses(user.id for user in self.users)
        for user in self.users:
            if statuses.get(user.id) != "valid":
                await registry.link(user.id, self._token_of(user))

    async def _run(self, action: str, user: HarnessUser) -> Done:
        try:
            done: Done = await getattr(self, f"_do_{action}")(user)
        except Exception as error:  # an exception escaped the bot: counted, never lost
            return Done(action, "crashed", problems=(f"{type(error).__name__}: {error}"[:800],))
        return done

    # --- the actions ----------------------------------------------------------------------

    async def _do_ask(self, user: HarnessUser) -> Done:
        question = self.rng.choice(QUESTIONS)
        return self._judged(
            "ask", user, await self.harness.slash("ask", question=question, user=user)
        )

    async def _do_search(self, user: HarnessUser) -> Done:
        query = " ".join(self.rng.sample(SEARCH_WORDS, 2))
        return self._judged(
            "search", user, await self.harness.slash("search", query=query, user=user)
        )

    async def _do_document(self, user: HarnessUser) -> Done:
        doc_id = self.rng.choice(list(DOCUMENTS))
        result = await self.harness.slash("document", id=doc_id, user=user)
        return self._judged("document", user, result)

    async def _do_readings(self, user: HarnessUser) -> Done:
        result = await self.harness.slash("readings", date=self._date(), user=user)
        return self._judged("readings", user, result)

    async def _do_saints(self, user: HarnessUser) -> Done:
        result = await self.harness.slash("saints", date=self._date(), user=user)
        return self._judged("saints", user, result)

    def _date(self) -> str:
        return (FIRST_DAY + dt.timedelta(days=self.rng.randrange(DAYS))).isoformat()

    async def _do_context_menu(self, user: HarnessUser) -> Done:
        target = self.rng.choice(self.targets)
        result = await self.harness.context_menu(
            "Ask Magisterium", target_message=target, user=user
        )
        return self._judged("context_menu", user, result)

    async def _do_dm(self, user: HarnessUser) -> Done:
        exchange = await self.harness.dm_message(user, self.rng.choice(QUESTIONS))
        channel_id = self.harness.dm_channel_id(user)
        # Replies to other people's concurrent DMs land in the same exchange: keep this one's.
        replies = [reply for reply in exchange.replies if reply.place.channel_id == channel_id]
        problems = _payload_problems(
            [reply.request for reply in replies], [reply.allowed_mentions for reply in replies]
        )
        embeds = [embed for reply in replies for embed in reply.embeds]
        return _verdict("dm", embeds, shown=bool(replies), problems=problems)

    async def _do_click(self, user: HarnessUser) -> Done:
        choice = self._something_to_click(user)
        if choice is None:
            return await self._do_autocomplete(user)
        message, custom_id = choice
        result = await self.harness.click(message, custom_id, user=user)
        return self._judged("click", user, result)

    async def _do_autocomplete(self, user: HarnessUser) -> Done:
        command = self.rng.choice(("readings", "saints"))
        choices = await self.harness.autocomplete(
            command, "date", self.rng.choice(TYPED), user=user
        )
        problems = _payload_problems([r.payload for r in choices.result.requests], [])
        return Done("autocomplete", "answer", problems=tuple(problems))

    def _something_to_click(self, user: HarnessUser) -> tuple[SentMessage, str] | None:
        """A page turn or a day button on one of ``user``'s earlier answers."""
        messages = [m for m in self.clickable[user.id] if not m.deleted]
        self.rng.shuffle(messages)
        for message in messages:
            buttons = [
                str(c["custom_id"])
                for row in message.components
                for c in row.get("components", [])
                if c.get("custom_id")
                and not c.get("disabled")
                and (c.get("label") in PAGE_TURNS or DAY_BUTTON.match(str(c["custom_id"])))
            ]
            if buttons:
                return message, self.rng.choice(buttons)
        return None

    def _judged(self, action: str, user: HarnessUser, result: InteractionResult) -> Done:
        problems = _payload_problems(
            [r.payload for r in result.requests], result.allowed_mentions_all
        )
        if result.callback_type is None:
            return Done(action, "lost", problems=("no response at all", *problems))
        if result.left_thinking:
            return Done(action, "lost", problems=("left thinking", *problems))
        message = result.message
        if message is not None and message.components and not message.deleted:
            self.clickable[user.id].append(message)
        return _verdict(
            action, result.embeds, shown=bool(result.visible_messages), problems=problems
        )

    # --- between rounds -------------------------------------------------------------------

    async def settle_round(self, report: RoundReport) -> None:
        """Stop every view, forget what the fakes recorded, then measure what is left."""
        self.clickable = {user.id: deque(maxlen=CLICKABLE_PER_USER) for user in self.users}
        results = self.harness.results
        report.dispatched = len(results)
        report.unanswered = sum(1 for r in results if r.callback_type is None or r.left_thinking)
        await stop_views(self.harness)
        self._forget_records()
        await let_a_window_pass(self.harness)
        leftover = [t for t in asyncio.all_tasks() - self.baseline_tasks if not t.done()]
        leftover = [t for t in leftover if t is not asyncio.current_task()]
        server = [t for t in leftover if _is_server_connection(t)]
        report.server_connections = len(server)
        report.leftover_tasks = sorted(_task_name(t) for t in leftover if t not in server)
        report.pool_idle, report.pool_in_use = pooled_connections(self.harness)
        report.db_in_use, report.db_capacity = database_pool(self.harness)
        # The pool's idle connections closed (reopened when next needed), so that the database
        # files open are those of connections in use: SQLite keeps a closed connection's
        # descriptors while another holds a lock on the file, so that with connections pooled
        # their number follows the concurrency the round happened to reach (the machine's
        # load), beyond the pool's size. Then a collection: a connection the pool invalidated
        # (work on it cancelled, which a loaded machine's deadlines do) is closed when collected.
        await services(self.harness).db._engine.dispose()
        gc.collect()
        report.fd_kinds = open_fds()
        report.fds = sum(report.fd_kinds.values())
        report.rss_bytes = rss_bytes()
        if tracemalloc.is_tracing():
            gc.collect()
            report.traced_bytes = tracemalloc.get_traced_memory()[0]

    def _forget_records(self) -> None:
        """The fakes keep every request and message for tests to read: drop this round's."""
        if self.before_forgetting is not None:
            self.before_forgetting(list(self.fake.requests))
        self.fake.requests.clear()
        self.fake.tasks.clear()
        harness = self.harness
        targets = {message.id for message in self.targets}
        harness.results.clear()
        harness.fake.sessions.clear()
        harness.fake.requests.clear()
        harness.fake.messages.clear()
        harness._channel_sent.clear()
        for message_id in [i for i in harness._posted if i not in targets]:
            del harness._posted[message_id]
        config = backend._cur_config
        if config is not None:
            for channel_id, messages in config.messages.items():
                config.messages[channel_id] = [m for m in messages if int(str(m["id"])) in targets]


def _verdict(action: str, embeds: list[JSON], *, shown: bool, problems: list[str]) -> Done:
    errors = [embed for embed in embeds if embed.get("color") == ERROR.value]
    if errors:
        title = errors[-1].get("title")
        if not title:
            problems = [*problems, "an error embed without a title"]
        return Done(action, "error", title, tuple(problems))
    if not shown or not embeds:
        return Done(action, "lost", problems=("nothing shown", *problems))
    return Done(action, "answer", problems=tuple(problems))


def _payload_problems(payloads: Iterable[Any], mentions: Iterable[JSON | None]) -> list[str]:
    text = str(list(payloads))
    problems = [f"{marker!r} in a payload" for marker in TRACEBACK_MARKERS if marker in text]
    problems += [f"allowed_mentions {m}" for m in mentions if m != NO_MENTIONS]
    return problems


async def stop_views(harness: Harness) -> None:
    """Stop every stored view and await the end of their timeout tasks (as at shutdown)."""
    before = asyncio.all_tasks()
    store = harness.bot._connection._view_store
    views = {
        id(item.view): item.view
        for items in store._views.values()
        for item in items.values()
        if item.view is not None
    }
    for view in views.values():
        view.stop()
    ending = [t for t in before if t.cancelling() and not t.done()]
    await asyncio.gather(*ending, return_exceptions=True)


def _is_server_connection(task: asyncio.Task[Any]) -> bool:
    """aiohttp's handler of one keep-alive connection to the in-process fake server."""
    return "RequestHandler.start" in getattr(task.get_coro(), "__qualname__", "")


def _task_name(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    return f"{task.get_name()} ({getattr(coro, '__qualname__', type(coro).__name__)})"


def services(harness: Harness) -> Services:
    bot = harness.bot
    assert isinstance(bot, MagisteriumBot)
    return bot.services


def pooled_connections(harness: Harness) -> tuple[int | None, int | None]:
    """Idle and in-use connections in the bot's upstream pool (aiohttp's connector)."""
    transport = getattr(services(harness).http, "_transport", None)
    session = getattr(transport, "client", None)
    connector = getattr(session, "connector", None)
    if connector is None:
        return None, None
    idle = sum(len(conns) for conns in getattr(connector, "_conns", {}).values())
    in_use = len(getattr(connector, "_acquired", ()))
    return idle, in_use


def database_pool(harness: Harness) -> tuple[int | None, int | None]:
    """The database engine's pool: connections checked out, and how many it may hold open
    at once (its size plus its overflow), or None for a pool without those bounds."""
    pool = services(harness).db._engine.pool
    size, overflow = getattr(pool, "size", None), getattr(pool, "_max_overflow", None)
    checked_out = getattr(pool, "checkedout", None)
    if size is None or overflow is None or checked_out is None:
        return None, None
    return int(checked_out()), int(size()) + int(overflow)


async def let_a_window_pass(harness: Harness) -> None:
    """Move the rate limiter's clock on by one window and let it forget what the window held,
    as a minute's pause between rounds would (without waiting it): what the limiter keeps is
    bounded by time, not by count, so the rounds' speed (the machine's load) would decide it."""
    limiter = services(harness).limiter
    clock = limiter._loop_clock()
    clock._offset += limiter._pools.window
    for lane in list(limiter._lanes.values()):
        await lane.refresh()
    limiter._sweep()


# The cog that owns the bot's memories of recent answers (``cogs.qa.memory.RecentAnswers``),
# bounded by ANSWER_MEMORY_SIZE and SHARE_MEMORY_SIZE.
QA_COG = "QACog"


def answer_memories(harness: Harness) -> dict[str, Any]:
    """The QA cog's memories of recent answers (each a ``BoundedMemory``: ``len`` and ``size``),
    by name. Read from the running cog, never imported: each bot imports its extensions afresh
    and each cog (a reload too) makes its own memories."""
    cog = harness.bot.get_cog(QA_COG)
    recent = getattr(cog, "recent", None)
    if recent is None or not is_dataclass(recent):
        raise LookupError(f"{QA_COG} with its memories is not loaded in this bot")
    return {f.name: getattr(recent, f.name) for f in fields(recent)}


def bounded_memories(harness: Harness) -> dict[str, tuple[int, int]]:
    """The bot's memories bounded by a count: what each holds, and its bound. Until they are
    full, their filling up is growth that is not a leak."""
    memories = {
        f"{name} (recent answers)": (len(memory), memory.size)
        for name, memory in answer_memories(harness).items()
    }
    messages = harness.bot._connection._messages
    if messages is not None and messages.maxlen is not None:
        memories["discord.py's message cache"] = (len(messages), messages.maxlen)
    cache = services(harness).cache
    cache = getattr(cache, "_cache", cache)
    if isinstance(cache, LocalCache):
        memories["public-content cache"] = (len(cache._entries), cache._max_entries)
    return memories


def clear_function_caches() -> dict[str, tuple[int, int | None]]:
    """Empty the bot's ``functools.lru_cache`` caches, and say what they held (size, bound).

    Bounded, but by more distinct inputs than a short run makes (every date typed, thousands):
    they fill for longer than it runs, so their filling would look like growth. As CPython's
    own leak hunting (``regrtest -R``) does, they are emptied before each measurement."""
    held: dict[str, tuple[int, int | None]] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("bot.", "cogs.")):
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == name:
                info = value.cache_info()
                held[f"{name}.{attribute}"] = (info.currsize, info.maxsize)
                value.cache_clear()
    return held


# pydantic-core's cache of short strings read from JSON: 16,384 slots, filled by distinct
# strings, a new one replacing the one in its slot. About as long, on average, as the ones the
# bot reads, so that replacing them changes little.
STRING_CACHE_FILL = 300_000


def fill_string_cache() -> None:
    """Fill pydantic-core's string cache (which cannot be emptied from Python) with strings
    made now: from then on it holds as much memory, and as much of it traced, whatever strings
    the bot reads replace them. Call it once tracemalloc traces."""
    strings = [f"soak-fill-{number:024d}" for number in range(STRING_CACHE_FILL)]
    pydantic_core.from_json(json.dumps(strings), cache_strings=True)


def empty_bounded_memories(harness: Harness) -> dict[str, tuple[int, int]]:
    """Empty the memories of :func:`bounded_memories`, and say what they held (as a restart
    would: the bot holds nothing there that it cannot do without). What they hold is the last
    few answers and messages, of any size (a huge answer or none): measured with them, memory
    would follow the luck of the draw."""
    held = bounded_memories(harness)
    for memory in answer_memories(harness).values():
        memory.clear()
    messages = harness.bot._connection._messages
    if messages is not None:
        messages.clear()
    cache = services(harness).cache
    cache = getattr(cache, "_cache", cache)
    if isinstance(cache, LocalCache):
        cache._entries.clear()
    return held


def open_fds() -> Counter[str]:
    """This process's open file descriptors by kind: ``tcp`` and ``unix`` sockets (by
    ``/proc/net``), ``socket`` (others), ``pipe``, ``anon_inode:[…]`` (the selector, eventfds)
    and files by name (a database's ``bot.db``, ``bot.db-wal``, ``bot.db-shm``…)."""
    inet = _socket_inodes("tcp") | _socket_inodes("tcp6")
    unix = _socket_inodes("unix")
    kinds: Counter[str] = Counter()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the descriptor listdir itself used, closed since
            continue
        if target.startswith("socket:["):
            inode = target[len("socket:[") : -1]
            kinds["tcp" if inode in inet else "unix" if inode in unix else "socket"] += 1
        elif target.startswith("pipe:"):
            kinds["pipe"] += 1
        elif target.startswith("anon_inode:"):
            kinds[target] += 1
        else:
            kinds[os.path.basename(target)] += 1
    return kinds


def _socket_inodes(table: str) -> set[str]:
    try:
        with open(f"/proc/net/{table}") as lines:
            next(lines)
            column = 9 if table.startswith("tcp") else 6
            return {line.split()[column] for line in lines if len(line.split()) > column}
    except OSError:
        return set()


def rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0

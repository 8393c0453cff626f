"""Benchmark: a mention storm — 100 mentions in 10 s from 50 people — beside the same load as /ask.

Run by hand from the repository root (offline; about half a minute with the defaults):

    .venv/bin/python bench/mention_storm.py [--questions 100] [--seconds 10] [--people 50]
        [--latency-ms 200]

The bot is ``create_bot(harness_settings(...))`` on SQLite in a temporary directory, started by
the offline harness, against the fake Magisterium on loopback TCP with a fixed latency per
request and Magisterium's real per-token limits (2 catholic_qa a minute: ``--questions`` /
``--people`` must stay within that). Every person has their own linked token; the two scenarios
use different people, so neither spends the other's limits:

  /ask     ``--questions`` INTERACTION_CREATE payloads of ``/ask``, evenly over ``--seconds``;
  mention  as many MESSAGE_CREATE payloads mentioning the bot, as Discord sends them to an app
           without the Message Content intent, over the same schedule.

Each is handed to discord.py's parser at its slot without awaiting the others (the harness's
``message_create`` builds the mention, as the tests send it). Measured per question: end to end,
from its dispatch to the moment discord.py hands the answer to Discord (the /ask followup, the
mention's reply), and the bot's overhead = end to end - the time inside upstream calls. Printed:
answered count and the p50 / p95 / p99 / max of both, per scenario, and the mention's overhead
beside /ask's. Exits 1 when a question got no answer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from discord.webhook.async_ import async_context  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bot.app import MagisteriumBot, create_bot  # noqa: E402
from devtools.discord import Harness, HarnessUser  # noqa: E402
from devtools.discord.fixtures import harness_settings, migrate_sqlite, sqlite_url_of  # noqa: E402
from devtools.discord.wire import APPLICATION_COMMAND  # noqa: E402
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402

QUESTIONS = (
    "What is grace?",
    "Why do Catholics pray to saints?",
    "What is the Eucharist?",
    "What does the Church teach about mercy?",
    "What is purgatory?",
)
SETTLE_SECONDS = 60.0


@dataclass(eq=False)
class Question:
    kind: str  # "/ask" or "mention"
    dispatched: float = 0.0
    answered: float | None = None
    upstream_seconds: float = 0.0
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def answer(self) -> None:
        self.answered = time.perf_counter()
        self.done.set()

    @property
    def end_to_end(self) -> float | None:
        return None if self.answered is None else self.answered - self.dispatched

    @property
    def overhead(self) -> float | None:
        total = self.end_to_end
        return None if total is None else total - self.upstream_seconds


CURRENT: ContextVar[Question | None] = ContextVar("bench_question", default=None)


@dataclass(frozen=True)
class Config:
    questions: int = 100
    seconds: float = 10.0
    people: int = 50
    latency: float = 0.2


@dataclass(frozen=True)
class Result:
    kind: str
    questions: list[Question]

    @property
    def answered(self) -> int:
        return sum(q.answered is not None for q in self.questions)

    def figures(self, name: str) -> list[float]:
        values = [getattr(q, name) for q in self.questions]
        return sorted(v * 1000 for v in values if v is not None)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    index = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[index]


@contextlib.contextmanager
def instrumented(harness: Harness) -> Iterator[None]:
    """Time upstream calls, the /ask followups and the mentions' replies of the current
    question (tasks a dispatch starts inherit its context variable)."""
    bot: MagisteriumBot = harness.bot  # type: ignore[assignment]
    client: Any = bot.services.a2a
    http: Any = bot.http
    adapter: Any = harness.adapter
    send_upstream, send_message, request = client.send_message, http.send_message, adapter.request

    async def timed_upstream(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await send_upstream(*args, **kwargs)
        finally:
            if (current := CURRENT.get()) is not None:
                current.upstream_seconds += time.perf_counter() - started

    async def timed_reply(channel_id: int, *, params: Any) -> Any:
        current = CURRENT.get()
        if current is not None and current.kind == "mention":
            current.answer()
        return await send_message(channel_id, params=params)

    async def timed_request(route: Any, *args: Any, **kwargs: Any) -> Any:
        current = CURRENT.get()
        followup = route.method == "POST" and route.path == "/webhooks/{webhook_id}/{webhook_token}"
        if current is not None and current.kind == "/ask" and followup:
            current.answer()  # the answer fills the "thinking…" placeholder
        return await request(route, *args, **kwargs)

    client.send_message, http.send_message, adapter.request = (
        timed_upstream,
        timed_reply,
        timed_request,
    )
    try:
        yield
    finally:
        client.send_message, http.send_message, adapter.request = (
            send_upstream,
            send_message,
            request,
        )


def dispatch_ask(harness: Harness, user: HarnessUser, question: Question, text: str) -> None:
    payload, session = harness._chat_input(
        APPLICATION_COMMAND,
        "ask",
        {"question": text},
        None,
        user=user,
        where=(None, False, False, None),
        locale=None,
        member_permissions=None,
        app_permissions=None,
    )
    harness.fake.open(session)
    token, adapter = CURRENT.set(question), async_context.set(harness.adapter)
    question.dispatched = time.perf_counter()
    try:
        harness.state.parsers["INTERACTION_CREATE"](payload)
    finally:
        async_context.reset(adapter)
        CURRENT.reset(token)


def dispatch_mention(harness: Harness, user: HarnessUser, question: Question, text: str) -> None:
    data, _place = harness.message_create(user, f"<@{harness.bot_user['id']}> {text}")
    token = CURRENT.set(question)
    question.dispatched = time.perf_counter()
    try:
        harness.state.parsers["MESSAGE_CREATE"](data)
    finally:
        CURRENT.reset(token)


async def storm(harness: Harness, config: Config, kind: str, people: list[HarnessUser]) -> Result:
    questions = [Question(kind) for _ in range(config.questions)]
    dispatch = dispatch_ask if kind == "/ask" else dispatch_mention
    start = time.perf_counter() + 0.05
    for index, question in enumerate(questions):
        slot = start + index * config.seconds / config.questions
        await asyncio.sleep(max(0.0, slot - time.perf_counter()))
        dispatch(harness, people[index % len(people)], question, QUESTIONS[index % len(QUESTIONS)])
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(SETTLE_SECONDS):
            await asyncio.gather(*(q.done.wait() for q in questions))
    await asyncio.sleep(config.latency)  # what the last answers do after they are sent
    return Result(kind, questions)


async def bench(config: Config, workdir: Path) -> list[Result]:
    fake = FakeMagisterium(latency=config.latency)
    async with running_fake_server(fake) as server:
        database = sqlite_url_of(migrate_sqlite(workdir / "bot.db"))
        bot = create_bot(harness_settings(server.url, database))
        async with Harness.start(bot) as harness:
            harness.managed_role()  # the bot's role, with its install link's permissions
            registry = bot.services.registry
            results = []
            for kind in ("/ask", "mention"):
                people = [harness.user(name=f"{kind[-4:]}{i}") for i in range(config.people)]
                for person in people:
                    await registry.link(person.id, SecretStr(f"pro-bench-{person.id}"))
                with instrumented(harness):
                    results.append(await storm(harness, config, kind, people))
            return results


def report(config: Config, results: list[Result]) -> bool:
    print(
        f"{config.questions} questions in {config.seconds:g} s from {config.people} people, "
        f"upstream latency {config.latency * 1000:.0f} ms"
    )
    print(f"{'':8} {'answered':>9}  {'end to end ms p50/p95/p99/max':>32}  {'overhead ms':>28}")
    for result in results:
        cells = []
        for name in ("end_to_end", "overhead"):
            values = result.figures(name)
            cells.append(
                "/".join(f"{percentile(values, p):.0f}" for p in (50, 95, 99))
                + f"/{max(values, default=float('nan')):.0f}"
            )
        answered = f"{result.answered}/{len(result.questions)}"
        print(f"{result.kind:8} {answered:>9}  {cells[0]:>32}  {cells[1]:>28}")
    ask, mention = (statistics.median(r.figures("overhead") or [float("nan")]) for r in results)
    print(f"mention overhead p50 beside /ask's: {mention:.1f} ms vs {ask:.1f} ms")
    return all(r.answered == len(r.questions) for r in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=Config.questions)
    parser.add_argument("--seconds", type=float, default=Config.seconds)
    parser.add_argument("--people", type=int, default=Config.people)
    parser.add_argument("--latency-ms", type=float, default=Config.latency * 1000)
    args = parser.parse_args()
    config = Config(args.questions, args.seconds, args.people, args.latency_ms / 1000)
    with tempfile.TemporaryDirectory() as workdir:
        results = asyncio.run(bench(config, Path(workdir)))
    return 0 if report(config, results) else 1


if __name__ == "__main__":
    sys.exit(main())

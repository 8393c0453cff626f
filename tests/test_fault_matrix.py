"""The fault matrix: every fault the fake Magisterium can produce, crossed with every way a
person asks the bot something (the skill and lookup commands, a DM question, "Ask
Magisterium").

In every cell the person gets a response at once (deferred or answered, never left
"thinking…"), exactly one clear message (an embed with a title: the explanation, or the answer
when the client rightly retried a transient fault), no traceback text in anything sent, inert
mentions, no exception the event loop had to report, and the next command is answered
normally — except after a 429, when the token is rightly paused and the next person is told to
wait, with a number.

Faults that need the bot set up differently have a class of their own: connect refused (a
closed port), a read timeout (an upstream slower than the deadline) and a limiter that cannot
admit within the wait budget.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.fake_server import FakeMagisterium, Fault, running_fake_server
from bot.render.look import ERROR
from tests.conftest_db import closed_port
from tests.harness import Harness, HarnessUser, InteractionResult, MessageExchange
from tests.harness.loop_errors import LoopErrors, loop_errors_fixture  # noqa: F401
from tests.harness.wire import JSON

pytestmark = pytest.mark.usefixtures("loop_errors")  # set up first, so checked last

TRACEBACK_MARKERS = ("Traceback", 'File "', "Error:", "Exception")
NO_MENTIONS: JSON = {"parse": []}
WAIT_WITH_A_NUMBER = re.compile(r"[Tt]ry again in \d+ seconds?")

ANSWER = "an answer"  # a transient fault the client retried: the person simply gets the answer
REFUSED = "Your Magisterium token was refused"
PLAN = "A paid Magisterium plan is needed"
SLOW_DOWN = "Slow down a little"
NOT_ACCEPTED = "Magisterium did not accept that request"
TROUBLE = "Magisterium is having trouble"
COULD_NOT = "Magisterium could not answer"
NOT_ANSWERING = "Magisterium is not answering"
BUSY = "Magisterium is busy for this account"
ERROR_TITLES = {REFUSED, PLAN, SLOW_DOWN, NOT_ACCEPTED, TROUBLE, COULD_NOT, NOT_ANSWERING, BUSY}


# --- what the person saw --------------------------------------------------------------------


@dataclass
class Shown:
    """What one attempt left the person with, whichever way they asked."""

    callback_type: int | None  # None for a DM: a message has no 3-second window
    left_thinking: bool
    messages: list[JSON]  # the messages the person is left with
    sent: list[Any] = field(default_factory=list)  # every payload sent to Discord
    mentions: list[JSON | None] = field(default_factory=list)
    transcript: str = ""

    @property
    def embed(self) -> JSON:
        """The one message's first embed (asserting there is exactly one message)."""
        assert len(self.messages) == 1, f"expected one message, got: {self.transcript}"
        embeds = self.messages[0].get("embeds") or []
        assert embeds, f"no embed: {self.transcript}"
        return dict(embeds[0])


def shown_by_interaction(result: InteractionResult) -> Shown:
    return Shown(
        callback_type=result.callback_type,
        left_thinking=result.left_thinking,
        messages=[message.payload for message in result.visible_messages],
        sent=[request.payload for request in result.requests],
        mentions=result.allowed_mentions_all,
        transcript=result.transcript,
    )


def shown_by_dm(exchange: MessageExchange) -> Shown:
    return Shown(
        callback_type=None,
        left_thinking=False,
        messages=[reply.payload for reply in exchange.replies],
        sent=[reply.request for reply in exchange.replies],
        mentions=[reply.allowed_mentions for reply in exchange.replies],
        transcript="\n".join(str(reply.payload) for reply in exchange.replies),
    )


# --- the ways to ask ------------------------------------------------------------------------

Ask = Callable[[Harness, HarnessUser, int], Awaitable[Shown]]
QUESTIONS = ("What is grace?", "What is baptism?", "Who may baptise?", "What is prayer?")
QUERIES = ("Lumen Gentium church", "liturgy", "religious freedom", "family")
DOCUMENTS = ("12345", "12346", "12347", "12348")
DATES = ("2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04")


async def via_ask(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("ask", question=QUESTIONS[n], user=user))


async def via_search(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("search", query=QUERIES[n], user=user))


async def via_document(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("document", id=DOCUMENTS[n], user=user))


async def via_readings(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("readings", date=DATES[n], user=user))


async def via_saints(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_interaction(await harness.slash("saints", date=DATES[n], user=user))


LOOKUPS = {
    "saint": ("Thérèse of Lisieux", "Thomas Aquinas", "Patrick", "Augustine"),
    "pope": ("John Paul II", "Leo XIII", "John XXIII", "Pius IX"),
    "clergy": ("Andrew Yeom Soo-jung", "Peter Chung Soon-taick", "Stanislaw Dziwisz", "Seoul"),
    "diocese": ("Seoul", "Paris", "Krakow", "Los Angeles"),
}


def via_lookup(command: str) -> Ask:
    async def ask(harness: Harness, user: HarnessUser, n: int) -> Shown:
        name = LOOKUPS[command][n]
        return shown_by_interaction(await harness.slash(command, name=name, user=user))

    return ask


async def via_dm(harness: Harness, user: HarnessUser, n: int) -> Shown:
    return shown_by_dm(await harness.dm_message(user, QUESTIONS[n]))


async def via_context_menu(harness: Harness, user: HarnessUser, n: int) -> Shown:
    posted = await harness.post(harness.user(), QUESTIONS[n])
    result = await harness.context_menu("Ask Magisterium", target_message=posted.message, user=user)
    return shown_by_interaction(result)


ENTRY_POINTS: dict[str, Ask] = {
    "ask": via_ask,
    "search": via_search,
    "document": via_document,
    "readings": via_readings,
    "saints": via_saints,
    **{command: via_lookup(command) for command in LOOKUPS},
    "dm": via_dm,
    "context_menu": via_context_menu,
}


# --- the checks every cell makes ------------------------------------------------------------


def check_one_clear_message(shown: Shown) -> JSON:
    """Answered at once, not left thinking, one message with an embed, no traceback text,
    mentions inert: that embed."""
    if shown.callback_type is not None:
        assert shown.callback_type in (4, 5), shown.transcript  # a response, or "thinking…"
    assert not shown.left_thinking, shown.transcript
    assert shown.messages, "the person must be left with an answer or an explanation"
    text = str(shown.sent)
    leaked = [marker for marker in TRACEBACK_MARKERS if marker in text]
    assert not leaked, f"traceback text {leaked} in: {shown.transcript}"
    assert shown.mentions and all(m == NO_MENTIONS for m in shown.mentions), shown.mentions
    return shown.embed


def check_expected(shown: Shown, expect: str) -> JSON:
    embed = check_one_clear_message(shown)
    if expect == ANSWER:  # an answer has text; its title, if any, is not an error's
        assert embed.get("description") or embed.get("fields"), embed
        assert embed.get("title") not in ERROR_TITLES, embed
        assert embed.get("color") != ERROR.value, embed
    else:
        assert embed["title"] == expect, embed
        assert embed.get("color") == ERROR.value, embed
    return embed


def check_told_to_wait(shown: Shown) -> None:
    embed = check_one_clear_message(shown)
    assert embed.get("title") in (BUSY, SLOW_DOWN), embed
    assert WAIT_WITH_A_NUMBER.search(str(embed.get("description"))), embed


# --- the matrix -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    fault: Fault
    expect: str  # the error embed's title, or ANSWER
    params: dict[str, Any] = field(default_factory=dict)
    says: str | None = None  # also in the embed's text


IN_45 = "Try again in 45 seconds."
RETRY_AFTER_HEADER = {"retry_after": 45, "header": True}
CASES = [
    Case("401", Fault.UNAUTHORIZED, REFUSED),
    Case("403", Fault.PLAN_REQUIRED, PLAN),
    Case("429-retryAfter", Fault.RATE_LIMITED, SLOW_DOWN, {"retry_after": 45}, IN_45),
    Case("429-Retry-After-header", Fault.RATE_LIMITED, SLOW_DOWN, RETRY_AFTER_HEADER, IN_45),
    Case("rpc-32603-internal", Fault.INTERNAL_ERROR, ANSWER),
    Case("rpc-32602-invalid-params", Fault.INVALID_PARAMS, NOT_ACCEPTED),
    Case("rpc-32001-task-not-found", Fault.TASK_NOT_FOUND, TROUBLE),
    Case("rpc-32002-skill-not-found", Fault.SKILL_NOT_FOUND, NOT_ACCEPTED),
    Case("rpc-32700-parse-error", Fault.PARSE_ERROR, TROUBLE),
    Case("rpc-32600-invalid-request", Fault.INVALID_REQUEST, TROUBLE),
    Case("rpc-32601-method-not-found", Fault.METHOD_NOT_FOUND, TROUBLE),
    Case("unknown-code", Fault.UNKNOWN_CODE, TROUBLE),
    Case("failed-task", Fault.FAILED_TASK, COULD_NOT),
    Case("html-502", Fault.HTML_502, ANSWER),
    Case("http-500", Fault.HTTP_500, ANSWER),
    Case("http-404", Fault.HTTP_404, TROUBLE),
    Case("garbage-body", Fault.GARBAGE_BODY, TROUBLE),
    Case("truncated-json", Fault.TRUNCATED_JSON, TROUBLE),
    Case("not-a-task", Fault.NOT_A_TASK, TROUBLE),
    Case("dropped-connection", Fault.DROP_CONNECTION, ANSWER),
    Case("huge-answer", Fault.HUGE_ANSWER, ANSWER),
    Case("mentions-answer", Fault.MENTIONS_ANSWER, ANSWER),
]
PAUSES_THE_TOKEN = {Fault.RATE_LIMITED}
# Retried by the client with the same messageId: the retry is what answers.
TRANSIENT = {Fault.INTERNAL_ERROR, Fault.HTML_502, Fault.HTTP_500, Fault.DROP_CONNECTION}

# The fake sends a huge answer only for catholic_qa: the other skills have no such cell.
QA_ONLY = {Fault.HUGE_ANSWER}
QA_ENTRY_POINTS = {"ask", "dm", "context_menu"}

CELLS = [
    pytest.param(case, entry, id=f"{case.name}-{entry}")
    for case, entry in itertools.product(CASES, ENTRY_POINTS)
    if case.fault not in QA_ONLY or entry in QA_ENTRY_POINTS
]


@pytest.mark.parametrize(("case", "entry"), CELLS)
async def test_fault_gets_one_clear_message_and_the_next_command_works(
    harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors, case: Case, entry: str
) -> None:
    ask = ENTRY_POINTS[entry]
    fake.faults.add(case.fault, method="message/send", **case.params)
    shown = await ask(harness, harness.user(), 0)
    embed = check_expected(shown, case.expect)
    assert case.says is None or case.says in str(embed.get("description")), embed
    assert case.fault in fault_kinds_applied(fake), "the fault never reached the bot"
    if case.fault in TRANSIENT:
        assert_retried(fake)

    fake.faults.clear()
    after = await ask(harness, harness.user(), 1)
    if case.fault in PAUSES_THE_TOKEN:
        check_told_to_wait(after)  # the token is paused for everyone, rightly
    else:
        check_expected(after, ANSWER)
    loop_errors.assert_none()


def fault_kinds_applied(fake: FakeMagisterium) -> set[Fault]:
    return {Fault(kind) for request in fake.requests for kind in request.faults}


def assert_retried(fake: FakeMagisterium) -> None:
    faulted = next(request for request in fake.requests if request.faults)
    retries = [
        request
        for request in fake.requests
        if request.message_id == faulted.message_id and not request.faults
    ]
    assert len(retries) == 1 and retries[0].http_status == 200, fake.requests


# --- faults that need the bot set up differently --------------------------------------------

ENTRIES = [pytest.param(entry, id=entry) for entry in ENTRY_POINTS]


class TestConnectRefused:
    """Magisterium's address refuses connections; once it listens again, all is well."""

    @pytest.fixture
    def refused_port(self) -> int:
        return closed_port()

    @pytest.fixture
    def harness_overrides(self, refused_port: int) -> dict[str, Any]:
        return {
            "magisterium_api_url": f"http://127.0.0.1:{refused_port}/api/v1/a2a",
            "upstream_deadline_seconds": 0.5,  # bounds the client's retries of the refusal
        }

    @pytest.mark.parametrize("entry", ENTRIES)
    async def test_refused(
        self,
        harness: Harness,
        fake: FakeMagisterium,
        loop_errors: LoopErrors,
        refused_port: int,
        entry: str,
    ) -> None:
        ask = ENTRY_POINTS[entry]
        check_expected(await ask(harness, harness.user(), 0), NOT_ANSWERING)
        assert fake.count() == 0
        async with running_fake_server(fake, port=refused_port):
            check_expected(await ask(harness, harness.user(), 1), ANSWER)
        loop_errors.assert_none()


class TestReadTimeout:
    """Magisterium accepts the request but answers after the bot's deadline has passed."""

    @pytest.fixture
    def harness_overrides(self) -> dict[str, Any]:
        return {"upstream_deadline_seconds": 0.5}

    @pytest.mark.parametrize("entry", ENTRIES)
    async def test_read_timeout(
        self, harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors, entry: str
    ) -> None:
        ask = ENTRY_POINTS[entry]
        fake.faults.add(Fault.LATENCY, method="message/send", seconds=2.0)
        check_expected(await ask(harness, harness.user(), 0), NOT_ANSWERING)
        fake.faults.clear()
        check_expected(await ask(harness, harness.user(), 1), ANSWER)
        loop_errors.assert_none()


class TestSlowPastTheWaitBudget:
    """The token's pool is spent and the wait would exceed the budget: the person is told at
    once when to come back; someone with their own token is not held up by it."""

    @pytest.fixture
    def harness_overrides(self) -> dict[str, Any]:
        return {"rate_limit_per_minute": 1, "rate_limit_wait_seconds": 1.0}

    @pytest.mark.parametrize("entry", ENTRIES)
    async def test_limiter_busy(
        self, harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors, entry: str
    ) -> None:
        ask = ENTRY_POINTS[entry]
        check_expected(await ask(harness, harness.user(), 0), ANSWER)
        sent = fake.count(method="message/send")
        busy = await ask(harness, harness.user(), 1)
        check_expected(busy, BUSY)
        check_told_to_wait(busy)
        assert fake.count(method="message/send") == sent, "a refused turn never goes upstream"

        linked = harness.user()
        bot = harness.bot
        assert isinstance(bot, MagisteriumBot)
        await bot.services.registry.link(linked.id, SecretStr("pro-own-token"))
        check_expected(await ask(harness, linked, 2), ANSWER)
        loop_errors.assert_none()


# --- the guard itself -------------------------------------------------------------------------


async def test_the_loop_guard_sees_an_unretrieved_task_exception(loop_errors: LoopErrors) -> None:
    async def fail() -> None:
        raise RuntimeError("nobody awaits me")

    task = asyncio.get_running_loop().create_task(fail())
    await asyncio.wait([task])
    del task
    reported = loop_errors.collected()
    assert any("never retrieved" in line and "RuntimeError" in line for line in reported)
    loop_errors.contexts.clear()

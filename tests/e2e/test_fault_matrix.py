"""The fault matrix: every fault the fake Magisterium can produce, crossed with every way a
person asks the bot something (the skill and lookup commands, a DM question, "Ask
Magisterium", a related-question button).

In every cell the person gets a response at once (deferred or answered, never left
"thinking…"), exactly one clear message (an embed with a title: the explanation, or the answer
when the client rightly retried a transient fault), no traceback text in anything sent, inert
mentions, no exception the event loop had to report, and the next command is answered
normally — except after a 429, when the token is rightly paused and the next person is told to
wait, with a number.

Every A2A task state has its cell too: ``rejected`` is Magisterium's own words, privately, shown
as its answer (not an error); ``input-required`` is Magisterium's question back, with a way to
reply where questions are asked (a Reply button, or the next DM), and the question with advice
elsewhere; ``auth-required`` is the relink message; the rest are explanations with
Magisterium's words quoted.

Faults that need the bot set up differently have a class of their own: connect refused (a
closed port), a read timeout (an upstream slower than the deadline) and a limiter that cannot
admit within the wait budget.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import SecretStr

from bot.a2a.retry import PollPolicy
from bot.app import MagisteriumBot
from bot.render.look import BRAND, ERROR
from devtools.discord import Harness
from devtools.discord.loop_errors import LoopErrors, loop_errors_fixture  # noqa: F401
from devtools.discord.wire import JSON
from devtools.fake_magisterium import FakeMagisterium, Fault, running_fake_server
from tests.support.databases import closed_port
from tests.support.embed_parts import assert_not_shown
from tests.support.entry_points import ENTRY_POINTS, Shown

pytestmark = pytest.mark.usefixtures("loop_errors")  # set up first, so checked last

# The bot's limiter admits a retried attempt like any request (a retried -32603 spends one of
# the token's catholic_qa turns), so at Magisterium's 2 a minute the cell's next question would
# rightly wait: room for a few more. The retry budget is pinned by its own tests.
ROOMY_QA: dict[str, Any] = {"qa_rate_limit_per_minute": 10}


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return dict(ROOMY_QA)


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
NEEDS_DETAIL = "Magisterium needs more detail"
CANCELED = "The request was canceled"
NOT_FINISHED = "Magisterium did not finish in time"
ERROR_TITLES = {
    REFUSED,
    PLAN,
    SLOW_DOWN,
    NOT_ACCEPTED,
    TROUBLE,
    COULD_NOT,
    NOT_ANSWERING,
    BUSY,
    NEEDS_DETAIL,
    CANCELED,
    NOT_FINISHED,
}
# Not errors: Magisterium itself answered this way.
DECLINED = "Magisterium's reply, privately"  # rejected: its words as the answer
ASKED_BACK = "Magisterium's question back"  # input-required: its question, and a way to reply
ASKS_HEADING = "Magisterium asks"


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
    elif expect == DECLINED:  # Magisterium's words as its answer, to the asker alone
        assert shown.private is not False, shown.transcript
        assert embed.get("color") == BRAND.value, embed
        assert_not_shown("error id", [embed])
    elif expect == ASKED_BACK:  # its question, and how to reply (a button, or the next DM)
        assert (embed.get("author") or {}).get("name") == ASKS_HEADING, embed
        assert embed.get("color") == BRAND.value, embed
        reply_buttons = [c for c in shown.custom_ids if c.startswith("qa:reply:")]
        assert len(reply_buttons) == (0 if shown.callback_type is None else 1), shown.custom_ids
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
    asked: str | None = None  # the expectation where questions are asked (/ask, menu, DM…)

    def expected(self, entry: str) -> str:
        return self.asked if self.asked is not None and entry in QA_ENTRY_POINTS else self.expect


IN_45 = "Try again in 45 seconds."
RETRY_AFTER_HEADER = {"retry_after": 45, "header": True}
FAILED_REASON = "The skill raised an error while answering."
REFUSAL = "I can only answer questions about Catholic teaching."
WHICH_ONE = "Which one do you mean? Several have that name."
CANCELED_WHY = "The task was canceled before it finished."
SIGN_IN_AGAIN = "Sign in to Magisterium again to continue."


def task_state(state: str, message: str = "", **params: Any) -> dict[str, Any]:
    return {"state": state, "message": message, **params}


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
    Case("failed-task", Fault.FAILED_TASK, COULD_NOT, says=FAILED_REASON),
    Case(
        "state-failed",
        Fault.TASK_STATE,
        COULD_NOT,
        task_state("failed", "index offline"),
        "index offline",
    ),
    Case("state-rejected", Fault.TASK_STATE, DECLINED, task_state("rejected", REFUSAL), REFUSAL),
    Case(
        "state-input-required",
        Fault.TASK_STATE,
        NEEDS_DETAIL,
        task_state("input-required", WHICH_ONE),
        WHICH_ONE,
        asked=ASKED_BACK,
    ),
    Case(
        "state-auth-required", Fault.TASK_STATE, REFUSED, task_state("auth-required", SIGN_IN_AGAIN)
    ),
    Case(
        "state-canceled",
        Fault.TASK_STATE,
        CANCELED,
        task_state("canceled", CANCELED_WHY),
        CANCELED_WHY,
    ),
    # Still pending after the client's bounded tasks/get poll (shortened here: quick_polls).
    Case("state-submitted", Fault.TASK_STATE, NOT_FINISHED, task_state("submitted")),
    Case("state-working", Fault.TASK_STATE, NOT_FINISHED, task_state("working", "Still working.")),
    Case("state-unknown", Fault.TASK_STATE, NOT_FINISHED, task_state("unknown")),
    Case("state-working-then-done", Fault.TASK_STATE, ANSWER, task_state("working", polls=1)),
    Case("message-result", Fault.MESSAGE_RESULT, ANSWER),
    Case("file-parts", Fault.FILE_PARTS, ANSWER),
    Case("wrong-response-id", Fault.WRONG_ID, TROUBLE),
    Case("wrong-jsonrpc-version", Fault.WRONG_JSONRPC, TROUBLE),
    Case("stock-a2a-32004-at-200", Fault.STOCK_A2A_CODE, TROUBLE, {"code": -32004}),
    Case("stock-a2a-32003-at-200", Fault.STOCK_A2A_CODE, TROUBLE, {"code": -32003}),
    Case("stock-a2a-32005-at-200", Fault.STOCK_A2A_CODE, TROUBLE, {"code": -32005}),
    Case("html-403", Fault.HTML_403, TROUBLE),
    Case("429-no-wait", Fault.RATE_LIMITED_NO_WAIT, SLOW_DOWN),
    Case("html-502", Fault.HTML_502, ANSWER),
    Case("http-500", Fault.HTTP_500, ANSWER),
    Case("http-404", Fault.HTTP_404, TROUBLE),
    Case("garbage-body", Fault.GARBAGE_BODY, TROUBLE),
    Case("truncated-json", Fault.TRUNCATED_JSON, TROUBLE),
    # A bare agent Message is a valid message/send result (Task | Message): the answer.
    Case("not-a-task", Fault.NOT_A_TASK, ANSWER),
    Case("dropped-connection", Fault.DROP_CONNECTION, ANSWER),
    Case("huge-answer", Fault.HUGE_ANSWER, ANSWER),
    Case("mentions-answer", Fault.MENTIONS_ANSWER, ANSWER),
]
PAUSES_THE_TOKEN = {Fault.RATE_LIMITED, Fault.RATE_LIMITED_NO_WAIT}
# Retried by the client with the same messageId: the retry is what answers.
TRANSIENT = {Fault.INTERNAL_ERROR, Fault.HTML_502, Fault.HTTP_500, Fault.DROP_CONNECTION}

# The fake sends a huge answer only for catholic_qa: the other skills have no such cell.
QA_ONLY = {Fault.HUGE_ANSWER}
QA_ENTRY_POINTS = {"ask", "dm", "context_menu", "related"}

CELLS = [
    pytest.param(case, entry, id=f"{case.name}-{entry}")
    for case, entry in itertools.product(CASES, ENTRY_POINTS)
    if case.fault not in QA_ONLY or entry in QA_ENTRY_POINTS
]


@pytest.fixture
def quick_polls(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's tasks/get poll of a pending task, in milliseconds rather than seconds."""
    policy = PollPolicy(attempts=2, first_delay=0.01, max_delay=0.01)
    monkeypatch.setattr(harness.bot.services.a2a, "_poll", policy)


@pytest.mark.parametrize(("case", "entry"), CELLS)
@pytest.mark.usefixtures("quick_polls")
async def test_fault_gets_one_clear_message_and_the_next_command_works(
    harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors, case: Case, entry: str
) -> None:
    ask = ENTRY_POINTS[entry]
    fake.faults.add(case.fault, method="message/send", **case.params)
    shown = await ask(harness, harness.user(), 0)
    embed = check_expected(shown, case.expected(entry))
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
            **ROOMY_QA,
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
        return {**ROOMY_QA, "upstream_deadline_seconds": 0.5}

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

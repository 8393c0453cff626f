"""The fault matrix, end to end: one cell per way of asking × class of fault, each through the
real path (a whole bot, a migrated database, the fake Magisterium on a loopback port and real
INTERACTION_CREATE payloads), so that every way a person asks the bot something (the skill
and lookup commands, a DM question, "Ask Magisterium", a related-question button) shows each
kind of outcome at least once:

- answered after a transient fault the client rightly retried (with the same messageId), the
  retry's answer itself in one of the shapes the fake can give (hostile mentions, a Message
  result, file parts, a bare Message, an answer found by polling a working task, a huge one);
- told why, in an explanation titled as the unit tables say, with Magisterium's words quoted
  where it gave any (a refused token, a plan, a request not accepted, upstream trouble, a
  malformed reply, a failed, canceled, unfinished or auth-required task);
- rate limited: the token is rightly paused and the next person is told to wait, with a number;
- Magisterium's own words: ``rejected`` privately, as its answer; ``input-required`` as its
  question back with a way to reply where questions are asked, an explanation elsewhere;
- and, set up differently, connect refused (a closed port), a read timeout (an upstream slower
  than the deadline) and a limiter that cannot admit within the wait budget.

In every cell the person gets a response at once (deferred or answered, never left
"thinking…"), exactly one clear message (an embed with a title), no traceback text in anything
sent, inert mentions, no exception the event loop had to report, and the next command is
answered normally (told to wait, after a 429).

Which fault gives which words, retries and token state, fault by fault, is stated below this
level: tests/bot/services/test_user_errors.py (the words), tests/bot/a2a/test_client_faults.py
(retries, envelopes, exception classes) and the token table in
tests/bot/services/test_magisterium_service.py. devtools/fault_mutants.py draws a sample of
mutants over the error path and runs each against these tests, and each one they miss against
the former 509-cell matrix (in git history): in the sample of 50 it ran, none that matrix
killed went uncaught here.
"""

from __future__ import annotations

import asyncio
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
    expect: str  # the error embed's title, or ANSWER, DECLINED, ASKED_BACK
    params: dict[str, Any] = field(default_factory=dict)
    says: str | None = None  # also in the embed's text
    asked: str | None = None  # the expectation where questions are asked (/ask, menu, DM…)
    then: tuple[Fault, dict[str, Any]] | None = None  # the retry's answer, in this shape

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


def retried(name: str, fault: Fault, then: Fault, **then_params: Any) -> Case:
    return Case(f"{name}-then-{then}", fault, ANSWER, then=(then, then_params))


# Answered after a transient fault, the retry's answer in one of the fake's shapes.
ANSWERED = {
    "ask": retried("rpc-32603", Fault.INTERNAL_ERROR, Fault.HUGE_ANSWER),
    "search": retried("html-502", Fault.HTML_502, Fault.MENTIONS_ANSWER),
    "document": retried("http-500", Fault.HTTP_500, Fault.MESSAGE_RESULT),
    "readings": retried("dropped", Fault.DROP_CONNECTION, Fault.FILE_PARTS),
    "saints": retried("rpc-32603", Fault.INTERNAL_ERROR, Fault.NOT_A_TASK),
    "saint": retried(
        "html-502", Fault.HTML_502, Fault.TASK_STATE, **task_state("working", polls=1)
    ),
    "pope": retried("http-500", Fault.HTTP_500, Fault.MENTIONS_ANSWER),
    "clergy": retried("dropped", Fault.DROP_CONNECTION, Fault.MESSAGE_RESULT),
    "diocese": retried("rpc-32603", Fault.INTERNAL_ERROR, Fault.FILE_PARTS),
    "dm": retried("html-502", Fault.HTML_502, Fault.HUGE_ANSWER),
    "context_menu": retried("http-500", Fault.HTTP_500, Fault.MENTIONS_ANSWER),
    "related": retried("dropped", Fault.DROP_CONNECTION, Fault.NOT_A_TASK),
}
RATE_LIMITED = Case("429-retryAfter", Fault.RATE_LIMITED, SLOW_DOWN, {"retry_after": 45}, IN_45)
RATE_LIMITED_HEADER = Case("429-header", Fault.RATE_LIMITED, SLOW_DOWN, RETRY_AFTER_HEADER, IN_45)
RATE_LIMITED_NO_WAIT = Case("429-no-wait", Fault.RATE_LIMITED_NO_WAIT, SLOW_DOWN)
# Told why: each entry point one class of explanation, every class at some entry point.
TOLD = {
    "ask": RATE_LIMITED,
    "search": Case("401", Fault.UNAUTHORIZED, REFUSED),
    "document": Case("403", Fault.PLAN_REQUIRED, PLAN),
    "readings": Case("rpc-32602", Fault.INVALID_PARAMS, NOT_ACCEPTED),
    "saints": Case("http-404", Fault.HTTP_404, TROUBLE),
    "saint": Case("garbage-body", Fault.GARBAGE_BODY, TROUBLE),
    "pope": Case(
        "state-failed",
        Fault.TASK_STATE,
        COULD_NOT,
        task_state("failed", "index offline"),
        "index offline",
    ),
    "clergy": Case(
        "state-canceled",
        Fault.TASK_STATE,
        CANCELED,
        task_state("canceled", CANCELED_WHY),
        CANCELED_WHY,
    ),
    "diocese": Case(
        "state-working", Fault.TASK_STATE, NOT_FINISHED, task_state("working", "Still working.")
    ),
    "dm": RATE_LIMITED_NO_WAIT,
    "context_menu": Case(
        "state-auth-required", Fault.TASK_STATE, REFUSED, task_state("auth-required", SIGN_IN_AGAIN)
    ),
    "related": RATE_LIMITED_HEADER,
}
DECLINED_CASE = Case(
    "state-rejected", Fault.TASK_STATE, DECLINED, task_state("rejected", REFUSAL), REFUSAL
)
ASKED_BACK_CASE = Case(
    "state-input-required",
    Fault.TASK_STATE,
    NEEDS_DETAIL,
    task_state("input-required", WHICH_ONE),
    WHICH_ONE,
    asked=ASKED_BACK,
)
MORE = [
    # The token paused and the next person told to wait, at more of the ways to ask.
    (RATE_LIMITED, "search"),
    (RATE_LIMITED_NO_WAIT, "context_menu"),
    # Magisterium's own words: where questions are asked, and elsewhere.
    (DECLINED_CASE, "ask"),
    (DECLINED_CASE, "dm"),
    (DECLINED_CASE, "document"),
    (ASKED_BACK_CASE, "context_menu"),
    (ASKED_BACK_CASE, "related"),
    (ASKED_BACK_CASE, "dm"),
    (ASKED_BACK_CASE, "pope"),
]
PAUSES_THE_TOKEN = {Fault.RATE_LIMITED, Fault.RATE_LIMITED_NO_WAIT}
QA_ENTRY_POINTS = {"ask", "dm", "context_menu", "related"}

CELLS = [
    pytest.param(case, entry, id=f"{case.name}-{entry}")
    for case, entry in [
        *[(ANSWERED[entry], entry) for entry in ENTRY_POINTS],
        *[(TOLD[entry], entry) for entry in ENTRY_POINTS],
        *MORE,
    ]
]


@pytest.fixture
def quick_polls(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's tasks/get poll of a pending task, in milliseconds rather than seconds."""
    policy = PollPolicy(attempts=2, first_delay=0.01, max_delay=0.01)
    monkeypatch.setattr(harness.bot.services.a2a, "poll", policy)


def test_every_way_of_asking_has_each_kind_of_cell() -> None:
    assert set(ANSWERED) == set(TOLD) == set(ENTRY_POINTS)
    for kind in PAUSES_THE_TOKEN:
        assert any(case.fault is kind for case in TOLD.values())
    assert {entry for case, entry in MORE if case is DECLINED_CASE} & QA_ENTRY_POINTS
    assert {entry for case, entry in MORE if case is DECLINED_CASE} - QA_ENTRY_POINTS
    assert {entry for case, entry in MORE if case is ASKED_BACK_CASE} - QA_ENTRY_POINTS
    assert len(CELLS) == len(set(str(cell.id) for cell in CELLS))


@pytest.mark.parametrize(("case", "entry"), CELLS)
@pytest.mark.usefixtures("quick_polls")
async def test_fault_gets_one_clear_message_and_the_next_command_works(
    harness: Harness, fake: FakeMagisterium, loop_errors: LoopErrors, case: Case, entry: str
) -> None:
    ask = ENTRY_POINTS[entry]
    fake.faults.add(case.fault, method="message/send", **case.params)
    if case.then is not None:
        then, then_params = case.then
        fake.faults.add(then, method="message/send", **then_params)
    shown = await ask(harness, harness.user(), 0)
    embed = check_expected(shown, case.expected(entry))
    assert case.says is None or case.says in str(embed.get("description")), embed
    applied = fault_kinds_applied(fake)
    assert case.fault in applied, "the fault never reached the bot"
    if case.then is not None:
        assert case.then[0] in applied, "the retry's answer was not the one queued"
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
        if request.message_id == faulted.message_id and request is not faulted
    ]
    assert len(retries) == 1 and retries[0].http_status == 200, fake.requests


# --- faults that need the bot set up differently --------------------------------------------


def entries(*names: str) -> list[Any]:
    return [pytest.param(name, id=name) for name in names]


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

    @pytest.mark.parametrize("entry", entries("search", "dm"))
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

    @pytest.mark.parametrize("entry", entries("ask", "diocese"))
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

    @pytest.mark.parametrize("entry", entries("readings", "related"))
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

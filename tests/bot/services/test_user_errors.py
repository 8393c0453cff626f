"""What a person is told for each failure (bot/services/user_errors.py): every error class the
client can raise has its title and words, and every fault the fake Magisterium can produce,
read by the real client behind ``httpx.MockTransport``, ends in the words the fault matrix
expects (with Magisterium's own words quoted where it gave any).

Which faults are retried is pinned in tests/bot/a2a/test_client_faults.py; what a fault does
to the token (paused, marked invalid, untouched) in tests/bot/services/test_magisterium_service.py.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from bot.a2a import A2AClient, errors
from bot.accounts.errors import MissingEncryptionKey, QuotaExceeded, TokenDecryptionError
from bot.i18n import using_locale
from bot.limits import LimiterBusy, LimiterClosed
from bot.services.tokens import LinkedTokenInvalid, NoTokenAvailable
from bot.services.user_errors import (
    LINK_HINT,
    QuestionDeclined,
    UserFacingError,
    UserMessage,
    message_for,
    task_message,
    try_again_in,
)
from bot.storage import StorageUnavailable
from devtools.fake_magisterium import Fault
from tests.support.fake_transport import TOKEN, URL, FakeTransport
from tests.support.fakes import FakeClock
from tests.support.skill_calls import SkillCalls

# --- what a person is told ---------------------------------------------------------------------

RELINK = "Link your own Magisterium account with `/account link`."
TROUBLE = UserMessage(
    "Magisterium is having trouble",
    "Its service answered with an error. Try again in a few minutes.",
)
NOT_ANSWERING = UserMessage(
    "Magisterium is not answering", "It did not answer in time. Try again in a few minutes."
)
NOT_ACCEPTED = UserMessage(
    "Magisterium did not accept that request", "Check what you typed and try again."
)


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            errors.Unauthorized("401"),
            UserMessage(
                "Your Magisterium token was refused",
                f"It may have expired or been revoked. {RELINK}",
            ),
        ),
        (
            errors.AuthRequired("sign in"),
            UserMessage(
                "Your Magisterium token was refused",
                f"It may have expired or been revoked. {RELINK}",
            ),
        ),
        (
            errors.PlanRequired("403"),
            UserMessage(
                "A paid Magisterium plan is needed",
                "Magisterium's API needs a Pro, Organization or Enterprise plan. "
                "Upgrade at https://www.magisterium.com, then try again.",
            ),
        ),
        (
            errors.RateLimited("429", retry_after=44.2),
            UserMessage(
                "Slow down a little",
                "Magisterium's rate limit was reached. Try again in 45 seconds.",
            ),
        ),
        (
            errors.RateLimited("429"),
            UserMessage(
                "Slow down a little", "Magisterium's rate limit was reached. Try again in a minute."
            ),
        ),
        (errors.InvalidParams("bad"), NOT_ACCEPTED),
        (errors.SkillNotFound("gone"), NOT_ACCEPTED),
        (errors.UpstreamConnectError("refused"), NOT_ANSWERING),
        (errors.UpstreamReadTimeout("slow"), NOT_ANSWERING),
        (errors.DeadlineExceeded("budget"), NOT_ANSWERING),
        (
            errors.GatewayThrottled("429", retry_after=1.0),
            UserMessage(
                "Magisterium is busy right now",
                "It is turning requests away for a moment. Try again in 1 second.",
            ),
        ),
        (errors.InternalError("boom"), TROUBLE),
        (errors.UpstreamServerError("502"), TROUBLE),
        (errors.MalformedResponse("garbage"), TROUBLE),
        (
            LimiterBusy(retry_after=0.2),
            UserMessage(
                "Magisterium is busy for this account",
                "Too many requests are waiting their turn. Try again in 1 second.",
            ),
        ),
        (
            StorageUnavailable("down"),
            UserMessage(
                "Try again shortly",
                "The bot's database is not answering right now; nothing you saved is lost.",
            ),
        ),
        (
            MissingEncryptionKey("unset"),
            UserMessage(
                "Account storage is not set up",
                "The bot cannot read or store tokens right now; its operator has been told.",
                operator_alert=True,
            ),
        ),
        (
            TokenDecryptionError("wrong key"),
            UserMessage(
                "Account storage is not set up",
                "The bot cannot read or store tokens right now; its operator has been told.",
                operator_alert=True,
            ),
        ),
        (
            QuotaExceeded(1800, "all"),
            UserMessage(
                "Shared allowance used up",
                "You have used this hour's requests on the bot's shared account. Try again in "
                "1800 seconds, or link your own account with `/account link`.",
            ),
        ),
        (
            QuotaExceeded(1, "qa"),
            UserMessage(
                "Shared allowance used up",
                "You have used this hour's questions on the bot's shared account. Try again in "
                "1 second, or link your own account with `/account link`.",
            ),
        ),
        (
            QuotaExceeded(0, "qa"),
            UserMessage(
                "Shared allowance used up",
                "You have used this hour's questions on the bot's shared account. Try again in "
                "1 second, or link your own account with `/account link`.",
            ),
        ),
    ],
)
def test_each_failure_is_told_in_one_sentence_that_says_what_to_do(
    error: BaseException, expected: UserMessage
) -> None:
    assert message_for(error) == expected


def test_an_unexpected_error_has_no_message_of_its_own() -> None:
    assert message_for(RuntimeError("bug")) is None
    assert message_for(LimiterClosed()) is None


def test_a_known_user_facing_error_is_told_as_it_was_raised() -> None:
    error = UserFacingError("A title", "A sentence.")
    assert str(error) == "A sentence."
    assert message_for(error) == UserMessage("A title", "A sentence.")
    assert message_for(NoTokenAvailable()) == UserMessage(
        "Link your Magisterium account first",
        f"Magisterium answers on behalf of a signed-in account with a paid plan. {RELINK}",
    )
    assert message_for(LinkedTokenInvalid()) == UserMessage(
        "Your Magisterium token no longer works",
        "Magisterium refused it (expired or revoked). Run `/account link` to link it again.",
    )
    assert LINK_HINT == RELINK


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            errors.InputRequired("Which Pope Pius?"),
            UserMessage(
                "Magisterium needs more detail",
                "Run the command again with the detail Magisterium asks for.",
                quote="Which Pope Pius?",
            ),
        ),
        (
            errors.TaskCanceled("stopped"),
            UserMessage(
                "The request was canceled",
                "Magisterium canceled it before it was finished. Try again.",
                quote="stopped",
            ),
        ),
        (
            errors.TaskFailed("retrieval backend unavailable"),
            UserMessage(
                "Magisterium could not answer",
                "The request reached Magisterium but it failed there. Try again, perhaps with "
                "different wording.",
                quote="retrieval backend unavailable",
            ),
        ),
        (
            errors.TaskNotFinished("still thinking"),
            UserMessage(
                "Magisterium did not finish in time",
                "It was still working on this when the bot stopped waiting. Try again in a moment.",
                quote="still thinking",
            ),
        ),
        (
            errors.TaskRejected("I cannot help with that."),
            UserMessage(
                "Magisterium declined this request",
                "You can ask something else, or word it differently.",
                quote="I cannot help with that.",
                tone="reply",
            ),
        ),
    ],
)
def test_a_task_that_did_not_complete_is_told_with_magisteriums_own_words(
    error: errors.TaskNotCompleted, expected: UserMessage
) -> None:
    assert task_message(error) == expected
    assert message_for(error) == expected


def test_a_declined_question_is_titled_with_the_question() -> None:
    declined = QuestionDeclined("Is it true?", errors.TaskRejected("I cannot say."))
    assert declined.user_message == UserMessage(
        "Is it true?",
        "You can ask something else, or word it differently.",
        quote="I cannot say.",
        tone="reply",
    )
    assert str(declined) == "You can ask something else, or word it differently."


def test_try_again_in_rounds_up_to_whole_seconds() -> None:
    assert try_again_in(None) == "Try again in a minute."
    assert try_again_in(0.0) == "Try again in 1 second."
    assert try_again_in(1.0) == "Try again in 1 second."
    assert try_again_in(1.01) == "Try again in 2 seconds."
    assert try_again_in(59.5) == "Try again in 60 seconds."


def test_messages_are_told_in_the_persons_language() -> None:
    with using_locale("fr"):
        french = message_for(errors.RateLimited("429", retry_after=1))
    english = message_for(errors.RateLimited("429", retry_after=1))
    assert french is not None and english is not None
    assert french.title != english.title and french.text != english.text


# --- every error class the client can raise has words of its own ---------------------------

REFUSED = "Your Magisterium token was refused"
PLAN = "A paid Magisterium plan is needed"
SLOW_DOWN = "Slow down a little"
BUSY_NOW = "Magisterium is busy right now"
DECLINED = "Magisterium declined this request"
NEEDS_DETAIL = "Magisterium needs more detail"
CANCELED = "The request was canceled"
COULD_NOT = "Magisterium could not answer"
NOT_FINISHED = "Magisterium did not finish in time"

TITLE_OF_CLASS: dict[type[errors.A2AError], str] = {
    errors.A2AError: TROUBLE.title,
    errors.TransportError: NOT_ANSWERING.title,
    errors.UpstreamConnectError: NOT_ANSWERING.title,
    errors.UpstreamReadTimeout: NOT_ANSWERING.title,
    errors.UpstreamPoolTimeout: NOT_ANSWERING.title,
    errors.DeadlineExceeded: NOT_ANSWERING.title,
    errors.MalformedResponse: TROUBLE.title,
    errors.HTTPStatusError: TROUBLE.title,
    errors.UpstreamServerError: TROUBLE.title,
    errors.GatewayRefused: TROUBLE.title,
    errors.GatewayThrottled: BUSY_NOW,
    errors.RPCError: TROUBLE.title,
    errors.ParseError: TROUBLE.title,
    errors.InvalidRequest: TROUBLE.title,
    errors.MethodNotFound: TROUBLE.title,
    errors.InvalidParams: NOT_ACCEPTED.title,
    errors.InternalError: TROUBLE.title,
    errors.TaskNotFound: TROUBLE.title,
    errors.SkillNotFound: NOT_ACCEPTED.title,
    errors.RateLimited: SLOW_DOWN,
    errors.Unauthorized: REFUSED,
    errors.PlanRequired: PLAN,
    errors.UnknownRPCError: TROUBLE.title,
    errors.AuthRequired: REFUSED,
    errors.TaskNotCompleted: NOT_FINISHED,
    errors.TaskFailed: COULD_NOT,
    errors.TaskRejected: DECLINED,
    errors.InputRequired: NEEDS_DETAIL,
    errors.TaskCanceled: CANCELED,
    errors.TaskNotFinished: NOT_FINISHED,
}


def every_error_class() -> set[type[errors.A2AError]]:
    found: set[type[errors.A2AError]] = set()
    todo = [errors.A2AError]
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_the_table_names_every_error_class_the_client_has() -> None:
    assert set(TITLE_OF_CLASS) == every_error_class()


@pytest.mark.parametrize(
    ("cls", "title"), TITLE_OF_CLASS.items(), ids=[cls.__name__ for cls in TITLE_OF_CLASS]
)
def test_every_error_class_has_its_title(cls: type[errors.A2AError], title: str) -> None:
    told = message_for(cls("x"))
    assert told is not None
    assert told.title == title
    assert told.text.endswith(".")  # a whole sentence of the bot's own
    assert told.tone == ("reply" if cls is errors.TaskRejected else "error")
    assert not told.operator_alert


# --- every fault of the fake, read by the real client, in the person's words -----------------

IN_45 = "Try again in 45 seconds."
IN_A_MINUTE = "Try again in a minute."
RELINK_TOO = "It may have expired or been revoked."
CHECK = "Check what you typed"
FAILED_REASON = "The skill raised an error while answering."


def told(
    name: str, fault: Fault | None, title: str, says: str = "", quote: str = "", **kw: Any
) -> Any:
    return pytest.param(fault, title, says, quote, kw, id=name)


TOLD = [
    told("401", Fault.UNAUTHORIZED, REFUSED, RELINK_TOO),
    told("403", Fault.PLAN_REQUIRED, PLAN, "Pro, Organization or Enterprise"),
    told("429-retryAfter", Fault.RATE_LIMITED, SLOW_DOWN, IN_45, retry_after=45),
    told("429-header", Fault.RATE_LIMITED, SLOW_DOWN, IN_45, retry_after=45, header=True),
    told("429-no-wait", Fault.RATE_LIMITED_NO_WAIT, SLOW_DOWN, IN_A_MINUTE),
    told("rpc-32602", Fault.INVALID_PARAMS, NOT_ACCEPTED.title, CHECK),
    told("rpc-32002", Fault.SKILL_NOT_FOUND, NOT_ACCEPTED.title, CHECK),
    *[
        told(str(fault), fault, TROUBLE.title, TROUBLE.text)
        for fault in (
            Fault.TASK_NOT_FOUND,
            Fault.PARSE_ERROR,
            Fault.INVALID_REQUEST,
            Fault.METHOD_NOT_FOUND,
            Fault.UNKNOWN_CODE,
            Fault.HTML_403,
            Fault.HTTP_404,
            Fault.GARBAGE_BODY,
            Fault.TRUNCATED_JSON,
            Fault.WRONG_ID,
            Fault.WRONG_JSONRPC,
        )
    ],
    *[
        told(f"stock{code}-at-200", Fault.STOCK_A2A_CODE, TROUBLE.title, TROUBLE.text, code=code)
        for code in (-32003, -32004, -32005)
    ],
    # Transient faults that last past every retry.
    told("internal_error-always", Fault.INTERNAL_ERROR, TROUBLE.title, times=None),
    told("http_500-always", Fault.HTTP_500, TROUBLE.title, times=None),
    told("html_502-always", Fault.HTML_502, TROUBLE.title, times=None),
    told("drop-always", Fault.DROP_CONNECTION, NOT_ANSWERING.title, NOT_ANSWERING.text, times=None),
    told("read-timeout-always", Fault.LATENCY, NOT_ANSWERING.title, times=None, seconds=5.0),
    told("connect-refused-always", None, NOT_ANSWERING.title, NOT_ANSWERING.text),
    # Task states: Magisterium's own words quoted.
    told("failed-task", Fault.FAILED_TASK, COULD_NOT, "failed there", FAILED_REASON),
    told(
        "state-failed",
        Fault.TASK_STATE,
        COULD_NOT,
        "",
        "index offline",
        state="failed",
        message="index offline",
    ),
    told(
        "state-rejected",
        Fault.TASK_STATE,
        DECLINED,
        "ask something else",
        "Not that.",
        state="rejected",
        message="Not that.",
    ),
    told(
        "state-input-required",
        Fault.TASK_STATE,
        NEEDS_DETAIL,
        "detail",
        "Which one?",
        state="input-required",
        message="Which one?",
    ),
    told(
        "state-auth-required",
        Fault.TASK_STATE,
        REFUSED,
        RELINK_TOO,
        "",
        state="auth-required",
        message="Sign in.",
    ),
    told(
        "state-canceled",
        Fault.TASK_STATE,
        CANCELED,
        "canceled it",
        "Stopped.",
        state="canceled",
        message="Stopped.",
    ),
    *[
        told(
            f"state-{state}",
            Fault.TASK_STATE,
            NOT_FINISHED,
            "still working",
            "",
            state=state,
            message="",
        )
        for state in ("submitted", "working", "unknown")
    ],
]


@pytest.mark.parametrize(("fault", "title", "says", "quote", "params"), TOLD)
async def test_each_fault_of_the_fake_is_told_in_its_words(
    fault: Fault | None, title: str, says: str, quote: str, params: dict[str, Any]
) -> None:
    transport = FakeTransport()
    params = dict(params)  # the parametrized dict is shared: a second run must see it whole
    times = params.pop("times", 1)
    if fault is None:
        transport.fail_next(*[httpx.ConnectError("refused") for _ in range(3)])
    else:
        transport.add(fault, times=times, method="message/send", **params)
    http = httpx.AsyncClient(transport=transport)
    client = A2AClient(http, URL, clock=FakeClock(), rng=random.Random(3))
    with pytest.raises(errors.A2AError) as caught:
        await SkillCalls(client).search(TOKEN, "grace")
    shown = message_for(caught.value)
    assert shown is not None, caught.value
    assert shown.title == title
    assert says in shown.text
    assert shown.quote == quote
    assert shown.tone == ("reply" if title == DECLINED else "error")
    assert TOKEN not in f"{shown.title} {shown.text} {shown.quote}"

"""Every fault the fake Magisterium can produce, through the real client behind
``httpx.MockTransport`` (tests/support/fake_transport.py): what comes out (the answer, or which
exception), how many times the request was sent, always with the same ``messageId``, how long
the client slept on its fake clock, and how many ``tasks/get`` polls a pending task cost.

The client's own policy here (3 attempts at most); the service's budgets (2 for catholic_qa,
the wait budget, pausing the token) are in tests/bot/services/test_magisterium_service.py, and
what the person is then told in tests/bot/services/test_user_errors.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from bot.a2a import A2AClient, RetryPolicy, errors
from bot.a2a.results import Answer, SearchResults
from bot.a2a.retry import PollPolicy
from devtools.fake_magisterium import Fault
from tests.support.fake_transport import TOKEN, URL, FakeTransport
from tests.support.fakes import FakeClock
from tests.support.skill_calls import SkillCalls

POLICY = RetryPolicy()  # 3 attempts, 0.5 s base, 20 s cap, 30 s longest Retry-After waited
POLLS = PollPolicy().attempts


@dataclass(frozen=True)
class Row:
    fault: Fault | None
    raises: type[errors.A2AError] | None  # None: the answer
    sends: int  # message/send attempts that reached the fake (or the transport)
    times: int | None = 1  # how many requests the fault strikes (None: every one)
    params: dict[str, Any] = field(default_factory=dict)
    transport: tuple[type[Exception], ...] = ()  # raised by the transport before the fake
    polls: int = 0
    ask: bool = False  # catholic_qa rather than document_search


def row(name: str, *args: Any, **kwargs: Any) -> Any:
    return pytest.param(Row(*args, **kwargs), id=name)


TRANSIENT = (Fault.INTERNAL_ERROR, Fault.HTML_502, Fault.HTTP_500, Fault.DROP_CONNECTION)
ROWS = [
    # Transient: retried with the same messageId; once is answered, always gives up at 3.
    *[row(f"{fault}-once", fault, None, 2) for fault in TRANSIENT],
    row("internal_error-always", Fault.INTERNAL_ERROR, errors.InternalError, 3, None),
    row("html_502-always", Fault.HTML_502, errors.UpstreamServerError, 3, None),
    row("http_500-always", Fault.HTTP_500, errors.InternalError, 3, None),
    row("drop_connection-always", Fault.DROP_CONNECTION, errors.TransportError, 3, None),
    row("latency-once", Fault.LATENCY, None, 2, params={"seconds": 5.0}),
    row("latency-always", Fault.LATENCY, errors.UpstreamReadTimeout, 3, None, {"seconds": 5.0}),
    row("connect-refused-once", None, None, 2, transport=(httpx.ConnectError,)),
    row(
        "connect-refused-always",
        None,
        errors.UpstreamConnectError,
        3,
        transport=(httpx.ConnectError,) * 3,
    ),
    row(
        "pool-full-always", None, errors.UpstreamPoolTimeout, 3, transport=(httpx.PoolTimeout,) * 3
    ),
    # Rate limits: a wait within the policy is slept and retried; longer, or none, is raised.
    row("429-retryAfter-9", Fault.RATE_LIMITED, None, 2, params={"retry_after": 9}),
    row("429-header-9", Fault.RATE_LIMITED, None, 2, params={"retry_after": 9, "header": True}),
    row("429-retryAfter-45", Fault.RATE_LIMITED, errors.RateLimited, 1, params={"retry_after": 45}),
    row("429-no-wait", Fault.RATE_LIMITED_NO_WAIT, errors.RateLimited, 1),
    # Never retried: the same request would get the same answer.
    row("401", Fault.UNAUTHORIZED, errors.Unauthorized, 1),
    row("403", Fault.PLAN_REQUIRED, errors.PlanRequired, 1),
    row("rpc-32602", Fault.INVALID_PARAMS, errors.InvalidParams, 1),
    row("rpc-32001", Fault.TASK_NOT_FOUND, errors.TaskNotFound, 1),
    row("rpc-32002", Fault.SKILL_NOT_FOUND, errors.SkillNotFound, 1),
    row("rpc-32700", Fault.PARSE_ERROR, errors.ParseError, 1),
    row("rpc-32600", Fault.INVALID_REQUEST, errors.InvalidRequest, 1),
    row("rpc-32601", Fault.METHOD_NOT_FOUND, errors.MethodNotFound, 1),
    row("rpc-unknown-code", Fault.UNKNOWN_CODE, errors.UnknownRPCError, 1),
    row("html-403", Fault.HTML_403, errors.GatewayRefused, 1),
    row("http-404", Fault.HTTP_404, errors.HTTPStatusError, 1),
    row("garbage-body", Fault.GARBAGE_BODY, errors.MalformedResponse, 1),
    row("truncated-json", Fault.TRUNCATED_JSON, errors.MalformedResponse, 1),
    row("wrong-id", Fault.WRONG_ID, errors.MalformedResponse, 1),
    row("wrong-jsonrpc", Fault.WRONG_JSONRPC, errors.MalformedResponse, 1),
    *[
        row(
            f"stock-{code}-at-200",
            Fault.STOCK_A2A_CODE,
            errors.UnknownRPCError,
            1,
            1,
            {"code": code},
        )
        for code in (-32003, -32004, -32005)
    ],
    # Task states: each ends the call with its exception, once; a pending one is polled first.
    row("failed-task", Fault.FAILED_TASK, errors.TaskFailed, 1),
    *[
        row(f"state-{state}", Fault.TASK_STATE, raises, 1, params={"state": state})
        for state, raises in (
            ("failed", errors.TaskFailed),
            ("rejected", errors.TaskRejected),
            ("input-required", errors.InputRequired),
            ("canceled", errors.TaskCanceled),
            ("auth-required", errors.AuthRequired),
        )
    ],
    *[
        row(
            f"state-{state}",
            Fault.TASK_STATE,
            errors.TaskNotFinished,
            1,
            params={"state": state},
            polls=POLLS,
        )
        for state in ("submitted", "working", "unknown")
    ],
    row(
        "state-working-then-done",
        Fault.TASK_STATE,
        None,
        1,
        1,
        {"state": "working", "polls": 1},
        polls=1,
    ),
    # Answers after all.
    row("message-result", Fault.MESSAGE_RESULT, None, 1),
    row("file-parts", Fault.FILE_PARTS, None, 1),
    row("not-a-task", Fault.NOT_A_TASK, None, 1),
    row("mentions-answer", Fault.MENTIONS_ANSWER, None, 1),
    row("huge-answer", Fault.HUGE_ANSWER, None, 1, ask=True),
]
RETRIED = {errors.InternalError, errors.UpstreamServerError, errors.TransportError}


def skills_over(transport: FakeTransport, clock: FakeClock) -> SkillCalls:
    http = httpx.AsyncClient(transport=transport)
    client = A2AClient(http, URL, retry=POLICY, clock=clock, rng=random.Random(7))
    return SkillCalls(client)


@pytest.mark.parametrize("case", ROWS)
async def test_each_fault_is_retried_or_not_and_comes_out_as_its_class(case: Row) -> None:
    transport, clock = FakeTransport(), FakeClock()
    skills = skills_over(transport, clock)
    if case.fault is not None:
        transport.add(case.fault, times=case.times, method="message/send", **case.params)
    transport.fail_next(*[failure("refused") for failure in case.transport])

    async def call() -> object:
        return await (
            skills.ask(TOKEN, "What is grace?") if case.ask else skills.search(TOKEN, "grace")
        )

    if case.raises is None:
        result = await call()
        assert isinstance(result, Answer if case.ask else SearchResults)
    else:
        with pytest.raises(case.raises) as caught:
            await call()
        assert type(caught.value) is case.raises
        assert caught.value.retryable == (case.sends > 1 or case.raises is errors.RateLimited)
        assert caught.value.never_sent == (
            case.raises in {errors.UpstreamConnectError, errors.UpstreamPoolTimeout}
        )

    failed_early = len(transport.raised) - sum(
        1 for raised in transport.raised if raised in (httpx.RemoteProtocolError, httpx.ReadTimeout)
    )
    sends = transport.sends()
    assert failed_early + len(sends) == case.sends, (transport.raised, sends)
    assert len({message_id for _, message_id in sends}) <= 1, "a retry reuses the messageId"
    assert len(clock.sleeps) == case.sends - 1 + case.polls  # a poll waits before it asks
    assert transport.polls() == case.polls
    if case.fault is not None:
        applied = {kind for request in transport.fake.requests for kind in request.faults}
        assert str(case.fault) in applied, "the fault never struck"


@pytest.mark.parametrize("retry_after", [9, 30])
async def test_a_rate_limit_within_the_policy_is_waited_on_the_clock(retry_after: int) -> None:
    transport, clock = FakeTransport(), FakeClock()
    transport.add(Fault.RATE_LIMITED, retry_after=retry_after)
    await skills_over(transport, clock).search(TOKEN, "grace")
    (slept,) = clock.sleeps
    assert retry_after <= slept <= retry_after + POLICY.base_delay
    assert [status for status, _ in transport.sends()] == [429, 200]


@pytest.mark.parametrize(
    ("fault", "params", "retry_after"),
    [
        (Fault.RATE_LIMITED, {"retry_after": 45}, 45.0),
        (Fault.RATE_LIMITED, {"retry_after": 45, "header": True}, 45.0),
        (Fault.RATE_LIMITED_NO_WAIT, {}, None),
    ],
)
async def test_a_rate_limit_the_client_will_not_wait_carries_its_wait_out(
    fault: Fault, params: dict[str, Any], retry_after: float | None
) -> None:
    transport, clock = FakeTransport(), FakeClock()
    transport.add(fault, **params)
    with pytest.raises(errors.RateLimited) as caught:
        await skills_over(transport, clock).search(TOKEN, "grace")
    assert caught.value.retry_after == retry_after
    assert (caught.value.code, caught.value.http_status) == (-32003, 429)
    assert clock.sleeps == []


async def test_a_task_state_carries_magisteriums_words_and_ids() -> None:
    transport, clock = FakeTransport(), FakeClock()
    transport.add(Fault.TASK_STATE, state="input-required", message="Which Pius?")
    with pytest.raises(errors.InputRequired) as caught:
        await skills_over(transport, clock).search(TOKEN, "grace")
    assert caught.value.reason == "Which Pius?"
    assert caught.value.task_id and caught.value.context_id
    transport.add(Fault.FAILED_TASK, reason="index offline")
    with pytest.raises(errors.TaskFailed) as failed:
        await skills_over(transport, clock).search(TOKEN, "grace")
    assert failed.value.reason == "index offline"


async def test_the_next_call_after_any_one_shot_fault_is_answered() -> None:
    transport, clock = FakeTransport(), FakeClock()
    skills = skills_over(transport, clock)
    for fault in (Fault.UNAUTHORIZED, Fault.GARBAGE_BODY, Fault.RATE_LIMITED_NO_WAIT):
        transport.add(fault)
        with pytest.raises(errors.A2AError):
            await skills.search(TOKEN, "grace")
        assert (await skills.search(TOKEN, "Lumen Gentium church")).hits

"""Retry timing with a fake clock: what is retried, how long it waits, the deadline, and the
caller's admission around every attempt (the call's :class:`CallPolicy`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from bot.a2a import A2AClient, CallPolicy, Message, RetryPolicy, TextPart, errors
from bot.a2a.call_policy import UNLIMITED, Admission
from bot.a2a.retry import PollPolicy, parse_retry_after, retry_after_from_data
from bot.a2a.skills import CATHOLIC_QA, SKILLS
from tests.support.fakes import FakeClock

OK_TASK = {"jsonrpc": "2.0", "id": 1, "result": {"id": "t", "status": {"state": "completed"}}}
POLICY = RetryPolicy(max_attempts=4, base_delay=0.5, max_delay=4.0, max_retry_after=30.0)


class Script:
    """Answers each request with the next scripted response; records message ids."""

    def __init__(self, *responses: httpx.Response | Exception) -> None:
        self.responses = list(responses)
        self.message_ids: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.message_ids.append(body["params"]["message"]["messageId"])
        response = self.responses.pop(0)
        if isinstance(response, Exception):
            raise response
        return response


def _rpc(status: int, code: int, data: Any = None, **kwargs: Any) -> httpx.Response:
    error = {"code": code, "message": "x", **({"data": data} if data is not None else {})}
    return httpx.Response(status, json={"jsonrpc": "2.0", "id": 1, "error": error}, **kwargs)


def _ok() -> httpx.Response:
    return httpx.Response(200, json=OK_TASK)


def _client(script: Script, clock: FakeClock, policy: RetryPolicy = POLICY) -> A2AClient:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script))
    return A2AClient(http, "http://upstream.test/", retry=policy, clock=clock, rng=random.Random(7))


async def _send(
    client: A2AClient, budget: float | None = None, admission: Admission = UNLIMITED
) -> CallPolicy:
    policy = client.policy("tok", budget=budget, admission=admission)
    await client.send_message(Message.from_user([TextPart(text="q")]), policy)
    return policy


async def test_rate_limit_waits_retry_after_then_succeeds_with_same_message_id() -> None:
    clock = FakeClock()
    script = Script(_rpc(429, -32003, {"retryAfter": 7}), _ok())
    await _send(_client(script, clock))
    assert len(clock.sleeps) == 1
    assert 7.0 <= clock.sleeps[0] <= 7.0 + POLICY.base_delay
    assert len(script.message_ids) == 2 and len(set(script.message_ids)) == 1


async def test_retry_after_header_in_seconds_is_honoured() -> None:
    clock = FakeClock()
    script = Script(_rpc(429, -32003, headers={"Retry-After": "3"}), _ok())
    await _send(_client(script, clock))
    assert 3.0 <= clock.sleeps[0] <= 3.5


def test_retry_after_http_date() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("Mon, 30 Nov 2026 12:00:42 GMT", now=now) == 42.0
    assert parse_retry_after("Mon, 30 Nov 2026 11:00:00 GMT", now=now) == 0.0
    assert parse_retry_after("", now=now) is None


@pytest.mark.parametrize(
    "failure",
    [
        lambda: _rpc(200, -32603),
        lambda: httpx.Response(502, text="<html>502 Bad Gateway</html>"),
        lambda: httpx.Response(503),
        lambda: httpx.ConnectError("refused"),
        lambda: httpx.ReadTimeout("slow"),
        lambda: httpx.PoolTimeout("full"),
    ],
)
async def test_transient_failures_are_retried_with_capped_full_jitter(failure: Any) -> None:
    clock = FakeClock()
    script = Script(failure(), failure(), failure(), _ok())
    await _send(_client(script, clock))
    assert len(clock.sleeps) == 3
    for attempt, delay in enumerate(clock.sleeps):
        assert 0 <= delay <= min(POLICY.max_delay, POLICY.base_delay * 2**attempt)
    assert len(set(script.message_ids)) == 1


async def test_gives_up_after_max_attempts_with_the_last_error() -> None:
    clock = FakeClock()
    script = Script(*[_rpc(200, -32603) for _ in range(4)])
    with pytest.raises(errors.InternalError):
        await _send(_client(script, clock))
    assert len(script.message_ids) == 4 and len(clock.sleeps) == 3


@pytest.mark.parametrize(
    "failure",
    [
        lambda: _rpc(401, -32004),
        lambda: _rpc(403, -32005),
        lambda: _rpc(200, -32602),
        lambda: _rpc(200, -32002),
        lambda: _rpc(200, -32001),
        lambda: httpx.Response(200, content=b"garbage"),
    ],
)
async def test_permanent_errors_are_never_retried(failure: Any) -> None:
    clock = FakeClock()
    script = Script(failure(), _ok())
    with pytest.raises(errors.A2AError):
        await _send(_client(script, clock))
    assert len(script.message_ids) == 1 and clock.sleeps == []


async def test_retry_after_beyond_the_budget_fails_at_once() -> None:
    clock = FakeClock()
    script = Script(_rpc(429, -32003, {"retryAfter": 20}), _ok())
    with pytest.raises(errors.RateLimited) as caught:
        await _send(_client(script, clock), budget=10.0)
    assert caught.value.retry_after == 20.0
    assert clock.sleeps == [] and len(script.message_ids) == 1


async def test_retry_after_beyond_the_policy_cap_is_left_to_the_caller() -> None:
    clock = FakeClock()
    script = Script(_rpc(429, -32003, {"retryAfter": 45}), _ok())
    with pytest.raises(errors.RateLimited):
        await _send(_client(script, clock))
    assert clock.sleeps == []


async def test_budget_bounds_the_total_wait_across_retries() -> None:
    clock = FakeClock()
    policy = RetryPolicy(max_attempts=50, base_delay=2.0, max_delay=2.0)
    script = Script(*[_rpc(200, -32603) for _ in range(50)])
    with pytest.raises(errors.InternalError):
        await _send(_client(script, clock, policy), budget=9.0)
    assert sum(clock.sleeps) < 9.0
    assert len(script.message_ids) == len(clock.sleeps) + 1


async def test_a_request_that_outlives_the_budget_raises_deadline_exceeded() -> None:
    never = asyncio.Event()

    async def hang(request: httpx.Request) -> httpx.Response:
        await never.wait()
        return _ok()

    http = httpx.AsyncClient(transport=httpx.MockTransport(hang))
    client = A2AClient(http, "http://upstream.test/", retry=POLICY)
    with pytest.raises(errors.DeadlineExceeded):
        await _send(client, budget=0.05)


def test_the_default_policy_makes_at_most_three_attempts() -> None:
    basic = [skill.rate.attempts for skill in SKILLS if not skill.expensive]
    assert RetryPolicy().max_attempts == 3 and set(basic) == {3} and len(basic) == len(SKILLS) - 1
    assert CATHOLIC_QA.expensive and CATHOLIC_QA.rate.attempts == 2


async def test_a_rate_limit_without_any_wait_is_not_retried_after_a_short_backoff() -> None:
    clock = FakeClock()
    script = Script(_rpc(429, -32003), _ok())
    with pytest.raises(errors.RateLimited) as caught:
        await _send(_client(script, clock))
    assert caught.value.retry_after is None
    assert len(script.message_ids) == 1 and clock.sleeps == []


async def test_a_stock_a2a_code_at_200_is_not_retried() -> None:
    clock = FakeClock()
    script = Script(_rpc(200, -32004), _rpc(200, -32003), _ok())
    with pytest.raises(errors.UnknownRPCError):
        await _send(_client(script, clock))
    assert len(script.message_ids) == 1 and clock.sleeps == []


async def test_a_proxy_429_is_retried_like_a_503_honouring_its_retry_after() -> None:
    clock = FakeClock()
    page = httpx.Response(429, text="<html>slow down</html>", headers={"Retry-After": "2"})
    script = Script(page, httpx.Response(429, text="<html>slow down</html>"), _ok())
    await _send(_client(script, clock))
    hinted, backoff = clock.sleeps
    assert 2.0 <= hinted <= 2.0 + POLICY.base_delay
    assert 0 <= backoff <= POLICY.base_delay * 2
    assert len(set(script.message_ids)) == 1 and len(script.message_ids) == 3


class RecordingAdmission:
    """A caller's admission: counts admissions and failures (with the sends the call had made
    by then), and answers with a scripted delay."""

    def __init__(self, verdicts: list[float | None]) -> None:
        self.verdicts = verdicts
        self.admitted: list[float] = []
        self.failures: list[tuple[str, int, float | None, bool]] = []
        self.policy: CallPolicy | None = None  # the call it admits, once made

    @contextlib.asynccontextmanager
    async def admit(self, budget: float) -> AsyncIterator[None]:
        self.admitted.append(budget)
        yield

    async def after_failure(
        self, error: errors.A2AError, delay: float | None, *, may_retry: bool
    ) -> float | None:
        sent = self.policy.sent if self.policy is not None else -1
        self.failures.append((type(error).__name__, sent, delay, may_retry))
        return self.verdicts.pop(0)


def _admitted_send(
    client: A2AClient, admission: RecordingAdmission, budget: float | None = None
) -> Any:
    policy = client.policy("tok", budget=budget, admission=admission)
    admission.policy = policy
    return client.send_message(Message.from_user([TextPart(text="q")]), policy)


async def test_every_attempt_passes_the_callers_admission_which_decides_the_retry() -> None:
    clock = FakeClock()
    script = Script(_rpc(200, -32603), _rpc(429, -32003, {"retryAfter": 45}), _ok())
    admission = RecordingAdmission([0.25, 0.0])
    await _admitted_send(_client(script, clock), admission, budget=30.0)
    assert len(admission.admitted) == 3 and all(0 < budget <= 30.0 for budget in admission.admitted)
    (first, sent0, delay0, retry0), (second, sent1, delay1, retry1) = admission.failures
    assert (first, sent0, second, sent1) == ("InternalError", 1, "RateLimited", 2)
    assert retry0 and retry1  # both within the policy's 4 attempts
    assert delay0 is not None and delay1 is None  # 45 s is beyond the policy's cap
    assert clock.sleeps == [0.25, 0.0]  # the admission's word, not the backoff's
    assert len(set(script.message_ids)) == 1
    assert admission.policy is not None and admission.policy.sent == 3


async def test_an_admission_that_says_no_ends_the_call_with_the_error() -> None:
    clock = FakeClock()
    script = Script(_rpc(500, -32603), httpx.Response(200, json={**OK_TASK, "id": 2}))
    admission = RecordingAdmission([None])
    client = _client(script, clock)
    with pytest.raises(errors.InternalError):
        await _admitted_send(client, admission)
    assert len(script.message_ids) == 1 and clock.sleeps == []
    # The admission was that call's only: the client's own policy admits nothing, and the
    # next call goes without it.
    assert client.policy("tok").admission is UNLIMITED
    await _send(client)
    assert len(admission.admitted) == 1 and len(script.message_ids) == 2


async def test_the_last_attempt_still_tells_the_admission_it_may_not_retry() -> None:
    clock = FakeClock()
    script = Script(*[_rpc(200, -32603) for _ in range(2)])
    admission = RecordingAdmission([0.0, None])
    client = _client(script, clock, RetryPolicy(max_attempts=2, base_delay=0.0))
    with pytest.raises(errors.InternalError):
        await _admitted_send(client, admission)
    assert [(sent, may_retry) for _, sent, _, may_retry in admission.failures] == [
        (1, True),
        (2, False),
    ]
    assert len(script.message_ids) == 2


# --- the policy itself: what a person waits, with the jitter pinned to one end ---------------


class TopOfRange(random.Random):
    """Jitter that always picks the longest wait it is allowed."""

    def uniform(self, a: float, b: float) -> float:
        return b


class BottomOfRange(random.Random):
    """Jitter that always picks the shortest wait it is allowed."""

    def uniform(self, a: float, b: float) -> float:
        return a


def test_backoff_grows_with_each_attempt() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=100.0)
    longest = [policy.backoff(attempt, TopOfRange()) for attempt in range(5)]
    assert longest == [1.0, 2.0, 4.0, 8.0, 16.0]


def test_backoff_never_waits_longer_than_max_delay() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0)
    assert policy.backoff(3, TopOfRange()) == 5.0
    assert policy.backoff(30, TopOfRange()) == 5.0


def test_backoff_jitter_may_retry_at_once() -> None:
    assert RetryPolicy().backoff(3, BottomOfRange()) == 0.0


def test_a_transient_error_waits_the_backoff_of_its_attempt() -> None:
    policy = RetryPolicy(max_attempts=5, base_delay=1.0, max_delay=100.0)
    error = errors.InternalError("boom")
    assert [policy.delay_before_retry(n, error, TopOfRange()) for n in range(4)] == [1, 2, 4, 8]
    assert policy.delay_before_retry(4, error, TopOfRange()) is None  # that was the last one


def test_a_rate_limit_of_exactly_max_retry_after_is_still_waited_here() -> None:
    policy = RetryPolicy(base_delay=0.5, max_retry_after=30.0)
    exactly = errors.RateLimited("slow down", retry_after=30.0)
    longer = errors.RateLimited("slow down", retry_after=30.5)
    assert policy.delay_before_retry(0, exactly, BottomOfRange()) == 30.0
    assert policy.delay_before_retry(0, exactly, TopOfRange()) == 30.5  # plus base_delay jitter
    assert policy.delay_before_retry(0, longer, BottomOfRange()) is None


def test_a_proxy_throttle_of_exactly_max_delay_is_slept_here() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=4.0)
    exactly = errors.GatewayThrottled("slow", retry_after=4.0)
    longer = errors.GatewayThrottled("slow", retry_after=4.5)
    assert policy.delay_before_retry(0, exactly, BottomOfRange()) == 4.0
    assert policy.delay_before_retry(0, longer, BottomOfRange()) is None
    # Without a Retry-After, a proxy's 429 backs off like a 503.
    silent = errors.GatewayThrottled("slow")
    assert policy.delay_before_retry(1, silent, TopOfRange()) == 1.0


def test_a_rate_limit_without_retry_after_is_handed_back_not_crashed_on() -> None:
    assert retry_after_from_data({}) is None
    assert retry_after_from_data({"detail": "slow down"}) is None
    assert retry_after_from_data(None) is None
    assert retry_after_from_data(["retryAfter", 5]) is None
    no_wait = errors.RateLimited("Rate limit exceeded")
    assert RetryPolicy().delay_before_retry(0, no_wait, TopOfRange()) is None


def test_retry_after_in_snake_case_is_honoured() -> None:
    assert retry_after_from_data({"retry_after": 4}) == 4.0
    assert retry_after_from_data({"retry_after": "6"}) == 6.0
    assert retry_after_from_data({"retryAfter": 2, "retry_after": 9}) == 2.0


def test_a_boolean_retry_after_is_no_wait_at_all() -> None:
    assert retry_after_from_data({"retryAfter": True}) is None
    assert retry_after_from_data({"retryAfter": False}) is None


def test_a_zero_or_negative_retry_after_means_retry_at_once() -> None:
    assert retry_after_from_data({"retryAfter": 0}) == 0.0
    assert retry_after_from_data({"retryAfter": -3}) == 0.0
    assert parse_retry_after("0") == 0.0
    assert parse_retry_after(" -5 ") == 0.0
    assert parse_retry_after("0.25") == 0.25


def test_a_retry_after_date_is_read_in_its_own_utc_offset() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    # 14:00:42 at +0200 is 12:00:42 UTC: 42 s, not 2 h and 42 s.
    assert parse_retry_after("Mon, 30 Nov 2026 14:00:42 +0200", now=now) == 42.0
    assert parse_retry_after("Mon, 30 Nov 2026 07:00:42 -0500", now=now) == 42.0
    # "-0000" (RFC 5322: UTC, zone unknown) parses without a zone: read as UTC.
    assert parse_retry_after("Mon, 30 Nov 2026 12:00:42 -0000", now=now) == 42.0


def test_a_retry_after_date_is_measured_from_the_real_clock_by_default() -> None:
    past = parse_retry_after("Mon, 30 Nov 2020 12:00:00 GMT")
    future = parse_retry_after("Mon, 30 Nov 2099 12:00:00 GMT")
    assert past == 0.0
    assert future is not None and future > 365 * 86400


def test_poll_pauses_double_up_to_their_cap() -> None:
    assert PollPolicy().delays() == [0.25, 0.5, 1.0, 2.0, 4.0]
    assert PollPolicy(attempts=7, first_delay=1.0, max_delay=5.0).delays() == [
        1.0,
        2.0,
        4.0,
        5.0,
        5.0,
        5.0,
        5.0,
    ]
    assert PollPolicy(attempts=0).delays() == []

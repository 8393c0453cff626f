"""Retry timing with a fake clock: what is retried, how long it waits, and the deadline."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from bot.a2a import A2AClient, Message, RetryPolicy, TextPart, errors
from bot.a2a.retry import parse_retry_after
from tests.fakes import FakeClock

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


async def _send(client: A2AClient, budget: float | None = None) -> None:
    await client.send_message("tok", Message.from_user([TextPart(text="q")]), budget=budget)


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

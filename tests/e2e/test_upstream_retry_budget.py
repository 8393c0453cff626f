"""The retry budget and what upstream errors do to a token, through the real bot.

Slash commands go through the harness (real CommandTree, limiter, registry) to the fake over
HTTP. The A2A client's backoff sleeps on a FakeClock, so nothing here waits for real; the
rate-limit pause itself is checked on looptime's virtual clock in the last tests.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from bot.a2a import A2AClient, CallPolicy, Message, RetryPolicy, errors
from bot.a2a.skills import CATHOLIC_QA, DOCUMENT_SEARCH, Skill
from bot.accounts.keys import token_key
from bot.limits import Limiter, LimiterConfig
from bot.observability.metrics import Metrics
from bot.services.admission import LimiterAdmission
from bot.services.origin import Origin
from devtools.discord import Harness
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_not_shown, assert_shown
from tests.support.fakes import FakeClock

QUESTION = "What is grace?"


@pytest.fixture
def clock(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """The bot's A2A client backs off on this clock instead of the real one."""
    fake_clock = FakeClock()
    monkeypatch.setattr(harness.bot.services.a2a, "clock", fake_clock)
    return fake_clock


def sample(harness: Harness, name: str, **labels: str) -> float:
    value = harness.bot.metrics.registry.get_sample_value(f"magisterium_bot_{name}", labels)
    return value or 0.0


def total(harness: Harness, name: str, skill: str) -> float:
    """A counter's samples for ``skill`` added up, whatever their other labels."""
    return sum(
        metric_sample.value
        for family in harness.bot.metrics.registry.collect()
        for metric_sample in family.samples
        if metric_sample.name == f"magisterium_bot_{name}"
        and metric_sample.labels.get("skill") == skill
    )


def admissions(harness: Harness) -> float:
    """Requests the limiter admitted: each one reports its wait once."""
    return sample(harness, "limiter_wait_seconds_count")


async def link(harness: Harness, token: str) -> Any:
    user = harness.user()
    await harness.bot.services.registry.link(user.id, SecretStr(token))
    return user


async def status_of(harness: Harness, user_id: int) -> str:
    account = await harness.bot.services.registry.get(user_id)
    assert account is not None
    return account.status


# --- the budget: catholic_qa twice, basic skills three times, each attempt admitted ---------


async def test_one_ask_sends_catholic_qa_at_most_twice_for_an_internal_error(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.INTERNAL_ERROR, times=None, skill="catholic_qa")
    result = await harness.slash("ask", question=QUESTION)
    assert result.embeds
    sent = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert len(sent) == 2 and len({r.message_id for r in sent}) == 1
    assert admissions(harness) == 2 and len(clock.sleeps) == 1
    assert sample(harness, "upstream_retries_total", skill="catholic_qa", reason="-32603") == 1
    assert sample(harness, "upstream_errors_total", skill="catholic_qa", code="-32603") == 1
    assert sample(harness, "upstream_request_seconds_count", skill="catholic_qa") == 2


async def test_a_basic_skill_makes_at_most_three_attempts(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.HTML_502, times=None, skill="document_search")
    await harness.slash("search", query="Lumen Gentium retries")
    sent = [r for r in fake.requests if r.skill == "document_search"]
    assert [r.http_status for r in sent] == [502, 502, 502]
    assert len({r.message_id for r in sent}) == 1
    assert admissions(harness) == 3 and len(clock.sleeps) == 2
    assert sample(harness, "upstream_retries_total", skill="document_search", reason="502") == 2


async def test_a_transient_failure_retried_once_answers_and_counts_one_retry(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.DROP_CONNECTION, skill="document_search")
    result = await harness.slash("search", query="Lumen Gentium transient")
    assert_shown("1. [Lumen Gentium](https://", result.embeds, "description")  # the results
    assert fake.count(skill="document_search") == 2 and admissions(harness) == 2
    # The dropped connection is a TransportError (its class depends on the transport).
    assert total(harness, "upstream_retries_total", "document_search") == 1
    assert total(harness, "upstream_errors_total", "document_search") == 0


async def test_a_retry_that_would_wait_past_the_budget_is_not_made(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    # One catholic_qa already in the window and -32603 on the second: the retry's turn in the
    # 2-a-minute pool is a minute away, beyond the wait budget, so the error is said at once.
    await harness.slash("ask", question="What is prayer?")
    fake.faults.add(Fault.INTERNAL_ERROR, skill="catholic_qa")
    await harness.slash("ask", question=QUESTION)
    assert fake.count(skill="catholic_qa") == 2
    assert sample(harness, "upstream_retries_total", skill="catholic_qa", reason="-32603") == 0
    assert sample(harness, "upstream_errors_total", skill="catholic_qa", code="-32603") == 1


# --- codes read with their status: the token's state is left alone ------------------------


@pytest.mark.parametrize(
    ("fault", "params"),
    [
        (Fault.STOCK_A2A_CODE, {"code": -32004}),  # UnsupportedOperation, HTTP 200
        (Fault.STOCK_A2A_CODE, {"code": -32005}),  # ContentTypeNotSupported, HTTP 200
        (Fault.HTML_403, {}),  # a proxy's page
    ],
)
async def test_an_unknown_refusal_never_touches_a_linked_token(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock, fault: Fault, params: dict[str, Any]
) -> None:
    user = await link(harness, "pro-linked-token")
    fake.faults.add(fault, skill="catholic_qa", **params)
    result = await harness.slash("ask", question=QUESTION, user=user)
    assert_not_shown("paid Magisterium plan", result.embeds)
    assert_not_shown("token was refused", result.embeds)
    assert await status_of(harness, user.id) == "valid"
    assert fake.count(skill="catholic_qa") == 1  # not retried either
    after = await harness.slash("ask", question=QUESTION, user=user)
    assert fake.requests[-1].token == "pro-linked-token" and after.embeds


async def test_a_real_401_still_marks_the_linked_token_invalid(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    user = await link(harness, "pro-linked-token")
    fake.faults.add(Fault.UNAUTHORIZED, skill="catholic_qa")
    await harness.slash("ask", question=QUESTION, user=user)
    assert await status_of(harness, user.id) == "invalid"


async def test_a_proxy_403_reaches_the_service_as_unavailable(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.HTML_403)
    with pytest.raises(errors.GatewayRefused) as caught:
        await harness.bot.services.magisterium.call(
            Origin(harness.user().id), CATHOLIC_QA, QUESTION
        )
    assert not isinstance(caught.value, errors.PlanRequired) and caught.value.http_status == 403


# --- a 429 that gives no wait: no retry, the token paused for a whole window ---------------


async def test_a_rate_limit_without_a_wait_pauses_the_token_for_the_window(
    harness: Harness, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.RATE_LIMITED_NO_WAIT, skill="catholic_qa")
    first, other = harness.user(), harness.user()
    await harness.slash("ask", question=QUESTION, user=first)
    assert fake.count(skill="catholic_qa") == 1 and clock.sleeps == []
    limiter, key = harness.bot.services.limiter, token_key(SecretStr(OPERATOR_TOKEN))
    window = 60.0 + limiter.config.safety_margin
    assert window - 1 < limiter.expected_wait(key, other.id, False) <= window
    sent = fake.count()
    told = await harness.slash("search", query="Lumen Gentium paused", user=other)
    assert fake.count() == sent, "a paused token sends nothing, for anyone"
    assert told.ephemeral and told.embeds


# --- the admission on looptime's clock: a retryAfter within the budget is waited in the limiter


class LoopClock:
    """The client's clock on the event loop's (virtual, under looptime) time."""

    def monotonic(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def scripted_client(responses: list[httpx.Response], seen: list[tuple[float, str]]) -> A2AClient:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((asyncio.get_running_loop().time(), request.content.decode()))
        return responses.pop(0)

    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    retry = RetryPolicy(max_retry_after=0.0)  # as the service's SERVICE_RETRY: the limiter waits
    return A2AClient(
        http, "http://upstream.test/", retry=retry, clock=LoopClock(), rng=random.Random(1)
    )


def admitted(limiter: Limiter, metrics: Metrics, skill: Skill[Any, Any]) -> LimiterAdmission:
    return LimiterAdmission(
        limiter,
        metrics,
        skill=skill.id,
        expensive=skill.expensive,
        user_id=1,
        token_key="k",
        wait_budget=10.0,
    )


def policy_for(
    client: A2AClient, skill: Skill[Any, Any], admission: LimiterAdmission
) -> CallPolicy:
    """The policy the service gives a call of ``skill``: its attempts, every one admitted."""
    retry = replace(client.retry, max_attempts=min(client.retry.max_attempts, skill.rate.attempts))
    return client.policy("tok", retry=retry, admission=admission)


async def call(client: A2AClient, skill: Skill[Any, Any], query: str, policy: CallPolicy) -> Any:
    message = Message.from_user([skill.part(query)], skill_id=skill.id)
    return skill.parse(await client.send_message(message, policy), query)


def rate_limited(seconds: int) -> httpx.Response:
    error = {"code": -32003, "message": "Rate limit exceeded", "data": {"retryAfter": seconds}}
    return httpx.Response(429, json={"jsonrpc": "2.0", "id": 1, "error": error})


def completed() -> httpx.Response:
    task = {"kind": "task", "id": "t", "status": {"state": "completed"}, "artifacts": []}
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": task})


@pytest.mark.looptime
async def test_a_retry_after_within_the_budget_is_waited_in_the_limiter() -> None:
    metrics, waits = Metrics(), list[float]()
    limiter = Limiter(LimiterConfig(), on_wait=waits.append)
    seen: list[tuple[float, str]] = []
    client = scripted_client([rate_limited(5), completed()], seen)
    policy = policy_for(client, DOCUMENT_SEARCH, admitted(limiter, metrics, DOCUMENT_SEARCH))
    started = asyncio.get_running_loop().time()
    await call(client, DOCUMENT_SEARCH, "grace", policy)
    (_, first), (retried_at, second) = seen
    assert first == second  # the same request, messageId included
    assert retried_at - started >= 5.0  # after the pause, which the limiter enforced
    assert len(waits) == 2 and waits[1] >= 5.0
    assert (
        metrics.registry.get_sample_value(
            "magisterium_bot_upstream_retries_total",
            {"skill": "document_search", "reason": "-32003"},
        )
        == 1
    )
    await limiter.close()


@pytest.mark.looptime
async def test_a_retry_after_beyond_the_budget_pauses_the_token_and_gives_up() -> None:
    limiter = Limiter(LimiterConfig())
    seen: list[tuple[float, str]] = []
    client = scripted_client([rate_limited(45), completed()], seen)
    policy = policy_for(client, CATHOLIC_QA, admitted(limiter, Metrics(), CATHOLIC_QA))
    with pytest.raises(errors.RateLimited) as caught:
        await call(client, CATHOLIC_QA, "grace", policy)
    assert caught.value.retry_after == 45 and len(seen) == 1
    assert 44 < limiter.expected_wait("k", 2, False) <= 45  # paused for everyone
    await limiter.close()


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused")


@pytest.mark.looptime
@pytest.mark.parametrize(
    ("answer", "slots_left"),
    [(refused, True), (lambda request: httpx.Response(500), False)],
    ids=["refused: never sent", "HTTP 500: sent"],
)
async def test_only_an_attempt_that_never_left_gives_its_slot_back(
    answer: Callable[[httpx.Request], httpx.Response], slots_left: bool
) -> None:
    limiter = Limiter(LimiterConfig())
    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    client = A2AClient(http, "http://upstream.test/", clock=LoopClock(), rng=random.Random(2))
    policy = policy_for(client, CATHOLIC_QA, admitted(limiter, Metrics(), CATHOLIC_QA))
    with pytest.raises((errors.TransportError, errors.UpstreamServerError)):
        await call(client, CATHOLIC_QA, "grace", policy)
    assert policy.sent == 2
    # Two catholic_qa a minute: both spent unless the attempts were refunded.
    assert (limiter.expected_wait("k", 2, True) == 0) is slots_left
    await limiter.close()

"""The service layer, case by case, without Discord: which token serves a request, what one
attempt costs in the limiter, how a skill call is routed (cache key, token, refresh once on a
401), and what each upstream fault leaves the token in (paused, marked invalid, untouched).
What a person is told for each failure is in test_user_errors.py. Doubles stand in for the
limiter, the registry and the cache, and Magisterium is scripted behind the real client; the DM
conversation store runs on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from pydantic import SecretStr, TypeAdapter

from bot.a2a import A2AClient, CallPolicy, Message, Task, errors
from bot.a2a.lookups import LookupKind
from bot.a2a.skills import (
    CATHOLIC_QA,
    DIOCESE_STATISTICS_LOOKUP,
    DOCUMENT_FETCH,
    DOCUMENT_SEARCH,
    LITURGICAL_READINGS,
    SAINTS_OF_THE_DAY,
    ByNameOrId,
    Skill,
    lookup_skill,
)
from bot.accounts.errors import QuotaExceeded
from bot.accounts.keys import token_key
from bot.accounts.registry import LinkedAccount
from bot.limits import Grant, LimiterBusy, LimiterClosed
from bot.observability.metrics import Metrics
from bot.services.admission import LimiterAdmission
from bot.services.conversations import ConversationStore
from bot.services.magisterium import SERVICE_RETRY, MagisteriumService
from bot.services.origin import Origin
from bot.services.tokens import (
    OWNER_NOT_LINKED,
    OWNER_REFUSED,
    SHARED_ACCOUNT_GONE,
    ChosenToken,
    LinkedTokenInvalid,
    NoTokenAvailable,
    ScheduleTokenUnavailable,
    TokenChooser,
)
from bot.storage import Database
from devtools.fake_magisterium import Fault
from tests.support.fake_transport import TOKEN, URL, FakeTransport
from tests.support.fakes import FakeClock

# --- which token serves a request ---------------------------------------------------------------

NOW = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
OPERATOR = SecretStr("operator-token")
ORIGIN = Origin(3)  # who asks, in no server


def account(user_id: int, token: str, **changes: Any) -> LinkedAccount:
    values: dict[str, Any] = {
        "user_id": user_id,
        "token": SecretStr(token),
        "status": "valid",
        "note": None,
        "linked_at": NOW,
        "updated_at": NOW,
        "refresh_token": None,
        "expires_at": None,
    }
    return LinkedAccount(**(values | changes))


class FakeRegistry:
    def __init__(self, *accounts: LinkedAccount) -> None:
        self.accounts = {a.user_id: a for a in accounts}
        self.invalid: list[int] = []
        self.forgotten: list[int] = []  # dropped from the registry's memory (refused)
        self.fresh_reads: list[int] = []

    async def get(self, user_id: int, *, fresh: bool = False) -> LinkedAccount | None:
        if fresh:
            self.fresh_reads.append(user_id)
        return self.accounts.get(user_id)

    def forget(self, user_id: int) -> None:
        self.forgotten.append(user_id)

    async def mark_invalid(self, user_id: int, note: str | None = None) -> bool:
        self.invalid.append(user_id)
        return user_id in self.accounts


class FakeQuota:
    def __init__(self, refuse: bool = False) -> None:
        self.consumed: list[tuple[int, bool]] = []
        self.refuse = refuse

    async def consume(self, user_id: int, expensive: bool) -> None:
        if self.refuse:
            raise QuotaExceeded(60, "all")
        self.consumed.append((user_id, expensive))


class FakeRefresher:
    """Refreshes every account that has a refresh token, unless told to refuse."""

    def __init__(
        self, *, due: bool = True, refuse: bool = False, same: bool = False, numbered: bool = False
    ) -> None:
        self.due, self.refuse, self.same, self.numbered = due, refuse, same, numbered
        self.asked: list[int] = []
        self.refreshed: list[int] = []

    def needs_refresh(self, linked: LinkedAccount) -> bool:
        self.asked.append(linked.user_id)
        return self.due

    async def refresh(self, linked: LinkedAccount) -> LinkedAccount | None:
        self.refreshed.append(linked.user_id)
        if self.refuse:
            return None
        suffix = f"-new{len(self.refreshed)}" if self.numbered else "-new"
        token = linked.token if self.same else SecretStr(linked.token.get_secret_value() + suffix)
        return replace(linked, token=token)


def chooser(
    registry: FakeRegistry,
    *,
    operator: SecretStr | None = OPERATOR,
    quota: FakeQuota | None = None,
    refresher: FakeRefresher | None = None,
) -> TokenChooser:
    return TokenChooser(
        registry,  # type: ignore[arg-type]
        operator_token=operator,
        quota=quota,  # type: ignore[arg-type]
        refresher=refresher,
    )


def secret(chosen: ChosenToken) -> tuple[str, str, str]:
    return chosen.token.get_secret_value(), chosen.key, chosen.source


async def test_a_person_with_a_linked_token_uses_their_own_and_spends_no_quota() -> None:
    quota = FakeQuota()
    tokens = chooser(FakeRegistry(account(1, "mine")), quota=quota)
    assert secret(await tokens.choose(Origin(1), expensive=True)) == (
        "mine",
        token_key(SecretStr("mine")),
        "own",
    )
    assert quota.consumed == []
    assert await tokens.source_for(1) == "own"


async def test_a_person_without_one_uses_the_shared_token_within_their_quota() -> None:
    quota = FakeQuota()
    tokens = chooser(FakeRegistry(), quota=quota)
    assert secret(await tokens.choose(Origin(2), expensive=True)) == (
        "operator-token",
        token_key(OPERATOR),
        "shared",
    )
    assert secret(await tokens.choose(Origin(2), expensive=False))[2] == "shared"
    assert quota.consumed == [(2, True), (2, False)]
    assert await tokens.source_for(2) == "shared"
    assert tokens.has_shared_token


async def test_a_used_up_quota_refuses_the_shared_token() -> None:
    tokens = chooser(FakeRegistry(), quota=FakeQuota(refuse=True))
    with pytest.raises(QuotaExceeded):
        await tokens.choose(Origin(2), expensive=False)


async def test_without_a_shared_token_a_person_is_told_to_link() -> None:
    for operator in (None, SecretStr("")):
        tokens = chooser(FakeRegistry(), operator=operator)
        assert not tokens.has_shared_token
        with pytest.raises(NoTokenAvailable):
            await tokens.choose(Origin(2), expensive=False)
        with pytest.raises(NoTokenAvailable):
            await tokens.source_for(2)


async def test_a_refused_linked_token_is_an_error_not_a_fallback_to_the_shared_one() -> None:
    tokens = chooser(FakeRegistry(account(1, "mine", status="invalid")), quota=FakeQuota())
    with pytest.raises(LinkedTokenInvalid):
        await tokens.choose(Origin(1), expensive=False)
    with pytest.raises(LinkedTokenInvalid):
        await tokens.source_for(1)


async def test_a_token_about_to_expire_is_refreshed_before_use() -> None:
    refresher = FakeRefresher()
    tokens = chooser(FakeRegistry(account(1, "mine")), refresher=refresher)
    assert secret(await tokens.choose(Origin(1), expensive=False))[0] == "mine-new"
    assert refresher.asked == refresher.refreshed == [1]
    # Not due: used as it is.
    steady = chooser(FakeRegistry(account(1, "mine")), refresher=FakeRefresher(due=False))
    assert secret(await steady.choose(Origin(1), expensive=False))[0] == "mine"


async def test_a_token_the_server_will_not_refresh_is_invalid() -> None:
    tokens = chooser(FakeRegistry(account(1, "mine")), refresher=FakeRefresher(refuse=True))
    with pytest.raises(LinkedTokenInvalid):
        await tokens.choose(Origin(1), expensive=False)


async def test_after_a_401_a_signed_in_token_is_refreshed_once() -> None:
    signed_in = account(1, "mine", refresh_token=SecretStr("r"))
    refresher = FakeRefresher(due=False)
    tokens = chooser(FakeRegistry(signed_in), refresher=refresher)
    refused = await tokens.choose(Origin(1), expensive=False)
    fresh = await tokens.after_refused(1, refused)
    assert fresh is not None
    assert secret(fresh) == ("mine-new", token_key(SecretStr("mine-new")), "own")
    assert refresher.refreshed == [1]


async def test_after_a_401_there_is_nothing_to_retry_with_when() -> None:
    signed_in = account(1, "mine", refresh_token=SecretStr("r"))
    pasted = account(1, "mine")
    own = ChosenToken(SecretStr("mine"), token_key(SecretStr("mine")), "own")
    shared = ChosenToken(OPERATOR, token_key(OPERATOR), "shared")
    # No refresher configured (no sign-in), or the shared token was refused.
    assert await chooser(FakeRegistry(signed_in)).after_refused(1, own) is None
    assert (
        await chooser(FakeRegistry(signed_in), refresher=FakeRefresher()).after_refused(1, shared)
        is None
    )
    # Unlinked meanwhile, or linked by pasting a token (nothing to refresh with).
    assert await chooser(FakeRegistry(), refresher=FakeRefresher()).after_refused(1, own) is None
    assert (
        await chooser(FakeRegistry(pasted), refresher=FakeRefresher()).after_refused(1, own) is None
    )
    # The server refused, or gave back the very token that was just refused.
    refusing = chooser(FakeRegistry(signed_in), refresher=FakeRefresher(refuse=True))
    assert await refusing.after_refused(1, own) is None
    same = chooser(FakeRegistry(signed_in), refresher=FakeRefresher(same=True))
    assert await same.after_refused(1, own) is None


async def test_a_schedule_on_the_shared_token_spends_no_ones_quota() -> None:
    quota = FakeQuota()
    tokens = chooser(FakeRegistry(), quota=quota)
    chosen = await tokens.for_schedule(None, "shared")
    assert secret(chosen) == ("operator-token", token_key(OPERATOR), "shared")
    assert quota.consumed == []
    with pytest.raises(ScheduleTokenUnavailable) as caught:
        await chooser(FakeRegistry(), operator=None).for_schedule(1, "shared")
    assert caught.value.reason == SHARED_ACCOUNT_GONE
    assert str(caught.value) == SHARED_ACCOUNT_GONE


async def test_a_schedule_on_its_admins_token_posts_with_it_refreshed() -> None:
    refresher = FakeRefresher()
    tokens = chooser(FakeRegistry(account(7, "admin")), refresher=refresher)
    chosen = await tokens.for_schedule(7, "own")
    assert secret(chosen) == ("admin-new", token_key(SecretStr("admin-new")), "own")
    steady = chooser(FakeRegistry(account(7, "admin")))
    assert secret(await steady.for_schedule(7, "own"))[0] == "admin"


@pytest.mark.parametrize(
    ("registry", "owner", "refresher", "reason"),
    [
        (FakeRegistry(), 7, None, OWNER_NOT_LINKED),
        (FakeRegistry(account(7, "admin")), None, None, OWNER_NOT_LINKED),
        (FakeRegistry(account(7, "admin", status="invalid")), 7, None, OWNER_REFUSED),
        (FakeRegistry(account(7, "admin")), 7, FakeRefresher(refuse=True), OWNER_REFUSED),
    ],
)
async def test_a_schedule_whose_admin_token_cannot_be_used_says_why(
    registry: FakeRegistry, owner: int | None, refresher: FakeRefresher | None, reason: str
) -> None:
    with pytest.raises(ScheduleTokenUnavailable) as caught:
        await chooser(registry, refresher=refresher).for_schedule(owner, "own")
    assert caught.value.reason == reason


def test_a_chosen_token_never_shows_the_token() -> None:
    chosen = ChosenToken(SecretStr("sekrit"), "abc", "own")
    assert repr(chosen) == "ChosenToken(key='abc', source='own')"


# --- what one attempt costs in the limiter ----------------------------------------------------


@dataclass
class FakeLimiter:
    """Records every call the admission makes; admits at once with a fixed grant (or refuses
    with the next of ``refusals``)."""

    wait: float = 0.0
    window_pause: float = 60.0
    admitted: list[tuple[str, Hashable, bool, float]] = field(default_factory=list)
    refunds: list[tuple[str, Grant]] = field(default_factory=list)
    pauses: list[tuple[str, float]] = field(default_factory=list)
    window_pauses: list[str] = field(default_factory=list)
    waits_asked: list[tuple[str, Hashable, bool]] = field(default_factory=list)
    grant: Grant = field(default_factory=lambda: Grant("ticket-1", 0.0))
    refusals: list[Exception] = field(default_factory=list)

    @contextlib.asynccontextmanager
    async def admit(
        self, key: str, user: Hashable, *, expensive: bool, budget: float
    ) -> AsyncIterator[Grant]:
        if self.refusals:
            raise self.refusals.pop(0)
        self.admitted.append((key, user, expensive, budget))
        yield self.grant

    async def refund(self, key: str, grant: Grant) -> None:
        self.refunds.append((key, grant))

    async def pause(self, key: str, seconds: float) -> None:
        self.pauses.append((key, seconds))

    async def pause_for_window(self, key: str) -> float:
        self.window_pauses.append(key)
        return self.window_pause

    def expected_wait(self, key: str, user: Hashable, expensive: bool) -> float:
        self.waits_asked.append((key, user, expensive))
        return self.wait


def admission(
    limiter: FakeLimiter,
    metrics: Metrics,
    skill: Skill[Any, Any] = DOCUMENT_SEARCH,
    **kw: Any,
) -> LimiterAdmission:
    values: dict[str, Any] = {"user_id": 9, "token_key": "tok", "wait_budget": 30.0} | kw
    return LimiterAdmission(
        limiter,  # type: ignore[arg-type]
        metrics,
        skill=skill.id,
        expensive=skill.expensive,
        **values,
    )


def call_policy(admits: LimiterAdmission, skill: Skill[Any, Any], **kw: Any) -> CallPolicy:
    """A call's policy as the service makes it for ``skill``: its rate class's attempts."""
    clock = FakeClock()
    retry = replace(SERVICE_RETRY, max_attempts=skill.rate.attempts)
    return CallPolicy(
        "tok", clock.monotonic() + 60.0, retry=retry, admission=admits, clock=clock, **kw
    )


def retries(metrics: Metrics, skill: str, reason: str) -> float:
    value = metrics.registry.get_sample_value(
        "magisterium_bot_upstream_retries_total", {"skill": skill, "reason": reason}
    )
    return value or 0.0


async def test_each_attempt_waits_its_turn_within_the_smaller_budget() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    qa = admission(limiter, metrics, CATHOLIC_QA, wait_budget=12.0)
    async with qa.admit(20.0):
        pass
    async with qa.admit(5.0):
        pass
    assert limiter.admitted == [("tok", 9, True, 12.0), ("tok", 9, True, 5.0)]
    timed = metrics.registry.get_sample_value(
        "magisterium_bot_upstream_request_seconds_count", {"skill": "catholic_qa"}
    )
    assert timed == 2


async def test_the_calls_policy_counts_every_admitted_send() -> None:
    """What the gate's ``sent`` was: each attempt admitted is one send of the call."""
    limiter, metrics = FakeLimiter(), Metrics()
    qa = admission(limiter, metrics, CATHOLIC_QA, wait_budget=12.0)
    upstream = ScriptedUpstream(errors.InternalError("boom"), "answer")
    client = RecordingClient(upstream)
    policy = call_policy(qa, CATHOLIC_QA)
    message = Message.from_user([CATHOLIC_QA.part("q")], skill_id=CATHOLIC_QA.id)
    assert (await client.send_message(message, policy)).id == "answer"
    assert policy.sent == 2 == len(limiter.admitted) == len(upstream.calls)
    assert [budget for *_, budget in limiter.admitted] == [12.0, 12.0]


async def test_catholic_qa_may_be_sent_twice_and_basic_skills_three_times() -> None:
    assert (CATHOLIC_QA.rate.attempts, DOCUMENT_SEARCH.rate.attempts) == (2, 3)
    # Through the service: the policy each call gets carries its skill's attempts.
    s = service("answer", "results")
    await s.service.call(ORIGIN, CATHOLIC_QA, "What is grace?")
    await s.service.call(ORIGIN, DOCUMENT_SEARCH, "grace")
    assert [policy.retry.max_attempts for policy in s.client.policies] == [2, 3]


async def test_a_retry_is_allowed_while_the_budget_lasts_and_counted() -> None:
    limiter, metrics = FakeLimiter(wait=10.0), Metrics()
    search = admission(limiter, metrics, wait_budget=30.0)
    async with search.admit(30.0):
        pass
    error = errors.InternalError("boom")
    # 10 + 20 is just within 30
    assert await search.after_failure(error, 20.0, may_retry=True) == 20.0
    assert retries(metrics, "document_search", "-32603") == 1
    assert limiter.waits_asked == [("tok", 9, False)]
    assert await search.after_failure(error, 20.5, may_retry=True) is None  # 30.5 is past it
    assert retries(metrics, "document_search", "-32603") == 1
    # The backoff said no.
    assert await search.after_failure(error, None, may_retry=True) is None


async def test_no_retry_once_the_attempt_budget_is_spent() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    qa = admission(limiter, metrics, CATHOLIC_QA)
    # The admission never allows a retry the call's policy does not.
    assert await qa.after_failure(errors.InternalError("boom"), 0.5, may_retry=False) is None
    # The policy: two sends made, the second failed; no third, though the backoff had a pause.
    policy = call_policy(qa, CATHOLIC_QA)
    for _ in range(2):
        async with qa.admit(30.0):
            policy.sent += 1
    assert (
        policy.retry.delay_before_retry(0, errors.InternalError("boom"), random.Random(1))
        is not None
    )
    assert await policy.after_failure(errors.InternalError("boom")) is None
    assert retries(metrics, "catholic_qa", "-32603") == 0
    assert limiter.waits_asked == []


async def test_a_failure_before_any_admission_has_no_slot_to_give_back() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = admission(limiter, metrics)
    refused = errors.UpstreamConnectError("refused")
    assert await search.after_failure(refused, 0.5, may_retry=True) == 0.5
    assert limiter.refunds == []


async def test_an_attempt_that_never_left_gives_its_slot_back_once() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = admission(limiter, metrics)
    async with search.admit(30.0):
        pass
    refused = errors.UpstreamConnectError("refused")
    assert await search.after_failure(refused, 0.5, may_retry=True) == 0.5
    assert limiter.refunds == [("tok", limiter.grant)]
    await search.after_failure(refused, 0.5, may_retry=True)  # that grant was given back already
    assert len(limiter.refunds) == 1
    # A request that did reach Magisterium spent its slot there.
    sent = admission(limiter, metrics)
    async with sent.admit(30.0):
        pass
    await sent.after_failure(errors.UpstreamReadTimeout("slow"), 0.5, may_retry=True)
    assert len(limiter.refunds) == 1


async def test_a_rate_limit_pauses_the_token_for_everyone_then_retries_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = admission(limiter, metrics)
    async with search.admit(30.0):
        pass
    with caplog.at_level(logging.INFO, logger="bot.services.admission"):
        delay = await search.after_failure(
            errors.RateLimited("429", retry_after=7.0), 7.2, may_retry=True
        )
    assert delay == 0.0  # the retry's admission waits out the pause
    assert limiter.pauses == [("tok", 7.0)]
    assert "document_search: token rate-limited upstream; waiting 7s" in caplog.messages
    assert retries(metrics, "document_search", "-32003") == 1


async def test_a_rate_limit_on_the_last_attempt_still_pauses_the_token() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = admission(limiter, metrics)
    limited = errors.RateLimited("429", retry_after=7.0)
    assert await search.after_failure(limited, None, may_retry=False) is None
    assert limiter.pauses == [("tok", 7.0)]
    assert retries(metrics, "document_search", "-32003") == 0


async def test_a_rate_limit_without_a_wait_pauses_a_whole_window_and_gives_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter, metrics = FakeLimiter(window_pause=61.0), Metrics()
    search = admission(limiter, metrics)
    async with search.admit(30.0):
        pass
    with caplog.at_level(logging.INFO, logger="bot.services.admission"):
        assert await search.after_failure(errors.RateLimited("429"), None, may_retry=True) is None
    assert limiter.window_pauses == ["tok"] and limiter.pauses == []
    assert (
        "document_search: rate-limited upstream with no wait given; token paused 61s"
        in caplog.messages
    )


async def test_a_refreshed_token_continues_the_same_budget() -> None:
    signed_in = account(3, "mine", refresh_token=SecretStr("r"))
    s = service(
        errors.Unauthorized("401"),
        errors.InternalError("boom"),
        "never",
        registry=FakeRegistry(signed_in),
        refresher=FakeRefresher(due=False),
        wait_budget=12.0,
    )
    with pytest.raises(errors.InternalError):
        await s.service.call(ORIGIN, CATHOLIC_QA, "q")
    (policy,) = s.client.policies
    assert (policy.sent, policy.retry.max_attempts, policy.refreshed) == (2, 2, True)
    assert isinstance(policy.admission, LimiterAdmission)
    assert policy.admission.token_key == token_key(SecretStr("mine-new"))
    assert s.limiter.admitted == [
        (token_key(SecretStr("mine")), 3, True, 12.0),
        (token_key(SecretStr("mine-new")), 3, True, 12.0),
    ]
    assert [call[1] for call in s.upstream.calls] == ["mine", "mine-new"]  # 2 sent: no third
    assert retries(s.metrics, "catholic_qa", "-32603") == 0


# --- a skill call through the service -------------------------------------------------------------


def _task(answer: str, request: dict[str, Any]) -> dict[str, Any]:
    """A completed task whose id and text are ``answer``: every result parsed from it carries
    ``answer`` as its ``task_id``."""
    context = request["params"].get("message", {}).get("contextId") or f"ctx-{answer}"
    return {
        "id": answer,
        "contextId": context,
        "kind": "task",
        "status": {"state": "completed"},
        "artifacts": [{"artifactId": "a", "parts": [{"kind": "text", "text": answer}]}],
    }


class ScriptedUpstream:
    """Magisterium behind ``httpx.MockTransport``, scripted: each request is answered with the
    next of ``answers`` (a string: a completed task of that id; an exception: raised as the
    client's reading of the reply would be). Records (skill, token, part, contextId) of each
    request that reached it."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[Any, ...]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        token = request.headers["Authorization"].removeprefix("Bearer ")
        message = body["params"].get("message")
        if message is not None:
            skill = (message.get("metadata") or {}).get("skillId")
            (part,) = message["parts"]
            self.calls.append((skill, token, part, message.get("contextId")))
        else:
            self.calls.append((body["method"], token, body["params"], None))
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        assert isinstance(answer, str)
        return httpx.Response(
            200, json={"jsonrpc": "2.0", "id": body["id"], "result": _task(answer, body)}
        )


class RecordingClient(A2AClient):
    """The real client over a :class:`ScriptedUpstream`, on a fake clock; records the policy
    of every call it is given."""

    def __init__(self, upstream: Callable[[httpx.Request], httpx.Response]) -> None:
        http = httpx.AsyncClient(transport=httpx.MockTransport(upstream))
        super().__init__(http, URL, clock=FakeClock(), rng=random.Random(5))
        self.policies: list[CallPolicy] = []

    async def send_message(self, message: Message, policy: CallPolicy) -> Task:
        self.policies.append(policy)
        return await super().send_message(message, policy)

    async def get_task(self, task_id: str, policy: CallPolicy) -> Task:
        self.policies.append(policy)
        return await super().get_task(task_id, policy)


class PassThroughCache:
    """Fetches every time; records the skill, key and adapter each lookup was made with."""

    def __init__(self) -> None:
        self.lookups: list[tuple[str, str, TypeAdapter[Any]]] = []

    async def get_or_fetch(
        self, skill: str, key: str, adapter: TypeAdapter[Any], fetch: Callable[[], Awaitable[Any]]
    ) -> Any:
        self.lookups.append((skill, key, adapter))
        return await fetch()


@dataclass
class Service:
    service: MagisteriumService
    upstream: ScriptedUpstream
    client: RecordingClient
    cache: PassThroughCache
    registry: FakeRegistry
    metrics: Metrics
    limiter: FakeLimiter


def service(
    *answers: object,
    registry: FakeRegistry | None = None,
    refresher: FakeRefresher | None = None,
    quota: FakeQuota | None = None,
    wait_budget: float = 25.0,
    client: A2AClient | None = None,
) -> Service:
    upstream = ScriptedUpstream(*answers)
    recording = RecordingClient(upstream)
    cache, metrics, limiter = PassThroughCache(), Metrics(), FakeLimiter()
    registry = registry if registry is not None else FakeRegistry()
    tokens = chooser(registry, refresher=refresher, quota=quota)
    built = MagisteriumService(
        client or recording,
        tokens,
        limiter,  # type: ignore[arg-type]
        registry,  # type: ignore[arg-type]
        wait_budget=wait_budget,
        cache=cache,  # type: ignore[arg-type]
        metrics=metrics,
    )
    return Service(built, upstream, recording, cache, registry, metrics, limiter)


def failures(metrics: Metrics, skill: str, code: str) -> float:
    value = metrics.registry.get_sample_value(
        "magisterium_bot_upstream_errors_total", {"skill": skill, "code": code}
    )
    return value or 0.0


def text(value: str) -> dict[str, Any]:
    return {"kind": "text", "text": value}


def data(**values: Any) -> dict[str, Any]:
    return {"kind": "data", "data": values}


async def test_every_attempt_of_a_call_is_gated_by_the_persons_limiter_turn() -> None:
    quota = FakeQuota()
    s = service("answer", "results", quota=quota, wait_budget=25.0)
    answer = await s.service.call(ORIGIN, CATHOLIC_QA, "What is grace?", context_id="c-1")
    assert answer.task_id == "answer"
    assert quota.consumed == [(3, True)]  # catholic_qa takes from the expensive pool too
    assert s.upstream.calls == [("catholic_qa", "operator-token", text("What is grace?"), "c-1")]
    (used,) = s.client.policies
    assert isinstance(used.admission, LimiterAdmission) and used.retry.max_attempts == 2
    assert used.sent == 1
    assert s.limiter.admitted == [(token_key(OPERATOR), 3, True, 25.0)]
    results = await s.service.call(ORIGIN, DOCUMENT_SEARCH, "grace")
    assert results.task_id == "results"
    assert quota.consumed == [(3, True), (3, False)]
    # Each call has an admission of its own: the first one's admitted nothing more.
    first, second = s.client.policies
    assert second.admission is not first.admission and first.sent == 1
    assert s.limiter.admitted[-1] == (token_key(OPERATOR), 3, False, 25.0)


@pytest.mark.parametrize(
    ("skill", "query", "key", "sent"),
    [
        (DOCUMENT_SEARCH, "grace", "grace", ("document_search", "operator-token", text("grace"))),
        (
            DOCUMENT_FETCH,
            "lumen-gentium",
            "lumen-gentium",
            ("document_fetch", "operator-token", data(id="lumen-gentium")),
        ),
        (
            LITURGICAL_READINGS,
            dt.date(2025, 3, 1),
            "2025-03-01",
            ("liturgical_readings", "operator-token", text("2025-03-01")),
        ),
        (
            SAINTS_OF_THE_DAY,
            dt.date(2025, 3, 1),
            "2025-03-01",
            ("saints_of_the_day", "operator-token", data(date="2025-03-01")),
        ),
        (
            lookup_skill(LookupKind.POPE),
            ByNameOrId(name="Pius"),
            "name:Pius",
            ("pope_lookup", "operator-token", text("Pius")),
        ),
        (
            lookup_skill(LookupKind.SAINT),
            ByNameOrId(canonical_id="Pius"),
            "id:Pius",
            ("saint_lookup", "operator-token", data(id="Pius")),
        ),
        (
            DIOCESE_STATISTICS_LOOKUP,
            ByNameOrId(name="Rome"),
            "name:Rome",
            ("diocese_statistics_lookup", "operator-token", text("Rome")),
        ),
        (
            DIOCESE_STATISTICS_LOOKUP,
            ByNameOrId(canonical_id="rome"),
            "id:rome",
            ("diocese_statistics_lookup", "operator-token", data(id="rome")),
        ),
    ],
    ids=str,
)
async def test_public_content_is_looked_up_in_the_cache_under_its_own_key(
    skill: Skill[Any, Any],
    query: Any,
    key: str,
    sent: tuple[Any, ...],
) -> None:
    s = service("result")
    assert (await s.service.call(ORIGIN, skill, query)).task_id == "result"
    ((cached_skill, cached_key, adapter),) = s.cache.lookups
    assert (cached_skill, cached_key) == (skill.id, key)
    assert isinstance(adapter, TypeAdapter)
    assert s.upstream.calls == [(*sent, None)]
    (used,) = s.client.policies
    assert isinstance(used.admission, LimiterAdmission)
    assert s.limiter.admitted[0][:3] == (token_key(OPERATOR), 3, False)


async def test_each_public_skill_reads_its_own_result_type() -> None:
    s = service(*["x"] * 6)
    day = dt.date(2025, 3, 1)
    await s.service.call(ORIGIN, DOCUMENT_SEARCH, "q")
    await s.service.call(ORIGIN, DOCUMENT_FETCH, "d")
    await s.service.call(ORIGIN, LITURGICAL_READINGS, day)
    await s.service.call(ORIGIN, SAINTS_OF_THE_DAY, day)
    await s.service.call(ORIGIN, lookup_skill(LookupKind.POPE), ByNameOrId(name="Pius"))
    await s.service.call(ORIGIN, DIOCESE_STATISTICS_LOOKUP, ByNameOrId(name="Rome"))
    adapters = [adapter for _, _, adapter in s.cache.lookups]
    assert len({id(adapter) for adapter in adapters}) == 6


async def test_a_daily_post_calls_with_the_schedules_token() -> None:
    chosen = ChosenToken(SecretStr("admin"), token_key(SecretStr("admin")), "own")
    s = service("readings", "saints")
    day = dt.date(2025, 3, 1)
    await s.service.call(Origin.schedule(0), LITURGICAL_READINGS, day, token=chosen)
    await s.service.call(Origin.schedule(0), SAINTS_OF_THE_DAY, day, token=chosen)
    assert [call[1] for call in s.upstream.calls] == ["admin", "admin"]


async def test_a_failed_call_is_counted_once_for_its_skill_and_code() -> None:
    s = service(*[errors.InternalError("boom") for _ in range(3)])
    with pytest.raises(errors.InternalError):
        await s.service.call(ORIGIN, DOCUMENT_SEARCH, "grace")
    assert failures(s.metrics, "document_search", "-32603") == 1
    assert retries(s.metrics, "document_search", "-32603") == 2  # its three attempts


async def test_a_limiter_refusal_is_not_counted_as_an_upstream_failure() -> None:
    s = service()
    s.limiter.refusals = [LimiterBusy(5.0), LimiterClosed()]
    for _ in range(2):
        with pytest.raises((LimiterBusy, LimiterClosed)):
            await s.service.call(ORIGIN, DOCUMENT_SEARCH, "grace")
    assert failures(s.metrics, "document_search", "LimiterBusy") == 0
    assert failures(s.metrics, "document_search", "LimiterClosed") == 0
    assert s.upstream.calls == []  # never reached Magisterium


async def test_a_refused_signed_in_token_is_refreshed_once_and_the_call_retried() -> None:
    signed_in = account(3, "mine", refresh_token=SecretStr("r"))
    s = service(
        errors.Unauthorized("401"),
        "answer",
        registry=FakeRegistry(signed_in),
        refresher=FakeRefresher(due=False),
    )
    assert (await s.service.call(ORIGIN, CATHOLIC_QA, "q")).task_id == "answer"
    assert [call[1] for call in s.upstream.calls] == ["mine", "mine-new"]
    # One call, one policy: its sends so far count against the same budget with the new token.
    (policy,) = s.client.policies
    assert (policy.sent, policy.refreshed) == (2, True)
    assert s.limiter.admitted[-1][0] == token_key(SecretStr("mine-new"))
    assert s.registry.invalid == []


async def test_a_token_refused_again_after_its_refresh_is_marked_invalid() -> None:
    signed_in = account(3, "mine", refresh_token=SecretStr("r"))
    # The server would hand out yet another token every time: refreshed once all the same.
    refresher = FakeRefresher(due=False, numbered=True)
    s = service(
        errors.Unauthorized("401"),
        errors.Unauthorized("401 again"),
        "never",
        registry=FakeRegistry(signed_in),
        refresher=refresher,
    )
    with pytest.raises(LinkedTokenInvalid):
        await s.service.call(ORIGIN, CATHOLIC_QA, "q")
    assert [call[1] for call in s.upstream.calls] == ["mine", "mine-new1"]
    assert refresher.refreshed == [3]
    assert s.registry.invalid == [3]


async def test_a_refused_pasted_token_is_marked_invalid_at_once() -> None:
    s = service(errors.Unauthorized("401"), "never", registry=FakeRegistry(account(3, "mine")))
    with pytest.raises(LinkedTokenInvalid):
        await s.service.call(ORIGIN, DOCUMENT_SEARCH, "q")
    assert s.registry.invalid == [3] and len(s.upstream.calls) == 1


async def test_a_refused_own_token_is_dropped_from_memory_and_its_refresh_read_fresh() -> None:
    signed_in = account(3, "mine", refresh_token=SecretStr("r"))
    s = service(
        errors.Unauthorized("401"),
        "answer",
        registry=FakeRegistry(signed_in),
        refresher=FakeRefresher(due=False),
    )
    assert (await s.service.call(ORIGIN, CATHOLIC_QA, "q")).task_id == "answer"
    assert s.registry.forgotten == [3]  # before the refresh: never served from memory again
    assert s.registry.fresh_reads == [3]  # the refresh token read from the database


async def test_a_refused_shared_token_drops_no_ones_entry() -> None:
    s = service(errors.Unauthorized("401"))
    with pytest.raises(errors.Unauthorized):
        await s.service.call(ORIGIN, DOCUMENT_SEARCH, "q")
    assert s.registry.forgotten == []


async def test_a_refused_shared_token_is_the_operators_problem(
    caplog: pytest.LogCaptureFixture,
) -> None:
    s = service(errors.Unauthorized("401"))
    with (
        caplog.at_level(logging.ERROR, logger="bot.services.magisterium"),
        pytest.raises(errors.Unauthorized),
    ):
        await s.service.call(ORIGIN, DOCUMENT_SEARCH, "q")
    assert s.registry.invalid == []
    assert caplog.messages == ["the operator's MAGISTERIUM_TOKEN was refused (401); check it"]


# --- what each upstream fault leaves the token in ---------------------------------------------

# The fault matrix's token column, without Discord: the fake's own replies behind
# httpx.MockTransport, read by the real client, through the service and its limiter admission.
PAUSED, WINDOW, INVALID, UNTOUCHED = "paused", "paused for a window", "marked invalid", "untouched"


def token_state(s: Service) -> str:
    if s.registry.invalid:
        return INVALID
    if s.limiter.window_pauses:
        return WINDOW
    return PAUSED if s.limiter.pauses else UNTOUCHED


def state(name: str, fault: Fault, outcome: Any, token: str, sends: int, **kw: Any) -> Any:
    return pytest.param(fault, outcome, token, sends, kw, id=name)


TOKEN_STATES = [
    # 9 s is within the wait budget: paused for everyone, waited out in the limiter, answered.
    state("429-9s", Fault.RATE_LIMITED, None, PAUSED, 2, retry_after=9, wait=9.0),
    # 45 s is not: paused for everyone, and the person is told at once.
    state("429-45s", Fault.RATE_LIMITED, errors.RateLimited, PAUSED, 1, retry_after=45, wait=45.0),
    state(
        "429-header-45s",
        Fault.RATE_LIMITED,
        errors.RateLimited,
        PAUSED,
        1,
        retry_after=45,
        header=True,
        wait=45.0,
    ),
    state("429-no-wait", Fault.RATE_LIMITED_NO_WAIT, errors.RateLimited, WINDOW, 1),
    state("401", Fault.UNAUTHORIZED, LinkedTokenInvalid, INVALID, 1),
    state("auth-required", Fault.TASK_STATE, LinkedTokenInvalid, INVALID, 1, state="auth-required"),
    # Nothing said about this token: a plan, a proxy's page, stock A2A's -32004 at 200.
    state("403", Fault.PLAN_REQUIRED, errors.PlanRequired, UNTOUCHED, 1),
    state("html-403", Fault.HTML_403, errors.GatewayRefused, UNTOUCHED, 1),
    state("stock-32004", Fault.STOCK_A2A_CODE, errors.UnknownRPCError, UNTOUCHED, 1, code=-32004),
    state("stock-32003", Fault.STOCK_A2A_CODE, errors.UnknownRPCError, UNTOUCHED, 1, code=-32003),
    state("rpc-32602", Fault.INVALID_PARAMS, errors.InvalidParams, UNTOUCHED, 1),
    state("garbage", Fault.GARBAGE_BODY, errors.MalformedResponse, UNTOUCHED, 1),
    state("failed", Fault.FAILED_TASK, errors.TaskFailed, UNTOUCHED, 1),
    state("rejected", Fault.TASK_STATE, errors.TaskRejected, UNTOUCHED, 1, state="rejected"),
    # Transient: retried within the skill's attempt budget, 3 for a basic skill, 2 for a question.
    state("502-once", Fault.HTML_502, None, UNTOUCHED, 2),
    state("502-always", Fault.HTML_502, errors.UpstreamServerError, UNTOUCHED, 3, times=None),
    state(
        "32603-always-qa",
        Fault.INTERNAL_ERROR,
        errors.InternalError,
        UNTOUCHED,
        2,
        times=None,
        ask=True,
    ),
    state(
        "drop-always-qa",
        Fault.DROP_CONNECTION,
        errors.TransportError,
        UNTOUCHED,
        2,
        times=None,
        ask=True,
    ),
]


@pytest.mark.parametrize(("fault", "outcome", "token", "sends", "params"), TOKEN_STATES)
async def test_each_fault_leaves_the_token_paused_marked_or_untouched(
    fault: Fault, outcome: type[Exception] | None, token: str, sends: int, params: dict[str, Any]
) -> None:
    params = dict(params)  # the parametrized dict is shared: a second run must see it whole
    wait, ask = params.pop("wait", 0.0), params.pop("ask", False)
    transport = FakeTransport()
    transport.add(fault, times=params.pop("times", 1), method="message/send", **params)
    client = A2AClient(
        httpx.AsyncClient(transport=transport), URL, clock=FakeClock(), rng=random.Random(5)
    )
    s = service(registry=FakeRegistry(account(3, TOKEN)), client=client)
    s.limiter.wait = wait
    call = (
        s.service.call(ORIGIN, CATHOLIC_QA, "What is grace?")
        if ask
        else s.service.call(ORIGIN, DOCUMENT_SEARCH, "grace")
    )
    if outcome is None:
        await call
    else:
        with pytest.raises(outcome):
            await call
    assert token_state(s) == token
    if token == PAUSED:
        assert s.limiter.pauses == [(token_key(SecretStr(TOKEN)), float(params["retry_after"]))]
    assert len(transport.sends()) == sends == len(s.limiter.admitted)
    assert len({message_id for _, message_id in transport.sends()}) == 1


async def test_a_refused_connection_gives_every_slot_back() -> None:
    transport = FakeTransport()
    transport.fail_next(*[httpx.ConnectError("refused") for _ in range(3)])
    client = A2AClient(
        httpx.AsyncClient(transport=transport), URL, clock=FakeClock(), rng=random.Random(5)
    )
    s = service(registry=FakeRegistry(account(3, TOKEN)), client=client)
    with pytest.raises(errors.UpstreamConnectError):
        await s.service.call(ORIGIN, DOCUMENT_SEARCH, "grace")
    assert len(s.limiter.admitted) == 3 and len(s.limiter.refunds) == 3
    assert token_state(s) == UNTOUCHED and transport.sends() == []


# --- where a DM conversation stands -------------------------------------------------------------


async def test_a_dm_conversation_is_remembered_replaced_and_forgotten(database: Database) -> None:
    store = ConversationStore(database)
    assert await store.context_of(1) is None
    await store.remember(1, "ctx-a")
    await store.remember(2, "ctx-b")
    assert await store.context_of(1) == "ctx-a"
    await store.remember(1, "ctx-c")
    assert (await store.context_of(1), await store.context_of(2)) == ("ctx-c", "ctx-b")
    assert await store.forget(1)
    assert await store.context_of(1) is None
    assert await store.context_of(2) == "ctx-b"
    assert not await store.forget(1)


async def test_a_dm_conversation_is_deleted_with_the_persons_data(database: Database) -> None:
    store = ConversationStore(database)
    await store.remember(1, "ctx-a")
    deleted = await database.delete_user_data(1)
    assert deleted["dm_conversations"] == 1
    assert await store.context_of(1) is None


async def test_a_remembered_conversation_records_when(database: Database) -> None:
    from sqlalchemy import select

    from bot.storage.models import DMConversationRow

    store = ConversationStore(database)
    before = datetime.now(UTC) - timedelta(seconds=1)
    await store.remember(1, "ctx-a")
    async with database.session() as session:
        first = await session.scalar(select(DMConversationRow.updated_at))
    await store.remember(1, "ctx-b")
    async with database.session() as session:
        second = await session.scalar(select(DMConversationRow.updated_at))
    assert first is not None and second is not None
    assert before <= first <= second

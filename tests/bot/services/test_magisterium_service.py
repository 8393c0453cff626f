"""The service layer, case by case, without Discord: which token serves a request, what one
attempt costs in the limiter, how a skill call is routed (cache key, token, refresh once on a
401), and what each upstream fault leaves the token in (paused, marked invalid, untouched).
What a person is told for each failure is in test_user_errors.py. Doubles stand in for the
limiter, the registry, the cache and the skills; the DM conversation store runs on SQLite and
PostgreSQL."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from pydantic import SecretStr, TypeAdapter

from bot.a2a import A2AClient, MagisteriumSkills, Skill, errors
from bot.a2a.attempts import current_gate
from bot.a2a.lookups import LookupKind
from bot.accounts.errors import QuotaExceeded
from bot.accounts.keys import token_key
from bot.accounts.registry import LinkedAccount
from bot.limits import Grant, LimiterBusy, LimiterClosed
from bot.observability.metrics import Metrics
from bot.services.admission import LimiterGate
from bot.services.conversations import ConversationStore
from bot.services.magisterium import MagisteriumService
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
    assert secret(await tokens.choose(1, expensive=True)) == (
        "mine",
        token_key(SecretStr("mine")),
        "own",
    )
    assert quota.consumed == []
    assert await tokens.source_for(1) == "own"


async def test_a_person_without_one_uses_the_shared_token_within_their_quota() -> None:
    quota = FakeQuota()
    tokens = chooser(FakeRegistry(), quota=quota)
    assert secret(await tokens.choose(2, expensive=True)) == (
        "operator-token",
        token_key(OPERATOR),
        "shared",
    )
    assert secret(await tokens.choose(2, expensive=False))[2] == "shared"
    assert quota.consumed == [(2, True), (2, False)]
    assert await tokens.source_for(2) == "shared"
    assert tokens.has_shared_token


async def test_a_used_up_quota_refuses_the_shared_token() -> None:
    tokens = chooser(FakeRegistry(), quota=FakeQuota(refuse=True))
    with pytest.raises(QuotaExceeded):
        await tokens.choose(2, expensive=False)


async def test_without_a_shared_token_a_person_is_told_to_link() -> None:
    for operator in (None, SecretStr("")):
        tokens = chooser(FakeRegistry(), operator=operator)
        assert not tokens.has_shared_token
        with pytest.raises(NoTokenAvailable):
            await tokens.choose(2, expensive=False)
        with pytest.raises(NoTokenAvailable):
            await tokens.source_for(2)


async def test_a_refused_linked_token_is_an_error_not_a_fallback_to_the_shared_one() -> None:
    tokens = chooser(FakeRegistry(account(1, "mine", status="invalid")), quota=FakeQuota())
    with pytest.raises(LinkedTokenInvalid):
        await tokens.choose(1, expensive=False)
    with pytest.raises(LinkedTokenInvalid):
        await tokens.source_for(1)


async def test_a_token_about_to_expire_is_refreshed_before_use() -> None:
    refresher = FakeRefresher()
    tokens = chooser(FakeRegistry(account(1, "mine")), refresher=refresher)
    assert secret(await tokens.choose(1, expensive=False))[0] == "mine-new"
    assert refresher.asked == refresher.refreshed == [1]
    # Not due: used as it is.
    steady = chooser(FakeRegistry(account(1, "mine")), refresher=FakeRefresher(due=False))
    assert secret(await steady.choose(1, expensive=False))[0] == "mine"


async def test_a_token_the_server_will_not_refresh_is_invalid() -> None:
    tokens = chooser(FakeRegistry(account(1, "mine")), refresher=FakeRefresher(refuse=True))
    with pytest.raises(LinkedTokenInvalid):
        await tokens.choose(1, expensive=False)


async def test_after_a_401_a_signed_in_token_is_refreshed_once() -> None:
    signed_in = account(1, "mine", refresh_token=SecretStr("r"))
    refresher = FakeRefresher(due=False)
    tokens = chooser(FakeRegistry(signed_in), refresher=refresher)
    refused = await tokens.choose(1, expensive=False)
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
    """Records every call the gate makes; admits at once with a fixed grant."""

    wait: float = 0.0
    window_pause: float = 60.0
    admitted: list[tuple[str, Hashable, bool, float]] = field(default_factory=list)
    refunds: list[tuple[str, Grant]] = field(default_factory=list)
    pauses: list[tuple[str, float]] = field(default_factory=list)
    window_pauses: list[str] = field(default_factory=list)
    waits_asked: list[tuple[str, Hashable, bool]] = field(default_factory=list)
    grant: Grant = field(default_factory=lambda: Grant("ticket-1", 0.0))

    @contextlib.asynccontextmanager
    async def admit(
        self, key: str, user: Hashable, *, expensive: bool, budget: float
    ) -> AsyncIterator[Grant]:
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


def gate(
    limiter: FakeLimiter, metrics: Metrics, skill: Skill = Skill.DOCUMENT_SEARCH, **kw: Any
) -> LimiterGate:
    values: dict[str, Any] = {"user_id": 9, "token_key": "tok", "wait_budget": 30.0} | kw
    return LimiterGate(limiter, metrics, skill=skill, **values)  # type: ignore[arg-type]


def retries(metrics: Metrics, skill: str, reason: str) -> float:
    value = metrics.registry.get_sample_value(
        "magisterium_bot_upstream_retries_total", {"skill": skill, "reason": reason}
    )
    return value or 0.0


async def test_each_attempt_waits_its_turn_within_the_smaller_budget() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    qa = gate(limiter, metrics, Skill.CATHOLIC_QA, wait_budget=12.0)
    async with qa.admit(20.0):
        pass
    async with qa.admit(5.0):
        pass
    assert limiter.admitted == [("tok", 9, True, 12.0), ("tok", 9, True, 5.0)]
    assert qa.sent == 2
    timed = metrics.registry.get_sample_value(
        "magisterium_bot_upstream_request_seconds_count", {"skill": "catholic_qa"}
    )
    assert timed == 2


async def test_catholic_qa_may_be_sent_twice_and_basic_skills_three_times() -> None:
    metrics = Metrics()
    assert gate(FakeLimiter(), metrics, Skill.CATHOLIC_QA).max_attempts == 2
    assert gate(FakeLimiter(), metrics, Skill.DOCUMENT_SEARCH).max_attempts == 3


async def test_a_retry_is_allowed_while_the_budget_lasts_and_counted() -> None:
    limiter, metrics = FakeLimiter(wait=10.0), Metrics()
    search = gate(limiter, metrics, wait_budget=30.0)
    async with search.admit(30.0):
        pass
    error = errors.InternalError("boom")
    assert await search.after_failure(error, 0, 20.0) == 20.0  # 10 + 20 is just within 30
    assert retries(metrics, "document_search", "-32603") == 1
    assert limiter.waits_asked == [("tok", 9, False)]
    assert await search.after_failure(error, 0, 20.5) is None  # 30.5 is past it
    assert retries(metrics, "document_search", "-32603") == 1
    assert await search.after_failure(error, 0, None) is None  # the client's policy said no


async def test_no_retry_once_the_attempt_budget_is_spent() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    qa = gate(limiter, metrics, Skill.CATHOLIC_QA)
    for _ in range(2):
        async with qa.admit(30.0):
            pass
    assert await qa.after_failure(errors.InternalError("boom"), 1, 0.5) is None
    assert retries(metrics, "catholic_qa", "-32603") == 0


async def test_a_failure_before_any_admission_has_no_slot_to_give_back() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = gate(limiter, metrics)
    assert await search.after_failure(errors.UpstreamConnectError("refused"), 0, 0.5) == 0.5
    assert limiter.refunds == []


async def test_an_attempt_that_never_left_gives_its_slot_back_once() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = gate(limiter, metrics)
    async with search.admit(30.0):
        pass
    refused = errors.UpstreamConnectError("refused")
    assert await search.after_failure(refused, 0, 0.5) == 0.5
    assert limiter.refunds == [("tok", limiter.grant)]
    await search.after_failure(refused, 0, 0.5)  # that grant was given back already
    assert len(limiter.refunds) == 1
    # A request that did reach Magisterium spent its slot there.
    sent = gate(limiter, metrics)
    async with sent.admit(30.0):
        pass
    await sent.after_failure(errors.UpstreamReadTimeout("slow"), 0, 0.5)
    assert len(limiter.refunds) == 1


async def test_a_rate_limit_pauses_the_token_for_everyone_then_retries_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    search = gate(limiter, metrics)
    async with search.admit(30.0):
        pass
    with caplog.at_level(logging.INFO, logger="bot.services.admission"):
        delay = await search.after_failure(errors.RateLimited("429", retry_after=7.0), 0, 7.2)
    assert delay == 0.0  # the retry's admission waits out the pause
    assert limiter.pauses == [("tok", 7.0)]
    assert "document_search: token rate-limited upstream; waiting 7s" in caplog.messages
    assert retries(metrics, "document_search", "-32003") == 1


async def test_a_rate_limit_without_a_wait_pauses_a_whole_window_and_gives_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    limiter, metrics = FakeLimiter(window_pause=61.0), Metrics()
    search = gate(limiter, metrics)
    async with search.admit(30.0):
        pass
    with caplog.at_level(logging.INFO, logger="bot.services.admission"):
        assert await search.after_failure(errors.RateLimited("429"), 0, None) is None
    assert limiter.window_pauses == ["tok"] and limiter.pauses == []
    assert (
        "document_search: rate-limited upstream with no wait given; token paused 61s"
        in caplog.messages
    )


async def test_a_refreshed_token_continues_the_same_budget() -> None:
    limiter, metrics = FakeLimiter(), Metrics()
    qa = gate(limiter, metrics, Skill.CATHOLIC_QA, wait_budget=12.0)
    async with qa.admit(30.0):
        pass
    fresh = qa.for_token("fresh")
    assert (fresh.sent, fresh.max_attempts) == (1, 2)
    async with fresh.admit(30.0):
        pass
    assert limiter.admitted[-1] == ("fresh", 9, True, 12.0)
    assert await fresh.after_failure(errors.InternalError("boom"), 1, 0.5) is None  # 2 sent


# --- a skill call through the service -------------------------------------------------------------


class FakeSkills:
    """Answers every skill with what ``answers`` says; records calls and the gate around them."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[Any, ...]] = []
        self.gates: list[Any] = []

    async def _answer(self, *call: Any) -> Any:
        self.calls.append(call)
        self.gates.append(current_gate())
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def ask(self, token: SecretStr, question: str, *, context_id: str | None) -> Any:
        return await self._answer("ask", token.get_secret_value(), question, context_id)

    async def search(self, token: SecretStr, query: str) -> Any:
        return await self._answer("search", token.get_secret_value(), query)

    async def fetch_document(self, token: SecretStr, doc_id: str) -> Any:
        return await self._answer("fetch_document", token.get_secret_value(), doc_id)

    async def readings(self, token: SecretStr, day: str) -> Any:
        return await self._answer("readings", token.get_secret_value(), day)

    async def saints(self, token: SecretStr, day: dt.date) -> Any:
        return await self._answer("saints", token.get_secret_value(), day)

    async def lookup(
        self, token: SecretStr, kind: LookupKind, *, name: str | None, canonical_id: str | None
    ) -> Any:
        return await self._answer("lookup", token.get_secret_value(), kind, name, canonical_id)

    async def diocese_statistics(
        self, token: SecretStr, *, name: str | None, canonical_id: str | None
    ) -> Any:
        return await self._answer(
            "diocese_statistics", token.get_secret_value(), name, canonical_id
        )


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
    skills: FakeSkills
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
) -> Service:
    skills, cache, metrics, limiter = (
        FakeSkills(*answers),
        PassThroughCache(),
        Metrics(),
        FakeLimiter(),
    )
    registry = registry if registry is not None else FakeRegistry()
    tokens = chooser(registry, refresher=refresher, quota=quota)
    built = MagisteriumService(
        skills,  # type: ignore[arg-type]
        tokens,
        limiter,  # type: ignore[arg-type]
        registry,  # type: ignore[arg-type]
        wait_budget=wait_budget,
        cache=cache,  # type: ignore[arg-type]
        metrics=metrics,
    )
    return Service(built, skills, cache, registry, metrics, limiter)


def failures(metrics: Metrics, skill: str, code: str) -> float:
    value = metrics.registry.get_sample_value(
        "magisterium_bot_upstream_errors_total", {"skill": skill, "code": code}
    )
    return value or 0.0


async def test_every_attempt_of_a_call_is_gated_by_the_persons_limiter_turn() -> None:
    quota = FakeQuota()
    s = service("answer", "results", quota=quota, wait_budget=25.0)
    assert await s.service.ask(3, "What is grace?", context_id="c-1") == "answer"
    assert quota.consumed == [(3, True)]  # catholic_qa takes from the expensive pool too
    assert s.skills.calls == [("ask", "operator-token", "What is grace?", "c-1")]
    (used,) = s.skills.gates
    assert isinstance(used, LimiterGate) and used.max_attempts == 2
    async with used.admit(60.0):
        pass
    assert s.limiter.admitted == [(token_key(OPERATOR), 3, True, 25.0)]
    assert current_gate() is not used  # only around the call
    assert await s.service.search(3, "grace") == "results"
    assert quota.consumed == [(3, True), (3, False)]


@pytest.mark.parametrize(
    ("call", "skill", "key", "sent"),
    [
        (
            lambda s: s.search(3, "grace"),
            "document_search",
            "grace",
            ("search", "operator-token", "grace"),
        ),
        (
            lambda s: s.fetch_document(3, "lumen-gentium"),
            "document_fetch",
            "lumen-gentium",
            ("fetch_document", "operator-token", "lumen-gentium"),
        ),
        (
            lambda s: s.readings(3, dt.date(2025, 3, 1)),
            "liturgical_readings",
            "2025-03-01",
            ("readings", "operator-token", "2025-03-01"),
        ),
        (
            lambda s: s.saints(3, dt.date(2025, 3, 1)),
            "saints_of_the_day",
            "2025-03-01",
            ("saints", "operator-token", dt.date(2025, 3, 1)),
        ),
        (
            lambda s: s.lookup(3, LookupKind.POPE, name="Pius"),
            "pope_lookup",
            "name:Pius",
            ("lookup", "operator-token", LookupKind.POPE, "Pius", None),
        ),
        (
            lambda s: s.lookup(3, LookupKind.SAINT, canonical_id="Pius"),
            "saint_lookup",
            "id:Pius",
            ("lookup", "operator-token", LookupKind.SAINT, None, "Pius"),
        ),
        (
            lambda s: s.diocese_statistics(3, name="Rome"),
            "diocese_statistics_lookup",
            "name:Rome",
            ("diocese_statistics", "operator-token", "Rome", None),
        ),
        (
            lambda s: s.diocese_statistics(3, canonical_id="rome"),
            "diocese_statistics_lookup",
            "id:rome",
            ("diocese_statistics", "operator-token", None, "rome"),
        ),
    ],
)
async def test_public_content_is_looked_up_in_the_cache_under_its_own_key(
    call: Callable[[MagisteriumService], Awaitable[Any]],
    skill: str,
    key: str,
    sent: tuple[Any, ...],
) -> None:
    s = service("result")
    assert await call(s.service) == "result"
    ((cached_skill, cached_key, adapter),) = s.cache.lookups
    assert (cached_skill, cached_key) == (skill, key)
    assert isinstance(adapter, TypeAdapter)
    assert s.skills.calls == [sent]
    (used,) = s.skills.gates
    async with used.admit(60.0):
        pass
    assert s.limiter.admitted[0][:3] == (token_key(OPERATOR), 3, False)


async def test_each_public_skill_reads_its_own_result_type() -> None:
    s = service(*["x"] * 6)
    await s.service.search(3, "q")
    await s.service.fetch_document(3, "d")
    await s.service.readings(3, dt.date(2025, 3, 1))
    await s.service.saints(3, dt.date(2025, 3, 1))
    await s.service.lookup(3, LookupKind.POPE, name="Pius")
    await s.service.diocese_statistics(3, name="Rome")
    adapters = [adapter for _, _, adapter in s.cache.lookups]
    assert len({id(adapter) for adapter in adapters}) == 6


async def test_a_daily_post_calls_with_the_schedules_token() -> None:
    chosen = ChosenToken(SecretStr("admin"), token_key(SecretStr("admin")), "own")
    s = service("readings", "saints")
    await s.service.readings(0, dt.date(2025, 3, 1), token=chosen)
    await s.service.saints(0, dt.date(2025, 3, 1), token=chosen)
    assert [call[1] for call in s.skills.calls] == ["admin", "admin"]


async def test_a_failed_call_is_counted_once_for_its_skill_and_code() -> None:
    s = service(errors.InternalError("boom"))
    with pytest.raises(errors.InternalError):
        await s.service.search(3, "grace")
    assert failures(s.metrics, "document_search", "-32603") == 1


async def test_a_limiter_refusal_is_not_counted_as_an_upstream_failure() -> None:
    s = service(LimiterBusy(5.0), LimiterClosed())
    for _ in range(2):
        with pytest.raises((LimiterBusy, LimiterClosed)):
            await s.service.search(3, "grace")
    assert failures(s.metrics, "document_search", "LimiterBusy") == 0
    assert failures(s.metrics, "document_search", "LimiterClosed") == 0


async def test_a_refused_signed_in_token_is_refreshed_once_and_the_call_retried() -> None:
    signed_in = account(3, "mine", refresh_token=SecretStr("r"))
    s = service(
        errors.Unauthorized("401"),
        "answer",
        registry=FakeRegistry(signed_in),
        refresher=FakeRefresher(due=False),
    )
    assert await s.service.ask(3, "q") == "answer"
    assert [call[1] for call in s.skills.calls] == ["mine", "mine-new"]
    first, second = s.skills.gates
    assert second.sent == first.sent  # the same call's budget, continued with the new token
    async with second.admit(60.0):
        pass
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
        await s.service.ask(3, "q")
    assert [call[1] for call in s.skills.calls] == ["mine", "mine-new1"]
    assert refresher.refreshed == [3]
    assert s.registry.invalid == [3]


async def test_a_refused_pasted_token_is_marked_invalid_at_once() -> None:
    s = service(errors.Unauthorized("401"), "never", registry=FakeRegistry(account(3, "mine")))
    with pytest.raises(LinkedTokenInvalid):
        await s.service.search(3, "q")
    assert s.registry.invalid == [3] and len(s.skills.calls) == 1


async def test_a_refused_own_token_is_dropped_from_memory_and_its_refresh_read_fresh() -> None:
    signed_in = account(3, "mine", refresh_token=SecretStr("r"))
    s = service(
        errors.Unauthorized("401"),
        "answer",
        registry=FakeRegistry(signed_in),
        refresher=FakeRefresher(due=False),
    )
    assert await s.service.ask(3, "q") == "answer"
    assert s.registry.forgotten == [3]  # before the refresh: never served from memory again
    assert s.registry.fresh_reads == [3]  # the refresh token read from the database


async def test_a_refused_shared_token_drops_no_ones_entry() -> None:
    s = service(errors.Unauthorized("401"))
    with pytest.raises(errors.Unauthorized):
        await s.service.search(3, "q")
    assert s.registry.forgotten == []


async def test_a_refused_shared_token_is_the_operators_problem(
    caplog: pytest.LogCaptureFixture,
) -> None:
    s = service(errors.Unauthorized("401"))
    with (
        caplog.at_level(logging.ERROR, logger="bot.services.magisterium"),
        pytest.raises(errors.Unauthorized),
    ):
        await s.service.search(3, "q")
    assert s.registry.invalid == []
    assert caplog.messages == ["the operator's MAGISTERIUM_TOKEN was refused (401); check it"]


# --- what each upstream fault leaves the token in ---------------------------------------------

# The fault matrix's token column, without Discord: the fake's own replies behind
# httpx.MockTransport, read by the real client, through the service and its limiter gate.
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
    s = service(registry=FakeRegistry(account(3, TOKEN)))
    s.limiter.wait = wait
    s.service._skills = MagisteriumSkills(client)
    call = s.service.ask(3, "What is grace?") if ask else s.service.search(3, "grace")
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
    s = service(registry=FakeRegistry(account(3, TOKEN)))
    s.service._skills = MagisteriumSkills(client)
    with pytest.raises(errors.UpstreamConnectError):
        await s.service.search(3, "grace")
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

"""The real client, on the production HTTP stack, against the fake server over loopback."""

from __future__ import annotations

import datetime as dt
import socket
import ssl
from collections.abc import AsyncIterator

import httpx
import pytest

from bot.a2a import (
    A2AClient,
    Answer,
    Document,
    Martyrology,
    NotFound,
    Readings,
    RetryPolicy,
    errors,
)
from bot.a2a.http import new_http_client
from devtools.fake_magisterium import FakeMagisterium, Fault, RunningFakeServer
from tests.support.conformance import ConformanceLog
from tests.support.fakes import FakeClock
from tests.support.skill_calls import SkillCalls

TOKEN = "pro-user-1"
NO_RETRY = RetryPolicy(max_attempts=1)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with new_http_client() as client:
        yield client


def _skills(http: httpx.AsyncClient, url: str, **kwargs: object) -> SkillCalls:
    kwargs.setdefault("retry", NO_RETRY)
    return SkillCalls(A2AClient(http, url, **kwargs))  # type: ignore[arg-type]


async def test_ask_returns_an_answer_with_citations_and_related_questions(
    http: httpx.AsyncClient, fake_server: RunningFakeServer
) -> None:
    answer = await _skills(http, fake_server.url).ask(TOKEN, "What is the Eucharist?")
    assert isinstance(answer, Answer)
    assert "[1]" in answer.text and answer.citations and answer.related_questions
    first = answer.citations[0]
    assert first.number == 1 and first.title and first.url and first.url.startswith("https://")
    assert answer.context_id and answer.task_id


async def test_context_id_continues_a_conversation(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    skills = _skills(http, fake_server.url)
    first = await skills.ask(TOKEN, "What is baptism?")
    second = await skills.ask(TOKEN, "And who may baptise?", context_id=first.context_id)
    assert second.context_id == first.context_id
    assert "What is baptism?" in second.text  # the fake says what it continues
    assert [r.context_id for r in fake.requests] == [None, first.context_id]


async def test_every_skill_gives_its_typed_result(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    skills = _skills(http, fake_server.url)
    results = await skills.search(TOKEN, "Second Vatican Council church")
    assert results.hits and all(h.id and h.title for h in results.hits)
    document = await skills.fetch_document(TOKEN, results.hits[0].id)
    assert isinstance(document, Document) and document.title and document.text
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"id": results.hits[0].id}}]
    assert isinstance(await skills.readings(TOKEN, "next Sunday"), Readings)
    saints = await skills.saints(TOKEN, dt.date(2026, 3, 19))
    assert isinstance(saints, Martyrology) and "Joseph" in saints.text
    assert fake.requests[-1].parts == [{"kind": "data", "data": {"date": "2026-03-19"}}]


async def test_not_found_texts_become_not_found(
    http: httpx.AsyncClient, fake_server: RunningFakeServer
) -> None:
    skills = _skills(http, fake_server.url)
    assert isinstance(await skills.fetch_document(TOKEN, "no-such-doc"), NotFound)
    assert isinstance(await skills.readings(TOKEN, "the day after never"), NotFound)
    assert isinstance(await skills.saints(TOKEN, dt.date(1850, 1, 1)), NotFound)
    assert (await skills.search(TOKEN, "zzxqv qqwrt")).hits == []


async def test_tasks_get_and_cancel(
    http: httpx.AsyncClient, fake_server: RunningFakeServer
) -> None:
    client = A2AClient(http, fake_server.url, retry=NO_RETRY)
    answer = await SkillCalls(client).ask(TOKEN, "What is prayer?")
    assert answer.task_id is not None
    task = await client.get_task(answer.task_id, client.policy(TOKEN))
    assert task.id == answer.task_id and task.history[0].text() == "What is prayer?"
    with pytest.raises(errors.InvalidParams, match="Invalid state transition"):
        await client.cancel_task(answer.task_id, client.policy(TOKEN))
    with pytest.raises(errors.TaskNotFound):
        await client.get_task("no-such-task", client.policy(TOKEN))
    with pytest.raises(errors.TaskNotFound):  # another person's task is not theirs to see
        await client.get_task(answer.task_id, client.policy("pro-user-2"))


@pytest.mark.parametrize(
    ("token", "expected"),
    [("invalid-abc", errors.Unauthorized), ("free-abc", errors.PlanRequired)],
)
async def test_account_errors(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, token: str, expected: type
) -> None:
    with pytest.raises(expected):
        await _skills(http, fake_server.url).search(token, "grace")


async def test_expensive_pool_rate_limit_carries_retry_after(
    http: httpx.AsyncClient, fake_server: RunningFakeServer
) -> None:
    skills = _skills(http, fake_server.url)
    for _ in range(2):
        await skills.ask(TOKEN, "What is grace?")
    with pytest.raises(errors.RateLimited) as caught:
        await skills.ask(TOKEN, "What is grace?")
    assert caught.value.http_status == 429
    assert caught.value.retry_after is not None and 1 <= caught.value.retry_after <= 60
    await skills.search(TOKEN, "grace")  # the basic pool still has room


FAULTS: list[tuple[Fault, dict[str, object], type[errors.A2AError]]] = [
    (Fault.FAILED_TASK, {"reason": "index offline"}, errors.TaskFailed),
    (Fault.INTERNAL_ERROR, {}, errors.InternalError),
    (Fault.INVALID_PARAMS, {}, errors.InvalidParams),
    (Fault.TASK_NOT_FOUND, {}, errors.TaskNotFound),
    (Fault.SKILL_NOT_FOUND, {}, errors.SkillNotFound),
    (Fault.PARSE_ERROR, {}, errors.ParseError),
    (Fault.INVALID_REQUEST, {}, errors.InvalidRequest),
    (Fault.METHOD_NOT_FOUND, {}, errors.MethodNotFound),
    (Fault.UNKNOWN_CODE, {}, errors.UnknownRPCError),
    (Fault.RATE_LIMITED, {"retry_after": 9}, errors.RateLimited),
    (Fault.RATE_LIMITED, {"retry_after": 9, "header": True}, errors.RateLimited),
    (Fault.UNAUTHORIZED, {}, errors.Unauthorized),
    (Fault.PLAN_REQUIRED, {}, errors.PlanRequired),
    (Fault.HTML_502, {}, errors.UpstreamServerError),
    (Fault.HTTP_500, {}, errors.InternalError),
    (Fault.HTTP_404, {}, errors.HTTPStatusError),
    (Fault.GARBAGE_BODY, {}, errors.MalformedResponse),
    (Fault.TRUNCATED_JSON, {}, errors.MalformedResponse),
    (Fault.DROP_CONNECTION, {}, errors.TransportError),
    (Fault.WRONG_ID, {}, errors.MalformedResponse),
    (Fault.WRONG_JSONRPC, {}, errors.MalformedResponse),
    (Fault.STOCK_A2A_CODE, {"code": -32004}, errors.UnknownRPCError),
    (Fault.STOCK_A2A_CODE, {"code": -32003}, errors.UnknownRPCError),
    (Fault.STOCK_A2A_CODE, {"code": -32005}, errors.UnknownRPCError),
    (Fault.HTML_403, {}, errors.GatewayRefused),
    (Fault.RATE_LIMITED_NO_WAIT, {}, errors.RateLimited),
    (Fault.TASK_STATE, {"state": "rejected"}, errors.TaskRejected),
]


@pytest.mark.parametrize(("fault", "params", "expected"), FAULTS, ids=str)
async def test_every_fault_of_the_fake_maps_to_one_error(
    http: httpx.AsyncClient,
    fake_server: RunningFakeServer,
    fake: FakeMagisterium,
    fault: Fault,
    params: dict[str, object],
    expected: type[errors.A2AError],
) -> None:
    fake.faults.add(fault, **params)
    skills = _skills(http, fake_server.url)
    with pytest.raises(expected) as caught:
        await skills.ask(TOKEN, "What is grace?")
    assert type(caught.value) is expected or expected is errors.TransportError
    if fault is Fault.FAILED_TASK:
        assert isinstance(caught.value, errors.TaskFailed)
        assert caught.value.reason == "index offline"
    if fault is Fault.RATE_LIMITED:
        assert isinstance(caught.value, errors.RateLimited) and caught.value.retry_after == 9
    if fault is Fault.RATE_LIMITED_NO_WAIT:
        assert isinstance(caught.value, errors.RateLimited) and caught.value.retry_after is None
    # The fault was one request long: the next call is answered normally.
    assert isinstance(await skills.ask(TOKEN, "What is grace?"), Answer)


async def test_a_message_result_is_an_answer(
    http: httpx.AsyncClient,
    fake_server: RunningFakeServer,
    fake: FakeMagisterium,
    a2a_conformance: ConformanceLog,
) -> None:
    fake.faults.add(Fault.NOT_A_TASK)
    answer = await _skills(http, fake_server.url).ask(TOKEN, "What is grace?")
    assert answer.text == "Here is a message instead of a task."
    assert answer.context_id and answer.task_id  # the message's own ids
    # tasks/get has no Message result in A2A v0.3: there it is still malformed.
    client = A2AClient(http, fake_server.url, retry=NO_RETRY)
    stored = await SkillCalls(client).ask(TOKEN, "What is grace?")
    assert stored.task_id is not None
    fake.faults.add(Fault.NOT_A_TASK, method="tasks/get")
    with pytest.raises(errors.MalformedResponse, match="not a task"):
        await client.get_task(stored.task_id, client.policy(TOKEN))
    # The reference agrees: a Message is no GetTaskSuccessResponse.
    violations = a2a_conformance.take_violations()
    assert violations and all("'tasks/get'" in violation for violation in violations)


async def test_every_401_challenges_for_a_bearer_token(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.UNAUTHORIZED)
    for token in (TOKEN, "invalid-abc"):
        with pytest.raises(errors.Unauthorized) as caught:
            await _skills(http, fake_server.url).search(token, "grace")
        assert caught.value.http_status == 401
    challenges = [r for r in fake.requests if r.http_status == 401]
    assert len(challenges) == 2


async def test_transient_fault_is_retried_to_success_with_one_message_id(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.HTML_502, times=2)
    clock = FakeClock()
    skills = _skills(http, fake_server.url, retry=RetryPolicy(max_attempts=3), clock=clock)
    assert (await skills.search(TOKEN, "Lumen Gentium church")).hits
    sent = [r for r in fake.requests if r.skill == "document_search"]
    assert [r.http_status for r in sent[:3]] == [502, 502, 200]
    assert len({r.message_id for r in sent[:3]}) == 1
    assert len(clock.sleeps) == 2


async def test_rate_limit_fault_is_waited_out_on_the_fake_clock(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.RATE_LIMITED, retry_after=4)
    clock = FakeClock()
    skills = _skills(http, fake_server.url, retry=RetryPolicy(max_attempts=2), clock=clock)
    await skills.search(TOKEN, "grace")
    assert len(clock.sleeps) == 1 and 4.0 <= clock.sleeps[0] <= 4.5


async def test_huge_and_hostile_answers_parse(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    skills = _skills(http, fake_server.url)
    fake.faults.add(Fault.HUGE_ANSWER)
    huge = await skills.ask(TOKEN, "Tell me everything")
    assert len(huge.text) >= 25_000 and len(huge.citations) == 40
    fake.faults.add(Fault.MENTIONS_ANSWER)
    hostile = await skills.ask(TOKEN, "Hi")
    assert "@everyone" in hostile.text and "<@&" in hostile.text


async def test_read_timeout(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.LATENCY, seconds=2.0)
    client = A2AClient(
        http,
        fake_server.url,
        retry=NO_RETRY,
        timeout=httpx.Timeout(connect=1.0, read=0.1, write=1.0, pool=1.0),
    )
    with pytest.raises(errors.UpstreamReadTimeout):
        await SkillCalls(client).search(TOKEN, "grace")


async def test_slow_past_the_budget_is_a_deadline(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.LATENCY, seconds=2.0)
    with pytest.raises(errors.DeadlineExceeded):
        await _skills(http, fake_server.url).search(TOKEN, "grace", budget=0.2)


async def test_connect_refused(http: httpx.AsyncClient) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago and has no listener
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(errors.UpstreamConnectError):
        await _skills(http, f"http://127.0.0.1:{port}/api/v1/a2a").search(TOKEN, "grace")


async def test_a_dropped_connection_may_have_been_sent_a_refused_one_was_not(
    http: httpx.AsyncClient, fake_server: RunningFakeServer, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.DROP_CONNECTION)
    with pytest.raises(errors.TransportError) as dropped:
        await _skills(http, fake_server.url).search(TOKEN, "grace")
    assert not dropped.value.never_sent  # the fake had the request: it may have run
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(errors.UpstreamConnectError) as refused:
        await _skills(http, f"http://127.0.0.1:{port}/api/v1/a2a").search(TOKEN, "grace")
    assert refused.value.never_sent


async def test_every_client_verifies_with_the_one_trust_store_loaded_per_process() -> None:
    async with new_http_client() as first, new_http_client() as second:
        contexts = [client._transport.ssl_context for client in (first, second)]  # type: ignore[attr-defined]
    assert contexts[0] is contexts[1]
    assert contexts[0].verify_mode == ssl.CERT_REQUIRED and contexts[0].check_hostname

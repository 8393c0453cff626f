"""Our A2A client against a peer nobody here wrote: a2a-sdk 1.3.0's own server.

The SDK speaks A2A 1.0 natively; with ``enable_v0_3_compat=True`` its JSON-RPC endpoint also
accepts the v0.3 shapes Magisterium uses (``message/send``, ``tasks/get``, parts with
``kind``). It listens on loopback TCP (uvicorn) and the client is the production one: the
``A2AClient`` of ``bot.app.composition`` on ``new_http_client`` (aiohttp's pool). Only the agent
logic is ours (``devtools/sdk_peer.py``, ``tests/support/sdk_skills.py``).

Observed SDK error codes (v0.3 compat path, all with HTTP 200), which follow the A2A spec
rather than Magisterium's table:
  tasks/get of an unknown id            -> -32001 "Task not found"   (same number as ours)
  tasks/cancel of a terminal task       -> -32002 "Task cannot be canceled"
                                           (Magisterium: -32602 "Invalid state transition";
                                           -32002 means "skill not found" there)
  an exception in the agent executor    -> -32603 with the exception text as message
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from a2a.helpers import new_text_part
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue

from bot.a2a import A2AClient, DataPart, Message, TextPart, errors
from devtools.sdk_peer import (
    ARTIFACT_NAME,
    DEFAULT_ANSWER,
    DEFAULT_CITATIONS,
    DEFAULT_RELATED,
    CatholicQAExecutor,
    RecordingExecutor,
    running_sdk_server,
)
from tests.support.fakes import FakeClock
from tests.support.sdk_skills import production_client
from tests.support.skill_calls import SkillCalls

TOKEN = "user-token"
QUESTION = "What is grace?"


@dataclass
class Peer:
    url: str
    http: httpx.AsyncClient
    client: A2AClient
    skills: SkillCalls
    executor: RecordingExecutor
    clock: FakeClock
    requests: list[httpx.Request]


@contextlib.asynccontextmanager
async def open_peer(executor: RecordingExecutor) -> AsyncIterator[Peer]:
    """An SDK server around ``executor`` on loopback TCP, and our client wired to it."""
    requests: list[httpx.Request] = []

    async def record(request: httpx.Request) -> None:
        requests.append(request)

    async with running_sdk_server(executor) as server, production_client(server.url) as opened:
        http, client, clock = opened
        http.event_hooks["request"].append(record)
        yield Peer(server.url, http, client, SkillCalls(client), executor, clock, requests)


@pytest.fixture
async def peer() -> AsyncIterator[Peer]:
    async with open_peer(CatholicQAExecutor()) as opened:
        yield opened


async def _raw_rpc(peer: Peer, method: str, params: dict[str, Any]) -> httpx.Response:
    """One JSON-RPC call without our client, to see exactly what the SDK answers."""
    body = {"jsonrpc": "2.0", "id": 99, "method": method, "params": params}
    return await peer.http.post(peer.url, json=body, headers={"Authorization": f"Bearer {TOKEN}"})


# --- message/send ------------------------------------------------------------------------------


async def test_message_send_round_trip_returns_a_parsed_completed_task(peer: Peer) -> None:
    message = Message.from_user([TextPart(text=QUESTION)], skill_id="catholic_qa")

    task = await peer.client.send_message(message, peer.client.policy(TOKEN))

    assert task.status.state == "completed"
    assert [artifact.name for artifact in task.artifacts] == [ARTIFACT_NAME]
    assert task.text_parts() == [DEFAULT_ANSWER]
    # Integers in data parts come back as floats through the SDK's protobuf Struct.
    expected_citations = [{**DEFAULT_CITATIONS[0], "document_index": 0.0}]
    assert task.data_parts() == [
        {"citations": expected_citations},
        {"related_questions": DEFAULT_RELATED},
    ]
    # The id we got is the one the SDK's executor created, for the question we sent.
    [seen] = peer.executor.seen
    assert (task.id, task.context_id) == (seen.task_id, seen.context_id)
    assert seen.text == QUESTION
    assert seen.message_metadata == {"skillId": "catholic_qa"}
    # Our request went out once, as v0.3 JSON-RPC with the bearer token.
    [request] = peer.requests
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"
    assert b'"method":"message/send"' in request.content


async def test_skills_ask_parses_the_answer_citations_and_related_questions(peer: Peer) -> None:
    answer = await peer.skills.ask(TOKEN, QUESTION)

    assert answer.text == DEFAULT_ANSWER
    [citation] = answer.citations
    assert citation.number == 1  # document_index 0 (0.0 on this wire) is footnote [1]
    assert citation.title == DEFAULT_CITATIONS[0]["document_title"]
    assert citation.url == DEFAULT_CITATIONS[0]["source_url"]
    assert citation.excerpt == DEFAULT_CITATIONS[0]["cited_text"]
    assert answer.related_questions == DEFAULT_RELATED
    [seen] = peer.executor.seen
    assert (answer.task_id, answer.context_id) == (seen.task_id, seen.context_id)


async def test_history_holds_our_user_message_with_our_text_and_id(peer: Peer) -> None:
    message = Message.from_user([TextPart(text=QUESTION)], skill_id="catholic_qa")

    task = await peer.client.send_message(message, peer.client.policy(TOKEN))

    user_messages = [m for m in task.history if m.role == "user"]
    assert len(user_messages) == 1
    [user] = user_messages
    assert user.text() == QUESTION
    assert user.message_id == message.message_id
    # The server stamped its ids on the stored message.
    assert (user.task_id, user.context_id) == (task.id, task.context_id)
    assert user.metadata == {"skillId": "catholic_qa"}


async def test_a_data_part_round_trips_to_the_executor(peer: Peer) -> None:
    """document_fetch / saints_of_the_day send data parts; the SDK must see them as data."""
    message = Message.from_user([DataPart(data={"date": "2026-03-19"})], skill_id="catholic_qa")

    task = await peer.client.send_message(message, peer.client.policy(TOKEN))

    [user] = task.history
    [part] = user.parts
    assert isinstance(part, DataPart)
    assert part.data == {"date": "2026-03-19"}


# --- tasks/get -------------------------------------------------------------------------------


async def test_tasks_get_returns_the_same_task_as_message_send(peer: Peer) -> None:
    sent = await peer.client.send_message(
        Message.from_user([TextPart(text=QUESTION)], skill_id="catholic_qa"),
        peer.client.policy(TOKEN),
    )

    fetched = await peer.client.get_task(sent.id, peer.client.policy(TOKEN))

    assert fetched.id == sent.id
    assert fetched.context_id == sent.context_id
    assert fetched.status.state == "completed"
    assert fetched.model_dump() == sent.model_dump()
    assert len(peer.executor.seen) == 1  # tasks/get did not run the skill again


async def test_tasks_get_of_an_unknown_id_is_task_not_found(peer: Peer) -> None:
    # What the SDK actually sends: the A2A spec's TaskNotFoundError, code -32001, HTTP 200.
    raw = await _raw_rpc(peer, "tasks/get", {"id": "no-such-task"})
    assert raw.status_code == 200
    sdk_error = raw.json()["error"]
    assert sdk_error["code"] == -32001
    assert sdk_error["message"] == "Task not found"

    # -32001 is also Magisterium's TASK_NOT_FOUND, so our explicit map gives TaskNotFound,
    # and it is not retried.
    assert errors.RPC_ERRORS_BY_CODE[-32001] is errors.TaskNotFound
    peer.requests.clear()
    with pytest.raises(errors.TaskNotFound) as caught:
        await peer.client.get_task("no-such-task", peer.client.policy(TOKEN))
    assert caught.value.http_status == 200
    assert caught.value.message == "Task not found"
    assert len(peer.requests) == 1
    assert peer.clock.sleeps == []


# --- contextId -------------------------------------------------------------------------------


async def test_context_id_is_reused_when_sent_back(peer: Peer) -> None:
    first = await peer.skills.ask(TOKEN, QUESTION)
    assert first.context_id

    second = await peer.skills.ask(TOKEN, "And actual grace?", context_id=first.context_id)
    unrelated = await peer.skills.ask(TOKEN, "Who was St Joseph?")

    assert second.context_id == first.context_id
    assert second.task_id != first.task_id
    # The executor saw the context we passed, on the message we sent.
    assert [s.context_id for s in peer.executor.seen] == [
        first.context_id,
        first.context_id,
        unrelated.context_id,
    ]
    assert peer.executor.seen[1].text == "And actual grace?"
    # Without a contextId the server makes a fresh one.
    assert unrelated.context_id != first.context_id


# --- failures and code collisions -----------------------------------------------------------


@dataclass
class FailingExecutor(CatholicQAExecutor):
    """Magisterium's way for a skill that raised: a stored task in state ``failed``."""

    reason: str = "the model is unavailable"

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = await self.start_task(context, event_queue)
        await updater.failed(updater.new_agent_message([new_text_part(self.reason)]))


async def test_a_failed_task_raises_task_failed_with_the_status_reason() -> None:
    async with open_peer(FailingExecutor()) as peer:
        with pytest.raises(errors.TaskFailed) as caught:
            await peer.skills.ask(TOKEN, QUESTION)
    assert caught.value.reason == "the model is unavailable"
    assert caught.value.task_id == peer.executor.seen[0].task_id
    assert len(peer.requests) == 1  # a failed task is an answer, not retried


async def test_sdk_cancel_code_is_read_with_magisteriums_meaning(peer: Peer) -> None:
    """-32002 is A2A's "task not cancelable" but Magisterium's "skill not found".

    Our map is Magisterium's, on purpose (a stock A2A map would misread Magisterium's
    SKILL_NOT_FOUND). Against a stock A2A server that makes a cancel refusal surface as
    SkillNotFound; Magisterium itself refuses with -32602 (InvalidParams) instead.
    """
    task = await peer.client.send_message(
        Message.from_user([TextPart(text=QUESTION)], skill_id="catholic_qa"),
        peer.client.policy(TOKEN),
    )
    raw = await _raw_rpc(peer, "tasks/cancel", {"id": task.id})
    sdk_error = raw.json()["error"]
    assert sdk_error["code"] == -32002
    assert sdk_error["message"] == "Task cannot be canceled"

    peer.requests.clear()
    with pytest.raises(errors.SkillNotFound) as caught:
        await peer.client.cancel_task(task.id, peer.client.policy(TOKEN))
    assert caught.value.message == "Task cannot be canceled"
    assert len(peer.requests) == 1  # SkillNotFound is never retried


# --- numbers through a protobuf-backed peer ----------------------------------------------------


async def test_a_whole_number_year_is_rendered_without_a_decimal_point() -> None:
    citation = {"document_title": "Catechism", "document_year": 1992, "document_index": 2}
    async with open_peer(CatholicQAExecutor(citations=[citation])) as peer:
        answer = await peer.skills.ask(TOKEN, QUESTION)
    [parsed] = answer.citations
    assert parsed.number == 3  # 2.0 on the wire
    assert parsed.year == "1992"

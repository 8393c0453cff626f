"""Every A2A v0.3 task state at the client, a Message result, and file parts: through the fake
over HTTP and through the real a2a-sdk server over TCP, both on the production transport.

    completed                         -> the typed result
    failed/rejected/input-required/   -> TaskFailed/TaskRejected/InputRequired/TaskCanceled,
    canceled                             reason = status.message, task_id, context_id
    auth-required                     -> AuthRequired (an Unauthorized)
    submitted/working/unknown         -> polled with tasks/get within the deadline; the result
                                         once completed, else TaskNotFinished(state=...)
    a Message result                  -> rendered as the answer it holds
"""

from __future__ import annotations

import contextlib
import datetime as dt
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue
from a2a.types import a2a_pb2 as pb

from bot.a2a import A2AClient, FilePart, Message, RetryPolicy, TextPart, errors
from bot.a2a.http import new_http_client
from bot.a2a.lookups import LookupKind
from bot.a2a.results import Result
from bot.a2a.retry import PollPolicy
from devtools.fake_magisterium import FakeMagisterium, Fault, RunningFakeServer
from devtools.sdk_peer import RecordingExecutor, running_sdk_server
from tests.support.fakes import FakeClock
from tests.support.skill_calls import SkillCalls

TOKEN = "pro-user-1"
QUESTION = "What is the Eucharist?"
ENDED: dict[str, type[errors.TaskNotCompleted]] = {
    "failed": errors.TaskFailed,
    "rejected": errors.TaskRejected,
    "input-required": errors.InputRequired,
    "canceled": errors.TaskCanceled,
}
PENDING = ["submitted", "working", "unknown"]


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with new_http_client() as client:
        yield client


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(http: httpx.AsyncClient, fake_server: RunningFakeServer, clock: FakeClock) -> A2AClient:
    return A2AClient(http, fake_server.url, retry=RetryPolicy(max_attempts=1), clock=clock)


def _polls(fake: FakeMagisterium) -> int:
    return fake.count(method="tasks/get")


# --- the fake, over loopback HTTP ----------------------------------------------------------


@pytest.mark.parametrize("state", sorted(ENDED))
async def test_a_task_that_ended_without_an_answer_raises_its_state(
    client: A2AClient, fake: FakeMagisterium, state: str
) -> None:
    fake.faults.add(Fault.TASK_STATE, state=state, message=f"Magisterium: {state}.")
    with pytest.raises(errors.TaskNotCompleted) as caught:
        await SkillCalls(client).ask(TOKEN, QUESTION, context_id="ctx-41")
    assert type(caught.value) is ENDED[state]
    assert (caught.value.state, caught.value.reason) == (state, f"Magisterium: {state}.")
    assert caught.value.context_id == "ctx-41"
    assert caught.value.task_id is not None
    # any state, as it is
    stored = await client.get_task(caught.value.task_id, client.policy(TOKEN))
    assert stored.status.state == state
    assert _polls(fake) == 1  # only that get: an ended task is not polled


async def test_auth_required_is_an_unauthorized_with_the_reason(
    client: A2AClient, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.TASK_STATE, state="auth-required")
    with pytest.raises(errors.AuthRequired) as caught:
        await SkillCalls(client).ask(TOKEN, QUESTION)
    assert isinstance(caught.value, errors.Unauthorized)
    assert caught.value.reason == "Sign in to Magisterium again to continue."
    assert caught.value.task_id and caught.value.context_id


@pytest.mark.parametrize("state", PENDING)
async def test_a_pending_task_is_polled_until_it_completes(
    client: A2AClient, fake: FakeMagisterium, clock: FakeClock, state: str
) -> None:
    fake.faults.add(Fault.TASK_STATE, state=state, polls=2)
    answer = await SkillCalls(client).ask(TOKEN, QUESTION)
    assert "Eucharist" in answer.text and answer.citations
    assert _polls(fake) == 2
    assert clock.sleeps == PollPolicy().delays()[:2]
    assert fake.count(method="message/send") == 1  # polling never re-sends the question


async def test_a_task_still_working_after_the_polls_is_not_finished(
    client: A2AClient, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.TASK_STATE, state="working")
    with pytest.raises(errors.TaskNotFinished) as caught:
        await SkillCalls(client).ask(TOKEN, QUESTION)
    assert (caught.value.state, caught.value.reason) == ("working", "Still working on it.")
    assert _polls(fake) == PollPolicy().attempts and clock.sleeps == PollPolicy().delays()


async def test_polling_stays_within_the_calls_deadline(
    client: A2AClient, fake: FakeMagisterium, clock: FakeClock
) -> None:
    fake.faults.add(Fault.TASK_STATE, state="submitted", message="")
    with pytest.raises(errors.TaskNotFinished) as caught:
        await SkillCalls(client).ask(TOKEN, QUESTION, budget=1.0)
    assert (caught.value.state, caught.value.reason) == ("submitted", "")
    assert clock.sleeps == [0.25, 0.5] and _polls(fake) == 2  # a third pause would pass 1 s


async def test_a_poll_that_fails_transiently_is_just_one_poll(
    client: A2AClient, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.TASK_STATE, state="working", polls=1)
    fake.faults.add(Fault.HTML_502, method="tasks/get")
    answer = await SkillCalls(client).ask(TOKEN, QUESTION)
    assert answer.text
    assert [r.http_status for r in fake.requests if r.method == "tasks/get"] == [502, 200]


SkillCall = Callable[[SkillCalls], Awaitable[Result]]
SKILL_CALLS: dict[str, SkillCall] = {
    "catholic_qa": lambda s: s.ask(TOKEN, QUESTION),
    "document_search": lambda s: s.search(TOKEN, "Lumen Gentium church"),
    "document_fetch": lambda s: s.fetch_document(TOKEN, "12345"),
    "liturgical_readings": lambda s: s.readings(TOKEN, "2026-03-19"),
    "saints_of_the_day": lambda s: s.saints(TOKEN, dt.date(2026, 3, 19)),
    "saint_lookup": lambda s: s.lookup(TOKEN, LookupKind.SAINT, name="Joseph"),
    "pope_lookup": lambda s: s.lookup(TOKEN, LookupKind.POPE, name="Pius"),
    "person_lookup": lambda s: s.lookup(TOKEN, LookupKind.PERSON, name="Yeom Soo-jung"),
    "diocese_lookup": lambda s: s.lookup(TOKEN, LookupKind.DIOCESE, name="Rome"),
    "diocese_statistics_lookup": lambda s: s.diocese_statistics(TOKEN, name="Rome"),
}


def _content(result: Result) -> dict[str, Any]:
    return result.model_dump(exclude={"task_id", "context_id"})


@pytest.mark.parametrize("skill", sorted(SKILL_CALLS))
async def test_a_message_result_renders_as_the_task_would(
    client: A2AClient, fake: FakeMagisterium, skill: str
) -> None:
    skills, call = SkillCalls(client), SKILL_CALLS[skill]
    from_task = await call(skills)
    fake.faults.add(Fault.MESSAGE_RESULT, skill=skill)
    from_message = await call(skills)
    assert Fault.MESSAGE_RESULT in fake.requests[-1].faults
    assert _content(from_message) == _content(from_task)
    assert from_message.context_id and from_message.task_id  # the message's own ids


async def test_file_parts_are_kept_and_do_not_disturb_the_answer(
    client: A2AClient, fake: FakeMagisterium
) -> None:
    fake.rate_limits_enabled = False  # three catholic_qa in a minute
    plain = await SkillCalls(client).ask(TOKEN, QUESTION)
    fake.faults.add(Fault.FILE_PARTS)
    message = Message.from_user([TextPart(text=QUESTION)], skill_id="catholic_qa")
    task = await client.send_message(message, client.policy(TOKEN))
    files = [part.file for part in task.parts() if isinstance(part, FilePart)]
    assert [(f.name, f.mime_type) for f in files] == [
        ("lumen-gentium.pdf", "application/pdf"),
        ("note.txt", "text/plain"),
    ]
    assert files[0].uri and files[0].uri.startswith("https://") and files[1].bytes
    fake.faults.add(Fault.FILE_PARTS)
    assert _content(await SkillCalls(client).ask(TOKEN, QUESTION)) == _content(plain)


# --- the real a2a-sdk server, over loopback TCP ----------------------------------------------

SDK_ANSWER = "Grace is the free and undeserved help that God gives us [1]."
SDK_CITATION = {"document_title": "Catechism of the Catholic Church", "document_index": 0}


@dataclass
class StateExecutor(RecordingExecutor):
    """Ends every task in ``state`` with a status message, or (``"message"``) answers with a
    Message instead of a Task, through the SDK's own TaskUpdater and event queue."""

    state: str = "completed"

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        if self.state == "message":
            parts = [new_text_part(SDK_ANSWER), new_data_part({"citations": [SDK_CITATION]})]
            reply = pb.Message(
                role=pb.Role.ROLE_AGENT,
                message_id=str(uuid.uuid4()),
                context_id=context.context_id or str(uuid.uuid4()),
                parts=parts,
            )
            await event_queue.enqueue_event(reply)
            return
        updater = await self.start_task(context, event_queue)
        note = updater.new_agent_message([new_text_part(f"SDK says {self.state}.")])
        transitions = {
            "failed": updater.failed,
            "rejected": updater.reject,
            "input-required": updater.requires_input,
            "canceled": updater.cancel,
            "auth-required": updater.requires_auth,
            "working": updater.start_work,
            "submitted": updater.submit,
        }
        await transitions[self.state](note)


@contextlib.asynccontextmanager
async def sdk_client(state: str) -> AsyncIterator[tuple[A2AClient, FakeClock]]:
    clock = FakeClock()
    async with running_sdk_server(StateExecutor(state=state)) as server, new_http_client() as http:
        yield A2AClient(http, server.url, retry=RetryPolicy(max_attempts=1), clock=clock), clock


@pytest.mark.parametrize("state", [*sorted(ENDED), "auth-required"])
async def test_the_sdk_servers_states_raise_theirs(state: str) -> None:
    async with sdk_client(state) as (client, _):
        with pytest.raises(errors.A2AError) as caught:
            await SkillCalls(client).ask(TOKEN, QUESTION)
    error = caught.value
    expected = ENDED.get(state, errors.AuthRequired)
    assert type(error) is expected
    assert isinstance(error, errors.TaskNotCompleted | errors.AuthRequired)
    assert (error.reason, bool(error.task_id), bool(error.context_id)) == (
        f"SDK says {state}.",
        True,
        True,
    )


@pytest.mark.parametrize("state", ["working", "submitted"])
async def test_the_sdk_servers_unfinished_task_is_polled_then_not_finished(state: str) -> None:
    async with sdk_client(state) as (client, clock):
        with pytest.raises(errors.TaskNotFinished) as caught:
            await SkillCalls(client).ask(TOKEN, QUESTION)
    assert (caught.value.state, caught.value.reason) == (state, f"SDK says {state}.")
    assert clock.sleeps == PollPolicy().delays()


async def test_the_sdk_servers_message_result_is_an_answer() -> None:
    async with sdk_client("message") as (client, _):
        answer = await SkillCalls(client).ask(TOKEN, QUESTION)
    assert answer.text == SDK_ANSWER
    assert [c.title for c in answer.citations] == ["Catechism of the Catholic Church"]
    assert answer.citations[0].number == 1 and answer.context_id

"""The rest of A2A v0.3 the fake learned, on demand: every task state, Message results, file
parts, broken envelopes and RFC 6750 challenges. Shapes are checked against a2a-sdk's v0.3
models (and, for every exchange, by tests/support/conformance.py)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest
from a2a.compat.v0_3 import types as v03

from devtools.fake_magisterium import Fault
from tests.support.fake_server import Api, open_api, send, task_call

STATES = [state.value for state in v03.TaskState]
PENDING = ["submitted", "working", "unknown"]


@pytest.fixture
async def api() -> AsyncIterator[Api]:
    async with open_api() as api:
        api.fake.rate_limits_enabled = False
        yield api


def _status_text(task: dict[str, Any]) -> str | None:
    message = task["status"].get("message")
    return None if message is None else "".join(p["text"] for p in message["parts"])


@pytest.mark.parametrize("state", sorted(set(STATES) - {"completed"}))
async def test_a_task_ends_in_any_state_with_a_status_message(api: Api, state: str) -> None:
    api.fake.faults.add(Fault.TASK_STATE, state=state, message=f"Magisterium says {state}.")
    task = await api.result(send())
    parsed = v03.Task.model_validate(task)
    assert parsed.status.state.value == state
    assert _status_text(task) == f"Magisterium says {state}."
    assert parsed.status.message is not None and parsed.status.message.role.value == "agent"
    assert not task.get("artifacts")
    assert (await api.result(task_call("tasks/get", task["id"])))["id"] == task["id"]


async def test_each_state_has_a_typical_message_or_none(api: Api) -> None:
    api.fake.faults.add(Fault.TASK_STATE, state="rejected")
    rejected = await api.result(send("Best pizza in Rome?"))
    assert _status_text(rejected) == "I can only answer questions about Catholic teaching."
    api.fake.faults.add(Fault.TASK_STATE, state="input-required")
    assert "Pope Pius" in str(_status_text(await api.result(send("Tell me about Pope Pius"))))
    api.fake.faults.add(Fault.TASK_STATE, state="canceled", message="")
    assert _status_text(await api.result(send())) is None


@pytest.mark.parametrize("state", PENDING)
async def test_a_pending_task_completes_on_the_nth_poll(api: Api, state: str) -> None:
    api.fake.faults.add(Fault.TASK_STATE, state=state, polls=2)
    sent = await api.result(send("What is the Eucharist?"))
    assert sent["status"]["state"] == state
    first = await api.result(task_call("tasks/get", sent["id"]))
    assert first["status"]["state"] == state and not first.get("artifacts")
    second = await api.result(task_call("tasks/get", sent["id"]))
    assert second["status"]["state"] == "completed" and second["id"] == sent["id"]
    assert second["artifacts"][0]["parts"][0]["text"]
    assert (await api.result(task_call("tasks/get", sent["id"])))["status"]["state"] == "completed"


async def test_a_pending_task_without_polls_never_finishes_and_can_be_canceled(api: Api) -> None:
    api.fake.faults.add(Fault.TASK_STATE, state="working")
    sent = await api.result(send())
    for _ in range(10):
        assert (await api.result(task_call("tasks/get", sent["id"])))["status"][
            "state"
        ] == "working"
    canceled = await api.result(task_call("tasks/cancel", sent["id"]))
    assert canceled["status"]["state"] == "canceled"
    assert (await api.result(task_call("tasks/get", sent["id"])))["status"]["state"] == "canceled"
    again = (await api.post(task_call("tasks/cancel", sent["id"]))).json()["error"]
    assert (again["code"], again["message"]) == (-32602, "Invalid state transition")


async def test_a_message_result_carries_the_answer_a_task_would(api: Api) -> None:
    task = await api.result(send("What is the Eucharist?"))
    api.fake.faults.add(Fault.MESSAGE_RESULT)
    message = await api.result(send("What is the Eucharist?"))
    parsed = v03.Message.model_validate(message)
    assert (message["kind"], parsed.role.value) == ("message", "agent")
    assert message["parts"] == task["artifacts"][0]["parts"]
    assert message["contextId"] and "taskId" not in message
    # No task was made for it.
    missing = (await api.post(task_call("tasks/get", message["messageId"]))).json()["error"]
    assert missing["code"] == -32001


async def test_file_parts_follow_the_artifacts_own_parts(api: Api) -> None:
    plain = await api.artifact(text="Lumen Gentium", skill="document_search")
    api.fake.faults.add(Fault.FILE_PARTS)
    with_files = await api.artifact(text="Lumen Gentium", skill="document_search")
    own, files = with_files["parts"][:1], with_files["parts"][1:]
    assert own == plain["parts"]
    by_uri, by_bytes = (v03.FilePart.model_validate(part).file for part in files)
    assert isinstance(by_uri, v03.FileWithUri) and by_uri.uri.startswith("https://")
    assert isinstance(by_bytes, v03.FileWithBytes)
    assert base64.b64decode(by_bytes.bytes).startswith(b"Lumen Gentium")


async def test_envelope_faults_break_the_id_or_the_version(api: Api) -> None:
    api.fake.faults.add(Fault.WRONG_ID)
    body = (await api.post(send())).json()
    assert body["id"] != send()["id"] and body["result"]["kind"] == "task"
    api.fake.faults.add(Fault.WRONG_JSONRPC)
    assert (await api.post(send())).json()["jsonrpc"] == "1.0"
    api.fake.faults.add(Fault.WRONG_JSONRPC, version="3.0")
    assert (await api.post(send())).json()["jsonrpc"] == "3.0"
    assert (await api.post(send())).json()["jsonrpc"] == "2.0"


@pytest.mark.parametrize(
    ("token", "fault", "error_code"),
    [(None, None, None), ("invalid-abc", None, "invalid_token"), ("pro-x", True, "invalid_token")],
)
async def test_every_401_has_an_rfc6750_challenge(
    api: Api, token: str | None, fault: bool | None, error_code: str | None
) -> None:
    if fault:
        api.fake.faults.add(Fault.UNAUTHORIZED)
    response = await api.post(send(), token)
    assert response.status_code == 401
    challenge = response.headers["WWW-Authenticate"]
    assert challenge.startswith("Bearer realm=")
    assert ("error=" in challenge) is (error_code is not None)
    if error_code:
        assert f'error="{error_code}"' in challenge


async def test_no_challenge_outside_401(api: Api) -> None:
    assert "WWW-Authenticate" not in (await api.post(send(), "free-abc")).headers
    api.fake.faults.add(Fault.STOCK_A2A_CODE, code=-32004)  # the number, not the status
    assert "WWW-Authenticate" not in (await api.post(send())).headers


@pytest.mark.parametrize(
    ("kind", "params"),
    [
        (Fault.TASK_STATE, {"state": "paused"}),
        (Fault.TASK_STATE, {"polls": -1}),
        (Fault.TASK_STATE, {"polls": "2"}),
        (Fault.STOCK_A2A_CODE, {"code": -32603}),
        (Fault.WRONG_ID, {"to": 3}),
    ],
)
async def test_fault_parameters_are_checked(api: Api, kind: Fault, params: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        api.fake.faults.add(kind, **params)
    spec = {"kind": str(kind), **params}
    assert (
        await api.http.post(api.server.base_url + "/_fake/faults", json=spec)
    ).status_code == 400


async def test_the_control_endpoint_queues_the_new_faults(api: Api) -> None:
    spec = {"kind": "task_state", "state": "input-required", "message": "Which one?"}
    added = await api.http.post(api.server.base_url + "/_fake/faults", json=spec)
    assert added.status_code == 201
    assert added.json()["added"] == {
        "kind": "task_state",
        "times": 1,
        "skill": None,
        "method": None,
        "state": "input-required",
        "message": "Which one?",
        "polls": 0,
    }
    task = await api.result(send())
    assert (task["status"]["state"], _status_text(task)) == ("input-required", "Which one?")

"""The wire check against a2a-sdk's v0.3 models: it passes what they accept and names what
they, or the spec behind them, refuse (``tests/support/a2a_wire.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.a2a_wire import request_violations, response_violations
from tests.support.fakes import a2a_request, wire_bytes

JSON = dict[str, Any]


def _task() -> JSON:
    return {
        "kind": "task",
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "completed", "timestamp": "2026-03-19T10:00:00Z"},
        "artifacts": [
            {
                "artifactId": "a-1",
                "name": "catholic_qa_response",
                "parts": [{"kind": "text", "text": "Grace is…"}, {"kind": "data", "data": {}}],
            }
        ],
    }


def _success(result: JSON | None = None) -> JSON:
    return {"jsonrpc": "2.0", "id": 3, "result": result if result is not None else _task()}


def _response_problems(response: JSON, request: JSON | None = None) -> list[str]:
    sent = request if request is not None else a2a_request()
    return response_violations(wire_bytes(sent), "application/json", wire_bytes(response))


# --- requests --------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["message/send", "tasks/get", "tasks/cancel"])
def test_a_spec_true_request_passes(method: str) -> None:
    assert request_violations(wire_bytes(a2a_request(method))) == []


def _broken_request(path: str, value: Any) -> JSON:
    body = a2a_request()
    *parents, last = path.split(".")
    node: Any = body
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is None:
        del node[last]
    else:
        node[last] = value
    return body


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("jsonrpc", None, "request.jsonrpc: missing"),
        ("jsonrpc", "1.0", "request.jsonrpc: Input should be '2.0'"),
        ("id", None, "request.id: Field required"),
        ("method", "tasks/list", "request: method 'tasks/list'"),
        ("params.message.kind", None, "request.params.message.kind: missing"),
        ("params.message.parts.0.kind", None, "request.params.message.parts[0].kind: missing"),
        ("params.message.messageId", None, "request.params.message.messageId: Field required"),
        ("params.message.message_id", "m-1", "request.params.message.messageId: Field required"),
        ("params.message.role", "bot", "request.params.message.role: Input should be"),
        ("params.message.metadata", ["skillId"], "request.params.message.metadata"),
    ],
)
def test_a_request_off_the_reference_is_named(path: str, value: Any, expected: str) -> None:
    body = _broken_request(path, value)
    if path.endswith("message_id"):
        del body["params"]["message"]["messageId"]  # snake_case instead of the wire's name
    found = request_violations(wire_bytes(body))
    assert any(violation.startswith(expected) for violation in found), found


def test_a_request_that_is_not_json_is_named() -> None:
    assert request_violations(b"{not json") == ["request: not JSON"]
    assert request_violations(b"[1, 2]") == ["request: a JSON list, not an object"]


# --- responses -------------------------------------------------------------------------------


def test_spec_true_responses_pass() -> None:
    message = {"kind": "message", "role": "agent", "messageId": "m-2", "parts": []}
    error = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32003, "message": "Rate limit"}}
    parse_error = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse"}}
    assert _response_problems(_success()) == []
    assert _response_problems(_success(message)) == []  # message/send may answer a Message
    assert _response_problems(error) == []
    assert _response_problems(parse_error) == []
    assert _response_problems(_success(), a2a_request("tasks/get")) == []


def _broken_response(change: str) -> JSON:
    response = _success()
    task = response["result"]
    if change == "no context id":
        del task["contextId"]
    elif change == "snake case":
        task["context_id"] = task.pop("contextId")
    elif change == "no part kind":
        del task["artifacts"][0]["parts"][0]["kind"]
    elif change == "no task kind":
        del task["kind"]
    elif change == "unknown state":
        task["status"]["state"] = "done"
    elif change == "integer text":
        task["artifacts"][0]["parts"][0]["text"] = 7
    elif change == "no jsonrpc":
        del response["jsonrpc"]
    elif change == "no id":
        del response["id"]
    elif change == "another id":
        response["id"] = 4
    elif change == "result and error":
        response["error"] = {"code": -32603, "message": "Internal error"}
    return response


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("no context id", "response.result.Task.contextId: Field required"),
        ("snake case", "response.result.Task.contextId: Field required"),
        ("no part kind", "response.result.artifacts[0].parts[0].kind: missing"),
        ("no task kind", "response.result.kind: missing"),
        ("unknown state", "response.result.Task.status.state: Input should be"),
        ("integer text", "response.result.Task.artifacts.0.parts.0.TextPart.text"),
        ("no jsonrpc", "response.jsonrpc: missing"),
        ("no id", "response.id: missing"),
        ("another id", "response.id: 4 does not answer request id 3"),
        ("result and error", "response: must hold exactly one of result and error"),
    ],
)
def test_a_response_off_the_reference_is_named(change: str, expected: str) -> None:
    found = _response_problems(_broken_response(change))
    assert any(violation.startswith(expected) for violation in found), found


def test_an_error_without_a_message_or_for_another_request_is_named() -> None:
    no_message = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602}}
    null_id = {"jsonrpc": "2.0", "id": None, "error": {"code": -32603, "message": "Internal"}}
    assert "response.error.message: missing or not a string" in _response_problems(no_message)
    assert _response_problems(null_id) == ["response.id: None does not answer request id 3"]


def test_a_task_where_a_cancel_or_get_expects_one_and_a_message_is_refused() -> None:
    message = {"kind": "message", "role": "agent", "messageId": "m-2", "parts": []}
    found = _response_problems(_success(message), a2a_request("tasks/cancel"))
    assert found[0] == "response: not a valid CancelTaskSuccessResponse"


def test_a_body_that_is_not_json_rpc_json_is_named() -> None:
    sent = wire_bytes(a2a_request())
    assert response_violations(sent, "text/html", b"<html>") == [
        "response: Content-Type 'text/html', not application/json"
    ]
    assert response_violations(sent, "application/json", b'{"jsonrpc": "2.0", "id"') == [
        "response: not JSON"
    ]

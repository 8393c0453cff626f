"""Every upstream error shape maps to one exception class; the token never leaks."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from bot.a2a import A2AClient, Message, RetryPolicy, TextPart, errors

TOKEN = "secret-token-abc123"
NO_RETRY = RetryPolicy(max_attempts=1)

Handler = Callable[[httpx.Request], httpx.Response]


def _client(handler: Handler, retry: RetryPolicy = NO_RETRY) -> A2AClient:
    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return A2AClient(http, "http://upstream.test/api/v1/a2a", retry=retry)


def _rpc_error(code: int, message: str = "boom", data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": 1, "error": error}


def _responder(status: int, body: Any = None, **kwargs: Any) -> Handler:
    def handle(request: httpx.Request) -> httpx.Response:
        if isinstance(body, bytes):
            return httpx.Response(status, content=body, **kwargs)
        return httpx.Response(status, json=body, **kwargs)

    return handle


async def _send(client: A2AClient) -> None:
    await client.send_message(TOKEN, Message.from_user([TextPart(text="q")]))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (-32700, errors.ParseError),
        (-32600, errors.InvalidRequest),
        (-32601, errors.MethodNotFound),
        (-32602, errors.InvalidParams),
        (-32603, errors.InternalError),
        (-32001, errors.TaskNotFound),
        (-32002, errors.SkillNotFound),
        (-32003, errors.RateLimited),
        (-32004, errors.Unauthorized),
        (-32005, errors.PlanRequired),
        (-32099, errors.UnknownRPCError),
    ],
)
async def test_every_json_rpc_code_maps_to_its_class(
    code: int, expected: type[errors.A2AError]
) -> None:
    client = _client(_responder(200, _rpc_error(code, "upstream says no")))
    with pytest.raises(expected) as caught:
        await _send(client)
    assert type(caught.value) is expected
    assert caught.value.code == code
    assert caught.value.message == "upstream says no"


def test_magisterium_codes_are_not_the_a2a_spec_meanings() -> None:
    # a2a-sdk reads -32002 as "task not cancelable"; Magisterium means "skill not found".
    assert errors.RPC_ERRORS_BY_CODE[-32002] is errors.SkillNotFound
    assert errors.RPC_ERRORS_BY_CODE[-32004] is errors.Unauthorized
    assert errors.RPC_ERRORS_BY_CODE[-32005] is errors.PlanRequired


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (401, _rpc_error(-32004, "Unauthorized"), errors.Unauthorized),
        (401, b"<html>401</html>", errors.Unauthorized),
        (403, _rpc_error(-32005, "Paid plan required"), errors.PlanRequired),
        (403, b"", errors.PlanRequired),
        (429, _rpc_error(-32003, "Rate limit exceeded", {"retryAfter": 12}), errors.RateLimited),
        (400, b"bad request", errors.HTTPStatusError),
        (404, b"not found", errors.HTTPStatusError),
        (500, b"oops", errors.UpstreamServerError),
        (500, _rpc_error(-32603, "Internal error"), errors.InternalError),
        (
            502,
            b"<html><body><h1>502 Bad Gateway</h1>nginx</body></html>",
            errors.UpstreamServerError,
        ),
        (503, b"", errors.UpstreamServerError),
    ],
)
async def test_http_statuses_map_whatever_the_body(
    status: int, body: Any, expected: type[errors.A2AError]
) -> None:
    client = _client(_responder(status, body))
    with pytest.raises(expected) as caught:
        await _send(client)
    assert type(caught.value) is expected
    assert caught.value.http_status == status


async def test_rate_limit_carries_retry_after_from_body() -> None:
    client = _client(_responder(429, _rpc_error(-32003, "slow down", {"retryAfter": 12})))
    with pytest.raises(errors.RateLimited) as caught:
        await _send(client)
    assert caught.value.retry_after == 12.0


@pytest.mark.parametrize(
    ("header", "expected"),
    [("7", 7.0), ("Wed, 21 Oct 2099 07:28:00 GMT", None), ("not a date", None)],
)
async def test_rate_limit_retry_after_header(header: str, expected: float | None) -> None:
    client = _client(_responder(429, b"", headers={"Retry-After": header}))
    with pytest.raises(errors.RateLimited) as caught:
        await _send(client)
    if header.startswith("Wed"):
        assert caught.value.retry_after is not None and caught.value.retry_after > 1e6
    else:
        assert caught.value.retry_after == expected


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b"\x00\x01garbage", "not valid JSON"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": {"kind": "ta', "not valid JSON"),
        (b"[1, 2, 3]", "not a JSON-RPC result"),
        (b'{"jsonrpc": "2.0", "id": 1}', "not a JSON-RPC result"),
        (b'{"jsonrpc": "2.0", "id": 1, "result": "hello"}', "not a task"),
        (
            b'{"jsonrpc":"2.0","id":1,"result":{"kind":"message","role":"agent","parts":[]}}',
            "not a task",
        ),
        (b'{"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": 5}}', "malformed task"),
        (b'{"jsonrpc": "2.0", "id": 1, "error": {"code": "x"}}', "integer code"),
    ],
)
async def test_malformed_bodies(body: bytes, fragment: str) -> None:
    client = _client(_responder(200, body))
    with pytest.raises(errors.MalformedResponse, match=fragment):
        await _send(client)


async def test_failed_task_keeps_its_status_message() -> None:
    task = {
        "kind": "task",
        "id": "t-9",
        "status": {
            "state": "failed",
            "message": {
                "role": "agent",
                "kind": "message",
                "messageId": "m",
                "parts": [{"kind": "text", "text": "retrieval backend unavailable"}],
            },
        },
    }
    client = _client(_responder(200, {"jsonrpc": "2.0", "id": 1, "result": task}))
    with pytest.raises(errors.TaskFailed) as caught:
        await _send(client)
    assert caught.value.reason == "retrieval backend unavailable"
    assert caught.value.task_id == "t-9"


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (httpx.ConnectError("refused"), errors.UpstreamConnectError),
        (httpx.ConnectTimeout("slow"), errors.UpstreamConnectError),
        (httpx.ReadTimeout("slow"), errors.UpstreamReadTimeout),
        (httpx.PoolTimeout("full"), errors.UpstreamPoolTimeout),
        (httpx.RemoteProtocolError("closed"), errors.TransportError),
    ],
)
async def test_transport_failures(exc: Exception, expected: type[errors.A2AError]) -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        raise exc

    with pytest.raises(expected):
        await _send(_client(handle))


async def test_token_is_sent_but_never_logged_or_shown(caplog: pytest.LogCaptureFixture) -> None:
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["Authorization"])
        if len(seen) == 1:
            raise httpx.ConnectError(f"refused {request.url}")
        return httpx.Response(401, json=_rpc_error(-32004, "Unauthorized"))

    client = _client(handle, RetryPolicy(max_attempts=2, base_delay=0.0))
    caplog.set_level(logging.DEBUG)
    with pytest.raises(errors.Unauthorized) as caught:
        await _send(client)
    assert seen == [f"Bearer {TOKEN}"] * 2
    shown = [caplog.text, str(caught.value), repr(caught.value), repr(client)]
    assert all(TOKEN not in text for text in shown)


async def test_request_is_a_json_rpc_message_send() -> None:
    bodies: list[dict[str, Any]] = []

    def handle(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        assert request.headers["Content-Type"] == "application/json"
        return httpx.Response(
            200,
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"id": "t", "status": {"state": "completed"}},
            },
        )

    await _send(_client(handle))
    (body,) = bodies
    assert body["jsonrpc"] == "2.0" and body["method"] == "message/send"
    message = body["params"]["message"]
    assert message["role"] == "user" and message["kind"] == "message"
    assert message["parts"] == [{"kind": "text", "text": "q"}]

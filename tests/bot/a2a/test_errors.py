"""Every upstream error shape maps to one exception class, read with its HTTP status and its
JSON-RPC envelope; the token never leaks."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from a2a.compat.v0_3 import types as v03
from pydantic import BaseModel

from bot.a2a import A2AClient, CallPolicy, Message, RetryPolicy, TextPart, errors

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


async def _send(client: A2AClient, policy: CallPolicy | None = None) -> None:
    policy = policy or client.policy(TOKEN)
    await client.send_message(Message.from_user([TextPart(text="q")]), policy)


@pytest.mark.parametrize(
    ("code", "status", "expected"),
    [
        (-32700, 200, errors.ParseError),
        (-32600, 200, errors.InvalidRequest),
        (-32601, 200, errors.MethodNotFound),
        (-32602, 200, errors.InvalidParams),
        (-32603, 200, errors.InternalError),
        (-32001, 200, errors.TaskNotFound),
        (-32002, 200, errors.SkillNotFound),
        (-32003, 429, errors.RateLimited),
        (-32004, 401, errors.Unauthorized),
        (-32005, 403, errors.PlanRequired),
        (-32099, 200, errors.UnknownRPCError),
    ],
)
async def test_every_json_rpc_code_maps_to_its_class(
    code: int, status: int, expected: type[errors.A2AError]
) -> None:
    client = _client(_responder(status, _rpc_error(code, "upstream says no")))
    with pytest.raises(expected) as caught:
        await _send(client)
    assert type(caught.value) is expected
    assert caught.value.code == code
    assert caught.value.message == "upstream says no"


def _stock(error: BaseModel) -> dict[str, Any]:
    """A JSON-RPC error response as a2a-sdk's v0.3 models write it."""
    response = v03.JSONRPCErrorResponse(id=1, error=error)  # type: ignore[arg-type]
    return response.model_dump(mode="json", by_alias=True, exclude_none=True)


@pytest.mark.parametrize(
    ("status", "body"),
    [
        # Stock A2A's meanings of Magisterium's numbers, at HTTP 200 as the spec sends them.
        (200, _stock(v03.UnsupportedOperationError())),  # -32004
        (200, _stock(v03.PushNotificationNotSupportedError())),  # -32003
        (200, _stock(v03.ContentTypeNotSupportedError())),  # -32005
        # A tied code at another tied status, or an untied code at a tied status.
        (403, _rpc_error(-32004)),
        (401, _rpc_error(-32005)),
        (500, _rpc_error(-32003)),
        (401, _rpc_error(-32602)),
        (429, _rpc_error(-32603)),
    ],
)
async def test_a_code_means_unauthorized_plan_or_rate_limit_only_at_its_status(
    status: int, body: dict[str, Any]
) -> None:
    client = _client(_responder(status, body))
    with pytest.raises(errors.UnknownRPCError) as caught:
        await _send(client)
    assert type(caught.value) is errors.UnknownRPCError
    assert (caught.value.code, caught.value.http_status) == (body["error"]["code"], status)
    assert not caught.value.retryable


def test_magisterium_codes_are_not_the_a2a_spec_meanings() -> None:
    # a2a-sdk reads -32002 as "task not cancelable"; Magisterium means "skill not found".
    assert errors.RPC_ERRORS_BY_CODE[-32002] is errors.SkillNotFound
    assert errors.RPC_ERRORS_BY_CODE[-32004] is errors.Unauthorized
    assert errors.RPC_ERRORS_BY_CODE[-32005] is errors.PlanRequired
    assert v03.UnsupportedOperationError().code == -32004  # what the spec uses it for
    assert v03.TaskNotCancelableError().code == -32002


PROXY_403 = b"<html><head><title>403 Forbidden</title></head><body>Access denied</body></html>"
INVALID_TOKEN = {"WWW-Authenticate": 'Bearer realm="m", error="invalid_token"'}


@pytest.mark.parametrize(
    ("status", "body", "headers", "expected"),
    [
        (401, _rpc_error(-32004, "Unauthorized"), {}, errors.Unauthorized),
        (401, b"<html>401</html>", {}, errors.GatewayRefused),
        (
            401,
            b"<html>401</html>",
            {"WWW-Authenticate": 'Basic realm="proxy"'},
            errors.GatewayRefused,
        ),
        (401, b"", INVALID_TOKEN, errors.Unauthorized),
        (403, _rpc_error(-32005, "Paid plan required"), {}, errors.PlanRequired),
        (403, PROXY_403, {}, errors.GatewayRefused),
        (403, b"", {}, errors.GatewayRefused),
        (403, {"detail": "Forbidden"}, {}, errors.GatewayRefused),  # JSON, but not JSON-RPC
        (
            429,
            _rpc_error(-32003, "Rate limit exceeded", {"retryAfter": 12}),
            {},
            errors.RateLimited,
        ),
        (429, b"<html>Too Many Requests</html>", {}, errors.GatewayThrottled),
        (400, b"bad request", {}, errors.HTTPStatusError),
        (404, b"not found", {}, errors.HTTPStatusError),
        (500, b"oops", {}, errors.UpstreamServerError),
        (500, _rpc_error(-32603, "Internal error"), {}, errors.InternalError),
        (
            502,
            b"<html><body><h1>502 Bad Gateway</h1>nginx</body></html>",
            {},
            errors.UpstreamServerError,
        ),
        (503, b"", {}, errors.UpstreamServerError),
    ],
)
async def test_http_statuses_are_read_with_their_body(
    status: int, body: Any, headers: dict[str, str], expected: type[errors.A2AError]
) -> None:
    client = _client(_responder(status, body, headers=headers))
    with pytest.raises(expected) as caught:
        await _send(client)
    assert type(caught.value) is expected
    assert caught.value.http_status == status


def test_a_proxy_page_is_unavailable_not_a_plan_or_token_problem() -> None:
    for cls in (errors.GatewayRefused, errors.GatewayThrottled):
        assert issubclass(cls, errors.HTTPStatusError)
        assert not issubclass(cls, errors.Unauthorized | errors.PlanRequired | errors.RateLimited)
    assert errors.GatewayThrottled.retryable and not errors.GatewayRefused.retryable


async def test_rate_limit_carries_retry_after_from_body() -> None:
    client = _client(_responder(429, _rpc_error(-32003, "slow down", {"retryAfter": 12})))
    with pytest.raises(errors.RateLimited) as caught:
        await _send(client)
    assert caught.value.retry_after == 12.0


@pytest.mark.parametrize(
    ("header", "expected"),
    [("7", 7.0), ("Wed, 21 Oct 2099 07:28:00 GMT", None), ("not a date", None), ("inf", None)],
)
async def test_rate_limit_retry_after_header(header: str, expected: float | None) -> None:
    body = _rpc_error(-32003, "Rate limit exceeded")
    client = _client(_responder(429, body, headers={"Retry-After": header}))
    with pytest.raises(errors.RateLimited) as caught:
        await _send(client)
    if header.startswith("Wed"):
        assert caught.value.retry_after is not None and caught.value.retry_after > 1e6
    else:
        assert caught.value.retry_after == expected


@pytest.mark.parametrize("data", [{"retry_after": 4}, {"retryAfter": "4"}])
async def test_rate_limit_retry_after_in_other_spellings(data: dict[str, Any]) -> None:
    client = _client(_responder(429, _rpc_error(-32003, "slow down", data)))
    with pytest.raises(errors.RateLimited) as caught:
        await _send(client)
    assert caught.value.retry_after == 4.0


async def test_a_rate_limit_without_any_wait_says_so() -> None:
    client = _client(_responder(429, _rpc_error(-32003, "Rate limit exceeded")))
    with pytest.raises(errors.RateLimited) as caught:
        await _send(client)
    assert caught.value.retry_after is None


async def test_a_proxy_429_carries_its_retry_after_header() -> None:
    client = _client(_responder(429, b"<html>slow</html>", headers={"Retry-After": "3"}))
    with pytest.raises(errors.GatewayThrottled) as caught:
        await _send(client)
    assert caught.value.retry_after == 3.0


TASK_OK = {"kind": "task", "id": "t", "status": {"state": "completed"}}


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"jsonrpc": "2.0", "id": 2, "result": TASK_OK}, "does not answer this request"),
        ({"jsonrpc": "2.0", "id": "1", "result": TASK_OK}, "does not answer this request"),
        ({"jsonrpc": "2.0", "id": True, "result": TASK_OK}, "does not answer this request"),
        ({"jsonrpc": "2.0", "id": None, "result": TASK_OK}, "does not answer this request"),
        ({"jsonrpc": "2.0", "result": TASK_OK}, "no id"),
        ({"jsonrpc": "1.0", "id": 1, "result": TASK_OK}, 'not JSON-RPC "2.0"'),
        ({"id": 1, "result": TASK_OK}, 'not JSON-RPC "2.0"'),
        ({**_rpc_error(-32603), "id": 7}, "does not answer this request"),
        ({**_rpc_error(-32004), "jsonrpc": "1.0"}, 'not JSON-RPC "2.0"'),
    ],
)
async def test_an_envelope_that_does_not_answer_this_request_is_malformed(
    body: dict[str, Any], fragment: str
) -> None:
    status = 401 if body.get("error", {}).get("code") == -32004 else 200
    client = _client(_responder(status, body))
    with pytest.raises(errors.MalformedResponse, match=fragment):
        await _send(client)


@pytest.mark.parametrize("code", [-32700, -32600, -32603])
async def test_an_error_with_a_null_id_is_taken(code: int) -> None:
    # JSON-RPC 2.0: null when the server could not read the request's id.
    client = _client(_responder(200, {**_rpc_error(code), "id": None}))
    with pytest.raises(errors.RPC_ERRORS_BY_CODE[code]):
        await _send(client)


async def test_each_request_has_its_own_id_and_the_reply_must_echo_it() -> None:
    seen: list[Any] = []

    def echo(request: httpx.Request) -> httpx.Response:
        sent = json.loads(request.content)["id"]
        seen.append(sent)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": sent, "result": TASK_OK})

    client = _client(echo)
    await _send(client)
    await _send(client)
    assert len(set(seen)) == 2


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
            "malformed message",
        ),
        (b'{"jsonrpc":"2.0","id":1,"result":{"kind":"artifact","parts":[]}}', "not a task"),
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
        "contextId": "c-9",
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
    assert (caught.value.task_id, caught.value.context_id) == ("t-9", "c-9")


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
    policy = client.policy(TOKEN)
    with pytest.raises(errors.Unauthorized) as caught:
        await _send(client, policy)
    assert seen == [f"Bearer {TOKEN}"] * 2
    shown = [caplog.text, str(caught.value), repr(caught.value), repr(client), repr(policy)]
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


# --- what an error carries to whoever shows or logs it ----------------------------------------


def test_an_error_keeps_the_upstreams_data() -> None:
    error = errors.InvalidParams("bad date", http_status=200, data={"field": "date"})
    assert error.data == {"field": "date"}
    assert (error.message, str(error), error.code, error.http_status) == (
        "bad date",
        "bad date",
        -32602,
        200,
    )
    assert errors.A2AError("x").data is None


def test_an_explicit_code_overrides_the_class_code_only_for_that_error() -> None:
    unknown = errors.UnknownRPCError("what", code=-32099)
    assert unknown.code == -32099
    assert errors.UnknownRPCError("what").code is None


def test_repr_names_the_error_class() -> None:
    error = errors.RateLimited("slow down", http_status=429, data={"secret": "x"})
    assert repr(error) == "RateLimited(message='slow down', code=-32003, http_status=429)"


def test_a_proxy_throttle_keeps_its_message_and_status() -> None:
    error = errors.GatewayThrottled("429 from the CDN", retry_after=2.0, http_status=429)
    assert (error.message, str(error), error.http_status, error.retry_after) == (
        "429 from the CDN",
        "429 from the CDN",
        429,
        2.0,
    )
    assert errors.GatewayThrottled("429").retry_after is None


def test_an_unfinished_task_says_its_state_and_magisteriums_reason() -> None:
    failed = errors.TaskFailed("retrieval backend unavailable", task_id="t", context_id="c")
    assert str(failed) == "task failed: retrieval backend unavailable"
    assert (failed.state, failed.reason, failed.task_id, failed.context_id) == (
        "failed",
        "retrieval backend unavailable",
        "t",
        "c",
    )
    assert str(errors.TaskRejected("")) == "task rejected"
    assert errors.TaskCanceled("").reason == ""


def test_a_task_in_an_unexpected_state_is_named_by_that_state() -> None:
    unknown = errors.TaskNotFinished("", state="unknown")
    assert str(unknown) == "task unknown"
    assert unknown.state == "unknown"
    assert errors.TaskNotFinished("").state == "working"  # the class's own state is untouched
    assert str(errors.TaskNotFinished("still thinking")) == "task working: still thinking"


def test_auth_required_keeps_the_task_and_why() -> None:
    error = errors.AuthRequired(
        "sign in again", task_id="t-1", context_id="c-1", reason="session expired", http_status=200
    )
    assert (error.message, str(error), error.http_status) == ("sign in again",) * 2 + (200,)
    assert (error.task_id, error.context_id, error.reason) == ("t-1", "c-1", "session expired")
    assert isinstance(error, errors.Unauthorized) and error.code == -32004
    bare = errors.AuthRequired("sign in")
    assert (bare.task_id, bare.context_id, bare.reason) == (None, None, "")

"""HTTP replies, transport-neutral: the normal JSON-RPC ones and those faults produce."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from devtools.fake_magisterium import rpc
from devtools.fake_magisterium.accounts import INVALID_TOKEN_CHALLENGE
from devtools.fake_magisterium.faults import STOCK_A2A_MESSAGES, Fault, FaultRule
from devtools.fake_magisterium.rpc import JsonDict, RpcError, RpcId

JSON = "application/json"
DROPPED = 0  # the http_status recorded when the connection is closed without a reply

NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
GARBAGE = b"\xff\xfe\x00<<not json>>\x89PNG\r\n\x1a\n{{{"
# What a CDN or web application firewall in front of an API shows instead of its answer.
PROXY_403 = (
    "<!DOCTYPE html>\n<html><head><title>403 Forbidden</title></head>\n<body>\n"
    "<h1>Access denied</h1>\n<p>You do not have permission to access this resource.</p>\n"
    "<hr><address>edge proxy</address>\n</body></html>\n"
)

_ERROR_FAULTS: dict[Fault, int] = {
    Fault.INTERNAL_ERROR: rpc.INTERNAL_ERROR,
    Fault.INVALID_PARAMS: rpc.INVALID_PARAMS,
    Fault.TASK_NOT_FOUND: rpc.TASK_NOT_FOUND,
    Fault.SKILL_NOT_FOUND: rpc.SKILL_NOT_FOUND,
    Fault.PARSE_ERROR: rpc.PARSE_ERROR,
    Fault.INVALID_REQUEST: rpc.INVALID_REQUEST,
    Fault.METHOD_NOT_FOUND: rpc.METHOD_NOT_FOUND,
    Fault.UNKNOWN_CODE: rpc.UNKNOWN_SERVER_ERROR,
    Fault.UNAUTHORIZED: rpc.UNAUTHORIZED,
    Fault.PLAN_REQUIRED: rpc.PLAN_REQUIRED,
}


@dataclass
class Reply:
    status: int
    body: bytes = b""
    content_type: str = JSON
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False  # close the connection instead of answering
    delay: float = 0.0  # seconds to wait before answering
    error_code: int | None = None  # the JSON-RPC error code in the body, if any


def result_reply(rpc_id: RpcId, result: JsonDict) -> Reply:
    return Reply(200, rpc.dump(rpc.result_body(rpc_id, result)))


def error_reply(rpc_id: RpcId, error: RpcError, status: int | None = None) -> Reply:
    body = rpc.dump(rpc.error_body(rpc_id, error))
    status = status or error.http_status
    headers = dict(error.headers)
    if status == 401:
        # RFC 6750 section 3: every 401 challenges the client to present a (valid) bearer token.
        headers.setdefault("WWW-Authenticate", INVALID_TOKEN_CHALLENGE)
    return Reply(status, body, headers=headers, error_code=error.code)


def _rate_limited(rpc_id: RpcId, rule: FaultRule) -> Reply:
    retry_after = int(rule.params["retry_after"])
    headers = {"Retry-After": str(retry_after)} if rule.params["header"] else {}
    error = RpcError(rpc.RATE_LIMITED, data={"retryAfter": retry_after}, headers=headers)
    return error_reply(rpc_id, error)


def fault_reply(rule: FaultRule, rpc_id: RpcId) -> Reply:
    """The reply of a fault that pre-empts the request."""
    kind = rule.kind
    if kind in _ERROR_FAULTS:
        code = _ERROR_FAULTS[kind]
        return error_reply(None if code == rpc.PARSE_ERROR else rpc_id, RpcError(code))
    if kind is Fault.RATE_LIMITED:
        return _rate_limited(rpc_id, rule)
    if kind is Fault.RATE_LIMITED_NO_WAIT:
        return error_reply(rpc_id, RpcError(rpc.RATE_LIMITED))
    if kind is Fault.STOCK_A2A_CODE:
        code = int(rule.params["code"])
        return error_reply(rpc_id, RpcError(code, STOCK_A2A_MESSAGES[code]), status=200)
    if kind is Fault.HTML_403:
        return Reply(403, PROXY_403.encode(), "text/html")
    if kind is Fault.HTML_502:
        return Reply(502, NGINX_502.encode(), "text/html")
    if kind is Fault.HTTP_500:
        return error_reply(rpc_id, RpcError(rpc.INTERNAL_ERROR), status=500)
    if kind is Fault.HTTP_404:
        return Reply(404, b"404 page not found\n", "text/plain")
    if kind is Fault.GARBAGE_BODY:
        return Reply(200, GARBAGE)
    if kind is Fault.DROP_CONNECTION:
        return Reply(DROPPED, drop=True)
    raise ValueError(f"{kind} does not pre-empt a request")


def not_a_task(result: JsonDict) -> JsonDict:
    """A bare agent message where a Task belongs."""
    return {
        "kind": "message",
        "role": "agent",
        "messageId": str(uuid.uuid4()),
        "contextId": result.get("contextId", str(uuid.uuid4())),
        "parts": [{"kind": "text", "text": "Here is a message instead of a task."}],
    }


def envelope_reply(rule: FaultRule | None, rpc_id: RpcId, result: JsonDict) -> Reply:
    """A result's reply, with the envelope a WRONG_ID or WRONG_JSONRPC fault asks for."""
    body = rpc.result_body(rpc_id, result)
    if rule is not None and rule.kind is Fault.WRONG_ID:
        body["id"] = rpc_id + 1000 if isinstance(rpc_id, int) else f"not-{rpc_id}"
    elif rule is not None and rule.kind is Fault.WRONG_JSONRPC:
        body["jsonrpc"] = str(rule.params["version"])
    return Reply(200, rpc.dump(body))


def truncated(reply: Reply) -> Reply:
    """The same reply with its body cut in half (Content-Length matching the cut body)."""
    return Reply(
        reply.status, reply.body[: len(reply.body) // 2], reply.content_type, dict(reply.headers)
    )

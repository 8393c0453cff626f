"""JSON-RPC 2.0 vocabulary of the Magisterium A2A endpoint: codes, errors, envelopes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

JsonDict = dict[str, Any]
RpcId = str | int | None

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
TASK_NOT_FOUND = -32001
SKILL_NOT_FOUND = -32002
RATE_LIMITED = -32003
UNAUTHORIZED = -32004
PLAN_REQUIRED = -32005
UNKNOWN_SERVER_ERROR = -32099

MESSAGES: dict[int, str] = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    TASK_NOT_FOUND: "Task not found",
    SKILL_NOT_FOUND: "SkillHandler not found",
    RATE_LIMITED: "Rate limit exceeded",
    UNAUTHORIZED: "Unauthorized",
    PLAN_REQUIRED: "Paid plan required",
    UNKNOWN_SERVER_ERROR: "Server error",
}

HTTP_STATUS: dict[int, int] = {UNAUTHORIZED: 401, PLAN_REQUIRED: 403, RATE_LIMITED: 429}

METHODS = ("message/send", "tasks/get", "tasks/cancel")


@dataclass
class RpcError(Exception):
    """A JSON-RPC error answer; raised anywhere in request handling."""

    code: int
    message: str = ""
    data: JsonDict | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.message:
            self.message = MESSAGES.get(self.code, "Server error")

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 200)

    def to_json(self) -> JsonDict:
        error: JsonDict = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def invalid_params(detail: str) -> RpcError:
    return RpcError(INVALID_PARAMS, data={"detail": detail})


@dataclass(frozen=True)
class Envelope:
    """A validated JSON-RPC request."""

    id: str | int
    method: str
    params: JsonDict


def valid_id(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def request_id(payload: Any) -> RpcId:
    """The id to echo in an answer: the request's when usable, else null."""
    if isinstance(payload, dict) and valid_id(payload.get("id")):
        rpc_id: str | int = payload["id"]
        return rpc_id
    return None


def envelope(payload: Any) -> Envelope:
    """Check the JSON-RPC 2.0 frame. Batches and notifications are not supported upstream."""
    if not isinstance(payload, dict):
        raise RpcError(INVALID_REQUEST, data={"detail": "request must be a JSON object"})
    if payload.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, data={"detail": 'jsonrpc must be "2.0"'})
    method = payload.get("method")
    if not isinstance(method, str) or not method:
        raise RpcError(INVALID_REQUEST, data={"detail": "method is required"})
    if not valid_id(payload.get("id")):
        raise RpcError(INVALID_REQUEST, data={"detail": "id must be a string or an integer"})
    if method not in METHODS:
        raise RpcError(METHOD_NOT_FOUND, data={"detail": f"unknown method {method!r}"})
    params = payload.get("params", {})
    if not isinstance(params, dict):
        raise invalid_params("params must be an object")
    return Envelope(id=payload["id"], method=method, params=params)


def result_body(rpc_id: RpcId, result: JsonDict) -> JsonDict:
    return {"jsonrpc": "2.0", "id": rpc_id, "result": result}


def error_body(rpc_id: RpcId, error: RpcError) -> JsonDict:
    return {"jsonrpc": "2.0", "id": rpc_id, "error": error.to_json()}


def dump(body: JsonDict) -> bytes:
    return json.dumps(body, ensure_ascii=False).encode()

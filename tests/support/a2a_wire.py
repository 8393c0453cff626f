"""A2A JSON-RPC wire bytes checked against a reference nobody on this project wrote:
a2a-sdk's A2A v0.3 pydantic models (``a2a.compat.v0_3.types``, generated from the spec's
``a2a.json``).

The models are validated strictly (JSON types as JSON has them, camelCase names only), and
two things they let through are checked on top, because the spec and JSON-RPC 2.0 require
them while the generated models merely default them: every discriminator constant (``kind``,
``jsonrpc``, ``method``) must be on the wire, and a response must carry ``id`` (the request's),
exactly one of ``result`` / ``error``, and an error's ``code`` and ``message``.

Each function returns the violations found, as readable strings; an empty list is a pass.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Literal, get_origin

from a2a.compat.v0_3 import types as v03
from pydantic import BaseModel, RootModel, ValidationError

REQUEST_MODELS: dict[str, type[BaseModel]] = {
    "message/send": v03.SendMessageRequest,
    "tasks/get": v03.GetTaskRequest,
    "tasks/cancel": v03.CancelTaskRequest,
}
SUCCESS_MODELS: dict[str, type[BaseModel]] = {
    "message/send": v03.SendMessageSuccessResponse,  # result: Task | Message
    "tasks/get": v03.GetTaskSuccessResponse,
    "tasks/cancel": v03.CancelTaskSuccessResponse,
}
# JSON-RPC 2.0: the id is null only when it could not be read from the request.
NULL_ID_CODES = frozenset({-32700, -32600})
MAX_ERRORS_SHOWN = 6


def request_violations(body: bytes) -> list[str]:
    """What is wrong with one request body the client sent, by the v0.3 request models."""
    payload, problem = _json_object(body)
    if problem:
        return [f"request: {problem}"]
    method = payload.get("method")
    model = REQUEST_MODELS.get(method) if isinstance(method, str) else None
    if model is None:
        return [f"request: method {method!r} is none of {sorted(REQUEST_MODELS)}"]
    return _model_violations("request", model, body, payload)


def response_violations(request_body: bytes, content_type: str, body: bytes) -> list[str]:
    """What is wrong with one response body, given the request it answers."""
    media_type = content_type.split(";", maxsplit=1)[0].strip().lower()
    if media_type != "application/json":
        return [f"response: Content-Type {content_type!r}, not application/json"]
    payload, problem = _json_object(body)
    if problem:
        return [f"response: {problem}"]
    request, _ = _json_object(request_body)
    envelope = _envelope_violations(request, payload)
    if "error" in payload:
        return envelope + _model_violations("response", v03.JSONRPCErrorResponse, body, payload)
    method = request.get("method")
    model = SUCCESS_MODELS.get(method) if isinstance(method, str) else None
    if model is None:
        return [*envelope, f"response: a result to method {method!r}, which has none"]
    return envelope + _model_violations("response", model, body, payload)


def _json_object(body: bytes) -> tuple[dict[str, Any], str]:
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        return {}, "not JSON"
    if not isinstance(payload, dict):
        return {}, f"a JSON {type(payload).__name__}, not an object"
    return payload, ""


def _valid_id(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def _envelope_violations(request: dict[str, Any], response: dict[str, Any]) -> list[str]:
    found: list[str] = []
    if ("result" in response) == ("error" in response):
        found.append("response: must hold exactly one of result and error")
    error = response.get("error")
    if isinstance(error, dict):
        if not isinstance(error.get("code"), int) or isinstance(error.get("code"), bool):
            found.append("response.error.code: missing or not an integer")
        if not isinstance(error.get("message"), str):
            found.append("response.error.message: missing or not a string")
    if "id" not in response:
        found.append("response.id: missing (JSON-RPC 2.0 requires it, null if unknown)")
        return found
    sent, got = request.get("id"), response["id"]
    code = error.get("code") if isinstance(error, dict) else None
    if _valid_id(sent) and got != sent and not (got is None and code in NULL_ID_CODES):
        found.append(f"response.id: {got!r} does not answer request id {sent!r}")
    elif not _valid_id(sent) and got is not None:
        found.append(f"response.id: {got!r}, but the request had no usable id")
    return found


def _model_violations(
    where: str, model: type[BaseModel], body: bytes, payload: dict[str, Any]
) -> list[str]:
    try:
        parsed = model.model_validate_json(body, strict=True, by_alias=True, by_name=False)
    except ValidationError as invalid:
        shown = [
            f"{where}.{'.'.join(str(step) for step in error['loc'])}: {error['msg']}"
            for error in invalid.errors()[:MAX_ERRORS_SHOWN]
        ]
        return [f"{where}: not a valid {model.__name__}", *shown]
    return list(_missing_constants(parsed, payload, where))


def _missing_constants(value: Any, raw: Any, path: str) -> Iterator[str]:
    """Discriminators (``Literal`` fields) the model filled in from its defaults."""
    if isinstance(value, RootModel):
        yield from _missing_constants(value.root, raw, path)
    elif isinstance(value, BaseModel):
        if not isinstance(raw, dict):
            return
        for name, info in type(value).model_fields.items():
            key = info.alias or name
            if key in raw:
                yield from _missing_constants(getattr(value, name), raw[key], f"{path}.{key}")
            elif get_origin(info.annotation) is Literal:
                yield f"{path}.{key}: missing (the spec requires it; the model only defaults it)"
    elif isinstance(value, list) and isinstance(raw, list):
        for index, (item, raw_item) in enumerate(zip(value, raw, strict=False)):
            yield from _missing_constants(item, raw_item, f"{path}[{index}]")

"""Reading one HTTP response of the A2A endpoint: its JSON-RPC envelope, and errors read
together with their HTTP status.

- The envelope must be JSON-RPC 2.0 (``"jsonrpc": "2.0"``) and answer this request (``id``
  equal to the request's, same JSON type). A null ``id`` is accepted on an error response,
  whatever its code: JSON-RPC makes it null when the server could not read the request's id
  (parse error, invalid request), and a layer that refuses a request before reading its body
  (authentication, rate limits) may answer likewise. HTTP pairs each response with its
  request, so a null id is no sign of someone else's reply; another request's id, or a result
  without ours, is.
- -32003/-32004/-32005 mean rate limit / unauthorized / plan required only at HTTP 429/401/403
  (``errors.HTTP_STATUS_OF_CODE``); otherwise they, and any code at one of those statuses other
  than its own, are unknown upstream errors that never touch the token's state.
- A 4xx/5xx whose body is no JSON-RPC error is Magisterium being unavailable, never "paid plan
  required": a 401/403 page comes from whatever sits in front (except a 401 whose RFC 6750
  challenge says ``error="invalid_token"``), a 429 page throttles the address, not the token.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from bot.a2a import errors
from bot.a2a.retry import parse_retry_after, retry_after_from_data

# RFC 6750 section 3: `WWW-Authenticate: Bearer realm="…", error="invalid_token", …`.
_INVALID_TOKEN = re.compile(r'\berror\s*=\s*"?invalid_token"?', re.IGNORECASE)


def read_result(method: str, response: httpx.Response, request_id: int | str) -> Any:
    """The ``result`` of one JSON-RPC response, or the matching :mod:`errors` exception."""
    status = response.status_code
    payload = _json_or_none(response.content)
    rpc_error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(rpc_error, dict):
        _check_envelope(method, payload, request_id, is_error=True)
        raise _rpc_error(rpc_error, status, response.headers)
    if status >= 400:
        raise _http_error(method, status, response.headers)
    if payload is None:
        raise errors.MalformedResponse(f"{method}: response body is not valid JSON")
    if not isinstance(payload, dict) or "result" not in payload:
        raise errors.MalformedResponse(f"{method}: response is not a JSON-RPC result")
    _check_envelope(method, payload, request_id, is_error=False)
    return payload["result"]


def _json_or_none(content: bytes) -> Any:
    try:
        return json.loads(content)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
        return None


def _check_envelope(
    method: str, payload: dict[str, Any], request_id: int | str, *, is_error: bool
) -> None:
    if payload.get("jsonrpc") != "2.0":
        raise errors.MalformedResponse(f'{method}: response is not JSON-RPC "2.0"')
    if "id" not in payload:
        raise errors.MalformedResponse(f"{method}: response has no id")
    got = payload["id"]
    if got is None and is_error:
        return
    # Same JSON type too: True == 1 and 1.0 == 1 in Python, not in JSON-RPC.
    if type(got) is not type(request_id) or got != request_id:
        raise errors.MalformedResponse(f"{method}: response id does not answer this request")


def _rpc_error(rpc_error: dict[str, Any], status: int, headers: httpx.Headers) -> Exception:
    code = rpc_error.get("code")
    message = str(rpc_error.get("message") or "JSON-RPC error")
    data = rpc_error.get("data")
    if not isinstance(code, int) or isinstance(code, bool):
        return errors.MalformedResponse(
            "JSON-RPC error without an integer code", http_status=status
        )
    cls = errors.RPC_ERRORS_BY_CODE.get(code, errors.UnknownRPCError)
    if not _status_agrees(code, status):
        cls = errors.UnknownRPCError
    if cls is errors.RateLimited:
        retry_after = retry_after_from_data(data)
        if retry_after is None:
            retry_after = parse_retry_after(headers.get("Retry-After"))
        return errors.RateLimited(
            message, retry_after=retry_after, code=code, http_status=status, data=data
        )
    return cls(message, code=code, http_status=status, data=data)


def _status_agrees(code: int, status: int) -> bool:
    """A code tied to a status, or a tied status, is meant only when both are present."""
    tied_status = errors.HTTP_STATUS_OF_CODE.get(code)
    if tied_status is not None:
        return status == tied_status
    return status not in errors.HTTP_STATUS_OF_CODE.values()


def _challenges_the_token(challenge: str) -> bool:
    bearer = challenge.lower().lstrip().startswith("bearer")
    return bearer and _INVALID_TOKEN.search(challenge) is not None


def _http_error(method: str, status: int, headers: httpx.Headers) -> errors.A2AError:
    """A 4xx/5xx whose body is no JSON-RPC error."""
    said = f"{method}: upstream answered HTTP {status} without a JSON-RPC error"
    if status == 401 and _challenges_the_token(headers.get("WWW-Authenticate", "")):
        return errors.Unauthorized(f"{said} (invalid_token challenge)", http_status=status)
    if status in (401, 403):
        return errors.GatewayRefused(said, http_status=status)
    if status == 429:
        retry_after = parse_retry_after(headers.get("Retry-After"))
        return errors.GatewayThrottled(said, retry_after=retry_after, http_status=status)
    if status >= 500:
        return errors.UpstreamServerError(said, http_status=status)
    return errors.HTTPStatusError(said, http_status=status)

"""The A2A JSON-RPC client: one request path, one error map, retries within a deadline."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
from typing import Any

import httpx
from pydantic import SecretStr, ValidationError

from bot.a2a import errors
from bot.a2a.models import Message, Task
from bot.a2a.retry import SYSTEM_CLOCK, Clock, RetryPolicy, parse_retry_after, retry_after_from_data

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://www.magisterium.com/api/v1/a2a"
# An LLM answer can take a minute; httpx's default 5 s read timeout would cut it off.
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=90.0, write=10.0, pool=5.0)
# Overall budget for one call including retries; well below Discord's 15-minute followup window.
DEFAULT_DEADLINE = 120.0

Token = SecretStr | str


def _secret(token: Token) -> str:
    return token.get_secret_value() if isinstance(token, SecretStr) else token


class A2AClient:
    """Calls Magisterium's A2A endpoint over one shared ``httpx.AsyncClient``.

    The caller owns ``http`` (one per process, closed on shutdown). Every method takes the
    bearer token of the person on whose behalf it calls; the token is never logged.
    """

    def __init__(
        self,
        http: httpx.AsyncClient,
        url: str = DEFAULT_API_URL,
        *,
        retry: RetryPolicy | None = None,
        clock: Clock = SYSTEM_CLOCK,
        rng: random.Random | None = None,
        deadline: float = DEFAULT_DEADLINE,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._http = http
        self._url = url
        self._retry = retry or RetryPolicy()
        self._clock = clock
        self._rng = rng or random.Random()
        self._deadline = deadline
        self._timeout = timeout
        self._ids = itertools.count(1)

    def __repr__(self) -> str:
        return f"A2AClient(url={self._url!r})"

    async def send_message(
        self, token: Token, message: Message, *, budget: float | None = None
    ) -> Task:
        """``message/send``: the finished task. Retries reuse the message's ``messageId``."""
        params = {"message": message.model_dump(mode="json", exclude_none=True)}
        return await self._call(token, "message/send", params, budget=budget)

    async def get_task(self, token: Token, task_id: str, *, budget: float | None = None) -> Task:
        """``tasks/get``: an earlier task (kept 24 h); does not count against rate limits."""
        return await self._call(token, "tasks/get", {"id": task_id}, budget=budget)

    async def cancel_task(self, token: Token, task_id: str, *, budget: float | None = None) -> Task:
        """``tasks/cancel``; in practice answers :class:`InvalidParams` (tasks are terminal)."""
        return await self._call(token, "tasks/cancel", {"id": task_id}, budget=budget)

    async def _call(
        self, token: Token, method: str, params: dict[str, Any], *, budget: float | None
    ) -> Task:
        budget = self._deadline if budget is None else min(budget, self._deadline)
        deadline = self._clock.monotonic() + budget
        body = json.dumps(
            {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params},
            separators=(",", ":"),
        ).encode()
        headers = {
            "Authorization": f"Bearer {_secret(token)}",
            "Content-Type": "application/json",
        }
        attempt = 0
        while True:
            remaining = deadline - self._clock.monotonic()
            if remaining <= 0:
                raise errors.DeadlineExceeded(f"{method}: no time left after {attempt} attempts")
            try:
                return await self._attempt(method, body, headers, remaining)
            except errors.A2AError as error:
                delay = self._retry.delay_before_retry(attempt, error, self._rng)
                if delay is None or self._clock.monotonic() + delay >= deadline:
                    raise
                attempt += 1
                log.warning(
                    "A2A %s failed (%s); retry %d/%d in %.2fs",
                    method,
                    type(error).__name__,
                    attempt,
                    self._retry.max_attempts - 1,
                    delay,
                )
                await self._clock.sleep(delay)

    async def _attempt(
        self, method: str, body: bytes, headers: dict[str, str], remaining: float
    ) -> Task:
        limits = self._timeout
        timeout = httpx.Timeout(
            connect=min(limits.connect or remaining, remaining),
            read=min(limits.read or remaining, remaining),
            write=min(limits.write or remaining, remaining),
            pool=min(limits.pool or remaining, remaining),
        )
        try:
            async with asyncio.timeout(remaining):
                response = await self._http.post(
                    self._url, content=body, headers=headers, timeout=timeout
                )
        except TimeoutError:
            raise errors.DeadlineExceeded(f"{method}: deadline passed during the request") from None
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise errors.UpstreamConnectError(f"{method}: cannot connect ({_cause(exc)})") from None
        except httpx.PoolTimeout:
            raise errors.UpstreamPoolTimeout(f"{method}: no free connection in the pool") from None
        except httpx.TimeoutException as exc:
            raise errors.UpstreamReadTimeout(
                f"{method}: upstream timed out ({_cause(exc)})"
            ) from None
        except httpx.TransportError as exc:
            raise errors.TransportError(f"{method}: {_cause(exc)}") from None
        log.debug("A2A %s -> HTTP %d", method, response.status_code)
        return parse_response(method, response)


def _cause(exc: Exception) -> str:
    """The underlying error's class name: the aiohttp transport maps several onto one httpx class.

    Only class names, never ``str(exc)``: that is not ours to vouch for.
    """
    cause = exc.__cause__
    return type(cause).__name__ if cause is not None else type(exc).__name__


def parse_response(method: str, response: httpx.Response) -> Task:
    """Turn one HTTP response into a Task or the matching :mod:`errors` exception."""
    status = response.status_code
    payload = _json_or_none(response.content)
    rpc_error = payload.get("error") if isinstance(payload, dict) else None
    if status in errors.ERRORS_BY_HTTP_STATUS:
        raise _http_mapped_error(status, rpc_error, response.headers.get("Retry-After"))
    if isinstance(rpc_error, dict):
        raise _rpc_error(rpc_error, status, response.headers.get("Retry-After"))
    if status >= 500:
        raise errors.UpstreamServerError(
            f"{method}: upstream answered HTTP {status}", http_status=status
        )
    if status >= 400:
        raise errors.HTTPStatusError(
            f"{method}: upstream answered HTTP {status}", http_status=status
        )
    if payload is None:
        raise errors.MalformedResponse(f"{method}: response body is not valid JSON")
    if not isinstance(payload, dict) or "result" not in payload:
        raise errors.MalformedResponse(f"{method}: response is not a JSON-RPC result")
    return _task_from_result(method, payload["result"])


def _json_or_none(content: bytes) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return None


def _task_from_result(method: str, result: Any) -> Task:
    if not isinstance(result, dict) or result.get("kind", "task") != "task":
        raise errors.MalformedResponse(f"{method}: result is not a task")
    try:
        task = Task.model_validate(result)
    except ValidationError as exc:
        raise errors.MalformedResponse(
            f"{method}: malformed task ({exc.error_count()} validation errors)"
        ) from None
    if task.status.state == "failed":
        reason = task.status.message.text() if task.status.message else ""
        raise errors.TaskFailed(reason, task_id=task.id)
    return task


def _rpc_error(rpc_error: dict[str, Any], status: int, retry_after_header: str | None) -> Exception:
    code = rpc_error.get("code")
    message = str(rpc_error.get("message") or "JSON-RPC error")
    data = rpc_error.get("data")
    if not isinstance(code, int):
        return errors.MalformedResponse(
            "JSON-RPC error without an integer code", http_status=status
        )
    cls = errors.RPC_ERRORS_BY_CODE.get(code, errors.UnknownRPCError)
    if cls is errors.RateLimited:
        return _rate_limited(message, data, retry_after_header, status)
    return cls(message, code=code, http_status=status, data=data)


def _http_mapped_error(status: int, rpc_error: Any, retry_after_header: str | None) -> Exception:
    """401/403/429 mean the same whatever the body; a JSON-RPC body only adds detail."""
    cls = errors.ERRORS_BY_HTTP_STATUS[status]
    detail = rpc_error if isinstance(rpc_error, dict) else {}
    message = str(detail.get("message") or f"HTTP {status}")
    data = detail.get("data")
    if cls is errors.RateLimited:
        return _rate_limited(message, data, retry_after_header, status)
    return cls(message, http_status=status, data=data)


def _rate_limited(
    message: str, data: Any, retry_after_header: str | None, status: int
) -> errors.RateLimited:
    """``error.data.retryAfter`` wins; a ``Retry-After`` header (seconds or date) otherwise."""
    retry_after = retry_after_from_data(data)
    if retry_after is None:
        retry_after = parse_retry_after(retry_after_header)
    return errors.RateLimited(message, retry_after=retry_after, http_status=status, data=data)

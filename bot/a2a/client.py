"""The A2A JSON-RPC client: one request path, one error map, retries within a deadline."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
from dataclasses import dataclass
from typing import Any

import aiohttp
import httpx
from pydantic import SecretStr

from bot.a2a import errors
from bot.a2a.attempts import SINGLE_ATTEMPT, UNGATED, AttemptGate, current_gate
from bot.a2a.models import Message, Task
from bot.a2a.responses import read_result
from bot.a2a.retry import SYSTEM_CLOCK, Clock, PollPolicy, RetryPolicy
from bot.a2a.task_states import completed, is_pending, task_from_result

log = logging.getLogger(__name__)

DEFAULT_API_URL = "https://www.magisterium.com/api/v1/a2a"
# An LLM answer can take a minute; httpx's default 5 s read timeout would cut it off.
DEFAULT_TIMEOUT = httpx.Timeout(connect=5.0, read=90.0, write=10.0, pool=5.0)
# Overall budget for one call including retries; well below Discord's 15-minute followup window.
DEFAULT_DEADLINE = 120.0

Token = SecretStr | str


def _secret(token: Token) -> str:
    return token.get_secret_value() if isinstance(token, SecretStr) else token


@dataclass(frozen=True)
class _Call:
    """One call on someone's behalf: its headers (with the token) and its deadline."""

    headers: dict[str, str]
    deadline: float


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
        poll: PollPolicy | None = None,
        clock: Clock = SYSTEM_CLOCK,
        rng: random.Random | None = None,
        deadline: float = DEFAULT_DEADLINE,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._http = http
        self._url = url
        self._retry = retry or RetryPolicy()
        self._poll = poll or PollPolicy()
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
        """``message/send``: the completed task (a Message result taken as one).

        Retries reuse the message's ``messageId``; the attempts run by the caller's gate
        (:func:`bot.a2a.attempts.gated`). A task still working is polled with ``tasks/get``
        within the deadline; any other state raises its exception (``bot.a2a.task_states``).
        """
        call = self._start(token, budget)
        params = {"message": message.model_dump(mode="json", exclude_none=True)}
        result = await self._request(call, "message/send", params, current_gate())
        task = task_from_result("message/send", result, message_allowed=True)
        if is_pending(task):
            task = await self._wait_for(call, task)
        return completed(task)

    async def get_task(self, token: Token, task_id: str, *, budget: float | None = None) -> Task:
        """``tasks/get``: an earlier task (kept 24 h), in whatever state it is; does not count
        against rate limits."""
        call = self._start(token, budget)
        result = await self._request(call, "tasks/get", {"id": task_id}, UNGATED)
        return task_from_result("tasks/get", result)

    async def cancel_task(self, token: Token, task_id: str, *, budget: float | None = None) -> Task:
        """``tasks/cancel``; in practice answers :class:`InvalidParams` (tasks are terminal)."""
        call = self._start(token, budget)
        result = await self._request(call, "tasks/cancel", {"id": task_id}, UNGATED)
        return task_from_result("tasks/cancel", result)

    def _start(self, token: Token, budget: float | None) -> _Call:
        budget = self._deadline if budget is None else min(budget, self._deadline)
        headers = {
            "Authorization": f"Bearer {_secret(token)}",
            "Content-Type": "application/json",
        }
        return _Call(headers, self._clock.monotonic() + budget)

    async def _request(
        self, call: _Call, method: str, params: dict[str, Any], gate: AttemptGate
    ) -> Any:
        """One JSON-RPC request, attempted as the gate and the retry policy allow."""
        request_id = next(self._ids)
        body = json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params},
            separators=(",", ":"),
        ).encode()
        attempt = 0
        while True:
            try:
                async with gate.admit(self._time_left(call, method, attempt)):
                    remaining = self._time_left(call, method, attempt)
                    response = await self._post(method, body, call.headers, remaining)
                log.debug("A2A %s -> HTTP %d", method, response.status_code)
                return read_result(method, response, request_id)
            except errors.A2AError as error:
                policy_delay = self._retry.delay_before_retry(attempt, error, self._rng)
                delay = await gate.after_failure(error, attempt, policy_delay)
                if delay is None or self._clock.monotonic() + delay >= call.deadline:
                    raise
                attempt += 1
                log.warning(
                    "A2A %s failed (%s); retry %d in %.2fs",
                    method,
                    type(error).__name__,
                    attempt,
                    delay,
                )
                await self._clock.sleep(delay)

    def _time_left(self, call: _Call, method: str, attempts: int) -> float:
        remaining = call.deadline - self._clock.monotonic()
        if remaining <= 0:
            raise errors.DeadlineExceeded(f"{method}: no time left after {attempts} attempts")
        return remaining

    async def _wait_for(self, call: _Call, task: Task) -> Task:
        """Poll a task still working until it is not, a few times within the deadline."""
        for delay in self._poll.delays():
            if self._clock.monotonic() + delay >= call.deadline:
                break
            await self._clock.sleep(delay)
            try:
                result = await self._request(call, "tasks/get", {"id": task.id}, SINGLE_ATTEMPT)
            except errors.A2AError as error:
                if not error.retryable:
                    raise
                log.info("A2A tasks/get poll failed (%s)", type(error).__name__)
                continue
            task = task_from_result("tasks/get", result)
            if not is_pending(task):
                return task
        return task

    async def _post(
        self, method: str, body: bytes, headers: dict[str, str], remaining: float
    ) -> httpx.Response:
        limits = self._timeout
        timeout = httpx.Timeout(
            connect=min(limits.connect or remaining, remaining),
            read=min(limits.read or remaining, remaining),
            write=min(limits.write or remaining, remaining),
            pool=min(limits.pool or remaining, remaining),
        )
        try:
            async with asyncio.timeout(remaining):
                return await self._http.post(
                    self._url, content=body, headers=headers, timeout=timeout
                )
        except TimeoutError:
            raise errors.DeadlineExceeded(f"{method}: deadline passed during the request") from None
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            if _lost_mid_request(exc):
                raise errors.TransportError(f"{method}: connection lost ({_cause(exc)})") from None
            raise errors.UpstreamConnectError(f"{method}: cannot connect ({_cause(exc)})") from None
        except httpx.PoolTimeout:
            raise errors.UpstreamPoolTimeout(f"{method}: no free connection in the pool") from None
        except httpx.TimeoutException as exc:
            raise errors.UpstreamReadTimeout(
                f"{method}: upstream timed out ({_cause(exc)})"
            ) from None
        except httpx.TransportError as exc:
            raise errors.TransportError(f"{method}: {_cause(exc)}") from None
        except httpx.DecodingError as exc:  # e.g. marked gzip by a proxy, and not gzip
            raise errors.MalformedResponse(
                f"{method}: response body could not be decoded ({_cause(exc)})"
            ) from None


def _lost_mid_request(exc: httpx.TransportError) -> bool:
    """httpx-aiohttp maps every aiohttp connection error onto httpx.ConnectTimeout, a server
    that hung up after the request was sent included; only its cause tells a connection that
    was never made (ClientConnectorError) from one lost mid-request."""
    cause = exc.__cause__
    return isinstance(cause, aiohttp.ClientError) and not isinstance(
        cause, aiohttp.ClientConnectorError
    )


def _cause(exc: Exception) -> str:
    """The underlying error's class name: the aiohttp transport maps several onto one httpx class.

    Only class names, never ``str(exc)``: that is not ours to vouch for.
    """
    cause = exc.__cause__
    return type(cause).__name__ if cause is not None else type(exc).__name__

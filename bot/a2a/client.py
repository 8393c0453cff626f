"""The A2A JSON-RPC client: one request path, one error map, retries within a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import aiohttp
import httpx

from bot.a2a import errors
from bot.a2a.call_policy import UNLIMITED, Admission, CallPolicy, Refresh, Token
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


class A2AClient:
    """Calls Magisterium's A2A endpoint over one shared ``httpx.AsyncClient``.

    The caller owns ``http`` (one per process, closed on shutdown). Every call takes a
    :class:`CallPolicy`: the token of the person on whose behalf it calls (never logged), the
    call's deadline, its retries, polling and admission. :meth:`policy` makes the client's own,
    for a caller without a rate limiter.
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
        self.retry = retry or RetryPolicy()
        self.poll = poll or PollPolicy()
        self.clock = clock
        self._rng = rng or random.Random()
        self.deadline = deadline
        self._timeout = timeout
        self._ids = itertools.count(1)

    def __repr__(self) -> str:
        return f"A2AClient(url={self._url!r})"

    def policy(
        self,
        token: Token,
        *,
        budget: float | None = None,
        retry: RetryPolicy | None = None,
        admission: Admission = UNLIMITED,
        refresh: Refresh | None = None,
    ) -> CallPolicy:
        """A policy for one call: the client's retries and polling, a deadline ``budget``
        seconds from now (never past the client's own), and ``admission`` for each attempt."""
        budget = self.deadline if budget is None else min(budget, self.deadline)
        return CallPolicy(
            token,
            self.clock.monotonic() + budget,
            retry=retry or self.retry,
            poll=self.poll,
            admission=admission,
            refresh=refresh,
            clock=self.clock,
            rng=self._rng,
        )

    async def send_message(self, message: Message, policy: CallPolicy) -> Task:
        """``message/send``: the completed task (a Message result taken as one).

        Retries reuse the message's ``messageId``. A task still working is polled with
        ``tasks/get`` within the policy's deadline; any other state raises its exception
        (``bot.a2a.task_states``).
        """
        params = {"message": message.model_dump(mode="json", exclude_none=True)}
        result = await self._rpc(policy, "message/send", params)
        task = task_from_result("message/send", result, message_allowed=True)
        if is_pending(task):
            task = await self._wait_for(policy, task)
        return completed(task)

    async def get_task(self, task_id: str, policy: CallPolicy) -> Task:
        """``tasks/get``: an earlier task (kept 24 h), in whatever state it is; does not count
        against rate limits."""
        result = await self._rpc(policy, "tasks/get", {"id": task_id})
        return task_from_result("tasks/get", result)

    async def cancel_task(self, task_id: str, policy: CallPolicy) -> Task:
        """``tasks/cancel``; in practice answers :class:`InvalidParams` (tasks are terminal)."""
        result = await self._rpc(policy, "tasks/cancel", {"id": task_id})
        return task_from_result("tasks/cancel", result)

    async def _rpc(
        self, policy: CallPolicy, method: str, params: dict[str, Any], *, poll: bool = False
    ) -> Any:
        """One JSON-RPC request, attempted as the policy allows; a ``poll`` is one attempt,
        outside admission (the poll loop is its retry)."""
        request_id = next(self._ids)
        body = json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params},
            separators=(",", ":"),
        ).encode()
        admission = UNLIMITED if poll else policy.admission
        while True:
            try:
                async with admission.admit(policy.time_left(method)):
                    if not poll:
                        policy.sent += 1
                    remaining = policy.time_left(method)
                    with _transport_errors(method):
                        async with asyncio.timeout(remaining):
                            response = await self._http.post(
                                self._url,
                                content=body,
                                headers=_headers(policy),
                                timeout=self._timeouts(remaining),
                            )
                log.debug("A2A %s -> HTTP %d", method, response.status_code)
                return read_result(method, response, request_id)
            except errors.A2AError as error:
                delay = None if poll else await policy.after_failure(error)
                if delay is None:
                    raise
                log.warning(
                    "A2A %s failed (%s); retry %d in %.2fs",
                    method,
                    type(error).__name__,
                    policy.sent,
                    delay,
                )
                await policy.clock.sleep(delay)

    def _timeouts(self, remaining: float) -> httpx.Timeout:
        limits = self._timeout
        return httpx.Timeout(
            connect=min(limits.connect or remaining, remaining),
            read=min(limits.read or remaining, remaining),
            write=min(limits.write or remaining, remaining),
            pool=min(limits.pool or remaining, remaining),
        )

    async def _wait_for(self, policy: CallPolicy, task: Task) -> Task:
        """Poll a task still working until it is not, a few times within the deadline."""
        for delay in policy.poll.delays():
            if policy.clock.monotonic() + delay >= policy.deadline:
                break
            await policy.clock.sleep(delay)
            try:
                result = await self._rpc(policy, "tasks/get", {"id": task.id}, poll=True)
            except errors.A2AError as error:
                if not error.retryable:
                    raise
                log.info("A2A tasks/get poll failed (%s)", type(error).__name__)
                continue
            task = task_from_result("tasks/get", result)
            if not is_pending(task):
                return task
        return task


def _headers(policy: CallPolicy) -> dict[str, str]:
    return {"Authorization": f"Bearer {policy.secret}", "Content-Type": "application/json"}


@contextlib.contextmanager
def _transport_errors(method: str) -> Iterator[None]:
    """httpx's failures as the client's errors (a context manager, so that the request itself
    is not one more frame deep)."""
    try:
        yield
    except TimeoutError:
        raise errors.DeadlineExceeded(f"{method}: deadline passed during the request") from None
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        if _lost_mid_request(exc):
            raise errors.TransportError(f"{method}: connection lost ({_cause(exc)})") from None
        raise errors.UpstreamConnectError(f"{method}: cannot connect ({_cause(exc)})") from None
    except httpx.PoolTimeout:
        raise errors.UpstreamPoolTimeout(f"{method}: no free connection in the pool") from None
    except httpx.TimeoutException as exc:
        raise errors.UpstreamReadTimeout(f"{method}: upstream timed out ({_cause(exc)})") from None
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

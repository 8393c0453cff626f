"""Helpers for the fake server's tests: a fake on a loopback port and a thin JSON-RPC caller."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from typing import Any

import httpx

from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer, running_fake_server
from tests.support.fakes import FakeClock

TOKEN = "pro-token"
TODAY = date(2026, 3, 19)  # a Thursday: the Solemnity of Saint Joseph


def send(
    text: str | None = "What is the Eucharist?",
    skill: str | None = None,
    data: dict[str, Any] | None = None,
    context_id: str | None = None,
) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [] if text is None else [{"kind": "text", "text": text}]
    if data is not None:
        parts.append({"kind": "data", "data": data})
    message: dict[str, Any] = {"role": "user", "messageId": "m-1", "kind": "message"}
    message["parts"] = parts
    if skill:
        message["metadata"] = {"skillId": skill}
    if context_id:
        message["contextId"] = context_id
    return {"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": {"message": message}}


def task_call(method: str, task_id: str | None) -> dict[str, Any]:
    params = {} if task_id is None else {"id": task_id}
    return {"jsonrpc": "2.0", "id": 8, "method": method, "params": params}


class Api:
    """A fake on loopback, its clock, and an HTTP client posting JSON-RPC to it."""

    def __init__(
        self, http: httpx.AsyncClient, server: RunningFakeServer, clock: FakeClock
    ) -> None:
        self.http, self.server, self.fake, self.clock = http, server, server.fake, clock

    async def post(self, body: Any, token: str | None = TOKEN) -> httpx.Response:
        # "Bearer" alone: httpx refuses a header value with trailing whitespace.
        headers = {} if token is None else {"Authorization": f"Bearer {token}".strip()}
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return await self.http.post(self.server.url, content=content, headers=headers)

    async def result(self, body: Any, token: str = TOKEN) -> dict[str, Any]:
        response = await self.post(body, token)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()["result"]
        return result

    async def artifact(self, **kwargs: Any) -> dict[str, Any]:
        task = await self.result(send(**kwargs))
        assert task["status"]["state"] == "completed"
        [artifact] = task["artifacts"]
        return dict(artifact)


@asynccontextmanager
async def open_api() -> AsyncIterator[Api]:
    """A fresh fake whose rate windows run on a FakeClock and whose today is TODAY."""
    clock = FakeClock(start=1000.0)
    fake = FakeMagisterium(clock=clock.monotonic, today=lambda: TODAY)
    async with running_fake_server(fake) as server, httpx.AsyncClient(timeout=10) as http:
        yield Api(http, server, clock)

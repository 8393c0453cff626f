"""The fake Magisterium with the members of every JSON object it sends shuffled, on demand.

RFC 8259 leaves an object's members unordered, and protobuf-backed A2A servers do reorder
them. :func:`running_shuffling_fake_server` serves the real fake through an aiohttp
middleware that, while :attr:`MemberShuffler.rng` is set, rewrites each JSON reply with its
objects' members in an order drawn from that ``Random`` (arrays keep their order: that one is
meaningful). The bot reaches it over loopback HTTP with its production client, as ever.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer
from tests.support.held_upstream import running_fake_server_with

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def shuffled_members(value: Any, rng: random.Random) -> Any:
    """``value`` with the members of every object, at every depth, in a shuffled order."""
    if isinstance(value, dict):
        items = [(key, shuffled_members(inner, rng)) for key, inner in value.items()]
        rng.shuffle(items)
        return dict(items)
    if isinstance(value, list):
        return [shuffled_members(inner, rng) for inner in value]
    return value


@dataclass
class MemberShuffler:
    """Shuffles replies while ``rng`` is set; remembers the ids of every task it served."""

    rng: random.Random | None = None
    task_ids: list[str] = field(default_factory=list)
    context_ids: list[str] = field(default_factory=list)

    def rewrite(self, body: bytes) -> bytes:
        reply = json.loads(body)
        self._remember(reply.get("result"))
        if self.rng is None:
            return body
        return json.dumps(shuffled_members(reply, self.rng), ensure_ascii=False).encode()

    def _remember(self, result: Any) -> None:
        if isinstance(result, dict):
            if isinstance(task_id := result.get("id"), str) and task_id not in self.task_ids:
                self.task_ids.append(task_id)
            context_id = result.get("contextId")
            if isinstance(context_id, str) and context_id not in self.context_ids:
                self.context_ids.append(context_id)

    def forget(self) -> None:
        self.task_ids.clear()
        self.context_ids.clear()

    def placeholders(self) -> dict[str, str]:
        """Each served id → a name that is the same in every run (``<task-1>``…)."""
        names = {task: f"<task-{n}>" for n, task in enumerate(self.task_ids, start=1)}
        names.update(
            {context: f"<context-{n}>" for n, context in enumerate(self.context_ids, start=1)}
        )
        return names


def _middleware(shuffler: MemberShuffler) -> Any:
    @web.middleware
    async def shuffle_json(request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        is_json = response.content_type == "application/json"
        if is_json and isinstance(response, web.Response) and isinstance(response.body, bytes):
            response.body = shuffler.rewrite(response.body)
        return response

    return shuffle_json


@asynccontextmanager
async def running_shuffling_fake_server(
    fake: FakeMagisterium, shuffler: MemberShuffler
) -> AsyncIterator[RunningFakeServer]:
    """``fake`` on a loopback port, every JSON reply passed through ``shuffler``."""
    async with running_fake_server_with(fake, _middleware(shuffler)) as server:
        yield server

"""The fake Magisterium over HTTP, with middlewares in front: its door held shut until a test
opens it, or a route answering otherwise.

Single-flight tests need the first caller's upstream request to stay in flight while the
others arrive; holding it at the server (not sleeping) makes that certain.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from aiohttp import web

from bot.cache import RedisCache
from bot.cache.public import PublicContentCache
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer
from devtools.fake_magisterium.agent_card import A2A_PATH
from devtools.fake_magisterium.app import make_app
from devtools.fake_magisterium.server import SHUTDOWN_TIMEOUT

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Middleware = Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]


class HeldUpstream:
    """Every A2A request waits at the door until :meth:`release`; later ones pass at once."""

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.held = 0
        self._released = asyncio.Event()

    def release(self) -> None:
        self._released.set()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method == "POST" and request.path == A2A_PATH and not self._released.is_set():
            self.held += 1
            self.arrived.set()
            await self._released.wait()
        return await handler(request)


def running_held_fake_server(
    fake: FakeMagisterium, held: HeldUpstream
) -> AbstractAsyncContextManager[RunningFakeServer]:
    return running_fake_server_with(fake, held.middleware)


@asynccontextmanager
async def running_fake_server_with(
    fake: FakeMagisterium, *middlewares: Middleware
) -> AsyncIterator[RunningFakeServer]:
    """The fake's own application on a loopback port, with ``middlewares`` in front."""
    app = make_app(fake)
    app.middlewares.extend(middlewares)
    runner = web.AppRunner(
        app, access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT, handler_cancellation=True
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield RunningFakeServer(fake, host, port)
    finally:
        await runner.cleanup()


class EnteringCache:
    """A see-through wrapper of a service's cache: :attr:`all_in` is set once ``expected``
    lookups have entered it. The wrapped cache joins its flight before it first suspends, so
    when a waiter on :attr:`all_in` runs, every one of them has joined."""

    def __init__(self, inner: PublicContentCache, expected: int) -> None:
        self.inner = inner
        self.expected = expected
        self.entered = 0
        self.all_in = asyncio.Event()

    async def get_or_fetch(self, *args: Any, **kwargs: Any) -> Any:
        self.entered += 1
        if self.entered >= self.expected:
            self.all_in.set()
        return await self.inner.get_or_fetch(*args, **kwargs)


class WatchedRedisCache(RedisCache):
    """A RedisCache that reports its lock traffic: :attr:`refused` is set when a claim found
    the lock held; :attr:`renewals` receives each renewal's result."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refused = asyncio.Event()
        self.renewals: asyncio.Queue[bool] = asyncio.Queue()

    async def claim(self, key: str, *, ttl: float) -> str | None:
        token = await super().claim(key, ttl=ttl)
        if token is None:
            self.refused.set()
        return token

    async def extend(self, key: str, token: str, *, ttl: float) -> bool:
        renewed = await super().extend(key, token, ttl=ttl)
        self.renewals.put_nowait(renewed)
        return renewed

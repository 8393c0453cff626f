"""The aiohttp application: the A2A endpoint, the Agent Card and the control routes."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from devtools.fake_magisterium.agent_card import A2A_PATH, agent_card
from devtools.fake_magisterium.control import FAKE_KEY, add_control_routes
from devtools.fake_magisterium.fake import FakeMagisterium

log = logging.getLogger(__name__)

CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type",
}


def _base_url(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}"


async def a2a(request: web.Request) -> web.StreamResponse:
    reply = request.app[FAKE_KEY].handle(await request.read(), request.headers.get("Authorization"))
    if reply.delay > 0:
        await asyncio.sleep(reply.delay)
    if reply.drop:
        # Abort rather than answer: the client sees the connection vanish mid-request.
        log.debug("fake dropping the connection")
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError
    return web.Response(
        status=reply.status,
        body=reply.body,
        headers={"Content-Type": reply.content_type, **CORS, **reply.headers},
    )


async def preflight(request: web.Request) -> web.Response:
    return web.Response(status=204, headers={**CORS, "Access-Control-Max-Age": "86400"})


async def card(request: web.Request) -> web.Response:
    return web.json_response(
        agent_card(_base_url(request)), headers={"Cache-Control": "public, max-age=3600"}
    )


def make_app(fake: FakeMagisterium) -> web.Application:
    app = web.Application()
    app[FAKE_KEY] = fake
    app.router.add_post(A2A_PATH, a2a)
    app.router.add_route("OPTIONS", A2A_PATH, preflight)
    app.router.add_get("/.well-known/agent.json", card)
    app.router.add_get("/.well-known/agent-card.json", card)
    add_control_routes(app)
    return app

"""The bot's two web apps, for two listeners.

The public one (WEB_PORT) serves the / and /privacy pages, the sign-in's routes when configured,
and a bare /healthz for a load balancer. The operator's (OPERATOR_PORT, on an internal address)
serves /healthz (alive), /readyz (serving) and /metrics (Prometheus): they tell whoever asks how
the bot is doing, so they never share the public listener.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.oauth import LinkedBySignIn, OAuthService
from bot.observability.metrics import CONTENT_TYPE, Metrics
from bot.web.headers import add_response_headers, response_headers
from bot.web.oauth_routes import add_oauth_routes
from bot.web.pages import SiteInfo
from bot.web.probes import Readiness, ReadinessLog
from bot.web.rate_limit import OAUTH_RATE_LIMIT, OAuthRateLimit, limit_oauth_requests
from bot.web.site import add_site_routes

READINESS = web.AppKey("readiness", Readiness)
READINESS_LOG = web.AppKey("readiness_log", ReadinessLog)
METRICS = web.AppKey("metrics", Metrics)


def public_app(
    site: SiteInfo,
    *,
    https: bool,
    oauth_rate_limit: OAuthRateLimit,
    oauth: Callable[[], OAuthService | None] | None = None,
    on_linked: Callable[[LinkedBySignIn], Awaitable[None]] | None = None,
) -> web.Application:
    """``https``: people reach it over https (PUBLIC_BASE_URL), so responses carry HSTS."""
    app = web.Application(middlewares=[limit_oauth_requests])
    app[OAUTH_RATE_LIMIT] = oauth_rate_limit
    add_response_headers(app, response_headers(hsts=https))
    app.router.add_get("/healthz", healthz)
    add_site_routes(app, site)
    if oauth is not None and on_linked is not None:
        add_oauth_routes(app, oauth, on_linked)
    return app


def operator_app(readiness: Readiness, metrics: Metrics) -> web.Application:
    app = web.Application()
    app[READINESS] = readiness
    app[READINESS_LOG] = ReadinessLog()
    app[METRICS] = metrics
    add_response_headers(app, response_headers())
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)
    return app


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


async def readyz(request: web.Request) -> web.Response:
    """200 "ready" or 503 "not ready"; why not goes to the log (``ReadinessLog``)."""
    checks = await request.app[READINESS].check()
    ready = request.app[READINESS_LOG].ready(checks)
    return web.Response(text="ready" if ready else "not ready", status=200 if ready else 503)


async def metrics_page(request: web.Request) -> web.Response:
    return web.Response(body=request.app[METRICS].render(), headers={"Content-Type": CONTENT_TYPE})

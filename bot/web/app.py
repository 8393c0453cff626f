"""The bot's web server: the operator's /healthz (alive), /readyz (serving) and /metrics
(Prometheus); the public / and /privacy pages; and, when configured, the sign-in's routes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.oauth import LinkedBySignIn, OAuthService
from bot.observability.metrics import CONTENT_TYPE, Metrics
from bot.web.oauth_routes import add_oauth_routes
from bot.web.pages import SiteInfo
from bot.web.probes import Readiness
from bot.web.site import add_site_routes

READINESS = web.AppKey("readiness", Readiness)
METRICS = web.AppKey("metrics", Metrics)


def web_app(
    readiness: Readiness,
    metrics: Metrics,
    *,
    site: SiteInfo | None = None,
    oauth: Callable[[], OAuthService | None] | None = None,
    on_linked: Callable[[LinkedBySignIn], Awaitable[None]] | None = None,
) -> web.Application:
    app = web.Application()
    app[READINESS] = readiness
    app[METRICS] = metrics
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)
    if site is not None:
        add_site_routes(app, site)
    if oauth is not None and on_linked is not None:
        add_oauth_routes(app, oauth, on_linked)
    return app


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


async def readyz(request: web.Request) -> web.Response:
    checks = await request.app[READINESS].check()
    ready = all(verdict == "ok" for verdict in checks.values())
    body = {"status": "ready" if ready else "not ready", "checks": checks}
    return web.json_response(body, status=200 if ready else 503)


async def metrics_page(request: web.Request) -> web.Response:
    return web.Response(body=request.app[METRICS].render(), headers={"Content-Type": CONTENT_TYPE})

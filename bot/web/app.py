"""The operator's endpoints: /healthz (alive), /readyz (serving) and /metrics (Prometheus)."""

from __future__ import annotations

from aiohttp import web

from bot.observability.metrics import CONTENT_TYPE, Metrics
from bot.web.probes import Readiness

READINESS = web.AppKey("readiness", Readiness)
METRICS = web.AppKey("metrics", Metrics)


def web_app(readiness: Readiness, metrics: Metrics) -> web.Application:
    app = web.Application()
    app[READINESS] = readiness
    app[METRICS] = metrics
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)
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

"""Headers on every response of the bot's web servers, whatever made it (a page, a redirect,
aiohttp's own 404, 405 or 500): no MIME sniffing, a Server header that names no versions, and
HSTS on the public listener when people reach it over https."""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import hdrs, web

SERVER = "magisterium-bot"
HSTS = "max-age=31536000"

RESPONSE_HEADERS: web.AppKey[Mapping[str, str]] = web.AppKey("response_headers")


def response_headers(*, hsts: bool = False) -> dict[str, str]:
    headers = {hdrs.SERVER: SERVER, "X-Content-Type-Options": "nosniff"}
    if hsts:
        headers[hdrs.STRICT_TRANSPORT_SECURITY] = HSTS
    return headers


def add_response_headers(app: web.Application, headers: Mapping[str, str]) -> None:
    """Put ``headers`` on every response ``app`` sends (the web server reads them too, for the
    responses aiohttp makes before any route is found: a malformed request's 400)."""
    app[RESPONSE_HEADERS] = headers
    app.on_response_prepare.append(_add_headers)


async def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(request.app[RESPONSE_HEADERS])

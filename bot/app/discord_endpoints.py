"""Where discord.py talks to Discord: the REST base from ``DISCORD_API_BASE_URL``, and the
gateway URL Discord's ``GET /gateway/bot`` names, as in production.

Both are process-wide discord.py class attributes. ``Route.BASE`` is the base of every REST
route, the webhook followups and the interaction callbacks included (``discord.webhook``
builds its routes with the same ``Route``). ``DiscordWebSocket.DEFAULT_GATEWAY`` is where a
shard connects when ``SHARD_COUNT`` is set (discord.py asks ``/gateway/bot`` only without
one) and where any shard goes back after INVALID_SESSION: left alone, that is always
``wss://gateway.discord.gg/``, whatever ``/gateway/bot`` says.
"""

from __future__ import annotations

import logging

import yarl
from discord.errors import GatewayNotFound
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

log = logging.getLogger(__name__)


def use_rest_base(base_url: str) -> None:
    """Every REST request of this process (bot, webhooks, interaction callbacks) goes to
    ``base_url`` (``Settings.discord_api_base_url``, already validated). Idempotent."""
    Route.BASE = base_url.rstrip("/")


async def use_gateway_from_discord(http: HTTPClient, *, configured_shards: int | None) -> None:
    """Ask ``/gateway/bot`` (on the REST base, with the logged-in ``http``) and make its URL
    the one every shard connects and reconnects to. Call it after login, before connecting.

    Should Discord not answer, the gateway stays what it was (discord.py's default), which is
    what discord.py itself does when ``SHARD_COUNT`` is set.
    """
    try:
        recommended, url, limit = await http.get_bot_gateway()
    except GatewayNotFound:
        log.warning(
            "GET /gateway/bot failed; connecting to %s, discord.py's default gateway",
            _host(DiscordWebSocket.DEFAULT_GATEWAY),
        )
        return
    gateway = yarl.URL(url)
    DiscordWebSocket.DEFAULT_GATEWAY = gateway
    configured = "automatic" if configured_shards is None else str(configured_shards)
    remaining, total = limit["remaining"], limit["total"]
    log.info(
        "discord gateway %s: shards %d recommended, %s configured; session starts %d of %d left",
        _host(gateway),
        recommended,
        configured,
        remaining,
        total,
    )
    if remaining <= 0:
        log.warning(
            "no session starts left: Discord refuses to identify any shard for %.0f s more",
            limit["reset_after"] / 1000,
        )


def _host(url: yarl.URL) -> str:
    """Host, and port when not the scheme's own: never a path or query."""
    host = url.host or "?"
    return host if url.port is None or url.is_default_port() else f"{host}:{url.port}"

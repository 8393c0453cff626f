"""`check`'s Discord lines: the REST base (``DISCORD_API_BASE_URL``) answers like Discord's
API, and Discord accepts ``DISCORD_TOKEN``.

One GET: with DISCORD_TOKEN set, ``/gateway/bot`` with the token (it names the gateway and the
session starts left, and spends none); without, the public ``/gateway``.
"""

from __future__ import annotations

import asyncio

import discord
import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from bot.cli.check_agent_card import request_error_reason
from bot.cli.check_probes import Outcome, display_host
from bot.settings import Settings

DISCORD_TIMEOUT = 5.0
SETTING = "DISCORD_API_BASE_URL"
NOT_SET = "DISCORD_TOKEN is not set: `python -m bot run` needs it"
# Discord asks every client for a User-Agent of this form.
USER_AGENT = f"DiscordBot (https://github.com/Rapptz/discord.py, {discord.__version__})"


class SessionStartLimit(BaseModel):
    model_config = ConfigDict(extra="ignore")

    total: int
    remaining: int
    reset_after: int  # milliseconds


class Gateway(BaseModel):
    """What this check reads of ``/gateway`` (url) and ``/gateway/bot`` (all three)."""

    model_config = ConfigDict(extra="ignore")

    url: str
    shards: int | None = None
    session_start_limit: SessionStartLimit | None = None


async def discord_api(settings: Settings) -> tuple[Outcome, Outcome]:
    """(discord api, discord token): the REST base answers; Discord accepts the token."""
    base = settings.discord_api_base_url
    host = display_host(base, SETTING)
    secret = settings.discord_token
    token = secret.get_secret_value().strip() if secret is not None else ""
    path = "/gateway/bot" if token else "/gateway"
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bot {token}"
    try:
        async with (
            asyncio.timeout(DISCORD_TIMEOUT),
            httpx.AsyncClient(timeout=DISCORD_TIMEOUT) as http,
        ):
            response = await http.get(base + path, headers=headers)
    except (TimeoutError, httpx.TimeoutException):
        api = Outcome.failed(f"{host} did not answer {path} within {DISCORD_TIMEOUT:g} s")
        return api, _unverified(token, f"{host} did not answer")
    except httpx.RequestError as error:
        api = Outcome.failed(f"cannot reach {host}: {request_error_reason(error)}")
        return api, _unverified(token, f"{host} could not be reached")
    status = response.status_code
    if status == httpx.codes.UNAUTHORIZED and token:
        refused = "Discord refused DISCORD_TOKEN (401): copy it again from the Developer Portal"
        return Outcome.ok(f"{host} answers"), Outcome.failed(refused)
    if status == httpx.codes.TOO_MANY_REQUESTS:
        api = Outcome.ok(f"{host} answers (rate-limited right now)")
        return api, _unverified(token, f"{host} is rate-limiting this address")
    if status != httpx.codes.OK:
        api = Outcome.failed(f"{host} answered {status} to {path}")
        return api, _unverified(token, f"{host} answered {status}")
    try:
        gateway = Gateway.model_validate_json(response.content)
    except ValidationError:
        api = Outcome.failed(f"{host} answered {path} with no gateway url: is it Discord's API?")
        return api, _unverified(token, f"{host} did not answer like Discord")
    api = Outcome.ok(f"{host} answers; gateway {display_host(gateway.url, 'its url')}")
    return api, _token_outcome(token, gateway)


def _token_outcome(token: str, gateway: Gateway) -> Outcome:
    if not token:
        return Outcome.failed(NOT_SET)
    limit = gateway.session_start_limit
    if gateway.shards is None or limit is None:
        return Outcome.ok("accepted by Discord")
    shards = f"{gateway.shards} shard{'s' if gateway.shards != 1 else ''} recommended"
    starts = f"{limit.remaining} of {limit.total} session starts left"
    if limit.remaining <= 0:
        return Outcome.warning(
            f"accepted by Discord, but {starts}: no shard can connect for "
            f"{limit.reset_after / 1000:.0f} s more ({shards})"
        )
    return Outcome.ok(f"accepted by Discord; {shards}; {starts}")


def _unverified(token: str, why: str) -> Outcome:
    if not token:
        return Outcome.failed(NOT_SET)
    return Outcome.skipped(f"set; not verified: {why}")

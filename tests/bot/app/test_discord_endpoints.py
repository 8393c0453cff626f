"""DISCORD_API_BASE_URL and the gateway from ``/gateway/bot``: the real discord.py client,
webhooks and the bot's ``connect`` against a few of Discord's REST routes on loopback."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route
from discord.webhook.async_ import async_context, interaction_response_params
from pydantic import ValidationError

from bot.__main__ import main
from bot.app import create_bot
from bot.app.discord_endpoints import use_gateway_from_discord, use_rest_base
from bot.settings import DEFAULT_DISCORD_API_BASE_URL, DISCORD_API_PATH, Settings

TOKEN = "MTIz.discord-endpoints-token.never-logged"
APPLICATION_ID = 4242
DEFAULT_GATEWAY = DiscordWebSocket.DEFAULT_GATEWAY
JSON = "application/json"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class DiscordRest:
    """A few of Discord's REST routes under ``/api/v10``, recording every request as
    ``(method, path, Authorization)``. Bot routes answer 401 to any other token."""

    token: str = TOKEN
    gateway_url: str = "ws://127.0.0.1:9/"
    shards: int = 2
    remaining: int = 999
    seen: list[tuple[str, str, str | None]] = field(default_factory=list)
    synced: list[Any] = field(default_factory=list)

    def app(self) -> web.Application:
        @web.middleware
        async def record(request: web.Request, handler: Handler) -> web.StreamResponse:
            path = request.path.removeprefix(DISCORD_API_PATH)
            self.seen.append((request.method, path, request.headers.get("Authorization")))
            return await handler(request)

        app = web.Application(middlewares=[record])
        api = DISCORD_API_PATH
        app.router.add_get(f"{api}/gateway", self._gateway)
        app.router.add_get(f"{api}/gateway/bot", self._gateway_bot)
        app.router.add_get(f"{api}/users/@me", self._me)
        app.router.add_get(f"{api}/oauth2/applications/@me", self._application)
        app.router.add_put(f"{api}/applications/{{app}}/commands", self._sync)
        app.router.add_post(f"{api}/webhooks/{{id}}/{{token}}", self._no_content)
        app.router.add_post(f"{api}/interactions/{{id}}/{{token}}/callback", self._no_content)
        return app

    def _refused(self, request: web.Request) -> web.Response | None:
        if request.headers.get("Authorization") == f"Bot {self.token}":
            return None
        return discord_json({"message": "401: Unauthorized", "code": 0}, status=401)

    async def _gateway(self, request: web.Request) -> web.Response:
        return discord_json({"url": self.gateway_url})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        limit = {
            "total": 1000,
            "remaining": self.remaining,
            "reset_after": 3_600_000,
            "max_concurrency": 1,
        }
        body = {"url": self.gateway_url, "shards": self.shards, "session_start_limit": limit}
        return self._refused(request) or discord_json(body)

    async def _me(self, request: web.Request) -> web.Response:
        return self._refused(request) or discord_json(BOT_USER)

    async def _application(self, request: web.Request) -> web.Response:
        body = {
            "id": str(APPLICATION_ID),
            "name": "Magisterium",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {**BOT_USER, "id": "7", "bot": False},
            "verify_key": "0" * 64,
            "flags": 0,
        }
        return self._refused(request) or discord_json(body)

    async def _sync(self, request: web.Request) -> web.Response:
        if refused := self._refused(request):
            return refused
        commands = await request.json()
        self.synced.append(commands)
        app = request.match_info["app"]
        return discord_json(
            [
                {
                    "description": "",
                    **command,
                    "id": str(1000 + i),
                    "application_id": app,
                    "version": "1",
                }
                for i, command in enumerate(commands)
            ]
        )

    async def _no_content(self, request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=204)


def discord_json(body: Any, status: int = 200) -> web.Response:
    """As Discord sends it: ``application/json`` with no charset (discord.py parses only that;
    aiohttp's json_response adds one)."""
    return web.Response(body=json.dumps(body).encode(), status=status, content_type=JSON)


BOT_USER = {
    "id": "99",
    "username": "magisterium",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
}


@dataclass(frozen=True)
class Running:
    rest: DiscordRest
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{DISCORD_API_PATH}"


@asynccontextmanager
async def running_discord_rest(rest: DiscordRest | None = None) -> AsyncIterator[Running]:
    rest = rest if rest is not None else DiscordRest()
    runner = web.AppRunner(rest.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port: int = runner.addresses[0][1]
        yield Running(rest, port)
    finally:
        await runner.cleanup()


@pytest.fixture
def discord_endpoints() -> Iterator[None]:
    """Route.BASE and DEFAULT_GATEWAY are process-wide: put back after each test."""
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
async def discord_rest(discord_endpoints: None) -> AsyncIterator[Running]:
    async with running_discord_rest() as running:
        yield running


# --- the setting ------------------------------------------------------------------------------


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_the_default_is_discords_own_base_in_the_version_discord_py_speaks() -> None:
    assert settings().discord_api_base_url == "https://discord.com/api/v10"
    assert DEFAULT_DISCORD_API_BASE_URL == Route.BASE  # discord.py's own default
    assert f"/api/v{discord.http.INTERNAL_API_VERSION}" == DISCORD_API_PATH


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("http://127.0.0.1:8123/api/v10", "http://127.0.0.1:8123/api/v10"),
        ("http://localhost:8080/api/v10/", "http://localhost:8080/api/v10"),
        (" https://nirn.internal.example/api/v10// ", "https://nirn.internal.example/api/v10"),
        # A proxy beside the bot (a compose service, a cluster service, a private address).
        ("http://nirn-proxy:8080/api/v10", "http://nirn-proxy:8080/api/v10"),
        ("http://nirn.bots.svc:8080/api/v10", "http://nirn.bots.svc:8080/api/v10"),
        ("http://10.0.3.7:8080/api/v10", "http://10.0.3.7:8080/api/v10"),
    ],
)
def test_a_proxy_or_local_base_is_accepted_without_its_trailing_slash(
    given: str, kept: str
) -> None:
    assert settings(discord_api_base_url=given).discord_api_base_url == kept


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("http://example.com/api/v10", "must use https .plain http is allowed for a proxy on"),
        ("http://1.1.1.1/api/v10", "must use https"),
        ("https://discord.com/api/v9", "must end in /api/v10, the API version discord.py 2.7"),
        ("https://discord.com", "must end in /api/v10"),
        ("https://discord.com/api/v10?x=1", "must not have a query"),
        ("discord.com/api/v10", "must be an absolute http(s) URL"),
    ],
)
def test_other_bases_are_refused_saying_why(given: str, reason: str) -> None:
    with pytest.raises(ValidationError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        settings(discord_api_base_url=given)


def test_the_environment_variable_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_API_BASE_URL", "http://127.0.0.1:1/api/v10/")
    assert settings().discord_api_base_url == "http://127.0.0.1:1/api/v10"


# --- the REST base ----------------------------------------------------------------------------


async def test_the_client_and_webhooks_use_the_configured_base(discord_rest: Running) -> None:
    use_rest_base(discord_rest.base_url)
    use_rest_base(discord_rest.base_url)  # idempotent
    assert discord_rest.base_url == Route.BASE
    http = HTTPClient(asyncio.get_running_loop())
    try:
        me = await http.static_login(TOKEN)
    finally:
        await http.close()
    assert me["id"] == "99"
    async with aiohttp.ClientSession() as session:
        followup = discord.Webhook.partial(APPLICATION_ID, "interaction-token", session=session)
        await followup.send("an answer")
        await async_context.get().create_interaction_response(
            55, "interaction-token", session=session, params=interaction_response_params(5)
        )
    assert [(method, path) for method, path, _ in discord_rest.rest.seen] == [
        ("GET", "/users/@me"),
        ("POST", f"/webhooks/{APPLICATION_ID}/interaction-token"),
        ("POST", "/interactions/55/interaction-token/callback"),
    ]
    assert discord_rest.rest.seen[0][2] == f"Bot {TOKEN}"


async def test_sync_registers_the_commands_at_the_configured_base(
    discord_rest: Running,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_API_BASE_URL", discord_rest.base_url + "/")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    assert await asyncio.to_thread(main, ["sync"]) == 0
    out = capsys.readouterr().out
    [commands] = discord_rest.rest.synced
    assert f"synced {len(commands)} commands to all servers and DMs (global)" in out
    assert {"ask", "help"} <= {command["name"] for command in commands}
    assert ("PUT", f"/applications/{APPLICATION_ID}/commands") in [
        (method, path) for method, path, _ in discord_rest.rest.seen
    ]
    assert discord_rest.base_url == Route.BASE  # applied by the CLI, trailing slash gone


# --- the gateway ------------------------------------------------------------------------------

ENDPOINTS_LOGGER = "bot.app.discord_endpoints"


def ours(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == ENDPOINTS_LOGGER]


async def logged_in(running: Running) -> HTTPClient:
    use_rest_base(running.base_url)
    http = HTTPClient(asyncio.get_running_loop())
    await http.static_login(TOKEN)
    return http


async def test_the_gateway_is_the_one_gateway_bot_names(
    discord_rest: Running, caplog: pytest.LogCaptureFixture
) -> None:
    discord_rest.rest.gateway_url = "ws://127.0.0.1:7001"
    http = await logged_in(discord_rest)
    try:
        with caplog.at_level(logging.INFO, logger=ENDPOINTS_LOGGER):
            await use_gateway_from_discord(http, configured_shards=2)
    finally:
        await http.close()
    assert yarl.URL("ws://127.0.0.1:7001") == DiscordWebSocket.DEFAULT_GATEWAY
    [record] = ours(caplog)
    assert record.levelno == logging.INFO
    assert record.getMessage() == (
        "discord gateway 127.0.0.1:7001: shards 2 recommended, 2 configured; "
        "session starts 999 of 1000 left"
    )
    assert ("GET", "/gateway/bot", f"Bot {TOKEN}") in discord_rest.rest.seen


async def test_connect_sets_the_gateway_before_discord_py_connects_with_shard_count_set(
    discord_rest: Running, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    discord_rest.rest.gateway_url = "ws://127.0.0.1:7002/"
    seen_by_discord_py: list[tuple[yarl.URL, bool]] = []

    async def connect(self: discord.AutoShardedClient, *, reconnect: bool = True) -> None:
        seen_by_discord_py.append((DiscordWebSocket.DEFAULT_GATEWAY, reconnect))

    monkeypatch.setattr(discord.AutoShardedClient, "connect", connect)
    use_rest_base(discord_rest.base_url)
    bot = create_bot(settings(shard_count=4, shard_ids=[1, 3]))
    assert bot.shard_count == 4  # discord.py would go straight to DEFAULT_GATEWAY
    await bot._async_setup_hook()
    await bot.http.static_login(TOKEN)
    try:
        with caplog.at_level(logging.INFO, logger=ENDPOINTS_LOGGER):
            await bot.connect(reconnect=False)
    finally:
        await bot.close()
    assert seen_by_discord_py == [(yarl.URL("ws://127.0.0.1:7002/"), False)]
    [record] = ours(caplog)
    assert "shards 2 recommended, 4 configured" in record.getMessage()
    assert TOKEN not in caplog.text and "discord-endpoints-token" not in caplog.text


async def test_no_session_starts_left_is_a_warning(
    discord_endpoints: None, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_discord_rest(DiscordRest(remaining=0, shards=1)) as running:
        http = await logged_in(running)
        try:
            with caplog.at_level(logging.INFO, logger=ENDPOINTS_LOGGER):
                await use_gateway_from_discord(http, configured_shards=None)
        finally:
            await http.close()
    info, warning = ours(caplog)
    assert info.getMessage().endswith(
        "shards 1 recommended, automatic configured; session starts 0 of 1000 left"
    )
    assert warning.levelno == logging.WARNING
    assert warning.getMessage() == (
        "no session starts left: Discord refuses to identify any shard for 3600 s more"
    )


async def test_without_gateway_bot_the_gateway_stays_discord_pys_default(
    discord_endpoints: None, caplog: pytest.LogCaptureFixture
) -> None:
    rest = DiscordRest()
    async with running_discord_rest(rest) as running:
        http = await logged_in(running)
        rest.token = "another-token-so-gateway-bot-refuses"
        try:
            with caplog.at_level(logging.INFO, logger=ENDPOINTS_LOGGER):
                await use_gateway_from_discord(http, configured_shards=2)
        finally:
            await http.close()
    assert DiscordWebSocket.DEFAULT_GATEWAY == DEFAULT_GATEWAY
    [record] = ours(caplog)
    assert record.levelno == logging.WARNING
    assert record.getMessage() == (
        "GET /gateway/bot failed; connecting to gateway.discord.gg, discord.py's default gateway"
    )

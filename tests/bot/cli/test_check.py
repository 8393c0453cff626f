"""`python -m bot check`, run in-process against the fake Magisterium and real databases."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.compat.v0_3.types import AgentCard
from aiohttp import web
from alembic import command
from pydantic import SecretStr
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.__main__ import main
from bot.a2a.skills import SKILL_IDS
from bot.accounts import TokenCipher, TokenRegistry, generate_key
from bot.cli import check_agent_card
from bot.cli.check_agent_card import DOCUMENTED_PATH as DOCUMENTED
from bot.cli.check_agent_card import SPEC_PATH as SPEC
from bot.storage import Database
from bot.storage.migrate import HEAD_REVISION, alembic_config
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer
from devtools.fake_magisterium.agent_card import agent_card as fake_agent_card
from devtools.fake_magisterium.rpc import JsonDict
from tests.bot.app.test_discord_endpoints import DiscordRest, Running, running_discord_rest
from tests.support.databases import closed_port
from tests.support.held_upstream import running_fake_server_with

OPERATOR_TOKEN = "pro-operator-token-for-check"
DISCORD_TOKEN = "discord-token-for-check.never-printed"
USER_TOKEN = "pro-user-token-stored-encrypted"
SETTINGS_VARIABLES = (
    "DISCORD_TOKEN",
    "DISCORD_API_BASE_URL",
    "MAGISTERIUM_API_URL",
    "MAGISTERIUM_TOKEN",
    "DATABASE_URL",
    "TOKEN_ENCRYPTION_KEY",
    "REDIS_URL",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "SHARD_COUNT",
)


@pytest.fixture
def database_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.db"


@pytest.fixture
async def discord_rest() -> AsyncIterator[Running]:
    """Discord's REST API on loopback, accepting DISCORD_TOKEN."""
    async with running_discord_rest(DiscordRest(token=DISCORD_TOKEN, shards=3)) as running:
        yield running


@pytest.fixture
def env(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fake_server: RunningFakeServer,
    discord_rest: Running,
    key: str,
    database_file: Path,
) -> pytest.MonkeyPatch:
    """A complete, working configuration; no .env file is read (the cwd is empty)."""
    monkeypatch.chdir(tmp_path)
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD_TOKEN)
    monkeypatch.setenv("DISCORD_API_BASE_URL", discord_rest.base_url)
    monkeypatch.setenv("MAGISTERIUM_API_URL", fake_server.url)
    monkeypatch.setenv("MAGISTERIUM_TOKEN", OPERATOR_TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{database_file}")
    monkeypatch.setenv("TOKEN_ENCRYPTION_KEY", key)
    return monkeypatch


async def run_check(
    capsys: pytest.CaptureFixture[str], *secrets: str
) -> tuple[int, dict[str, str]]:
    """Exit status and each check's line (keyed by the check's name), in a worker thread so
    the fake server keeps serving on this loop. No secret may appear anywhere."""
    status = await asyncio.to_thread(main, ["check"])
    out, err = capsys.readouterr()
    for secret in (DISCORD_TOKEN, OPERATOR_TOKEN, USER_TOKEN, *secrets):
        assert secret not in out and secret not in err
    lines = {line[:16].strip(): line[16:] for line in out.splitlines()}
    return status, lines


async def migrated(database_file: Path, revision: str = "head") -> str:
    """The URL of ``database_file``, migrated up to ``revision``."""
    database_file.parent.mkdir(parents=True, exist_ok=True)
    url = f"sqlite+aiosqlite:///{database_file}"
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), revision))
    finally:
        await engine.dispose()
    return url


async def test_everything_ok(
    env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    key: str,
    database_file: Path,
    fake_server: RunningFakeServer,
    discord_rest: Running,
) -> None:
    await migrated(database_file)
    status, lines = await run_check(capsys, key)
    assert status == 0
    assert list(lines) == [
        "settings",
        "database",
        "encryption key",
        "magisterium",
        "agent card",
        "discord api",
        "discord token",
    ]
    assert all(line.startswith("ok") for line in lines.values()), lines
    assert f"at revision {HEAD_REVISION}" in lines["database"]
    assert "accepted MAGISTERIUM_TOKEN" in lines["magisterium"]
    assert lines["agent card"] == (
        f"ok — 127.0.0.1:{fake_server.port}/.well-known/agent.json: A2A 0.3.0, 10 skills, "
        "all 10 the bot uses"
    )
    assert (
        lines["discord api"] == f"ok — 127.0.0.1:{discord_rest.port} answers; gateway 127.0.0.1:9"
    )
    assert lines["discord token"] == (
        "ok — accepted by Discord; 3 shards recommended; 999 of 1000 session starts left"
    )
    assert ("GET", "/gateway/bot", f"Bot {DISCORD_TOKEN}") in discord_rest.rest.seen


async def test_a_new_sqlite_database_is_ok_and_not_created(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], database_file: Path
) -> None:
    status, lines = await run_check(capsys)
    assert status == 0
    assert "does not exist yet" in lines["database"] and "migrate" in lines["database"]
    assert not await asyncio.to_thread(database_file.parent.exists)


async def test_pending_migrations_are_reported_not_applied(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], database_file: Path
) -> None:
    url = await migrated(database_file, "0001")
    status, lines = await run_check(capsys)
    assert status == 0
    assert lines["database"].startswith("ok")
    assert (
        f"at revision 0001; {int(HEAD_REVISION) - 1} migrations pending: "
        "run `python -m bot migrate`" in lines["database"]
    )
    async with Database(url) as db:
        assert await db.revision() == "0001"


async def test_wrong_key_cannot_decrypt_the_stored_tokens(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str, database_file: Path
) -> None:
    url = f"sqlite+aiosqlite:///{database_file}"
    old_key = generate_key()
    async with Database(url) as db:
        await db.migrate()
        await TokenRegistry(db, TokenCipher.from_setting(old_key)).link(42, SecretStr(USER_TOKEN))
    status, lines = await run_check(capsys, key, old_key)
    assert status == 1
    assert lines["database"].startswith("ok")
    assert lines["encryption key"].startswith("failed — cannot decrypt the stored tokens")
    assert "rotate-keys" in lines["encryption key"]


async def test_tokens_stored_but_no_key(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str, database_file: Path
) -> None:
    async with Database(f"sqlite+aiosqlite:///{database_file}") as db:
        await db.migrate()
        await TokenRegistry(db, TokenCipher.from_setting(key)).link(42, SecretStr(USER_TOKEN))
    env.delenv("TOKEN_ENCRYPTION_KEY")
    status, lines = await run_check(capsys, key)
    assert status == 1
    assert lines["encryption key"].startswith("failed")
    assert "1 token is stored" in lines["encryption key"]


async def test_no_key_and_no_tokens_is_ok(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], database_file: Path
) -> None:
    await migrated(database_file)
    env.delenv("TOKEN_ENCRYPTION_KEY")
    status, lines = await run_check(capsys)
    assert status == 0
    assert lines["encryption key"] == (
        "ok — not set; needed once someone links a token (`python -m bot genkey`)"
    )


async def test_malformed_key(env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    env.setenv("TOKEN_ENCRYPTION_KEY", "not-a-fernet-key-at-all")
    status, lines = await run_check(capsys, "not-a-fernet-key-at-all")
    assert status == 1
    assert lines["encryption key"].startswith("failed — TOKEN_ENCRYPTION_KEY: key 1 of 1 is not")


async def test_unreachable_database(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str
) -> None:
    port = closed_port()
    env.setenv("DATABASE_URL", f"postgresql+asyncpg://postgres:hunter2pw@127.0.0.1:{port}/bot")
    status, lines = await run_check(capsys, key, "hunter2pw")
    assert status == 1
    assert lines["database"].startswith(
        f"failed — postgresql+asyncpg://postgres:***@127.0.0.1:{port}"
    )
    assert "cannot connect" in lines["database"]
    assert lines["encryption key"].startswith("skipped")
    assert "the database check failed" in lines["encryption key"]
    assert lines["magisterium"].startswith("ok")  # the other checks still ran


async def test_refused_magisterium_token(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("MAGISTERIUM_TOKEN", "invalid-operator-token")
    status, lines = await run_check(capsys, "invalid-operator-token")
    assert status == 1
    assert lines["magisterium"].startswith("failed — Magisterium refused MAGISTERIUM_TOKEN (401)")


async def test_magisterium_token_without_a_paid_plan(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("MAGISTERIUM_TOKEN", "free-operator-token")
    status, lines = await run_check(capsys, "free-operator-token")
    assert status == 1
    assert lines["magisterium"].startswith("failed — MAGISTERIUM_TOKEN has no paid plan (403)")


async def test_no_magisterium_token_only_checks_the_endpoint_answers(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake_server: RunningFakeServer
) -> None:
    env.delenv("MAGISTERIUM_TOKEN")
    status, lines = await run_check(capsys)
    assert status == 0
    assert lines["magisterium"].startswith(f"ok — 127.0.0.1:{fake_server.port} answers")
    assert "MAGISTERIUM_TOKEN is not set" in lines["magisterium"]


async def test_unreachable_magisterium(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    port = closed_port()
    env.setenv("MAGISTERIUM_API_URL", f"http://127.0.0.1:{port}/api/v1/a2a")
    status, lines = await run_check(capsys)
    assert status == 1
    assert lines["magisterium"].startswith(f"failed — cannot reach 127.0.0.1:{port}")
    assert lines["agent card"].startswith(f"failed — cannot reach 127.0.0.1:{port}: ")
    assert "Traceback" not in lines["agent card"]


async def test_missing_discord_token_still_checks_the_public_gateway_route(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], discord_rest: Running
) -> None:
    env.delenv("DISCORD_TOKEN")
    status, lines = await run_check(capsys)
    assert status == 1
    assert lines["discord api"].startswith(f"ok — 127.0.0.1:{discord_rest.port} answers")
    assert lines["discord token"] == (
        "failed — DISCORD_TOKEN is not set: `python -m bot run` needs it"
    )
    assert discord_rest.rest.seen == [("GET", "/gateway", None)]


# --- Discord's REST API (DISCORD_API_BASE_URL) ------------------------------------------------


async def test_a_refused_discord_token_is_a_bad_token_not_an_unreachable_api(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], discord_rest: Running
) -> None:
    wrong = "MTIz.a-discord-token-discord-refuses"
    env.setenv("DISCORD_TOKEN", wrong)
    status, lines = await run_check(capsys, wrong)
    assert status == 1
    assert lines["discord api"] == f"ok — 127.0.0.1:{discord_rest.port} answers"
    assert lines["discord token"] == (
        "failed — Discord refused DISCORD_TOKEN (401): copy it again from the Developer Portal"
    )
    assert ("GET", "/gateway/bot", f"Bot {wrong}") in discord_rest.rest.seen


async def test_an_unreachable_discord_api_is_one_plain_line(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    port = closed_port()
    env.setenv("DISCORD_API_BASE_URL", f"http://127.0.0.1:{port}/api/v10")
    status, lines = await run_check(capsys)
    assert status == 1
    assert lines["discord api"].startswith(f"failed — cannot reach 127.0.0.1:{port}: ")
    assert "Traceback" not in lines["discord api"]
    assert lines["discord token"] == (
        f"skipped — set; not verified: 127.0.0.1:{port} could not be reached"
    )
    assert lines["magisterium"].startswith("ok")  # the other checks are unaffected


async def test_no_session_starts_left_is_a_warning(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rest = DiscordRest(token=DISCORD_TOKEN, shards=1, remaining=0)
    async with running_discord_rest(rest) as running:
        env.setenv("DISCORD_API_BASE_URL", running.base_url)
        status, lines = await run_check(capsys)
    assert status == 0
    assert lines["discord token"] == (
        "warning — accepted by Discord, but 0 of 1000 session starts left: no shard can "
        "connect for 3600 s more (1 shard recommended)"
    )


async def test_a_base_that_is_not_discords_api_fails(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake_server: RunningFakeServer
) -> None:
    env.setenv("DISCORD_API_BASE_URL", f"{fake_server.base_url}/api/v10")
    status, lines = await run_check(capsys)
    assert status == 1
    port = fake_server.port
    assert lines["discord api"] == f"failed — 127.0.0.1:{port} answered 404 to /gateway/bot"
    assert lines["discord token"] == f"skipped — set; not verified: 127.0.0.1:{port} answered 404"


async def test_an_invalid_discord_api_base_is_a_settings_failure(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("DISCORD_API_BASE_URL", "https://discord.com/api/v9")
    status, lines = await run_check(capsys)
    assert status == 1
    assert list(lines) == ["settings"]
    assert "DISCORD_API_BASE_URL" in lines["settings"]
    assert "must end in /api/v10" in lines["settings"]


async def test_invalid_settings_are_one_line_then_stop(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("SHARD_COUNT", "many")
    env.setenv("RATE_LIMIT_PER_MINUTE", "0")
    status, lines = await run_check(capsys)
    assert status == 1
    assert list(lines) == ["settings"]
    assert lines["settings"].startswith("failed — ")
    assert "SHARD_COUNT" in lines["settings"] and "RATE_LIMIT_PER_MINUTE" in lines["settings"]


async def test_a_revision_this_version_does_not_know(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], database_file: Path
) -> None:
    url = await migrated(database_file)
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        await engine.dispose()
    status, lines = await run_check(capsys)
    assert status == 1
    assert lines["database"].startswith("failed — ")
    assert "revision 9999, which this version of the bot does not know" in lines["database"]
    assert lines["encryption key"].startswith("skipped")


# --- the agent card ---------------------------------------------------------------------------


def answering(path: str, respond: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
    """A middleware that answers GETs of ``path`` with ``respond``; the fake answers the rest."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.method == "GET" and request.path == path:
            return await respond(request)
        return await handler(request)

    return middleware


def card_without(*skill_ids: str) -> JsonDict:
    card = fake_agent_card("http://127.0.0.1")
    card["skills"] = [skill for skill in card["skills"] if skill["id"] not in skill_ids]
    return card


async def not_found(request: web.Request) -> web.Response:
    return web.Response(status=404, text="Not Found")


async def test_a_card_missing_skills_names_them_as_a_warning(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake: FakeMagisterium
) -> None:
    card = card_without("pope_lookup", "diocese_statistics_lookup")

    async def serve_card(request: web.Request) -> web.Response:
        return web.json_response(card)

    async with running_fake_server_with(fake, answering(DOCUMENTED, serve_card)) as server:
        env.setenv("MAGISTERIUM_API_URL", server.url)
        status, lines = await run_check(capsys)
    assert status == 0  # the bot can run: only those commands would fail
    assert lines["agent card"] == (
        f"warning — 127.0.0.1:{server.port}/.well-known/agent.json: A2A 0.3.0, 8 skills; "
        "missing pope_lookup, diocese_statistics_lookup, which the bot uses"
    )


async def test_the_spec_path_is_tried_when_the_documented_one_is_missing(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake: FakeMagisterium
) -> None:
    async with running_fake_server_with(fake, answering(DOCUMENTED, not_found)) as server:
        env.setenv("MAGISTERIUM_API_URL", server.url)
        status, lines = await run_check(capsys)
    assert status == 0
    assert lines["agent card"] == (
        f"ok — 127.0.0.1:{server.port}/.well-known/agent-card.json (A2A's well-known path; "
        "/.well-known/agent.json answered 404): A2A 0.3.0, 10 skills, all 10 the bot uses"
    )


async def test_no_card_at_either_path_fails_saying_what_each_answered(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake: FakeMagisterium
) -> None:
    async def html_page(request: web.Request) -> web.Response:
        return web.Response(text="<html>Welcome</html>", content_type="text/html")

    doors = (answering(DOCUMENTED, html_page), answering(SPEC, not_found))
    async with running_fake_server_with(fake, *doors) as server:
        env.setenv("MAGISTERIUM_API_URL", server.url)
        status, lines = await run_check(capsys)
    assert status == 1
    line = lines["agent card"]
    assert line.startswith(
        f"failed — no agent card at 127.0.0.1:{server.port}: /.well-known/agent.json is not an "
        "agent card (body: Invalid JSON"
    )
    assert line.endswith("; /.well-known/agent-card.json answered 404")


async def test_the_card_is_read_without_a_token(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake: FakeMagisterium
) -> None:
    seen: list[str | None] = []

    @web.middleware
    async def record(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == DOCUMENTED:
            seen.append(request.headers.get("Authorization"))
        return await handler(request)

    async with running_fake_server_with(fake, record) as server:
        env.setenv("MAGISTERIUM_API_URL", server.url)
        status, lines = await run_check(capsys)
    assert status == 0 and lines["agent card"].startswith("ok")
    assert seen == [None]


async def test_a_card_that_never_comes_fails_at_the_time_limit(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fake: FakeMagisterium
) -> None:
    env.setattr(check_agent_card, "CARD_TIMEOUT", 0.2)
    never = asyncio.Event()

    async def hang(request: web.Request) -> web.Response:
        await never.wait()
        raise AssertionError("unreachable")

    async with running_fake_server_with(fake, answering(DOCUMENTED, hang)) as server:
        env.setenv("MAGISTERIUM_API_URL", server.url)
        status, lines = await run_check(capsys)
    assert status == 1
    assert lines["agent card"] == (
        f"failed — 127.0.0.1:{server.port} did not serve its agent card within 0.2 s"
    )


@pytest.mark.parametrize("path", [DOCUMENTED, SPEC])
async def test_the_fakes_card_is_a_valid_a2a_v0_3_card_listing_every_skill(
    fake_server: RunningFakeServer, path: str
) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.get(fake_server.base_url + path)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    body = response.json()
    card = AgentCard.model_validate(body)
    # Nothing in it unknown to the spec (pydantic would have dropped it silently).
    assert card.model_dump(mode="json", by_alias=True, exclude_unset=True) == body
    assert sorted(skill.id for skill in card.skills) == sorted(SKILL_IDS)
    assert card.url == fake_server.url
    assert card.protocol_version == "0.3.0"

"""`python -m bot check`, run in-process against the fake Magisterium and real databases."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic import command
from pydantic import SecretStr
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.__main__ import main
from bot.accounts import TokenCipher, TokenRegistry, generate_key
from bot.fake_server import RunningFakeServer
from bot.storage import Database
from bot.storage.migrate import HEAD_REVISION, alembic_config
from tests.conftest_db import closed_port

OPERATOR_TOKEN = "pro-operator-token-for-check"
DISCORD_TOKEN = "discord-token-for-check.never-printed"
USER_TOKEN = "pro-user-token-stored-encrypted"
SETTINGS_VARIABLES = (
    "DISCORD_TOKEN",
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
def key() -> str:
    return generate_key()


@pytest.fixture
def database_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.db"


@pytest.fixture
def env(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fake_server: RunningFakeServer,
    key: str,
    database_file: Path,
) -> pytest.MonkeyPatch:
    """A complete, working configuration; no .env file is read (the cwd is empty)."""
    monkeypatch.chdir(tmp_path)
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD_TOKEN)
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
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str, database_file: Path
) -> None:
    await migrated(database_file)
    status, lines = await run_check(capsys, key)
    assert status == 0
    assert list(lines) == ["settings", "database", "encryption key", "magisterium", "discord token"]
    assert all(line.startswith("ok") for line in lines.values()), lines
    assert f"at revision {HEAD_REVISION}" in lines["database"]
    assert "accepted MAGISTERIUM_TOKEN" in lines["magisterium"]
    assert lines["discord token"] == "ok — set (not verified: check never connects to Discord)"


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


async def test_missing_discord_token(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.delenv("DISCORD_TOKEN")
    status, lines = await run_check(capsys)
    assert status == 1
    assert lines["discord token"].startswith("failed — DISCORD_TOKEN is not set")


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

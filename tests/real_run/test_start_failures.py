"""How ``python -m bot run`` starts on the stand-in, as an operator reads it: a token Discord
refuses stops it with one ERROR line (exit status 2, no traceback) after the start's INFO
lines; a start that migrates the database says so once, and says its revision once, with
none of alembic's lines or discord.py's voice warnings. The failures that need no Discord are
in tests/bot/cli/test_run_start_failures.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage.migrate import HEAD_REVISION
from devtools.discord_standin import running_standin
from devtools.fake_magisterium import RunningFakeServer
from tests.bot.cli.test_check import migrated
from tests.bot.cli.test_run_start_failures import run
from tests.support.real_run import START_TIMEOUT, bot_env, running_bot

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

REFUSED_TOKEN = "MTAx.a-token-discord-does-not-know"


def loggers(log: str) -> list[str]:
    """The level and logger of each line (text format: date, time, level, ``logger:``, …)."""
    return [" ".join(line.split(" ", 4)[2:4]).removesuffix(":") for line in log.splitlines()]


async def test_a_token_discord_refuses_is_one_line(
    upstream: RunningFakeServer, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    async with running_standin() as standin:
        env = bot_env(
            standin, upstream.url, f"sqlite+aiosqlite:///{database}", DISCORD_TOKEN=REFUSED_TOKEN
        )
        async with asyncio.timeout(START_TIMEOUT + 60), running_bot(env, tmp_path) as bot:
            status = await bot.exited(timeout=START_TIMEOUT)

    log = bot.log()
    assert status == 2, log
    assert "Traceback" not in log and REFUSED_TOKEN not in log
    assert loggers(log) == [
        "INFO bot.storage.migrate",
        "INFO discord.client",
        "ERROR bot.cli.start_failures",
    ], log
    created, _login, refused = log.splitlines()
    assert created.endswith(
        f"database sqlite+aiosqlite:///{database} created at revision {HEAD_REVISION}"
    )
    assert refused.endswith(
        f"Discord refused DISCORD_TOKEN (401 Unauthorized from {standin.api_base}): copy the "
        "bot's token from the Discord developer portal (your application, Bot page, Reset Token) "
        "into DISCORD_TOKEN"
    )
    assert [(r.path, r.status) for r in standin.rest.requests] == [("/users/@me", 401)]
    assert not standin.gateway.events


async def test_a_start_that_migrates_says_so_once(
    upstream: RunningFakeServer, tmp_path: Path
) -> None:
    url = await migrated(tmp_path / "data" / "bot.db", "0009")
    async with running_standin() as standin:
        standin.world.add_guild("St Anne's Parish")
        env = bot_env(standin, upstream.url, url)
        async with asyncio.timeout(START_TIMEOUT + 60), running_bot(env, tmp_path) as bot:
            await standin.connected({0}, timeout=START_TIMEOUT)
            assert await bot.terminate(timeout=30) == 0

    lines = bot.log().splitlines()
    migrations = [line for line in lines if "migrated" in line]
    assert [line.split(": ", 1)[1] for line in migrations] == [
        f"database {url} migrated from 0009 to {HEAD_REVISION}"
    ]
    revisions = [line for line in lines if f"at revision {HEAD_REVISION}" in line]
    assert len(revisions) == 1, lines
    assert not [line for line in lines if " alembic." in line or "voice" in line], lines
    assert not [level for level in loggers(bot.log()) if not level.startswith("INFO ")], lines


@pytest.mark.parametrize(
    ("options", "settings", "refusal"),
    [
        ((), {"DISCORD_TOKEN": REFUSED_TOKEN}, "Discord refused DISCORD_TOKEN (401 Unauthorized"),
        (
            ("--guild", "4242"),
            {},
            "Discord refused to register the commands in server 4242 (403 Missing Access): add "
            "the app to that server",
        ),
    ],
    ids=["refused token", "a server the app is not in"],
)
async def test_sync_refused_by_discord_is_one_line(
    upstream: RunningFakeServer,
    tmp_path: Path,
    options: tuple[str, ...],
    settings: dict[str, str],
    refusal: str,
) -> None:
    """`python -m bot sync` as an operator runs it against a Discord that says no."""
    async with running_standin() as standin:
        env = bot_env(standin, upstream.url, f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        result = await run(tmp_path, {**env, **settings}, command="sync", command_args=options)
    assert REFUSED_TOKEN not in result.output
    assert refusal in result.the_failure()

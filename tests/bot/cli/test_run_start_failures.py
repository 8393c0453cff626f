"""`python -m bot run` that cannot start, as a child process: exit status 2 and one ERROR line
naming what to fix, after only the INFO lines of a normal start; no traceback, unless at DEBUG
(``-v`` or ``LOG_LEVEL=DEBUG``). None of these reaches a Discord: the database and key are
checked before Discord is contacted, and DISCORD_API_BASE_URL is a closed port. A token that
Discord refuses is in tests/real_run/test_start_failures.py (it needs the stand-in)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.accounts import (
    MissingEncryptionKey,
    StoredTokensNeedTheirKey,
    TokenCipher,
    TokenRegistry,
    generate_key,
)
from bot.cli.start_failures import explain
from bot.settings import Settings
from bot.storage import Database
from bot.storage.migrate import HEAD_REVISION
from devtools.bench.real_run import BOT_SETTING_PREFIXES
from tests.bot.cli.test_check import migrated
from tests.support.databases import closed_port
from tests.support.real_run import START_TIMEOUT

DISCORD_TOKEN = "MTAx.run-start-failures.never-printed"
THE_FAILURE = "bot.cli.start_failures"  # the logger of the one ERROR line


class Run:
    """What one ``python -m bot run`` printed (stdout and stderr, in order) and its status."""

    def __init__(self, status: int, output: str) -> None:
        self.status = status
        self.output = output
        self.lines = output.splitlines()

    def loggers(self) -> list[str]:
        """The logger of each line (text format: date, time, level, ``logger:``, message)."""
        return [line.split(" ", 4)[3].removesuffix(":") for line in self.lines]

    def only_line(self) -> str:
        """The message of the one line a failure before Discord prints."""
        assert self.status == 2, self.output
        assert len(self.lines) == 1, self.output
        return self.the_failure()

    def the_failure(self) -> str:
        """The message of the last line: the one ERROR line, with no traceback anywhere."""
        assert self.status == 2, self.output
        assert "Traceback" not in self.output, self.output
        assert DISCORD_TOKEN not in self.output
        levels = [line.split(" ", 4)[2] for line in self.lines]
        assert levels == ["INFO"] * (len(levels) - 1) + ["ERROR"], self.output
        assert self.loggers()[-1] == THE_FAILURE
        return self.lines[-1].split(" ", 4)[4]


@pytest.fixture
def database_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.db"


@pytest.fixture
def settings(database_file: Path, key: str) -> dict[str, str]:
    """A configuration that would start but for Discord, at a port nothing listens on."""
    return {
        "DISCORD_TOKEN": DISCORD_TOKEN,
        "DISCORD_API_BASE_URL": f"http://127.0.0.1:{closed_port()}/api/v10",
        "DATABASE_URL": f"sqlite+aiosqlite:///{database_file}",
        "TOKEN_ENCRYPTION_KEY": key,
        "LOG_LEVEL": "INFO",
    }


async def run(
    tmp_path: Path,
    settings: dict[str, str],
    *options: str,
    command: str = "run",
    command_args: tuple[str, ...] = (),
) -> Run:
    """``python -m bot [options] run`` (or ``command`` with ``command_args``) from an empty
    directory (no .env), with ``settings`` and none of the machine's bot settings."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith((*BOT_SETTING_PREFIXES, "LOG_", "SENTRY_"))
    }
    env.update(settings, PYTHONUNBUFFERED="1")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *options,
        command,
        *command_args,
        cwd=tmp_path,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    async with asyncio.timeout(START_TIMEOUT):
        output, _ = await process.communicate()
    assert process.returncode is not None
    return Run(process.returncode, output.decode())


async def with_a_stored_token(database_file: Path, key: str) -> None:
    url = await migrated(database_file)
    async with Database(url) as db:
        await TokenRegistry(db, TokenCipher.from_setting(key)).link(7, SecretStr("pro-stored"))


async def execute(url: str, statement: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


async def test_an_unreachable_database(tmp_path: Path, settings: dict[str, str]) -> None:
    port = closed_port()
    settings["DATABASE_URL"] = f"postgresql+asyncpg://bot:secret-pw@127.0.0.1:{port}/bot"
    line = (await run(tmp_path, settings)).only_line()
    assert line.startswith("cannot use the database at postgresql+asyncpg://bot:")
    assert f"@127.0.0.1:{port}/bot (DATABASE_URL): " in line
    assert line.endswith("that the database server is up and takes connections from here")
    assert "secret-pw" not in line


async def test_a_key_that_is_no_key_stops_before_the_database(
    tmp_path: Path, settings: dict[str, str], database_file: Path
) -> None:
    settings["TOKEN_ENCRYPTION_KEY"] = "not-a-fernet-key"
    line = (await run(tmp_path, settings)).only_line()
    assert line.startswith("TOKEN_ENCRYPTION_KEY: key 1 of 1 is not a valid Fernet key")
    assert "`python -m bot genkey`" in line
    assert not await asyncio.to_thread(database_file.exists)


async def test_stored_tokens_and_no_key(
    tmp_path: Path, settings: dict[str, str], database_file: Path, key: str
) -> None:
    await with_a_stored_token(database_file, key)
    del settings["TOKEN_ENCRYPTION_KEY"]
    line = (await run(tmp_path, settings)).only_line()
    assert line == (
        "1 token is stored but TOKEN_ENCRYPTION_KEY is not set: set it to the key they were "
        "stored with (a new key from `python -m bot genkey` cannot read them)"
    )


def test_what_bot_start_raises_about_the_key_gets_the_same_advice() -> None:
    """``sync`` (and ``run`` past its own checks) meet key errors only in what ``bot.start()``
    raises: the stored tokens' key is asked for, never a new one that reads none of them."""
    settings = Settings(_env_file=None, discord_token=SecretStr(DISCORD_TOKEN))  # type: ignore[call-arg]
    stored = StoredTokensNeedTheirKey("1 token is stored but TOKEN_ENCRYPTION_KEY is not set")
    failure = explain(stored, settings)
    assert failure is not None and "set it to the key they were stored with" in str(failure)
    about_to_store = MissingEncryptionKey(
        "Sign in with Magisterium (PUBLIC_BASE_URL) stores tokens"
    )
    assert "`python -m bot genkey` makes a key" in str(explain(about_to_store, settings))


async def test_stored_tokens_and_another_key(
    tmp_path: Path, settings: dict[str, str], database_file: Path, key: str
) -> None:
    await with_a_stored_token(database_file, key)
    settings["TOKEN_ENCRYPTION_KEY"] = generate_key()
    line = (await run(tmp_path, settings)).only_line()
    assert line.startswith("TOKEN_ENCRYPTION_KEY decrypts none of the 1 stored tokens")
    assert line.endswith("then run `python -m bot rotate-keys`.")


async def test_a_database_at_a_revision_this_version_does_not_know(
    tmp_path: Path, settings: dict[str, str], database_file: Path
) -> None:
    url = await migrated(database_file)
    await execute(url, "UPDATE alembic_version SET version_num = '9999'")
    line = (await run(tmp_path, settings)).only_line()
    assert line == (
        f"the database at sqlite+aiosqlite:///{database_file} is at revision 9999, which this "
        f"version of the bot does not know (its newest is {HEAD_REVISION}): run the version that "
        "migrated it, or point DATABASE_URL at a database of this version"
    )


async def test_a_migration_that_fails_changes_nothing(
    tmp_path: Path, settings: dict[str, str], database_file: Path
) -> None:
    url = await migrated(database_file, "0009")
    await execute(url, "CREATE TABLE ask_channels (channel_id INTEGER)")  # in 0010's way
    line = (await run(tmp_path, settings)).only_line()
    assert line.startswith(
        f"migrating the database at {url} from revision 0009 to {HEAD_REVISION} failed, and "
        "changed nothing: table ask_channels already exists; `python -m bot check` shows"
    )
    async with Database(url) as db:
        assert await db.revision() == "0009"


async def test_a_read_only_database(
    tmp_path: Path, settings: dict[str, str], database_file: Path
) -> None:
    await migrated(database_file, "0009")
    # Read-only for any user, root included (file permissions are not, for root).
    settings["DATABASE_URL"] = f"sqlite+aiosqlite:///file:{database_file}?mode=ro&uri=true"
    line = (await run(tmp_path, settings)).only_line()
    assert "attempt to write a readonly database" in line
    assert line.endswith(
        "check DATABASE_URL, and that this process may write the file and its directory"
    )


async def test_an_unreachable_discord_after_the_start_lines(
    tmp_path: Path, settings: dict[str, str], database_file: Path
) -> None:
    await migrated(database_file)
    result = await run(tmp_path, settings)
    line = result.the_failure()
    # A database at the head already: no migration line; the login's, then the failure.
    assert result.loggers() == ["discord.client", THE_FAILURE]
    assert line.startswith(f"cannot reach Discord at {settings['DISCORD_API_BASE_URL']}: ")
    assert line.endswith(
        "check this machine's network and DNS (and DISCORD_API_BASE_URL, when it is set)"
    )


async def test_sync_says_it_in_the_same_one_line(
    tmp_path: Path, settings: dict[str, str], database_file: Path
) -> None:
    """`python -m bot sync` meets the same Discord (and the same database) as run: the same
    one line, exit status 2, no traceback."""
    await migrated(database_file)
    line = (await run(tmp_path, settings, command="sync")).the_failure()
    assert line.startswith(f"cannot reach Discord at {settings['DISCORD_API_BASE_URL']}: ")


@pytest.mark.parametrize(
    ("options", "level"), [(("-v",), "INFO"), ((), "DEBUG")], ids=["-v", "LOG_LEVEL=DEBUG"]
)
async def test_the_debug_switch_shows_the_traceback(
    tmp_path: Path, settings: dict[str, str], options: tuple[str, ...], level: str
) -> None:
    settings["DATABASE_URL"] = f"postgresql+asyncpg://bot@127.0.0.1:{closed_port()}/bot"
    settings["LOG_LEVEL"] = level
    result = await run(tmp_path, settings, *options)
    assert result.status == 2
    errors = [line for line in result.lines if " ERROR " in line]
    assert len(errors) == 1 and "cannot use the database at" in errors[0]
    after = result.output[result.output.index(errors[0]) :]
    assert after.count("Traceback (most recent call last):") >= 2  # the cause's, then the line's
    assert "ConnectionRefusedError" in after and "StartFailure" in after


async def test_in_json_the_line_is_one_object(tmp_path: Path, settings: dict[str, str]) -> None:
    settings["DATABASE_URL"] = f"postgresql+asyncpg://bot@127.0.0.1:{closed_port()}/bot"
    settings["LOG_FORMAT"] = "json"
    result = await run(tmp_path, settings)
    assert result.status == 2 and len(result.lines) == 1, result.output
    record = json.loads(result.lines[0])
    assert record["level"] == "ERROR" and record["logger"] == THE_FAILURE
    assert record["message"].startswith("cannot use the database at") and "exc_info" not in record

"""The real run path under test: ``python -m bot run`` as a child process, on the stand-in.

Each bot is a process of its own, started from a directory with no ``.env``, with the
environment an operator would give it: the stand-in's REST base (the gateway comes from its
``/gateway/bot``), the fake Magisterium's URL, a database, and whatever the test adds. Its log
(stdout and stderr) goes to a file the test can read; a bot still running when its test ends
is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.accounts import generate_key
from bot.daily import Feed, ScheduleStore
from bot.storage import Database

# Shared with the benches: the cold-start bound, and the commands of one real `bot sync`.
from devtools.bench.real_run import BOT_SETTING_PREFIXES, START_TIMEOUT, registered_commands
from devtools.discord_standin import StandIn
from tests.support.paths import REPO

ROOT = REPO
SHARED_TOKEN = "pro-operator-token"  # the fake Magisterium treats "pro-" tokens as Pro plans


__all__ = ["START_TIMEOUT", "BotProcess", "bot_env", "registered_commands", "running_bot"]


def bot_env(standin: StandIn, upstream_url: str, database_url: str, **extra: str) -> dict[str, str]:
    """The environment of one bot process: the machine's, minus any bot setting, plus these."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(BOT_SETTING_PREFIXES)}
    env.update(
        DISCORD_TOKEN=standin.token,
        DISCORD_API_BASE_URL=standin.api_base,
        MAGISTERIUM_API_URL=upstream_url,
        MAGISTERIUM_TOKEN=SHARED_TOKEN,
        DATABASE_URL=database_url,
        TOKEN_ENCRYPTION_KEY=KEY,
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


KEY = generate_key()


class BotProcess:
    """One ``python -m bot run``: its process, and its log (stdout and stderr), read as it is
    written, so that a test can await a line (:meth:`logged`); also kept in ``log_path``."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path) -> None:
        self.process = process
        self.log_path = log_path
        self.lines: list[str] = []
        self._new_line = asyncio.Event()
        self._reader = asyncio.create_task(self._read(), name=f"log of {log_path.name}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return "".join(self.lines)

    async def _read(self) -> None:
        assert self.process.stdout is not None
        with self.log_path.open("a", encoding="utf-8") as file:
            async for raw in self.process.stdout:
                line = raw.decode("utf-8", errors="replace")
                file.write(line)
                self.lines.append(line)
                self._new_line.set()
        self._new_line.set()  # EOF: whoever waits sees that no more lines will come

    async def logged(self, pattern: str, *, timeout: float) -> re.Match[str]:
        """The first match of ``pattern`` in the log, awaited as lines arrive."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    self._new_line.clear()
                    found = re.search(pattern, self.log())
                    if found:
                        return found
                    if self._reader.done():
                        raise AssertionError(f"the bot exited without logging {pattern!r}")
                    await self._new_line.wait()
        except TimeoutError:
            raise AssertionError(
                f"after {timeout} s, {pattern!r} is not in the bot's log"
            ) from None

    async def terminate(self, *, timeout: float = 60.0) -> int:
        """SIGTERM, then the exit status (within ``timeout``)."""
        self.process.send_signal(signal.SIGTERM)
        return await self.exited(timeout=timeout)

    async def exited(self, *, timeout: float) -> int:
        """The exit status, once the process has exited and its log has been read to the end."""
        try:
            async with asyncio.timeout(timeout):
                status = await self.process.wait()
                await self._reader
                return status
        except TimeoutError:
            raise AssertionError(
                f"the bot did not exit in {timeout} s; log:\n{self.log()}"
            ) from None

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()
        await self._reader


async def start_bot(env: dict[str, str], workdir: Path, name: str = "bot") -> BotProcess:
    await asyncio.to_thread(workdir.mkdir, parents=True, exist_ok=True)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        cwd=workdir,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    return BotProcess(process, workdir / f"{name}.log")


@contextlib.asynccontextmanager
async def running_bot(
    env: dict[str, str], workdir: Path, name: str = "bot"
) -> AsyncIterator[BotProcess]:
    """A bot process for the length of the block; killed if it is still running after it."""
    bot = await start_bot(env, workdir, name)
    try:
        yield bot
    finally:
        await bot.kill()


async def seed_daily_post(
    database_url: str,
    *,
    guild_id: int,
    channel_id: int,
    feed: Feed = Feed.SAINTS,
    now: dt.datetime | None = None,
) -> None:
    """A daily post whose slot was a minute ago (UTC): the bot's first tick sends it."""
    now = now or dt.datetime.now(dt.UTC)
    async with Database(database_url) as db:
        await db.migrate()
        await ScheduleStore(db).save(
            guild_id=guild_id,
            feed=feed,
            channel_id=channel_id,
            post_time=(now - dt.timedelta(minutes=1)).time().replace(second=0, microsecond=0),
            timezone="UTC",
            role_id=None,
            owner_id=guild_id + 2,  # the stand-in's owner of that server
            token_source="shared",
            now=now - dt.timedelta(minutes=10),
        )


def embed_titles(messages: list[Any]) -> list[str]:
    """The embed titles of stored or JSON messages, in order."""
    titles: list[str] = []
    for message in messages:
        data = message if isinstance(message, dict) else message.data
        titles.extend(str(e.get("title") or "") for e in data.get("embeds") or [])
    return titles

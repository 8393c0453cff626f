"""Process orchestration for the benches over the real run path (``bench/real_run_load.py``,
the daily fan-out bench): ``python -m bot run`` (or the floor, :mod:`devtools.bench.floor_bot`)
as shard processes on the Discord stand-in, a fresh PostgreSQL database, Redis, linked tokens,
and what ``/proc`` says of each process (CPU, RSS).

Unlike ``tests/support/real_run.py`` (which reads each child's log as it is written, so
that a test can await a line), a bench's children write their logs straight to files: the
bench's own event loop, which also serves the stand-in, does no work for them.

API:

- :func:`fresh_postgres` – ``async with`` a new database on the local server: its URL (dropped
  afterwards);
- :func:`bot_env` – one shard process's environment (the machine's, minus bot settings);
- :func:`start_child`, :class:`Child` – a child process: ``pid``, ``cpu_seconds()``,
  ``memory()`` (VmRSS, VmHWM), ``reset_peak()``, ``terminate()``, ``kill()``, ``log()``;
- :func:`running_shards` – ``async with`` ``count`` shard processes (``SHARD_COUNT=count``,
  ``SHARD_IDS=i``) of one command (:data:`BOT_COMMAND` or :data:`FLOOR_COMMAND`); killed at
  the end if still running;
- :func:`registered_commands` – the commands a real ``python -m bot sync`` registers;
- :func:`guild_id_on` – a guild snowflake on a given shard;
- :func:`link_tokens` – people's own tokens, stored encrypted as ``/account link`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.accounts import TokenCipher, TokenRegistry
from bot.storage import Database
from devtools.discord.wire import JSON
from devtools.discord_standin import StandIn, running_standin, shard_of

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_SERVER = os.environ.get(
    "BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
BOT_COMMAND = ("-m", "bot", "run")
FLOOR_COMMAND = ("-m", "devtools.bench.floor_bot")
# A cold start of a child interpreter on a loaded 2-core machine.
START_TIMEOUT = 90.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
DISCORD_EPOCH_MS = 1_420_070_400_000
# The environment variables a bot reads: a child process gets none of the machine's.
BOT_SETTING_PREFIXES = (
    "DISCORD_",
    "MAGISTERIUM_",
    "DATABASE_",
    "REDIS_",
    "WEB_",
    "OPERATOR_",
    "SHARD_",
    "TOKEN_",
    "PUBLIC_",
    "OAUTH_",
)


# --- PostgreSQL ------------------------------------------------------------------------------


async def _admin(server_url: str, statement: str) -> None:
    """One statement (CREATE/DROP DATABASE) outside a transaction, as the server's admin."""
    engine = create_async_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def fresh_postgres(server_url: str = POSTGRES_SERVER) -> AsyncIterator[str]:
    """A new, migrated database on ``server_url``'s server (trust auth): its URL; dropped at
    the end."""
    name = f"mgb_bench_{uuid.uuid4().hex[:16]}"
    await _admin(server_url, f'CREATE DATABASE "{name}"')
    url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
    try:
        async with Database(url) as db:
            await db.migrate()
        yield url
    finally:
        await _admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def link_tokens(
    database_url: str, key: str, people: Sequence[tuple[int, str]], *, concurrency: int = 16
) -> None:
    """Each (user id, token) linked, encrypted with ``key`` (the bots' TOKEN_ENCRYPTION_KEY),
    as ``/account link`` stores it."""
    async with Database(database_url) as db:
        registry = TokenRegistry(db, TokenCipher.from_setting(key))
        gate = asyncio.Semaphore(concurrency)

        async def link(user_id: int, token: str) -> None:
            async with gate:
                await registry.link(user_id, SecretStr(token))

        await asyncio.gather(*(link(user_id, token) for user_id, token in people))


# --- the processes ---------------------------------------------------------------------------


def bot_env(
    standin: StandIn,
    *,
    upstream_url: str,
    database_url: str,
    key: str | None,
    token: str,
    **extra: str,
) -> dict[str, str]:
    """The environment of one process: the machine's, minus any bot setting, plus these
    (``key``: TOKEN_ENCRYPTION_KEY, unset when None)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(BOT_SETTING_PREFIXES)}
    env.update(
        DISCORD_TOKEN=standin.token,
        DISCORD_API_BASE_URL=standin.api_base,
        MAGISTERIUM_API_URL=upstream_url,
        MAGISTERIUM_TOKEN=token,
        DATABASE_URL=database_url,
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    )
    if key is not None:
        env["TOKEN_ENCRYPTION_KEY"] = key
    env.update(extra)
    return env


@dataclass(frozen=True)
class Memory:
    rss_kib: int  # VmRSS
    peak_kib: int  # VmHWM (since the last reset_peak)


class Child:
    """One child process, its log in a file."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path) -> None:
        self.process = process
        self.log_path = log_path

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        """utime + stime so far (``/proc/<pid>/stat``)."""
        raw = Path(f"/proc/{self.pid}/stat").read_text()
        fields = raw.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def memory(self) -> Memory:
        """VmRSS and VmHWM (``/proc/<pid>/status``)."""
        values: dict[str, int] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
        return Memory(values.get("VmRSS", 0), values.get("VmHWM", 0))

    def reset_peak(self) -> None:
        """VmHWM back to the current RSS (``clear_refs`` 5), so that the next reading is the
        peak since now."""
        with contextlib.suppress(OSError):
            Path(f"/proc/{self.pid}/clear_refs").write_text("5")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def terminate(self, *, timeout: float = 60.0) -> int:  # noqa: ASYNC109
        """SIGTERM, then the exit status (killed if it has not exited within ``timeout``)."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(timeout):
                return await self.process.wait()
        except TimeoutError:
            await self.kill()
            raise AssertionError(f"{self.log_path.name} did not exit in {timeout} s") from None

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()


async def start_child(
    command: Sequence[str], env: dict[str, str], workdir: Path, name: str
) -> Child:
    """``python <command>`` in ``workdir`` (no ``.env`` there), its output in ``name``.log."""
    await asyncio.to_thread(workdir.mkdir, parents=True, exist_ok=True)
    log_path = workdir / f"{name}.log"
    with log_path.open("ab") as log_file:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *command,
            cwd=workdir,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log_file,
            stderr=asyncio.subprocess.STDOUT,
        )
    return Child(process, log_path)


@contextlib.asynccontextmanager
async def running_shards(
    command: Sequence[str],
    env_of: Callable[[int], dict[str, str]],
    count: int,
    workdir: Path,
    name: str,
) -> AsyncIterator[list[Child]]:
    """``count`` processes of ``command``, process ``i`` with ``SHARD_COUNT=count`` and
    ``SHARD_IDS=i`` (added to ``env_of(i)``); those still running at the end are killed."""
    children: list[Child] = []
    try:
        for shard in range(count):
            env = {**env_of(shard), "SHARD_COUNT": str(count), "SHARD_IDS": str(shard)}
            children.append(
                await start_child(command, env, workdir / f"{name}{shard}", f"{name}{shard}")
            )
        yield children
    finally:
        for child in children:
            await child.kill()


_registered: list[JSON] = []


async def registered_commands(workdir: Path) -> list[JSON]:
    """The commands ``python -m bot sync`` registers (captured once, from a real sync against
    a stand-in), so that a stand-in types its interactions' options as Discord would."""
    if not _registered:
        async with running_standin() as standin:
            env = bot_env(
                standin,
                upstream_url="http://127.0.0.1:9/a2a",
                database_url=f"sqlite+aiosqlite:///{workdir / 'sync.db'}",
                key=None,
                token="pro-sync",
            )
            sync = await start_child(("-m", "bot", "sync"), env, workdir, "sync")
            async with asyncio.timeout(START_TIMEOUT):
                status = await sync.process.wait()
            if status != 0:
                raise RuntimeError(f"python -m bot sync exited {status}:\n{sync.log()}")
            _registered.extend(standin.commands.registered.values())
    return [dict(c) for c in _registered]


def guild_id_on(shard: int, shard_count: int) -> int:
    """A guild snowflake (a day or more old) on ``shard`` of ``shard_count``, with room for
    the +1 and +2 the stand-in gives its bot role and owner."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS - 86_400_000 - secrets.randbelow(10**9)
    ms -= (ms - shard) % shard_count
    guild_id = (ms << 22) | secrets.randbits(20)
    assert shard_of(guild_id, shard_count) == shard
    return guild_id

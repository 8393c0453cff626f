"""The image run against the Discord stand-in and the fake Magisterium, on this machine's
loopback, as docker-compose.yml runs it (:mod:`devtools.image.contained`), on its default
SQLite database in the /app/data volume.

``magisterium-bot sync`` registers the commands; ``run`` starts, and is timed from its start to
its operator /healthz answering 200 (alive) and to /readyz answering 200 (gateway identified,
database answering). The image's own HEALTHCHECK command then runs inside it (exit 0), and
against a port where nothing listens (exit non-zero). The bot answers /ask, a diocese's
statistics chart (matplotlib, whose cache must be writable) and a DM; its memory is read from
its /metrics; SIGTERM stops it, timed, with exit status 0. Its log must hold no traceback and
no write refused by the read-only root.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from bot.accounts import generate_key
from devtools.discord_standin import Channel, Person, StandIn, running_standin
from devtools.fake_magisterium import FakeMagisterium, running_fake_server
from devtools.image.buildah import ImageFacts
from devtools.image.contained import contained_argv

START_TIMEOUT = 120.0
ANSWER_TIMEOUT = 60.0
STOP_TIMEOUT = 40.0  # docker-compose.yml's stop_grace_period, and some
POLL_SECONDS = 0.05
# What the log must not say: a crash, or a write the read-only root refused.
LOG_PROBLEMS = re.compile(r"Traceback|Read-only file system|Permission denied|mkdir -p failed")
STATISTICS_BUTTON = "lookup:stats:diocese:i:diocese-seoul"


class CheckFailed(AssertionError):
    """The image did not do what the check expects: what, in one line."""


@dataclass(frozen=True)
class Figures:
    alive_after: float  # seconds from the process's start to /healthz 200
    ready_after: float  # ... to /readyz 200
    healthcheck_exit: int
    healthcheck_exit_wrong_port: int
    answered: tuple[str, ...]
    resident_bytes: float
    stop_after: float  # seconds from SIGTERM to exit
    exit_status: int


@dataclass(frozen=True)
class Container:
    """Where the image's files are and how to run one of its commands there."""

    rootfs: Path
    facts: ImageFacts
    volumes: Mapping[str, Path]

    def argv(self, command: Sequence[str], env: Mapping[str, str]) -> list[str]:
        return contained_argv(self.rootfs, self.volumes, self.facts, command, env)


async def check_image(container: Container, log_path: Path) -> Figures:
    if not container.facts.healthcheck:
        raise CheckFailed("the image has no HEALTHCHECK (was it built in OCI format?)")
    async with (
        running_fake_server(FakeMagisterium()) as upstream,
        running_standin() as standin,
    ):
        operator_port = free_port()
        env = {
            "DISCORD_TOKEN": standin.token,
            "DISCORD_API_BASE_URL": standin.api_base,
            "MAGISTERIUM_API_URL": upstream.url,
            "MAGISTERIUM_TOKEN": "pro-image-check",  # the fake's Pro plan: no quota in the way
            "TOKEN_ENCRYPTION_KEY": generate_key(),
            "WEB_PORT": str(free_port()),
            "OPERATOR_PORT": str(operator_port),
            "LOG_LEVEL": "INFO",
        }
        entrypoint = container.facts.entrypoint
        synced = await run_to_end(container.argv([*entrypoint, "sync"], env), log_path)
        if synced != 0:
            raise CheckFailed(f"`{' '.join(entrypoint)} sync` exited {synced}: see {log_path}")
        parish = standin.world.add_guild("St Anne's Parish")
        ann = standin.world.add_person("ann")
        command = [*entrypoint, *container.facts.cmd]
        async with running(container.argv(command, env), log_path) as (bot, started):
            operator = f"http://127.0.0.1:{operator_port}"
            async with aiohttp.ClientSession() as http:
                alive = await until_ok(http, f"{operator}/healthz", bot)
                ready = await until_ok(http, f"{operator}/readyz", bot)
                healthy = await run_to_end(container.argv(container.facts.healthcheck, env))
                wrong = {**env, "OPERATOR_PORT": str(free_port())}
                unhealthy = await run_to_end(container.argv(container.facts.healthcheck, wrong))
                answered = await exercise(standin, parish.channels[0], ann)
                resident = await resident_memory(http, f"{operator}/metrics")
            stopping = time.monotonic()
            bot.send_signal(signal.SIGTERM)
            async with asyncio.timeout(STOP_TIMEOUT):
                status = await bot.wait()
            stopped = time.monotonic()
    log = await asyncio.to_thread(log_path.read_text)
    problems = [line for line in log.splitlines() if LOG_PROBLEMS.search(line)]
    if problems:
        raise CheckFailed(f"the bot's log says: {problems[0][:300]}")
    return Figures(
        alive_after=alive - started,
        ready_after=ready - started,
        healthcheck_exit=healthy,
        healthcheck_exit_wrong_port=unhealthy,
        answered=answered,
        resident_bytes=resident,
        stop_after=stopped - stopping,
        exit_status=status,
    )


async def exercise(standin: StandIn, channel: Channel, person: Person) -> tuple[str, ...]:
    """/ask, a diocese's statistics chart and a DM, each answered: what was answered."""
    asked = await standin.slash(person, channel, "ask", question="What is grace?")
    answer = (await standin.answered(asked, timeout=ANSWER_TIMEOUT))[-1]
    if not answer.data.get("embeds"):
        raise CheckFailed(f"/ask was answered without an embed: {answer.data}")
    looked_up = await standin.slash(person, channel, "diocese", name="Seoul")
    diocese = (await standin.answered(looked_up, timeout=ANSWER_TIMEOUT))[-1]
    clicked = await standin.click(person, diocese, STATISTICS_BUTTON)
    chart = (await standin.answered(clicked, timeout=ANSWER_TIMEOUT))[-1]
    images = [embed.get("image", {}).get("url") for embed in chart.data.get("embeds", [])]
    if "attachment://statistics.png" not in images:
        raise CheckFailed(f"the statistics button sent no chart: {chart.data}")
    dm = await standin.dm(person, "What is baptism?")
    replies = await standin.replies_in(dm, 1, timeout=ANSWER_TIMEOUT)
    if not replies[-1].get("embeds"):
        raise CheckFailed(f"the DM was answered without an embed: {replies[-1]}")
    return ("/ask", "/diocese and its statistics chart", "a DM question")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run_to_end(argv: Sequence[str], log_path: Path | None = None) -> int:
    """The exit status of a command (its output appended to ``log_path``, else dropped)."""
    with contextlib.ExitStack() as files:
        output = (
            files.enter_context(log_path.open("ab")) if log_path else asyncio.subprocess.DEVNULL
        )
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=output, stderr=output
        )
        async with asyncio.timeout(START_TIMEOUT):
            return await process.wait()


@contextlib.asynccontextmanager
async def running(
    argv: Sequence[str], log_path: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, float]]:
    """The process and when it started (``time.monotonic``); killed if still running at the
    end."""
    with log_path.open("ab") as log:
        started = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log
        )
        try:
            yield process, started
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


async def until_ok(
    http: aiohttp.ClientSession, url: str, process: asyncio.subprocess.Process
) -> float:
    """When ``url`` first answered 200 (``time.monotonic``), asked every POLL_SECONDS: an
    outside observer of a process has nothing to await but the answer itself."""
    async with asyncio.timeout(START_TIMEOUT):
        while process.returncode is None:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(url, timeout=aiohttp.ClientTimeout(total=2)) as response:
                    if response.status == 200:
                        return time.monotonic()
            await asyncio.sleep(POLL_SECONDS)
    raise CheckFailed(f"the bot exited ({process.returncode}) before {url} answered 200")


async def resident_memory(http: aiohttp.ClientSession, url: str) -> float:
    async with http.get(url) as response:
        text = await response.text()
    found = re.search(r"^process_resident_memory_bytes (\S+)$", text, re.MULTILINE)
    if found is None:
        raise CheckFailed("/metrics has no process_resident_memory_bytes (is /proc mounted?)")
    return float(found[1])

"""Graceful shutdown: work in flight finishes (or is cut off at the bound), new work is turned
away, and the bot closes its gateway and services."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import lifecycle
from bot.app.composition import Services
from bot.app.lifecycle import drain_and_close, install_signal_handlers
from bot.cli import bot_commands
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_not_shown, shown
from tests.support.fakes import upstream_received

QUESTION = "What is grace?"
RESTARTING = "The bot is restarting — try again in a minute."
# A hang guard, not a wait: each drain below ends long before it.
GUARD_SECONDS = 20.0


class ClosedServices:
    """Which of the bot's pools were closed."""

    def __init__(self, services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
        self.http = services.http
        self.database_closes = 0
        close_database = services.db.close

        async def counting_close() -> None:
            self.database_closes += 1
            await close_database()

        monkeypatch.setattr(services.db, "close", counting_close)

    @property
    def all_closed(self) -> bool:
        return self.http.is_closed and self.database_closes == 1


@pytest.fixture
def closed(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> ClosedServices:
    return ClosedServices(harness.bot.services, monkeypatch)


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def at(self, level: int) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno == level]


@pytest.fixture
def shutdown_logs() -> Iterator[Records]:
    """What bot.app.lifecycle logged at INFO and above during the test."""
    logger = logging.getLogger(lifecycle.__name__)
    handler, level = Records(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


async def test_an_answer_in_flight_is_sent_before_the_bot_closes(
    harness: Harness,
    fake: FakeMagisterium,
    closed: ClosedServices,
    shutdown_logs: Records,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    received = upstream_received(fake, monkeypatch)
    fake.faults.add(Fault.LATENCY, seconds=0.3, skill="catholic_qa")
    ask = asyncio.create_task(harness.slash("ask", question=QUESTION))
    await received.wait()

    await drain_and_close(harness.bot, grace=GUARD_SECONDS)

    result = await ask
    assert result.embeds and result.embeds[0]["title"] == QUESTION
    assert_not_shown("Restarting", result.embeds)
    assert harness.bot.draining and harness.bot.is_closed()
    assert closed.all_closed
    assert shutdown_logs.at(logging.INFO)[0] == (
        f"shutting down: draining 1 in-flight interactions (up to {GUARD_SECONDS:g} s)"
    )
    assert shutdown_logs.at(logging.WARNING) == []


async def test_closing_again_after_a_drain_is_safe(
    harness: Harness, closed: ClosedServices
) -> None:
    await drain_and_close(harness.bot, grace=1.0)
    await harness.bot.close()  # what `async with` and the harness teardown do next
    assert harness.bot.is_closed()
    assert closed.all_closed  # the database was closed once, not twice


async def test_new_commands_while_draining_are_turned_away_without_upstream_calls(
    harness: Harness, fake: FakeMagisterium
) -> None:
    harness.bot.draining = True
    for result in (
        await harness.slash("help"),
        await harness.slash("ask", question=QUESTION),
        await harness.slash("ask", question=QUESTION, dm=True),
    ):
        assert result.callback_type == 4 and result.ephemeral
        assert [e["description"] for e in result.embeds] == [RESTARTING]
    choices = await harness.autocomplete("readings", "date", "tom")
    assert list(choices.values) == []
    assert fake.count() == 0


async def test_work_outliving_the_grace_period_is_cancelled_and_its_user_told(
    harness: Harness,
    fake: FakeMagisterium,
    closed: ClosedServices,
    shutdown_logs: Records,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    received = upstream_received(fake, monkeypatch)
    fake.faults.add(Fault.LATENCY, seconds=600, skill="catholic_qa")  # never answers in time
    ask = asyncio.create_task(harness.slash("ask", question=QUESTION))
    await received.wait()

    async with asyncio.timeout(GUARD_SECONDS):
        await drain_and_close(harness.bot, grace=0.1)

    result = await ask
    assert result.callback_type == 5  # it had deferred: the user saw "thinking…"
    assert shown(result.embeds, "title") == ["Interrupted"] and result.ephemeral
    assert shutdown_logs.at(logging.WARNING) == [
        "1 in-flight tasks still running after the grace period; cancelling them"
    ]
    assert harness.bot.is_closed() and closed.all_closed


async def test_a_dm_question_while_draining_gets_the_restarting_reply(
    harness: Harness, fake: FakeMagisterium
) -> None:
    harness.bot.draining = True
    exchange = await harness.dm_message(harness.user(), QUESTION)
    assert [e["description"] for e in exchange.reply_embeds] == [RESTARTING]
    assert fake.count() == 0


@pytest.fixture
async def drain_started(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[asyncio.Event]:
    """Set when a signal handler starts a drain; the handlers are removed afterwards."""
    started = asyncio.Event()
    real_drain = lifecycle.drain_and_close

    async def drain(*args: Any, **kwargs: Any) -> None:
        started.set()
        await real_drain(*args, **kwargs)

    monkeypatch.setattr(lifecycle, "drain_and_close", drain)
    yield started
    loop = asyncio.get_running_loop()
    for signum in lifecycle.SHUTDOWN_SIGNALS:
        loop.remove_signal_handler(signum)


async def test_sigterm_drains_and_closes_the_bot(
    harness: Harness, closed: ClosedServices, drain_started: asyncio.Event
) -> None:
    signals = install_signal_handlers(asyncio.get_running_loop(), harness.bot, grace=5.0)
    os.kill(os.getpid(), signal.SIGTERM)
    async with asyncio.timeout(GUARD_SECONDS):
        await drain_started.wait()
        await signals.wait_closed()
    assert harness.bot.draining and harness.bot.is_closed()
    assert closed.all_closed


async def test_a_second_signal_stops_waiting_for_work_in_flight(
    harness: Harness,
    fake: FakeMagisterium,
    closed: ClosedServices,
    drain_started: asyncio.Event,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    received = upstream_received(fake, monkeypatch)
    fake.faults.add(Fault.LATENCY, seconds=600, skill="catholic_qa")
    ask = asyncio.create_task(harness.slash("ask", question=QUESTION))
    await received.wait()
    signals = install_signal_handlers(asyncio.get_running_loop(), harness.bot, grace=600)

    os.kill(os.getpid(), signal.SIGINT)
    async with asyncio.timeout(GUARD_SECONDS):
        await drain_started.wait()
        os.kill(os.getpid(), signal.SIGINT)
        await signals.wait_closed()

    assert shown((await ask).embeds, "title") == ["Interrupted"]
    assert harness.bot.is_closed() and closed.all_closed


class StubBot:
    """Stands in for the bot in `run`: "connected" until something closes it."""

    def __init__(self) -> None:
        self.draining = False
        self.closes = 0
        self._closed = asyncio.Event()

    async def __aenter__(self) -> StubBot:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self, token: str) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # what `docker stop` does
        await self._closed.wait()

    async def close(self) -> None:
        self.closes += 1
        self._closed.set()


class SignalNotHandled(Exception):
    pass


@pytest.fixture
def unhandled_sigterm_fails() -> Iterator[None]:
    """Without this, a SIGTERM that `run` failed to handle would kill the test process."""

    def fail(signum: int, frame: object) -> None:
        raise SignalNotHandled("run installed no SIGTERM handler")

    previous = signal.signal(signal.SIGTERM, fail)
    yield
    signal.signal(signal.SIGTERM, previous)


@pytest.mark.usefixtures("unhandled_sigterm_fails")
def test_run_stops_gracefully_on_sigterm_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env read
    monkeypatch.setenv("DISCORD_TOKEN", "stub-discord-token")
    monkeypatch.setenv("SHUTDOWN_GRACE_SECONDS", "5")
    stub = StubBot()

    async def storage_ok(settings: object) -> None:
        return None

    monkeypatch.setattr(bot_commands, "check_storage", storage_ok)
    monkeypatch.setattr(bot_commands, "create_bot", lambda settings: stub)

    assert bot_commands.run(argparse.Namespace()) == 0
    assert stub.draining and stub.closes >= 1

"""The operator's web server: /healthz, /readyz and /metrics, served by the harness bot on its
own listener (OPERATOR_PORT), never on the public one (WEB_PORT)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.engine import URL, make_url

from bot.a2a.retry import RetryPolicy
from bot.app import MagisteriumBot, create_bot
from bot.settings import Settings
from bot.web import Readiness, WebServer, operator_app
from devtools.discord import Harness
from devtools.discord.fixtures import harness_settings
from devtools.fake_magisterium import FakeMagisterium, Fault, RunningFakeServer
from tests.cogs.daily.test_daily_scheduler import MINUTE, SAINTS, SLOT, daily_cog, set_daily
from tests.support.databases import admin_execute, terminate_connections
from tests.support.embed_parts import assert_shown

SEARCH = "baptism of desire"


def on_a_free_port(settings: Settings) -> Settings:
    """WEB_PORT=0 and OPERATOR_PORT=0: the system picks free ports (settings accept 1-65535
    from operators)."""
    return settings.model_copy(update={"web_port": 0, "operator_port": 0})


@pytest.fixture
def harness_bot(fake_server: RunningFakeServer, migrated_sqlite_url: str) -> MagisteriumBot:
    return create_bot(on_a_free_port(harness_settings(fake_server.url, migrated_sqlite_url)))


@pytest.fixture
async def client() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def url_of(bot: MagisteriumBot, path: str) -> str:
    """On the operator's listener."""
    assert bot.operator_server is not None
    return bot.operator_server.url + path


def readiness_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.web.probes" and r.levelno == logging.WARNING
    ]


async def get(client: aiohttp.ClientSession, url: str) -> tuple[int, str, str]:
    async with client.get(url) as response:
        return response.status, response.headers["Content-Type"], await response.text()


class Samples(dict[tuple[str, frozenset[tuple[str, str]]], float]):
    def of(self, name: str, **labels: str) -> float:
        return self[(name, frozenset(labels.items()))]


async def scrape(client: aiohttp.ClientSession, bot: MagisteriumBot) -> Samples:
    """Every sample of /metrics, read by Prometheus's own parser."""
    status, content_type, text = await get(client, url_of(bot, "/metrics"))
    assert status == 200
    assert content_type.startswith("text/plain; version=")
    samples = Samples()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


async def test_healthz_answers_on_both_listeners_while_the_bot_runs(
    harness: Harness, client: aiohttp.ClientSession
) -> None:
    settings = harness.bot.settings
    assert (settings.web_host, settings.operator_host) == ("127.0.0.1", "127.0.0.1")
    assert harness.bot.web_server is not None
    assert harness.bot.operator_server is not None
    assert harness.bot.web_server.port != harness.bot.operator_server.port
    for url in (url_of(harness.bot, "/healthz"), harness.bot.web_server.url + "/healthz"):
        assert await get(client, url) == (200, "text/plain; charset=utf-8", "ok")


@pytest.mark.parametrize("path", ["/readyz", "/metrics"])
async def test_operator_endpoints_are_not_on_the_public_listener(
    harness: Harness, client: aiohttp.ClientSession, path: str
) -> None:
    assert harness.bot.web_server is not None
    status, _, body = await get(client, harness.bot.web_server.url + path)
    assert status == 404
    assert "magisterium_bot" not in body and "ready" not in body
    assert (await get(client, url_of(harness.bot, path)))[0] == 200


async def test_metrics_count_a_command_by_name_and_outcome(
    harness: Harness, client: aiohttp.ClientSession
) -> None:
    before = await scrape(client, harness.bot)
    assert not any(name == "magisterium_bot_commands_total" for name, _ in before)
    result = await harness.slash("help")
    assert result.embeds
    status, _, text = await get(client, url_of(harness.bot, "/metrics"))
    assert status == 200
    assert 'magisterium_bot_commands_total{command="help",outcome="ok"} 1.0' in text


async def test_metrics_count_upstream_calls_errors_and_outcomes(
    harness: Harness, fake: FakeMagisterium, client: aiohttp.ClientSession
) -> None:
    fake.faults.add(Fault.PLAN_REQUIRED)
    refused = await harness.slash("search", query=SEARCH)
    assert_shown("paid Magisterium plan", refused.embeds, "title")
    first = await harness.slash("search", query=SEARCH)
    again = await harness.slash("search", query=SEARCH.upper())
    assert first.embeds and again.embeds
    assert fake.count(skill="document_search") == 2  # the third came from the cache
    samples = await scrape(client, harness.bot)
    assert (
        samples.of("magisterium_bot_upstream_errors_total", code="-32005", skill="document_search")
        == 1
    )
    assert (
        samples.of("magisterium_bot_upstream_request_seconds_count", skill="document_search") == 2
    )
    assert samples.of("magisterium_bot_commands_total", command="search", outcome="user_error") == 1
    assert samples.of("magisterium_bot_commands_total", command="search", outcome="ok") == 2
    assert samples.of("magisterium_bot_cache_requests_total", result="miss") == 2
    assert samples.of("magisterium_bot_cache_requests_total", result="hit") == 1
    assert samples.of("magisterium_bot_limiter_wait_seconds_count") == 2


async def test_an_unexpected_failure_counts_as_error(
    harness: Harness, client: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(harness.bot.services.magisterium, "call", broken)
    result = await harness.slash("search", query=SEARCH)
    assert_shown("error id ", result.embeds, "footer")
    samples = await scrape(client, harness.bot)
    assert samples.of("magisterium_bot_commands_total", command="search", outcome="error") == 1


async def test_daily_posts_are_counted_sent_and_failed(
    harness: Harness,
    fake: FakeMagisterium,
    client: aiohttp.ClientSession,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(harness.bot.services.magisterium, "retry", RetryPolicy(max_attempts=1))
    await set_daily(harness)
    tick = daily_cog(harness).tick
    fake.faults.add(Fault.HTML_502, times=1, skill=SAINTS)
    assert (await tick(SLOT)).failed == 1
    assert (await tick(SLOT + MINUTE)).posted == 1
    samples = await scrape(client, harness.bot)
    assert samples.of("magisterium_bot_daily_posts_total", result="sent") == 1
    assert samples.of("magisterium_bot_daily_posts_total", result="failed") == 1
    assert (
        samples.of("magisterium_bot_upstream_errors_total", code="502", skill="saints_of_the_day")
        == 1
    )


async def test_metrics_count_votes_on_answers_by_verdict(
    harness: Harness, client: aiohttp.ClientSession
) -> None:
    before = await scrape(client, harness.bot)
    for verdict in ("helpful", "not_helpful"):  # both series exist before the first vote
        assert before.of("magisterium_bot_answer_feedback_total", verdict=verdict) == 0
    answer = await harness.slash("ask", question="What is grace?")
    assert answer.message is not None
    helpful, not_helpful = [c for c in answer.message.custom_ids if c.startswith("fb:")]
    reader = harness.user(name="reader")
    await harness.click(answer, helpful, user=reader)  # a vote: helpful
    await harness.click(answer, not_helpful, user=reader)  # changed: counts not_helpful
    await harness.click(answer, not_helpful, user=reader)  # withdrawn: counts nothing
    await harness.click(answer, helpful)  # the asker's own vote
    samples = await scrape(client, harness.bot)
    assert samples.of("magisterium_bot_answer_feedback_total", verdict="helpful") == 2
    assert samples.of("magisterium_bot_answer_feedback_total", verdict="not_helpful") == 1
    assert not any(
        name.startswith("magisterium_bot_answer_feedback")
        and labels - {("verdict", "helpful"), ("verdict", "not_helpful")}
        for name, labels in samples
    )  # no other label, no other verdict


# -- readiness


async def readyz(client: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with client.get(url + "/readyz") as response:
        return response.status, await response.text()


async def test_readyz_follows_the_database(
    fake_server: RunningFakeServer,
    postgres_url: str,
    postgres_server_url: URL,
    client: aiohttp.ClientSession,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = create_bot(on_a_free_port(harness_settings(fake_server.url, postgres_url)))
    name = str(make_url(postgres_url).database)
    async with Harness.start(bot):
        url = url_of(bot, "")
        assert await readyz(client, url) == (200, "ready")
        assert readiness_warnings(caplog) == []
        await admin_execute(postgres_server_url, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        try:
            assert await terminate_connections(postgres_server_url, name) >= 1
            status, body = await readyz(client, url)
        finally:
            await admin_execute(
                postgres_server_url, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'
            )
        # The answer says only "not ready": no error class, no SQLSTATE, no database name.
        assert (status, body) == (503, "not ready")
        [reason] = readiness_warnings(caplog)  # the operator finds why in the log
        assert reason.startswith("not ready: database: ")
        assert "gateway" not in reason  # the gateway was fine
        assert name not in reason  # what failed, never where
        assert await readyz(client, url) == (200, "ready")


async def serving(bot: MagisteriumBot) -> WebServer:
    server = WebServer(operator_app(bot.readiness(), bot.metrics), "127.0.0.1", 0)
    await server.start()
    return server


async def test_readyz_fails_before_the_bot_is_ready_and_after_it_closed(
    harness_bot: MagisteriumBot, client: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture
) -> None:
    server = await serving(harness_bot)  # never started: no gateway, no database
    try:
        assert await readyz(client, server.url) == (503, "not ready")
        assert await readyz(client, server.url) == (503, "not ready")
    finally:
        await server.stop()
    # Said once, though asked twice.
    assert readiness_warnings(caplog) == [
        "not ready: gateway: not connected; "
        "database: the database is not open (the bot is starting or stopping)"
    ]
    async with Harness.start(harness_bot):
        assert harness_bot.web_server is not None and harness_bot.operator_server is not None
        bound = [harness_bot.web_server.port, harness_bot.operator_server.port]
        assert (await readyz(client, url_of(harness_bot, "")))[0] == 200
    assert harness_bot.is_closed()
    assert harness_bot.web_server is None and harness_bot.operator_server is None
    for port in bound:
        with pytest.raises(aiohttp.ClientConnectionError):
            await readyz(client, f"http://127.0.0.1:{port}")
    server = await serving(harness_bot)
    try:
        assert await readyz(client, server.url) == (503, "not ready")
    finally:
        await server.stop()


async def test_no_web_server_without_a_port(fake_server: RunningFakeServer, tmp_path: Path) -> None:
    settings = harness_settings(fake_server.url, f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    assert settings.web_port is None
    bot = create_bot(settings)
    async with Harness.start(bot) as harness:
        assert bot.web_server is None and bot.operator_server is None
        assert (await harness.slash("help")).embeds
        assert b'magisterium_bot_commands_total{command="help",outcome="ok"} 1.0' in (
            bot.metrics.render()
        )


async def test_a_database_that_does_not_answer_in_time_is_not_ready() -> None:
    never = asyncio.Event()
    readiness = Readiness(lambda: True, never.wait, database_timeout=0.01)
    assert await readiness.check() == {"gateway": "ok", "database": "no answer within 0.01s"}


async def test_readyz_fails_while_draining_so_traffic_moves_elsewhere(
    harness: Harness, client: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture
) -> None:
    status, _, _ = await get(client, url_of(harness.bot, "/readyz"))
    assert status == 200
    harness.bot.draining = True
    assert (await get(client, url_of(harness.bot, "/readyz")))[::2] == (503, "not ready")
    assert readiness_warnings(caplog) == [
        "not ready: shutdown: draining: new commands are turned away"
    ]

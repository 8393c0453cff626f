"""The sign-in's routes on the whole bot's public listener (issues 17 and 33): a flood is turned
away with 429 before any database work, from one address or from many (the listener's own
budget), counted in /metrics and logged once; the redirect to the authorization server carries
the security headers (HSTS behind an https PUBLIC_BASE_URL); a forged newline in the callback
cannot forge a log record."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import aiohttp
import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from bot.app import create_bot
from bot.observability import configure_logging
from bot.web.headers import HSTS, SERVER
from devtools.discord import Harness
from devtools.discord.fixtures import harness_settings
from devtools.fake_magisterium import RunningFakeServer
from tests.support import sign_in as sign_in_support
from tests.support.databases import closed_port
from tests.support.oauth_server import OAuthTestServer

oauth_server = sign_in_support.oauth_server

FLOOD = 25
LINK_STYLE = 5
# The start page's button posts its form from the bot's own page.
SAME_SITE_FORM = {"Sec-Fetch-Site": "same-origin"}
FORGED = "x\r\nCRITICAL bot: FORGED\u2028\x1b[2J"
TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ [\w.]+: ")


@pytest.fixture
def make_bot(fake_server: RunningFakeServer, tmp_path: Path, oauth_server: OAuthTestServer) -> Any:
    def make(**overrides: Any) -> Any:
        port = closed_port()
        settings = harness_settings(
            fake_server.url,
            f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
            web_host="127.0.0.1",
            web_port=port,
            operator_port=closed_port(),
            oauth_issuer=oauth_server.issuer,
            **{"public_base_url": f"http://127.0.0.1:{port}", **overrides},
        )
        return create_bot(settings)

    return make


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every SQL statement any engine of the process runs meanwhile."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(str(args[2]))

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", record)


async def start_link(harness: Harness) -> str:
    """The sign-in's start link of a fresh /account link, on the bot's own listener."""
    offered = await harness.slash("account link", user=harness.user())
    buttons = [c for row in offered.components for c in row["components"]]
    [link] = [b["url"] for b in buttons if b.get("style") == LINK_STYLE]
    assert harness.bot.web_server is not None
    return harness.bot.web_server.url + urlsplit(link).path


def a_browser() -> aiohttp.ClientSession:
    """Keeps the sign-in's cookie, though the bot is reached at an IP address."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def test_a_flood_of_sign_in_requests_gets_429_before_any_database_work(
    make_bot: Any, statements: list[str]
) -> None:
    bot = make_bot(
        public_base_url="https://magisterium-bot.example.org", web_oauth_requests_per_minute=2
    )
    async with Harness.start(bot) as harness, a_browser() as browser:
        start = await start_link(harness)
        statements.clear()
        async with browser.get(start) as page:
            assert page.status == 200  # whose sign-in it is, and the button
        async with browser.post(start, headers=SAME_SITE_FORM, allow_redirects=False) as redirect:
            assert redirect.status == 303
            assert redirect.headers["Location"].startswith("http://127.0.0.1:")  # the issuer
            assert redirect.headers["X-Content-Type-Options"] == "nosniff"
            assert redirect.headers["Strict-Transport-Security"] == HSTS
            assert redirect.headers["Server"] == SERVER
        assert statements  # the allowed request did read the database
        statements.clear()
        callback = start.split("/oauth/")[0] + "/oauth/callback?state=forged&code=forged"
        for method, url in [("GET", start), ("POST", start), ("GET", callback)] * FLOOD:
            async with browser.request(method, url, allow_redirects=False) as refused:
                assert refused.status == 429
                assert 1 <= int(refused.headers["Retry-After"]) <= 60
                assert refused.headers["X-Content-Type-Options"] == "nosniff"
                assert refused.headers["Strict-Transport-Security"] == HSTS
        assert statements == []
        # The rest of the site is not rationed.
        async with browser.get(start.split("/oauth/")[0] + "/") as page:
            assert page.status == 200


ADDRESSES = 40
FORGED_EACH = 3
TOTAL_PER_MINUTE = 2  # the next one a minute from now: none comes back during the test


async def test_forged_callbacks_from_many_addresses_reach_the_handlers_within_the_total(
    make_bot: Any, statements: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """The lab's 199 addresses x 60 forged callbacks, scaled down: behind a trusted proxy, each
    address within its own budget, all of them together within the listener's."""
    caplog.set_level(logging.INFO)
    bot = make_bot(
        web_trusted_proxies="127.0.0.1",
        web_oauth_requests_per_minute=FORGED_EACH,
        web_oauth_requests_total_per_minute=TOTAL_PER_MINUTE,
    )
    async with Harness.start(bot), a_browser() as browser:
        assert bot.web_server is not None and bot.operator_server is not None
        callback = bot.web_server.url + "/oauth/callback?state=forged&code=forged"
        statuses = []
        statements.clear()
        for n in range(ADDRESSES * FORGED_EACH):
            forwarded_for = {"X-Forwarded-For": f"198.51.100.{n % ADDRESSES}"}
            async with browser.get(callback, headers=forwarded_for) as answer:
                statuses.append(answer.status)
        reached = statuses.count(400)  # "This sign-in link is not valid"
        assert reached == TOTAL_PER_MINUTE
        assert statuses.count(429) == ADDRESSES * FORGED_EACH - TOTAL_PER_MINUTE
        assert len([s for s in statements if "oauth_states" in s]) == 2 * reached
        async with browser.get(bot.operator_server.url + "/metrics") as page:
            metrics = await page.text()
    refused = ADDRESSES * FORGED_EACH - TOTAL_PER_MINUTE
    assert f'magisterium_bot_web_refusals_total{{reason="sign_in_budget"}} {refused}.0' in metrics
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("bot.web")]
    assert len([line for line in lines if "had a unknown state" in line]) == 1
    assert len([line for line in lines if "over the listener's budget" in line]) == 1


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_a_forged_newline_in_the_callback_stays_inside_one_log_line(
    make_bot: Any, root_logging: logging.Logger, fmt: str
) -> None:
    out = io.StringIO()
    configure_logging("info", fmt, stream=out)  # type: ignore[arg-type]
    async with Harness.start(make_bot()) as harness, a_browser() as browser:
        start = await start_link(harness)
        async with browser.post(start, headers=SAME_SITE_FORM, allow_redirects=False) as started:
            assert started.status == 303  # and this browser has the sign-in's cookie
        state = start.rsplit("/", 1)[1]
        callback = start.split("/oauth/")[0] + "/oauth/callback"
        async with browser.get(f"{callback}?state={state}&error={quote(FORGED)}") as page:
            assert page.status == 400  # "Magisterium did not complete the sign-in"
            assert "Strict-Transport-Security" not in page.headers  # http PUBLIC_BASE_URL
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if line.startswith("CRITICAL") or "\x1b" in line]
    [forged] = [line for line in lines if "FORGED" in line]
    if fmt == "json":
        assert all(json.loads(line) for line in lines)
        record = json.loads(forged)
        assert record["level"] == "INFO" and record["logger"] == "bot.web.oauth_routes"
        assert record["message"] == f"a sign-in came back with {FORGED}"
    else:
        assert TEXT_LINE.match(forged)
        assert forged.endswith(
            " INFO bot.web.oauth_routes: a sign-in came back with "
            "x\\r\\nCRITICAL bot: FORGED\\u2028\\x1b[2J"
        )

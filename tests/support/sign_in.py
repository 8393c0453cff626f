"""What the sign-in tests share: the bot configured for Sign in with Magisterium against the
test authorization server (tests/support/oauth_server) on loopback, and a browser's part of the flow
done by hand with httpx (each ``httpx.AsyncClient`` is one browser, with its cookie jar).

Import the fixtures into a test module: ``oauth_server``, ``sign_in_settings`` and
``harness_overrides``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from devtools.discord import Harness, HarnessUser, InteractionResult
from tests.support.databases import closed_port

if TYPE_CHECKING:
    from tests.support.oauth_server import OAuthTestServer

LINK_STYLE = 5


@pytest.fixture
async def oauth_server() -> AsyncIterator[OAuthTestServer]:
    # authlib and joserfc (a quarter of a second) only when a test signs in.
    from tests.support.oauth_server import running_oauth_server

    async with running_oauth_server() as server:
        server.auto_consent = "allow"
        yield server


@pytest.fixture
def sign_in_settings() -> dict[str, Any]:
    """Settings a test adds to sign-in's (scopes, resource, a static client…)."""
    return {}


@pytest.fixture
def harness_overrides(
    oauth_server: OAuthTestServer, sign_in_settings: dict[str, Any]
) -> dict[str, Any]:
    port = closed_port()
    return {
        "web_host": "127.0.0.1",
        "web_port": port,
        "public_base_url": f"http://127.0.0.1:{port}",
        "oauth_issuer": oauth_server.issuer,
        **sign_in_settings,
    }


@dataclass
class SignIn:
    offered: InteractionResult
    start_url: str
    callback_url: str | None = None
    page: httpx.Response | None = None

    @property
    def state(self) -> str:
        return self.start_url.rsplit("/", 1)[-1]


def link_button(result: InteractionResult) -> str:
    buttons = [c for row in result.components for c in row["components"]]
    [link] = [b for b in buttons if b.get("style") == LINK_STYLE]
    return str(link["url"])


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def query_of(url: str) -> dict[str, str]:
    return {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}


class _Forms(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__()
        self.forms: list[dict[str, str | None]] = []
        self.feed(source)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            self.forms.append(dict(attrs))


def the_form(page: httpx.Response) -> dict[str, str | None]:
    """The one form of a page: its attributes (method, action)."""
    [form] = _Forms(page.text).forms
    return form


async def offer(harness: Harness, user: HarnessUser, locale: str = "en-US") -> SignIn:
    offered = await harness.slash("account link", user=user, locale=locale)
    assert offered.callback_type == 4 and offered.ephemeral
    return SignIn(offered, link_button(offered))


async def press_continue(browser: httpx.AsyncClient, start_url: str) -> httpx.Response:
    """What a browser does with the start link: open its page, then send its form (from that
    page, so with the page's Origin and Sec-Fetch-Site, and with the browser's cookies)."""
    page = await browser.get(start_url)
    assert page.status_code == 200, page.text
    form = the_form(page)
    assert form["method"] == "post" and form["action"] == start_url
    return await browser.post(
        start_url, headers={"Origin": origin(start_url), "Sec-Fetch-Site": "same-origin"}
    )


async def start_in(browser: httpx.AsyncClient, start_url: str) -> str:
    """The authorization URL the start page's button sends ``browser`` to."""
    started = await press_continue(browser, start_url)
    assert started.status_code == 303, started.text
    return started.headers["location"]


async def follow(sign_in: SignIn, browser: httpx.AsyncClient | None = None) -> SignIn:
    """The browser's part: start page → its button → authorization server → the callback."""
    async with _browser(browser) as client:
        authorize = await client.get(await start_in(client, sign_in.start_url))
        assert authorize.status_code == 302, authorize.text
        sign_in.callback_url = authorize.headers["location"]
        sign_in.page = await client.get(sign_in.callback_url)
    return sign_in


async def sign_in(harness: Harness, user: HarnessUser, locale: str = "en-US") -> SignIn:
    return await follow(await offer(harness, user, locale))


@asynccontextmanager
async def _browser(given: httpx.AsyncClient | None) -> AsyncIterator[httpx.AsyncClient]:
    """``given`` as it is, or a new browser for the length of the ``async with``."""
    if given is not None:
        yield given
        return
    async with new_browser() as own:
        yield own


def new_browser() -> httpx.AsyncClient:
    """A browser of its own: its own cookie jar; redirects are followed by hand."""
    return httpx.AsyncClient(follow_redirects=False)

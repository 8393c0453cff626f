"""Sign in with Magisterium in a real browser: headless Chromium (Debian's chromium and
chromedriver) goes from the link the bot produced in Discord, through the bot's start page
(whose button posts its form, sets the browser's cookie and is redirected: the page's CSP
must allow that redirect), the authorization server's consent page, to the bot's callback
page; then the bot answers /ask with the new token. The bot's pages are checked in that
browser at 360 px and 1280 px wide.

Selenium blocks, and the bot, its web server and the authorization server all run on this
test's event loop: every browser step runs in a worker thread so the loop keeps serving."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.support import sign_in as sign_in_support
from tests.support.browser import at_width, browser_fixture, layout_problems, screenshot  # noqa: F401
from tests.support.embed_parts import assert_shown, shown
from tests.support.oauth_server import CONSENT_TITLE, OAuthTestServer, running_oauth_server
from tests.support.sign_in import link_button

pytestmark = pytest.mark.slow

sign_in_settings = sign_in_support.sign_in_settings
harness_overrides = sign_in_support.harness_overrides

T = TypeVar("T")
WIDTHS = (360, 1280)
WAIT_SECONDS = 20


@pytest.fixture
async def oauth_server() -> AsyncIterator[OAuthTestServer]:
    async with running_oauth_server() as server:
        server.auto_consent = None  # the browser sees the consent page and clicks
        yield server


async def in_thread(step: Callable[..., T], *args: Any) -> T:
    return await asyncio.to_thread(step, *args)


def wait_for_title(driver: WebDriver, text: str) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(expected_conditions.title_contains(text))


def check_widths(driver: WebDriver, folder: Path, name: str) -> None:
    for width in WIDTHS:
        at_width(driver, width)
        assert layout_problems(driver) == [], (name, width)
        screenshot(driver, folder / f"{name}-{width}.png")


def click(driver: WebDriver, element_id: str) -> None:
    click_on(driver, (By.ID, element_id))


def click_on(driver: WebDriver, locator: tuple[str, str]) -> None:
    WebDriverWait(driver, WAIT_SECONDS).until(
        expected_conditions.element_to_be_clickable(locator)
    ).click()


CONTINUE = (By.CSS_SELECTOR, "form button[type=submit]")


async def test_sign_in_in_a_browser_then_ask_with_the_new_token(
    browser: WebDriver,
    harness: Harness,
    oauth_server: OAuthTestServer,
    fake: FakeMagisterium,
    tmp_path: Path,
) -> None:
    oauth_server.account_name = "Thérèse Martin"
    user = harness.user(name="browser_user")
    offered = await harness.slash("account link", user=user)
    await in_thread(browser.get, link_button(offered))
    await in_thread(wait_for_title, browser, "Link Magisterium to @browser_user?")
    await in_thread(check_widths, browser, tmp_path, "start")
    assert oauth_server.authorize_requests == []  # opening the link changed nothing
    await in_thread(click_on, browser, CONTINUE)
    await in_thread(wait_for_title, browser, CONSENT_TITLE)
    assert oauth_server.authorize_requests[-1]["prompt"] == "consent"
    await in_thread(click, browser, "allow")
    await in_thread(wait_for_title, browser, "Your Magisterium account is linked")

    heading = await in_thread(lambda: browser.find_element(By.TAG_NAME, "h1").text)
    assert "Your Magisterium account is linked" in heading
    text = await in_thread(lambda: browser.find_element(By.TAG_NAME, "main").text)
    assert "The Magisterium account Thérèse Martin is now linked to the Discord account" in text
    assert "@browser_user" in text
    assert "/oauth/callback" in await in_thread(lambda: browser.current_url)
    issued = oauth_server.last_token
    assert issued is not None
    page = await in_thread(lambda: browser.page_source)
    assert issued.access_token not in page and issued.refresh_token not in page
    await in_thread(check_widths, browser, tmp_path, "linked")

    edited = offered.edits[-1].payload  # the Discord message, too
    assert edited is not None
    assert shown(edited["embeds"], "title") == ["Account linked"]
    assert_shown("as **Thérèse Martin**", edited["embeds"], "description")
    answered = await harness.slash("ask", question="What is grace?", user=user)
    assert answered.embeds and fake.requests[-1].token == issued.access_token


async def test_declining_in_the_browser_shows_a_clear_page(
    browser: WebDriver, harness: Harness, oauth_server: OAuthTestServer, tmp_path: Path
) -> None:
    user = harness.user()
    offered = await harness.slash("account link", user=user)
    await in_thread(browser.get, link_button(offered))
    await in_thread(click_on, browser, CONTINUE)
    await in_thread(wait_for_title, browser, CONSENT_TITLE)
    await in_thread(click, browser, "deny")
    await in_thread(wait_for_title, browser, "Your account was not linked")
    await in_thread(check_widths, browser, tmp_path, "declined")
    assert await harness.bot.services.registry.get(user.id) is None


@pytest.mark.parametrize("path", ["/", "/privacy"])
async def test_the_bots_own_pages_fit_360_and_1280_px(
    browser: WebDriver, harness: Harness, path: str, tmp_path: Path
) -> None:
    base = harness.bot.settings.public_base_url
    await in_thread(browser.get, f"{base}{path}")
    title = await in_thread(lambda: browser.title)
    assert "Magisterium" in title
    await in_thread(check_widths, browser, tmp_path, path.strip("/") or "home")

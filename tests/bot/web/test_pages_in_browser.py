"""The public pages in headless Chromium (Debian's chromium and driver), at a phone's and a
desktop's width, light and dark: they fit, read well, load nothing from elsewhere, and the
invite button is visible and clickable. Slow tier: a browser per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.wait import WebDriverWait

from tests.bot.web.test_pages import (
    DARK_BACKGROUND,
    INVITE,
    RESULT_PATH,
    START_PATH,
    WHITE,
    WIDTHS,
    site_app,
)
from tests.support.browser import (
    at_width,
    background_colour,
    browser_fixture,  # noqa: F401 (the fixture "browser")
    contrast_problems,
    layout_problems,
    screenshot,
    serving,
    use_color_scheme,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    with serving(site_app()) as url:
        yield url


@pytest.fixture
def light(browser: WebDriver) -> Iterator[WebDriver]:
    """The browser, back in the light scheme after the test."""
    yield browser
    use_color_scheme(browser, "light")


PAGES = {
    "landing": "/",
    "privacy": "/privacy",
    "start": START_PATH,
    "linked": f"{RESULT_PATH}?ok=1",
    "failed": f"{RESULT_PATH}?ok=0",
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(PAGES))
def test_pages_fit_read_well_and_go_dark(
    light: WebDriver, site_url: str, tmp_path: Path, name: str, width: int
) -> None:
    browser = light
    at_width(browser, width)
    browser.get(site_url + PAGES[name])
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert layout_problems(browser) == []
    assert contrast_problems(browser) == []
    assert background_colour(browser) == WHITE
    screenshot(browser, tmp_path / f"{name}-{width}-light.png")

    use_color_scheme(browser, "dark")
    assert background_colour(browser) == DARK_BACKGROUND
    assert layout_problems(browser) == []
    assert contrast_problems(browser) == []
    screenshot(browser, tmp_path / f"{name}-{width}-dark.png")


@pytest.mark.parametrize("width", WIDTHS)
def test_add_to_discord_is_visible_and_clickable(
    browser: WebDriver, site_url: str, width: int
) -> None:
    at_width(browser, width)
    browser.get(site_url + "/")
    button = WebDriverWait(browser, 5).until(
        expected_conditions.element_to_be_clickable((By.LINK_TEXT, "Add to Discord"))
    )
    assert button.is_displayed()
    box = button.rect
    assert box["height"] >= 44 and box["width"] >= 44
    assert box["y"] + box["height"] <= browser.execute_script("return window.innerHeight")
    # Nothing covers it: the element at its centre is the link itself.
    at_centre = browser.execute_script(
        "return document.elementFromPoint(arguments[0], arguments[1])",
        box["x"] + box["width"] / 2,
        box["y"] + box["height"] / 2,
    )
    assert at_centre == button
    button.click()
    # The browser resolves no host but loopback: it tries the invite and goes no further.
    WebDriverWait(browser, 10).until(lambda driver: driver.current_url == INVITE)


def test_the_check_would_catch_a_page_that_overflows(browser: WebDriver, site_url: str) -> None:
    at_width(browser, 360)
    browser.get(site_url + "/")
    browser.execute_script(
        "document.querySelector('main').insertAdjacentHTML('beforeend',"
        " '<p style=\"white-space:nowrap\">' + 'wide '.repeat(100) + '</p>'"
        ' + \'<p style="font-size:10px">tiny</p><a href="/" style="font-size:12px">x</a>\')'
    )
    problems = layout_problems(browser)
    assert any("scrolls sideways" in problem for problem in problems)
    assert any("10px text" in problem for problem in problems)
    assert any("target" in problem and '"x"' in problem for problem in problems)

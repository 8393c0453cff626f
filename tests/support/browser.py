"""Headless Chromium for tests of the bot's web pages (Selenium, Debian's chromium and driver).

A fixture module: import ``browser_fixture`` into a test module (it registers the fixture
``browser``), or list ``"tests.support.browser"`` in ``pytest_plugins``. The browser starts once per
module (about a second) on a clean temporary profile, never downloads anything (no Selenium
Manager: the paths are given) and resolves no host but loopback, so a page can never reach
the network.

Selenium blocks, so a page under test must be served from another thread: :func:`serving`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from unittest import mock

import pytest
from aiohttp import web

from bot.web import WebServer

if TYPE_CHECKING:  # selenium is imported by the browser fixture, not at collection
    from selenium.webdriver.chrome.webdriver import WebDriver

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARGUMENTS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    # No name resolves but 127.0.0.1 and localhost: a link followed in a test goes nowhere.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
)
WINDOW_HEIGHT = 900
TARGET_MIN_PX = 24  # WCAG 2.2 target size (minimum)
TEXT_MIN_PX = 12


@pytest.fixture(scope="module", name="browser")
def browser_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """A headless Chromium, shared by the tests of a module."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.selenium_manager import SeleniumManager

    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} missing: apt-get install chromium chromium-driver "
            "(python -m devtools test does it)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ARGUMENTS:
        options.add_argument(argument)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    service = Service(executable_path=str(CHROMEDRIVER))
    # The paths are given, so Selenium Manager (which downloads) is never needed: make sure.
    with mock.patch.object(SeleniumManager, "binary_paths", side_effect=AssertionError):
        driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


@contextmanager
def serving(app: web.Application) -> Iterator[str]:
    """Serve ``app`` on a free loopback port from a thread of its own; yields its base URL."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="web-under-test", daemon=True)
    thread.start()
    server = WebServer(app, "127.0.0.1", 0)
    try:
        asyncio.run_coroutine_threadsafe(server.start(), loop).result(timeout=10)
        try:
            yield server.url
        finally:
            asyncio.run_coroutine_threadsafe(server.stop(), loop).result(timeout=10)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


def at_width(driver: WebDriver, px: int) -> None:
    """Size the window so that the viewport (``window.innerWidth``) is ``px`` CSS px wide."""
    driver.set_window_size(px, WINDOW_HEIGHT)
    inner = cast(int, driver.execute_script("return window.innerWidth"))
    if inner != px:
        driver.set_window_size(2 * px - inner, WINDOW_HEIGHT)
        inner = cast(int, driver.execute_script("return window.innerWidth"))
    assert inner == px, f"could not make the viewport {px}px wide (it is {inner}px)"


def use_color_scheme(driver: WebDriver, scheme: str) -> None:
    """Emulate ``prefers-color-scheme: scheme`` (``light`` or ``dark``) for the page."""
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
    )


_LAYOUT_SCRIPT = """
const [targetMin, textMin] = arguments;
const problems = [];
const root = document.documentElement;
const width = root.clientWidth;  // the viewport less any scroll bar
if (root.scrollWidth > width) {
  problems.push(`the page scrolls sideways: ${root.scrollWidth}px wide, viewport ${width}px`);
}
const describe = (el) => {
  const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
  return `<${el.tagName.toLowerCase()}${el.className ? '.' + el.className : ''}> "${text}"`;
};
const hidden = (style) =>
  style.display === 'none' || style.visibility === 'hidden' || style.clipPath === 'inset(50%)';
for (const el of document.body.querySelectorAll('*')) {
  const style = getComputedStyle(el);
  if (hidden(style)) continue;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  if (box.width > width + 0.5 || box.left < -0.5 || box.right > width + 0.5) {
    problems.push(`${describe(el)} spans ${box.left}..${box.right}px, viewport ${width}px`);
  }
  const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (ownText && parseFloat(style.fontSize) < textMin) {
    problems.push(`${describe(el)} has ${style.fontSize} text`);
  }
  if (el.matches('a[href], button, input, select, textarea, summary, [role=button]')
      && (box.width < targetMin || box.height < targetMin)) {
    problems.push(`${describe(el)} is a ${box.width}x${box.height}px target`);
  }
}
return problems;
"""


def layout_problems(driver: WebDriver) -> list[str]:
    """What is wrong with the page's layout at the current size: sideways scrolling, an
    element wider than or outside the viewport, text under 12 CSS px, a link or button under
    24×24 CSS px."""
    return cast(list[str], driver.execute_script(_LAYOUT_SCRIPT, TARGET_MIN_PX, TEXT_MIN_PX))


_COLOURS_SCRIPT = """
const found = [];
const opaque = (c) => !/^rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent';
for (const el of document.body.querySelectorAll('*')) {
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden') continue;
  if (style.clipPath === 'inset(50%)') continue;
  if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  let back = null;
  for (let up = el; up && !back; up = up.parentElement) {
    const colour = getComputedStyle(up).backgroundColor;
    if (opaque(colour)) back = colour;
  }
  found.push({
    text: el.textContent.trim().slice(0, 40),
    fg: style.color,
    bg: back || 'rgb(255, 255, 255)',
    large: parseFloat(style.fontSize) >= 24
      || (parseFloat(style.fontSize) >= 18.66 && parseInt(style.fontWeight) >= 700),
  });
}
return found;
"""


def contrast_problems(driver: WebDriver) -> list[str]:
    """Text whose colour contrasts with its background below WCAG AA (4.5:1; 3:1 when large).
    The background is the nearest opaque ``background-color`` up the tree."""
    problems = []
    for item in cast(list[dict[str, Any]], driver.execute_script(_COLOURS_SCRIPT)):
        ratio = contrast(_rgb(item["fg"]), _rgb(item["bg"]))
        wanted = 3.0 if item["large"] else 4.5
        if ratio < wanted:
            problems.append(f"{item['text']!r}: {item['fg']} on {item['bg']} is {ratio:.2f}:1")
    return problems


def background_colour(driver: WebDriver) -> str:
    return cast(
        str, driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    )


def screenshot(driver: WebDriver, path: Path) -> Path:
    """The whole page, not only the viewport, as a PNG at ``path`` (the window grows for the
    shot, then shrinks back)."""
    below = cast(
        int,
        driver.execute_script("return document.documentElement.scrollHeight - window.innerHeight"),
    )
    size = driver.get_window_size()
    if below > 0:
        driver.set_window_size(size["width"], size["height"] + below)
    try:
        driver.save_screenshot(str(path))
    finally:
        if below > 0:
            driver.set_window_size(size["width"], size["height"])
    return path


def contrast(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """The WCAG contrast ratio of two sRGB colours (0-255 channels)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _luminance(rgb: tuple[float, float, float]) -> float:
    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _rgb(css: str) -> tuple[float, float, float]:
    """``rgb(1, 2, 3)`` or ``rgba(1, 2, 3, 1)`` (opaque: the scripts keep no other)."""
    inside = css[css.index("(") + 1 : css.rindex(")")]
    red, green, blue = (float(part) for part in inside.split(",")[:3])
    return red, green, blue

"""The public pages (``/``, ``/privacy``, the sign-in's start page and result): served by a real
aiohttp app on loopback, read over HTTP for headers, markup, escaping and language (in headless
Chromium: tests/bot/web/test_pages_in_browser.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import _, using_locale
from bot.web.pages import SIGN_IN_MINUTES, SiteInfo
from bot.web.sign_in_pages import linked_page, result_page, start_page
from bot.web.site import (
    CONTENT_SECURITY_POLICY,
    add_site_routes,
    content_security_policy,
    html_response,
    page_language,
    with_form_targets,
)
from tests.support.browser import contrast

INVITE = "https://discord.com/oauth2/authorize?client_id=1234&permissions=0&scope=bot"
SITE = SiteInfo(invite_url=lambda: INVITE)
RESULT_PATH = "/test/result"
START_PATH = "/test/start"
# The longest a Discord username gets (32), and one that kept its old tag.
LONG_HANDLE = "a_very_long_discord_username_32c"
# No space to break at: the page must wrap it rather than scroll sideways on a phone.
LONG_WORD = "Supercalifragilisticexpialidocious" * 5
WIDTHS = (360, 1280)
WHITE, DARK_BACKGROUND = "rgb(255, 255, 255)", "rgb(22, 23, 27)"


def site_app(site: SiteInfo = SITE) -> web.Application:
    """The site's routes on a fresh app, plus a test-only route showing a result page."""
    app = web.Application()
    add_site_routes(app, site)
    app.router.add_get(RESULT_PATH, _result_for_test)
    app.router.add_get(START_PATH, _start_for_test)
    return app


async def _start_for_test(request: web.Request) -> web.Response:
    name = request.query.get("name", LONG_HANDLE)
    return html_response(start_page(discord_name=name, action=START_PATH, lang="en"), cache=False)


async def _result_for_test(request: web.Request) -> web.Response:
    ok = request.query.get("ok") == "1"
    if ok:
        page = linked_page(lang="en", discord_name=LONG_HANDLE, account_name=LONG_WORD)
        return html_response(page, cache=False)
    body = result_page(
        ok=False,
        title="Sign-in failed",
        message=f"Magisterium said: {LONG_WORD}. Run `/account link` to try again.",
        lang="en",
    )
    return html_response(body, status=400, cache=False)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    text: str = ""


class Page(HTMLParser):
    """A page's elements, each with its attributes and all the text inside it."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.elements: list[Element] = []
        self.declarations: list[str] = []
        self._open: list[Element] = []
        self.feed(source)
        self.close()

    def handle_decl(self, decl: str) -> None:
        self.declarations.append(decl)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self.elements.append(element)
        if tag not in {"meta", "link", "br", "img", "input", "hr"}:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop().tag != tag:
            pass

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text += data

    def all(self, tag: str) -> list[Element]:
        return [element for element in self.elements if element.tag == tag]

    def one(self, tag: str) -> Element:
        found = self.all(tag)
        assert len(found) == 1, f"{len(found)} <{tag}> elements"
        return found[0]

    def links(self) -> dict[str, Element]:
        return {str(a.attrs["href"]): a for a in self.all("a")}


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    page: Page


@pytest.fixture
async def client() -> AsyncIterator[TestClient[web.Request, web.Application]]:
    async with TestClient(TestServer(site_app())) as client:
        yield client


async def fetch(
    client: TestClient[web.Request, web.Application], path: str, language: str | None = None
) -> Reply:
    headers = {"Accept-Language": language} if language is not None else {}
    async with client.get(path, headers=headers) as response:
        return Reply(response.status, dict(response.headers), Page(await response.text()))


def check_document(page: Page, *, lang: str) -> None:
    """What every page is: HTML5, in ``lang``, one h1, landmarks, nothing that runs or loads."""
    assert page.source.startswith("<!doctype html>")
    assert page.declarations == ["doctype html"]
    assert page.one("html").attrs["lang"] == lang
    viewport = [m for m in page.all("meta") if m.attrs.get("name") == "viewport"]
    assert [m.attrs["content"] for m in viewport] == ["width=device-width, initial-scale=1"]
    assert page.one("title").text.strip()
    assert page.one("h1").text.strip()
    page.one("main")
    page.one("footer")
    assert page.all("script") == []
    assert page.one("style")
    for element in page.elements:
        for name, value in element.attrs.items():
            assert not name.startswith("on"), f"an event handler on <{element.tag}>"
            if name == "src" or (element.tag == "link" and name == "href"):
                assert value == "data:,", f"<{element.tag} {name}={value}> loads something"


def check_security_headers(headers: dict[str, str]) -> None:
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"] == (
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


# Over HTTP -----------------------------------------------------------------------------------


async def test_the_landing_page_says_what_the_bot_is_and_offers_the_invite(
    client: TestClient[web.Request, web.Application],
) -> None:
    reply = await fetch(client, "/")
    assert reply.status == 200
    check_security_headers(reply.headers)
    assert reply.headers["Cache-Control"] == "max-age=300"
    assert reply.headers["Vary"] == "Accept-Language"
    assert reply.headers["Content-Language"] == "en"
    page = reply.page
    check_document(page, lang="en")
    assert page.one("h1").text == page.one("title").text == "Magisterium AI for Discord"
    text = page.one("main").text
    for promise in ("citations", "Search", "Mass readings", "saints", "popes", "dioceses"):
        assert promise in text
    assert "direct messages" in text
    assert "9 languages" in text
    links = page.links()
    assert links[INVITE].attrs["class"] == "button"
    assert links[INVITE].text == "Add to Discord"
    assert "/privacy" in links


async def test_head_answers_like_get(client: TestClient[web.Request, web.Application]) -> None:
    async with client.head("/privacy") as response:
        assert response.status == 200
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("invite", [None, "javascript:alert(1)"])
async def test_without_an_invite_link_the_page_says_so_instead_of_a_button(
    invite: str | None,
) -> None:
    async with TestClient(TestServer(site_app(SiteInfo(invite_url=lambda: invite)))) as client:
        page = (await fetch(client, "/")).page
    assert [a.attrs["href"] for a in page.all("a")] == ["/privacy", "/", "/privacy"]
    assert "not ready yet" in page.one("main").text
    assert "javascript" not in page.source


async def test_every_value_is_escaped() -> None:
    name = '<script>alert("name")</script> & Co'
    invite = 'https://discord.com/x?a=1&b="><script>alert(1)</script>'
    site = SiteInfo(name=name, invite_url=lambda: invite)
    async with TestClient(TestServer(site_app(site))) as client:
        pages = [(await fetch(client, path)).page for path in ("/", "/privacy")]
    for page in pages:
        assert "<script" not in page.source
        assert page.all("script") == []
    landing, privacy = pages
    assert landing.one("title").text == landing.one("h1").text == name
    assert "&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; &amp; Co" in landing.source
    assert landing.links()[invite].text == "Add to Discord"  # the href reads back intact
    assert name in privacy.one("title").text
    assert name in privacy.one("main").text


@pytest.mark.parametrize(
    ("accept_language", "lang"),
    [
        ("ko", "ko"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"),
        ("es-MX,es;q=0.9", "es-419"),
        ("es-419", "es-419"),
        ("es", "es-ES"),
        ("es-ES", "es-ES"),
        ("pt", "pt-BR"),
        ("pt-PT", "pt-BR"),
        ("de-AT", "de"),
        ("fr;q=0.2, pl;q=0.9", "pl"),
        ("it;q=0, fr", "fr"),
        ("xx-YY, tlh", "en"),
        ("en-GB,en;q=0.9,ko;q=0.8", "en"),
        ("*", "en"),
        ("de;q=bogus, it", "it"),
        (None, "en"),
    ],
)
async def test_the_language_follows_accept_language(
    client: TestClient[web.Request, web.Application], accept_language: str | None, lang: str
) -> None:
    reply = await fetch(client, "/privacy", accept_language)
    assert reply.page.one("html").attrs["lang"] == lang
    assert reply.headers["Content-Language"] == lang


async def test_the_page_is_written_in_the_negotiated_language(
    client: TestClient[web.Request, web.Application],
) -> None:
    for code, header in (("ko", "ko-KR"), ("es_419", "es-AR"), ("pt_BR", "pt")):
        with using_locale(code):
            privacy = _("Privacy")
        assert privacy != "Privacy"  # the catalogue has it: the test can tell languages apart
        page = (await fetch(client, "/", header)).page
        assert privacy in page.one("footer").text


def test_page_language_reads_only_a_bounded_header() -> None:
    assert page_language(", ".join(["xx"] * 40 + ["ko"])) == "en"
    assert page_language(";;;,,, ;q=1") == "en"


async def test_the_privacy_notice_says_what_is_kept_for_how_long_and_how_to_delete_it(
    client: TestClient[web.Request, web.Application],
) -> None:
    reply = await fetch(client, "/privacy")
    assert reply.status == 200
    check_security_headers(reply.headers)
    page = reply.page
    check_document(page, lang="en")
    assert page.one("h1").text == "Privacy"
    text = " ".join(page.one("main").text.split())
    for fact in (
        "access token",
        "refresh token",
        "encrypted",
        "one-time state, which works for at most 10 minutes",
        "is kept a day longer",
        "conversation",
        "how many requests you made this hour",
        "channel, time, timezone, role to mention and language",
        "does not store your messages or your questions",
        "never hold a token",
        "debug logging",
        "/account unlink deletes everything stored about you at once",
        "/daily off",
        "Removing the bot from a server deletes",
        "contact whoever runs the bot",
        "a keyed hash of your Discord user id",
        "the answer's id, the server (none in direct messages), your verdict and when",
        "Your votes on answers: 30 days; older votes are deleted",
        "/account unlink also deletes your votes on answers",
    ):
        assert fact in text, fact
    assert "<code>/account unlink</code>" in page.source
    assert [h.text for h in page.all("h2")] == [
        "What is stored",
        "What is sent to Magisterium",
        "What is not stored",
        "For how long",
        "How to delete it",
        "Contact",
    ]


async def test_the_result_page_is_never_cached_and_escapes_what_it_is_given(
    client: TestClient[web.Request, web.Application],
) -> None:
    linked = await fetch(client, f"{RESULT_PATH}?ok=1")
    assert linked.status == 200
    check_security_headers(linked.headers)
    assert linked.headers["Cache-Control"] == "no-store"
    check_document(linked.page, lang="en")
    assert "Your Magisterium account is linked" in linked.page.one("h1").text
    assert "close this page and return to Discord" in linked.page.one("main").text
    assert f"account {LONG_WORD} is now linked" in linked.page.one("main").text
    assert f"Discord account @{LONG_HANDLE}." in linked.page.one("main").text

    failed = await fetch(client, f"{RESULT_PATH}?ok=0")
    assert failed.status == 400
    assert failed.headers["Cache-Control"] == "no-store"
    assert "<code>/account link</code>" in failed.page.source
    assert "Sign-in failed" in failed.page.one("h1").text

    hostile = result_page(
        ok=False, title="<b>x</b>", message="<img src=x onerror=alert(1)>", lang="ko"
    )
    page = Page(hostile)
    check_document(page, lang="ko")
    assert page.all("img") == [] and page.all("b") == []
    assert "&lt;img src=x onerror=alert(1)&gt;" in hostile


async def test_the_start_page_names_the_account_and_posts_its_form_here(
    client: TestClient[web.Request, web.Application],
) -> None:
    reply = await fetch(client, START_PATH)
    assert reply.status == 200
    check_security_headers(reply.headers)
    page = reply.page
    check_document(page, lang="en")
    assert page.one("title").text == page.one("h1").text == f"Link Magisterium to @{LONG_HANDLE}?"
    text = " ".join(page.one("main").text.split())
    assert f"If you are not @{LONG_HANDLE}, close this page" in text
    form = page.one("form")
    assert (form.attrs["method"], form.attrs["action"]) == ("post", START_PATH)
    assert page.one("button").attrs["type"] == "submit"
    assert page.one("button").text == "Continue to Magisterium"

    hostile = (await fetch(client, START_PATH + '?name=<img src=x onerror=alert(1)>"')).page
    assert hostile.all("img") == []
    assert "@&lt;img src=x onerror=alert(1)&gt;&quot;" in hostile.source


def test_a_form_may_be_let_redirect_to_an_origin_and_nothing_else() -> None:
    response = with_form_targets(html_response("<p>x</p>"), "https://auth.example:8443")
    policy = response.headers["Content-Security-Policy"]
    assert "form-action 'self' https://auth.example:8443;" in policy
    assert policy.replace(" https://auth.example:8443", "") == CONTENT_SECURITY_POLICY
    for not_an_origin in ("https://a.example; script-src *", "*", "'unsafe-inline'", "data:"):
        with pytest.raises(ValueError):
            content_security_policy(not_an_origin)


def test_contrast_is_wcag_contrast() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((71, 82, 196), (255, 255, 255)) == pytest.approx(6.42, abs=0.01)


def test_the_privacy_notice_states_the_sign_in_lifetimes_the_code_uses() -> None:
    from bot.oauth.config import STATE_LIFETIME_SECONDS
    from bot.oauth.states import KEPT_AFTER_EXPIRY

    assert SIGN_IN_MINUTES * 60 == STATE_LIFETIME_SECONDS
    assert timedelta(days=1) == KEPT_AFTER_EXPIRY  # "kept a day longer"


def test_the_privacy_notice_states_the_retention_of_votes_the_code_uses() -> None:
    from bot.services.feedback import RETENTION
    from bot.web.pages import FEEDBACK_DAYS

    assert timedelta(days=FEEDBACK_DAYS) == RETENTION

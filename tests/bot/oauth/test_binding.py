"""What binds a sign-in to the Discord user who ran `/account link` and to the browser that
started it (security issue 17, finding 1), through the real bot, its web server and the test
authorization server. Each ``httpx.AsyncClient`` is one browser with its own cookies.

The attack: A runs `/account link` and sends B the start link; B signs in, and B's Magisterium
account serves A. The defences tested here: the start page names @A and changes nothing until
its button is pressed; the button works from the bot's own page only, once; the authorization
server is asked for its consent page every time (prompt=consent); the callback finishes only
in the browser that pressed the button, and a callback anywhere else uses the sign-in up (issue
33: B's callback URL replayed in A's browser linked B's account to A); over https the cookie is
``__Host-``; a new link, and a finished sign-in, end the person's other links; HEAD on the
callback uses nothing up."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import replace
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import text

from bot.storage.models import OAuthStateRow
from devtools.discord import Harness
from tests.support import sign_in as sign_in_support
from tests.support.oauth_server import CONSENT_TITLE, OAuthTestServer
from tests.support.sign_in import (
    SignIn,
    follow,
    new_browser,
    offer,
    origin,
    press_continue,
    query_of,
    sign_in,
    start_in,
    the_form,
)

oauth_server = sign_in_support.oauth_server
sign_in_settings = sign_in_support.sign_in_settings
harness_overrides = sign_in_support.harness_overrides

COOKIE = "magisterium_sign_in"
HOST_COOKIE = "__Host-magisterium_sign_in"


async def state_rows(harness: Harness, user_id: int) -> list[dict[str, Any]]:
    async with harness.bot.services.db.session() as session:
        result = await session.execute(
            text("SELECT * FROM oauth_states WHERE discord_user_id = :user"), {"user": user_id}
        )
        return [dict(row) for row in result.mappings()]


def confirmation(signed_in: SignIn) -> str:
    """The text the /account link message was edited to."""
    payload = signed_in.offered.edits[-1].payload
    assert payload is not None
    return str(payload["embeds"][0]["description"])


def code_exchanges(server: OAuthTestServer) -> list[dict[str, Any]]:
    return [r for r in server.token_requests if r["grant_type"] == "authorization_code"]


# --- the start page names whose sign-in it is, and changes nothing -----------------------------


async def test_the_start_page_names_the_discord_account_and_changes_nothing(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    # A display name can be anyone's: the page names the username, which is A's alone.
    alice = harness.user(name="alice_a", global_name="bob")
    offered = await offer(harness, alice)
    async with new_browser() as browser_of_b:
        page = await browser_of_b.get(offered.start_url)
        head = await browser_of_b.head(offered.start_url)
        assert not browser_of_b.cookies

    assert page.status_code == head.status_code == 200
    assert "<title>Link Magisterium to @alice_a?</title>" in page.text
    assert (
        "If you are not <strong" in page.text and ">@alice_a</strong>, close this page" in page.text
    )
    assert "@bob" not in page.text
    form = the_form(page)
    assert (form["method"], form["action"]) == ("post", offered.start_url)
    assert "set-cookie" not in page.headers and "set-cookie" not in head.headers
    assert page.headers["Cache-Control"] == "no-store"
    # Its form's answer redirects to the authorization server: that origin may be a target.
    policy = page.headers["Content-Security-Policy"]
    # The authorization server, and any https origin its sign-in may hand the browser on to.
    assert f"form-action 'self' {oauth_server.issuer} https:;" in policy
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["Referrer-Policy"] == "same-origin"  # so the form's Origin is real

    [row] = await state_rows(harness, alice.id)
    assert (row["started_at"], row["browser_hash"], row["used_at"]) == (None, None, None)
    assert row["discord_name"] == "alice_a"
    assert oauth_server.authorize_requests == []
    await follow(offered)  # still as good as new
    assert await harness.bot.services.registry.get(alice.id) is not None


async def test_a_sign_in_is_never_passed_straight_through_the_consent_page(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    """B allowed the bot before, for B's own link; B now opens A's link and presses the
    button anyway: the authorization server still asks B (prompt=consent)."""
    oauth_server.remember_consent = True
    await sign_in(harness, harness.user(name="bob_b"))  # B allows the bot once
    oauth_server.auto_consent = None  # from now on, the real page or a remembered consent

    offered = await offer(harness, harness.user(name="alice_a"))
    async with new_browser() as browser_of_b:
        authorization_url = await start_in(browser_of_b, offered.start_url)
        asked = await browser_of_b.get(authorization_url)
        # Without prompt=consent, this server would have let B straight through.
        passed = await browser_of_b.get(authorization_url.replace("prompt=consent", "prompt="))

    assert query_of(authorization_url)["prompt"] == "consent"
    assert asked.status_code == 200 and CONSENT_TITLE in asked.text
    assert passed.status_code == 302 and "code=" in passed.headers["location"]


# --- started once, from the bot's own page ------------------------------------------------------


async def test_a_link_already_started_cannot_be_started_by_someone_else(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    alice = harness.user(name="alice_a")
    offered = await offer(harness, alice)
    async with new_browser() as browser_of_a, new_browser() as browser_of_b:
        await start_in(browser_of_a, offered.start_url)
        seen_by_b = await browser_of_b.get(offered.start_url)
        pressed_by_b = await browser_of_b.post(
            offered.start_url,
            headers={"Origin": origin(offered.start_url), "Sec-Fetch-Site": "same-origin"},
        )
    for answer in (seen_by_b, pressed_by_b):
        assert answer.status_code == 400 and "This sign-in link was already used" in answer.text
    assert "set-cookie" not in pressed_by_b.headers


async def test_one_link_opened_in_two_browsers_starts_once(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    offered = await offer(harness, user)
    async with new_browser() as first, new_browser() as second:
        answers = await asyncio.gather(
            press_continue(first, offered.start_url), press_continue(second, offered.start_url)
        )
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [303, 400]
    [refused] = [answer for answer in answers if answer.status_code == 400]
    assert "This sign-in link was already used" in refused.text
    [row] = await state_rows(harness, user.id)
    [started] = [answer for answer in answers if answer.status_code == 303]
    cookie = started.cookies[COOKIE]
    assert row["browser_hash"] == hashlib.sha256(cookie.encode()).hexdigest() != cookie


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "null"},
        {},
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "same-origin"},
    ],
    ids=[
        "evil origin",
        "evil origin, cross-site",
        "cross-site",
        "same-site",
        "null origin alone",
        "no header",
        "evil origin claiming same-origin",
    ],
)
async def test_a_cross_site_post_is_refused(
    harness: Harness, oauth_server: OAuthTestServer, headers: dict[str, str]
) -> None:
    """A page elsewhere posting the start form would skip the page that names @A."""
    user = harness.user()
    offered = await offer(harness, user)
    async with new_browser() as browser:
        refused = await browser.post(offered.start_url, headers=headers)
    assert refused.status_code == 403
    assert "This sign-in cannot be started from another site" in refused.text
    assert "set-cookie" not in refused.headers
    [row] = await state_rows(harness, user.id)
    assert row["started_at"] is None
    assert oauth_server.authorize_requests == []
    await follow(offered)  # the person's own press still works


@pytest.mark.parametrize(
    "headers",
    [
        # Chromium under Referrer-Policy: no-referrer: Origin null, Sec-Fetch-Site still sent.
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "same-origin"},
        {"Origin": "{base}"},  # a browser from before Sec-Fetch-Site
    ],
    ids=["null origin, same-origin", "same-origin alone", "origin alone"],
)
async def test_the_bots_own_page_may_post(
    harness: Harness, oauth_server: OAuthTestServer, headers: dict[str, str]
) -> None:
    offered = await offer(harness, harness.user())
    base = origin(offered.start_url)
    async with new_browser() as browser:
        started = await browser.post(
            offered.start_url, headers={k: v.format(base=base) for k, v in headers.items()}
        )
    assert started.status_code == 303
    assert started.headers["location"].startswith(oauth_server.authorization_endpoint + "?")


async def test_the_browser_cookie(harness: Harness, oauth_server: OAuthTestServer) -> None:
    offered = await offer(harness, harness.user())
    async with new_browser() as browser:
        started = await press_continue(browser, offered.start_url)
    cookie = started.headers["set-cookie"]
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    # Browsers refuse a __Host- cookie without Secure, which plain http cannot have.
    assert cookie.startswith(COOKIE + "=")
    assert "Path=/oauth/" in cookie and "SameSite=Lax" in cookie
    assert 590 <= int(cookie.split("Max-Age=")[1].split(";")[0]) <= 600
    assert "secure" not in attributes  # PUBLIC_BASE_URL is http://127.0.0.1 here
    assert started.headers["Referrer-Policy"] == "no-referrer"


async def test_over_https_the_cookie_is_a_secure_host_only_cookie(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    oauth = harness.bot.services.oauth
    assert oauth is not None
    plain = oauth.config.public_base_url
    secure = plain.replace("http://", "https://") + "/bot"  # behind a proxy, under a path
    oauth.config = replace(oauth.config, public_base_url=secure)
    user = harness.user()
    offered = await offer(harness, user)
    assert offered.start_url.startswith(secure + "/oauth/start/")
    async with new_browser() as browser:  # the proxy's part: strip /bot, speak http
        started = await browser.post(
            offered.start_url.replace(secure, plain), headers={"Origin": origin(secure)}
        )
        assert started.status_code == 303
        cookie = started.headers["set-cookie"]
        # __Host-: Secure, Path=/ and no Domain, or browsers refuse it.
        assert cookie.startswith(HOST_COOKIE + "=")
        assert "; Secure" in cookie and "; Path=/;" in cookie + ";"
        assert "domain=" not in cookie.lower()
        secret = cookie.split(";")[0].split("=", 1)[1]
        # The callback reads the cookie under that name: only then is the code exchanged (and
        # refused: the server never issued it; a real one would name the https callback).
        callback = f"{plain}/oauth/callback?state={offered.state}&code=not-issued"
        under_its_name = await browser.get(callback, headers={"Cookie": f"{HOST_COOKIE}={secret}"})
    assert under_its_name.status_code == 400
    assert "Magisterium did not complete the sign-in" in under_its_name.text
    assert len(code_exchanges(oauth_server)) == 1

    offered = await offer(harness, user)
    async with new_browser() as browser:
        started = await browser.post(
            offered.start_url.replace(secure, plain), headers={"Origin": origin(secure)}
        )
        secret = started.headers["set-cookie"].split(";")[0].split("=", 1)[1]
        callback = f"{plain}/oauth/callback?state={offered.state}&code=not-issued"
        plain_name = await browser.get(callback, headers={"Cookie": f"{COOKIE}={secret}"})
    assert plain_name.status_code == 403  # not the sign-in's cookie
    assert len(code_exchanges(oauth_server)) == 1


# --- the callback finishes only in the browser that started ------------------------------------


@pytest.mark.parametrize("cookie", [None, "a-guess"], ids=["no cookie", "a guessed cookie"])
async def test_a_callback_in_another_browser_uses_the_sign_in_up_unfinished(
    harness: Harness, oauth_server: OAuthTestServer, cookie: str | None
) -> None:
    """The callback URL (the state and a code) seen by another browser: neither that browser
    nor the one that started the sign-in can finish it, so a code replayed from elsewhere never
    links anything; the person runs `/account link` again."""
    alice = harness.user()
    offered = await offer(harness, alice)
    async with new_browser() as browser_of_a, new_browser() as browser_of_b:
        authorize = await browser_of_a.get(await start_in(browser_of_a, offered.start_url))
        callback_url = authorize.headers["location"]

        if cookie is not None:
            browser_of_b.cookies.set(COOKIE, cookie, domain="127.0.0.1", path="/oauth/")
        elsewhere = await browser_of_b.get(callback_url)
        assert elsewhere.status_code == 403
        assert "This sign-in was started in another browser" in elsewhere.text
        assert "Run <code>/account link</code> in Discord to start again." in elsewhere.text
        assert "set-cookie" not in elsewhere.headers  # B's cookie may be B's own sign-in's

        too_late = await browser_of_a.get(callback_url)
        assert too_late.status_code == 400
        assert "This sign-in link was already used" in too_late.text
    assert oauth_server.token_requests == []  # no code was exchanged
    assert await harness.bot.services.registry.get(alice.id) is None
    [row] = await state_rows(harness, alice.id)
    assert row["used_at"] is not None


async def test_a_declined_consent_in_another_browser_uses_the_sign_in_up(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    offered = await offer(harness, user)
    base = origin(offered.start_url)
    async with new_browser() as browser_of_a, new_browser() as stranger:
        authorization_url = await start_in(browser_of_a, offered.start_url)
        declined = await stranger.get(
            f"{base}/oauth/callback", params={"state": offered.state, "error": "access_denied"}
        )
        assert declined.status_code == 403
        [row] = await state_rows(harness, user.id)
        assert row["used_at"] is not None
        authorize = await browser_of_a.get(authorization_url)
        too_late = await browser_of_a.get(authorize.headers["location"])
    assert too_late.status_code == 400 and "This sign-in link was already used" in too_late.text
    assert oauth_server.token_requests == []


async def test_head_on_the_callback_uses_nothing_up(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    offered = await offer(harness, user)
    async with new_browser() as browser:
        authorize = await browser.get(await start_in(browser, offered.start_url))
        callback_url = authorize.headers["location"]
        probed = await browser.head(callback_url)
        assert probed.status_code == 405
        assert oauth_server.token_requests == []
        finished = await browser.get(callback_url)
    assert finished.status_code == 200 and "Your Magisterium account is linked" in finished.text
    assert await harness.bot.services.registry.get(user.id) is not None


# --- one live link per person -------------------------------------------------------------------


async def test_fifty_account_link_runs_leave_one_live_link(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    offers = [await offer(harness, user) for _ in range(50)]
    [row] = await state_rows(harness, user.id)
    assert row["state_hash"] == hashlib.sha256(offers[-1].state.encode()).hexdigest()
    async with new_browser() as browser:
        oldest = await browser.get(offers[0].start_url)
        pressed = await browser.post(offers[0].start_url, headers={"Sec-Fetch-Site": "same-origin"})
        newest = await browser.get(offers[-1].start_url)
    for answer in (oldest, pressed):
        assert answer.status_code == 400 and "This sign-in link is not valid" in answer.text
    assert newest.status_code == 200


async def test_after_a_sign_in_the_persons_other_links_answer_an_error_page(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    older = await offer(harness, user)
    states = OAuthStateRow.__table__
    async with harness.bot.services.db.session() as session:
        older_row = (await session.execute(sa.select(states))).mappings().one()
    newer = await offer(harness, user)
    # Another bot process made the older link at the very same moment: both are live.
    async with harness.bot.services.db.session() as session:
        await session.execute(sa.insert(states).values(**older_row))
    assert len(await state_rows(harness, user.id)) == 2

    await follow(newer)

    async with new_browser() as browser:
        page = await browser.get(older.start_url)
    assert page.status_code == 400 and "This sign-in link is not valid" in page.text
    [left] = await state_rows(harness, user.id)
    assert left["used_at"] is not None  # the finished sign-in, kept to answer "already used"


async def test_the_link_works_only_for_the_newest_run_even_once_started(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    """A person who finds their link in someone else's hands runs `/account link` again: the
    sign-in the other person started can no longer finish."""
    user = harness.user()
    taken = await offer(harness, user)
    async with new_browser() as browser_of_b:
        authorize = await browser_of_b.get(await start_in(browser_of_b, taken.start_url))
        await offer(harness, user)
        finished = await browser_of_b.get(authorize.headers["location"])
    assert finished.status_code == 400 and "This sign-in link is not valid" in finished.text
    assert oauth_server.token_requests == []


# --- the confirmations name the Magisterium account --------------------------------------------


async def test_the_confirmations_name_the_magisterium_account(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    oauth_server.account_name = "Thérèse <b>@everyone</b>\n" + "x" * 200
    done = await sign_in(harness, harness.user(name="therese_m"))
    assert done.page is not None and done.page.status_code == 200
    assert oauth_server.userinfo_requests == [{"authorized": True}]

    # Control characters go, and 100 characters at most: 25 of the name, 74 x, an ellipsis.
    shown = "Thérèse &lt;b&gt;@everyone&lt;/b&gt; " + "x" * 74 + "…"
    assert f"The Magisterium account <strong>{shown}</strong> is now linked" in done.page.text
    assert ">@therese_m</strong>." in done.page.text
    assert "<b>" not in done.page.text

    edited = confirmation(done)
    assert edited.startswith("You signed in with Magisterium as **Thérèse <b>@\u200beveryone</b> x")
    assert " " + "x" * 74 + "…**: your questions" in edited
    assert done.offered.allowed_mentions == {"parse": []}


async def test_the_account_name_comes_from_the_first_field_present(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    oauth_server.userinfo_claims = {"preferred_username": 7, "name": " ", "email": "t@ex.org"}
    done = await sign_in(harness, harness.user())
    assert done.page is not None and "<strong>t@ex.org</strong>" in done.page.text
    assert "as **t@ex.org**:" in confirmation(done)


@pytest.mark.parametrize("status", [401, 500])
async def test_a_failing_userinfo_endpoint_never_fails_the_sign_in(
    harness: Harness, oauth_server: OAuthTestServer, status: int
) -> None:
    oauth_server.account_name = "Thérèse"
    oauth_server.fail_userinfo(status)
    user = harness.user(name="therese_m")
    done = await sign_in(harness, user)
    assert done.page is not None and done.page.status_code == 200
    assert "Your Magisterium account is now linked to the Discord account" in done.page.text
    assert "Thérèse" not in done.page.text
    assert "with your own account" in confirmation(done)
    assert await harness.bot.services.registry.get(user.id) is not None

"""Sign in with Magisterium against a real OAuth 2.0 authorization server on loopback (built
with Authlib's server components, tests/support/oauth_server): discovery, dynamic registration,
PKCE, the start page and its button, the callback on the bot's own web server, refresh, denied
consent, replayed and expired states. tests/bot/oauth/test_binding.py covers what binds a sign-in
to its person and browser.

The browser here is httpx following the redirects by hand (tests/support/sign_in.py);
tests/bot/oauth/test_sign_in_in_browser.py does the same in headless Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.support import sign_in as sign_in_support
from tests.support.embed_parts import assert_not_shown, shown
from tests.support.oauth_server import ACCESS_TOKEN_PREFIX, OAuthTestServer
from tests.support.sign_in import LINK_STYLE, new_browser, offer, query_of, sign_in, start_in

# The sign-in fixtures (bound here so that pytest finds them in this module).
oauth_server = sign_in_support.oauth_server
sign_in_settings = sign_in_support.sign_in_settings
harness_overrides = sign_in_support.harness_overrides


# --- the whole flow -----------------------------------------------------------------------------


async def test_signing_in_links_the_account_and_the_bot_then_uses_the_new_token(
    harness: Harness, oauth_server: OAuthTestServer, fake: FakeMagisterium
) -> None:
    user = harness.user(name="thérèse")
    done = await sign_in(harness, user)
    assert done.page is not None and done.page.status_code == 200
    assert "Your Magisterium account is linked" in done.page.text
    assert done.page.headers["Cache-Control"] == "no-store"

    # Discovery (RFC 8414) and dynamic registration (RFC 7591) of a public PKCE client.
    [registration] = oauth_server.registrations
    assert registration["token_endpoint_auth_method"] == "none"
    assert "refresh_token" in registration["grant_types"]
    [authorize] = oauth_server.authorize_requests
    assert authorize["code_challenge_method"] == "S256" and authorize["code_challenge"]
    assert authorize["redirect_uri"].endswith("/oauth/callback")
    assert authorize["prompt"] == "consent"  # nobody is passed straight through
    assert authorize["resource"] is None and not authorize.get("scope")  # none configured

    # The tokens are stored encrypted, exactly like a pasted one, and never shown.
    issued = oauth_server.last_token
    assert issued is not None
    for secret in (issued.access_token, issued.refresh_token):
        assert secret not in done.page.text and secret not in str(done.offered.requests)
    account = await harness.bot.services.registry.get(user.id)
    assert account is not None and account.token.get_secret_value() == issued.access_token
    assert account.refresh_token is not None and account.expires_at is not None

    # The ephemeral /account link message now says the account is linked.
    assert done.offered.edits
    edited = done.offered.edits[-1].payload
    assert edited is not None and shown(edited["embeds"], "title") == ["Account linked"]
    assert done.offered.last_message is not None
    assert not done.offered.last_message.get("components")

    answered = await harness.slash("ask", question="What is grace?", user=user)
    assert answered.embeds and fake.requests[-1].token == issued.access_token
    assert issued.access_token.startswith(ACCESS_TOKEN_PREFIX)


async def test_the_registration_is_kept_and_reused(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    await sign_in(harness, harness.user())
    await sign_in(harness, harness.user())
    assert len(oauth_server.registrations) == 1
    assert len({r["client_id"] for r in oauth_server.authorize_requests}) == 1


async def test_the_sign_in_page_speaks_the_persons_language(harness: Harness) -> None:
    done = await sign_in(harness, harness.user(locale="de"), locale="de")
    assert done.page is not None and '<html lang="de"' in done.page.text
    assert "Your Magisterium account is linked" not in done.page.text


async def test_paste_a_token_instead_still_opens_the_modal(harness: Harness) -> None:
    user = harness.user()
    offered = await offer(harness, user)
    buttons = [c for row in offered.offered.components for c in row["components"]]
    [paste] = [b for b in buttons if b.get("style") != LINK_STYLE]
    opened = await harness.click(offered.offered, paste["custom_id"], user=user)
    assert opened.callback_type == 9 and opened.modal is not None


# --- what can go wrong --------------------------------------------------------------------------


async def test_denied_consent_links_nothing_and_uses_the_state_up(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    oauth_server.auto_consent = "deny"
    user = harness.user()
    done = await sign_in(harness, user)
    assert done.page is not None and done.page.status_code == 200
    assert "Your account was not linked" in done.page.text
    assert await harness.bot.services.registry.get(user.id) is None
    async with new_browser() as browser:
        again = await browser.get(done.start_url)
    assert again.status_code == 400 and "already used" in again.text


async def test_a_replayed_callback_is_refused(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    offered = await offer(harness, harness.user())
    async with new_browser() as browser:  # the same browser, with the sign-in's cookie
        authorize = await browser.get(await start_in(browser, offered.start_url))
        callback_url = authorize.headers["location"]
        first = await browser.get(callback_url)
        replayed = await browser.get(callback_url)
    assert first.status_code == 200
    assert replayed.status_code == 400
    assert "This sign-in link was already used" in replayed.text
    assert (
        len([r for r in oauth_server.token_requests if r["grant_type"] == "authorization_code"])
        == 1
    )


async def test_an_expired_link_is_refused(harness: Harness, oauth_server: OAuthTestServer) -> None:
    offered = await offer(harness, harness.user())
    async with harness.bot.services.db.session() as session:
        await session.execute(text("UPDATE oauth_states SET expires_at = created_at"))
    async with new_browser() as browser:
        page = await browser.get(offered.start_url)
        pressed = await browser.post(offered.start_url, headers={"Sec-Fetch-Site": "same-origin"})
    for answer in (page, pressed):
        assert answer.status_code == 400 and "This sign-in link has expired" in answer.text
    assert oauth_server.authorize_requests == []


@pytest.mark.parametrize(
    "query",
    ["state=forged&code=abc", "code=abc", "state=&error=access_denied"],
)
async def test_an_unknown_state_is_an_error_page(harness: Harness, query: str) -> None:
    base = harness.bot.settings.public_base_url
    async with new_browser() as browser:
        page = await browser.get(f"{base}/oauth/callback?{query}")
    assert page.status_code == 400 and "This sign-in link is not valid" in page.text
    assert "<script" not in page.text


async def test_a_failing_token_endpoint_is_a_clear_page_and_links_nothing(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    oauth_server.fail_token_endpoint(status=500)
    user = harness.user()
    done = await sign_in(harness, user)
    assert done.page is not None and done.page.status_code == 502
    assert "not reachable" in done.page.text
    assert await harness.bot.services.registry.get(user.id) is None


async def test_a_wrong_pkce_verifier_is_refused_by_the_server(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    offered = await offer(harness, user)
    async with new_browser() as browser:
        authorize = await browser.get(await start_in(browser, offered.start_url))
        # Another sign-in's state would carry another verifier: swap the code into it.
        other = await offer(harness, user)
        other_state = query_of(await start_in(browser, other.start_url))["state"]
        code = query_of(authorize.headers["location"])["code"]
        base = harness.bot.settings.public_base_url
        page = await browser.get(
            f"{base}/oauth/callback", params={"state": other_state, "code": code}
        )
    assert page.status_code == 502 or "did not complete" in page.text
    assert await harness.bot.services.registry.get(user.id) is None
    assert oauth_server.token_requests[-1]["status"] == 400


# --- refresh ------------------------------------------------------------------------------------


async def test_a_token_about_to_expire_is_refreshed_before_use(
    harness: Harness, oauth_server: OAuthTestServer, fake: FakeMagisterium
) -> None:
    oauth_server.access_token_lifetime = 30  # inside the minute the bot refreshes ahead
    user = harness.user()
    await sign_in(harness, user)
    first = oauth_server.last_token
    await harness.slash("ask", question="What is grace?", user=user)
    refreshed = oauth_server.last_token
    assert first is not None and refreshed is not None and refreshed is not first
    assert oauth_server.token_requests[-1]["grant_type"] == "refresh_token"
    assert fake.requests[-1].token == refreshed.access_token


async def test_a_401_refreshes_once_and_retries(
    harness: Harness, oauth_server: OAuthTestServer, fake: FakeMagisterium
) -> None:
    user = harness.user()
    await sign_in(harness, user)
    first = oauth_server.last_token
    assert first is not None
    fake.accounts.revoke(first.access_token)  # Magisterium stops accepting it early
    answered = await harness.slash("ask", question="What is grace?", user=user)
    refreshed = oauth_server.last_token
    assert refreshed is not None and refreshed.access_token != first.access_token
    assert fake.requests[-1].token == refreshed.access_token
    assert_not_shown("Your Magisterium token no longer works", answered.embeds)


async def test_a_refused_refresh_marks_the_account_for_relinking(
    harness: Harness, oauth_server: OAuthTestServer, fake: FakeMagisterium
) -> None:
    oauth_server.access_token_lifetime = 30
    user = harness.user()
    await sign_in(harness, user)
    oauth_server.revoke_refresh_tokens()
    told = await harness.slash("ask", question="What is grace?", user=user)
    assert shown(told.embeds, "title") == ["Your Magisterium token no longer works"]
    account = await harness.bot.services.registry.get(user.id)
    assert account is not None and account.status == "invalid"
    assert fake.count(skill="catholic_qa") == 0


# --- configured differently ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "sign_in_settings",
    [{"oauth_scopes": "a2a:read  profile", "oauth_resource": "https://www.magisterium.com/api"}],
)
async def test_scopes_and_resource_are_sent_when_configured(
    harness: Harness, oauth_server: OAuthTestServer, sign_in_settings: dict[str, Any]
) -> None:
    await sign_in(harness, harness.user())
    [authorize] = oauth_server.authorize_requests
    assert authorize["scope"] == "a2a:read profile"
    assert authorize["resource"] == "https://www.magisterium.com/api"
    assert oauth_server.token_requests[-1]["resource"] == "https://www.magisterium.com/api"


@pytest.mark.parametrize("sign_in_settings", [{"oauth_client_id": "static-bot"}])
async def test_a_static_client_skips_registration(
    harness: Harness, oauth_server: OAuthTestServer, sign_in_settings: dict[str, Any]
) -> None:
    base = harness.bot.settings.public_base_url
    oauth_server.add_client("static-bot", redirect_uris=[f"{base}/oauth/callback"])
    user = harness.user()
    await sign_in(harness, user)
    assert oauth_server.registrations == []
    assert oauth_server.authorize_requests[-1]["client_id"] == "static-bot"
    assert await harness.bot.services.registry.get(user.id) is not None


async def test_without_a_public_url_account_link_is_the_modal_alone(
    harness_bot: Any, oauth_server: OAuthTestServer
) -> None:
    harness_bot.settings.public_base_url = None
    async with Harness.start(harness_bot) as harness:
        opened = await harness.slash("account link")
        assert opened.callback_type == 9


async def test_a_registration_the_server_forgot_is_made_again(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    user = harness.user()
    offered = await offer(harness, user)
    async with new_browser() as browser:
        authorize = await browser.get(await start_in(browser, offered.start_url))
        oauth_server.clients.clear()  # the server loses every registration meanwhile
        page = await browser.get(authorize.headers["location"])
    assert page.status_code == 400 and "did not complete" in page.text
    await sign_in(harness, user)  # the next sign-in registers again, and works
    assert len(oauth_server.registrations) == 2
    assert await harness.bot.services.registry.get(user.id) is not None

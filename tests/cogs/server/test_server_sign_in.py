"""Sign in with Magisterium for a server: `/server link` with sign-in configured offers the
link; the sign-in (against the test authorization server on loopback,
tests/support/oauth_server, the browser done by hand with httpx as in
tests/bot/oauth/test_flow.py) links that server's account, by that admin, and members then use
its token; a server's state links nothing else; the server's token is refreshed like a
person's."""

from __future__ import annotations

import discord
from sqlalchemy import text

from devtools.discord import Harness, HarnessUser
from devtools.fake_magisterium import FakeMagisterium
from tests.cogs.server.test_server_commands import (
    ADMIN,
    ProbeCommands,
    private_embed,
    probe,
    quota_clock,
    services_of,
    upstream_tokens,
    usage_rows,
)
from tests.support import sign_in as sign_in_support
from tests.support.embed_parts import field_value, shown
from tests.support.oauth_server import OAuthTestServer
from tests.support.sign_in import LINK_STYLE, SignIn, follow, link_button, new_browser, offer

# The sign-in fixtures, and the server tests' probe and quota clock (bound for pytest).
oauth_server = sign_in_support.oauth_server
sign_in_settings = sign_in_support.sign_in_settings
harness_overrides = sign_in_support.harness_overrides
__all__ = ["probe", "quota_clock"]


async def offer_server(
    harness: Harness, admin: HarnessUser, guild: discord.Guild | None = None
) -> SignIn:
    offered = await harness.slash("server link", user=admin, guild=guild, member_permissions=ADMIN)
    assert offered.callback_type == 4 and offered.ephemeral, offered.transcript
    return SignIn(offered, link_button(offered))


# --- the whole flow ---------------------------------------------------------------------------


async def test_server_link_offers_a_sign_in_whose_page_names_the_server_and_the_admin(
    harness: Harness,
) -> None:
    admin = harness.user(name="sacristan")
    offered = await offer_server(harness, admin)
    assert shown(offered.offered.embeds, "title") == ["Link this server's Magisterium account"]
    buttons = [c for row in offered.offered.components for c in row["components"]]
    [paste] = [b for b in buttons if b.get("style") != LINK_STYLE]
    opened = await harness.click(offered.offered, paste["custom_id"], user=admin)
    assert opened.callback_type == 9 and opened.modal is not None  # paste instead: the form

    async with new_browser() as browser:
        page = await browser.get(offered.start_url)
    assert page.status_code == 200
    assert f"Link Magisterium to the server {harness.guild.name}?" in page.text
    assert "@sacristan" in page.text and "give that server your Magisterium account" in page.text


async def test_signing_in_links_the_server_by_that_admin_and_members_use_its_token(
    harness: Harness,
    oauth_server: OAuthTestServer,
    fake: FakeMagisterium,
    probe: ProbeCommands,
    quota_clock: object,
) -> None:
    admin, member = harness.user(name="admin"), harness.user(name="member")
    done = await follow(await offer_server(harness, admin))
    assert done.page is not None and done.page.status_code == 200
    assert "The server&#x27;s Magisterium account is linked" in done.page.text
    assert harness.guild.name in done.page.text

    issued = oauth_server.last_token
    assert issued is not None
    for secret in (issued.access_token, issued.refresh_token):
        assert secret not in done.page.text and secret not in str(done.offered.requests)
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None and account.token.get_secret_value() == issued.access_token
    assert account.refresh_token is not None and account.expires_at is not None
    assert account.linked_by == admin.id
    assert await services_of(harness).registry.get(admin.id) is None  # not the admin's own

    # The ephemeral /server link message now says the server is linked, with its allowance.
    edited = done.offered.edits[-1].payload
    assert edited is not None and shown(edited["embeds"], "title") == ["Server account linked"]
    assert field_value(edited["embeds"][0], "Allowance").startswith("20 requests an hour")

    status = private_embed(await harness.slash("server status", member_permissions=ADMIN))
    assert field_value(status, "Linked").startswith(f"Yes, by <@{admin.id}>")
    assert field_value(status, "Token") == "Working"

    await harness.slash("probe-search", user=member)
    assert upstream_tokens(fake) == [issued.access_token]
    assert await usage_rows(harness) == [(member.id, "all", 1)]


# --- a server's sign-in links that server only -------------------------------------------------


async def test_a_servers_sign_in_links_neither_another_server_nor_a_person(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    other = harness.make_guild("other parish").guild
    admin = harness.user()
    person = await offer(harness, admin)  # the admin's own sign-in, still open
    here = await offer_server(harness, admin)
    there = await offer_server(harness, admin, guild=other)  # another server's: its own state

    await follow(here)
    servers, registry = services_of(harness).servers, services_of(harness).registry
    assert await servers.get(harness.guild.id) is not None
    assert await servers.get(other.id) is None
    assert await registry.get(admin.id) is None
    assert shown(person.offered.embeds, "title") == ["Link your Magisterium account"]
    assert not person.offered.edits  # the person's message is not touched

    # Neither a new server link nor its use ended the others: each links its own.
    await follow(there)
    linked_there = await servers.get(other.id)
    assert linked_there is not None and linked_there.linked_by == admin.id
    await follow(person)
    own = await registry.get(admin.id)
    assert own is not None
    here_account = await servers.get(harness.guild.id, fresh=True)
    assert here_account is not None
    assert own.token.get_secret_value() != here_account.token.get_secret_value()


async def test_the_stored_binding_decides_what_a_state_links(harness: Harness) -> None:
    admin = harness.user()
    server_link = await offer_server(harness, admin)
    person_link = await offer(harness, admin)
    async with services_of(harness).db.session() as session:
        rows = await session.execute(text("SELECT guild_id FROM oauth_states ORDER BY guild_id"))
        guilds = [row[0] for row in rows]
    assert sorted(guilds, key=lambda g: g or 0) == [None, harness.guild.id]
    assert server_link.state != person_link.state


async def test_a_failed_server_sign_in_says_to_run_server_link_again(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    offered = await offer_server(harness, harness.user())
    async with services_of(harness).db.session() as session:
        await session.execute(text("UPDATE oauth_states SET expires_at = created_at"))
    async with new_browser() as browser:
        page = await browser.get(offered.start_url)
    assert page.status_code == 400 and "This sign-in link has expired" in page.text
    assert "<code>/server link</code>" in page.text
    assert "/account link" not in page.text


async def test_unlinking_the_server_ends_a_sign_in_for_it_in_progress(
    harness: Harness, oauth_server: OAuthTestServer
) -> None:
    offered = await offer_server(harness, harness.user())
    await harness.slash("server unlink", member_permissions=ADMIN)
    async with new_browser() as browser:
        page = await browser.get(offered.start_url)
    assert page.status_code == 400 and "This sign-in link is not valid" in page.text
    assert oauth_server.authorize_requests == []


# --- refresh -----------------------------------------------------------------------------------


async def test_an_expiring_server_token_is_refreshed_before_a_member_uses_it(
    harness: Harness,
    oauth_server: OAuthTestServer,
    fake: FakeMagisterium,
    probe: ProbeCommands,
    quota_clock: object,
) -> None:
    oauth_server.access_token_lifetime = 30  # inside the minute the bot refreshes ahead
    await follow(await offer_server(harness, harness.user()))
    first = oauth_server.last_token
    await harness.slash("probe-search", user=harness.user())
    refreshed = oauth_server.last_token
    assert first is not None and refreshed is not None and refreshed is not first
    assert oauth_server.token_requests[-1]["grant_type"] == "refresh_token"
    assert upstream_tokens(fake) == [refreshed.access_token]
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None and account.token.get_secret_value() == refreshed.access_token


async def test_a_401_on_a_server_token_refreshes_once_and_retries(
    harness: Harness,
    oauth_server: OAuthTestServer,
    fake: FakeMagisterium,
    probe: ProbeCommands,
    quota_clock: object,
) -> None:
    await follow(await offer_server(harness, harness.user()))
    first = oauth_server.last_token
    assert first is not None
    fake.accounts.revoke(first.access_token)  # Magisterium stops accepting it early
    answered = await harness.slash("probe-search", user=harness.user())
    refreshed = oauth_server.last_token
    assert refreshed is not None and refreshed.access_token != first.access_token
    assert upstream_tokens(fake) == [first.access_token, refreshed.access_token]
    assert "results" in str(answered.last_message)


async def test_a_refused_server_refresh_marks_it_for_relinking_and_tells_the_member(
    harness: Harness,
    oauth_server: OAuthTestServer,
    fake: FakeMagisterium,
    probe: ProbeCommands,
    quota_clock: object,
) -> None:
    oauth_server.access_token_lifetime = 30
    await follow(await offer_server(harness, harness.user()))
    oauth_server.revoke_refresh_tokens()
    member = harness.user()
    told = private_embed(await harness.slash("probe-search", user=member))
    assert shown([told], "title") == ["This server's Magisterium account no longer works"]
    assert "`/server link`" in str(told["description"])
    assert upstream_tokens(fake) == []
    assert await usage_rows(harness) == []  # a refused refresh spends no allowance

    status = private_embed(await harness.slash("server status", member_permissions=ADMIN))
    assert field_value(status, "Token").startswith("Refused by Magisterium")

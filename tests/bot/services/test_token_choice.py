"""Whose token serves a request once a server has its own account: the person's own, else the
server's within their allowance (only in that server), else the operator's, else how to link.

Every case runs through the CommandTree (or a view, a restart-safe item, a modal, a DM, a daily
post) and reads the token each upstream call carried from the fake Magisterium."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from typing import Any, Self

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from bot.a2a.skills import DOCUMENT_SEARCH
from bot.app.respond import defer
from bot.render.views import BaseModal, BaseView, ReportedDynamicItem
from bot.services.origin import Origin
from bot.services.tokens import ChosenToken
from devtools.discord import Harness, HarnessUser
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium
from tests.cogs.server.test_server_commands import (
    ADMIN,
    NOW,
    SERVER_TOKEN,
    ProbeCommands,
    link_server,
    private_embed,
    services_of,
    upstream_tokens,
    usage_rows,
)
from tests.support.embed_parts import field_value, shown
from tests.support.fakes import FakeWallClock

OWN_TOKEN = "pro-own-token"


async def _search(interaction: discord.Interaction[Any], origin: Origin | None = None) -> None:
    """One upstream search as the person, with a query of its own (results are cached), made
    where the interaction was (or from ``origin``, made earlier)."""
    query = f"Dei Verbum {interaction.id}"
    origin = origin or Origin.of(interaction)
    await interaction.client.services.magisterium.call(origin, DOCUMENT_SEARCH, query)


class ProbeButton(ReportedDynamicItem[discord.ui.Button[Any]], template=r"probe:dynamic"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="dynamic", custom_id="probe:dynamic"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls()

    async def respond(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True)
        await _search(interaction)
        await interaction.followup.send("searched", ephemeral=True)


class NotStored(discord.ui.Button[Any]):
    """The dynamic button as it appears on the message: only the DynamicItem answers it."""

    def is_dispatchable(self) -> bool:
        return False


class ProbeModal(BaseModal):
    def __init__(self) -> None:
        super().__init__(title="probe")
        self.add_item(discord.ui.TextInput(label="text", custom_id="probe:text"))

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await defer(interaction, ephemeral=True)
        await _search(interaction)
        await interaction.followup.send("searched", ephemeral=True)


class ProbeView(BaseView):
    @discord.ui.button(label="view", custom_id="probe:view")
    async def search(
        self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        await _search(interaction)
        await interaction.followup.send("searched", ephemeral=True)

    @discord.ui.button(label="form", custom_id="probe:form")
    async def form(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(ProbeModal())


class ProbeEntries(commands.Cog):
    """A message with every kind of component entry: a view's button, a restart-safe item,
    a button that opens a modal; and a command that waits, to interleave two interactions."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.hold: asyncio.Event | None = None
        self.entered = asyncio.Event()
        self.seen: list[tuple[int | None, int | None]] = []

    @app_commands.command(name="probe-components", description="Buttons that search")
    async def components(self, interaction: discord.Interaction[Any]) -> None:
        view = ProbeView(timeout=None)
        view.add_item(NotStored(label="dynamic", custom_id="probe:dynamic"))
        await interaction.response.send_message("probe", view=view)

    @app_commands.command(name="probe-wait", description="Search after a pause")
    async def wait(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=True)
        origin, hold = Origin.of(interaction), self.hold  # made as the request enters
        self.hold = None
        if hold is not None:
            self.entered.set()
            await hold.wait()  # another interaction runs meanwhile
        self.seen.append((origin.guild_id, Origin.of(interaction).guild_id))
        await _search(interaction, origin)  # the origin made before the pause
        await interaction.followup.send("searched", ephemeral=True)


@pytest.fixture
async def probe(harness: Harness) -> ProbeCommands:
    cog = ProbeCommands(harness.bot)
    await harness.bot.add_cog(cog)
    return cog


@pytest.fixture
async def entries(harness: Harness) -> ProbeEntries:
    cog = ProbeEntries(harness.bot)
    await harness.bot.add_cog(cog)
    harness.bot.add_dynamic_items(ProbeButton)
    return cog


@pytest.fixture
async def server(harness: Harness) -> None:
    """The harness's guild has its own account, with a fixed quota clock."""
    services_of(harness).server_quota.clock = FakeWallClock(NOW)
    await link_server(harness)


async def _link_own(harness: Harness, user: HarnessUser) -> None:
    await services_of(harness).registry.link(user.id, SecretStr(OWN_TOKEN))


# --- precedence ----------------------------------------------------------------------------------


async def test_in_the_server_in_a_dm_and_in_another_server(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    member = harness.user()
    other = harness.make_guild("another parish").guild

    await harness.slash("probe-search", user=member)
    await harness.slash("probe-search", user=member, dm=True)
    await harness.slash("probe-search", user=member, guild=other)
    await harness.slash("probe-search", user=member, private_channel=True)
    await harness.slash("probe-search", user=member)

    assert upstream_tokens(fake) == [
        SERVER_TOKEN,
        OPERATOR_TOKEN,
        OPERATOR_TOKEN,
        OPERATOR_TOKEN,
        SERVER_TOKEN,
    ]
    assert await usage_rows(harness) == [(member.id, "all", 2)]
    assert await usage_rows(harness, other.id) == []


async def test_a_member_with_their_own_token_never_touches_the_servers(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    member = harness.user()
    await _link_own(harness, member)

    await harness.slash("probe-search", user=member)
    await harness.slash("probe-ask", user=member)

    assert upstream_tokens(fake) == [OWN_TOKEN]
    assert upstream_tokens(fake, "catholic_qa") == [OWN_TOKEN]
    assert await usage_rows(harness) == []


async def test_a_plain_dm_and_a_daily_post_never_use_the_servers_account(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    member = harness.user()
    await harness.slash("probe-search", user=member)  # the server's, just before
    exchange = await harness.dm_message(member, "What is the Magisterium?")
    assert exchange.replies, "the DM was answered"
    assert upstream_tokens(fake, "catholic_qa") == [OPERATOR_TOKEN]

    daily = harness.bot.get_cog("DailyCog")
    assert daily is not None
    daily.now = FakeWallClock(NOW)  # type: ignore[attr-defined]  # set before the tick below
    await harness.slash(
        "daily set",
        member_permissions=ADMIN,
        options={"channel": harness.channel},
        feed="saints",
        time="07:00",
        timezone="UTC",
    )
    report = await daily.tick(dt.datetime(2026, 12, 2, 7, 0, tzinfo=dt.UTC))  # type: ignore[attr-defined]
    assert report.posted == 1
    assert upstream_tokens(fake, "saints_of_the_day") == [OPERATOR_TOKEN]
    assert await usage_rows(harness) == [(member.id, "all", 1)]


# --- allowances ----------------------------------------------------------------------------------


async def test_a_used_up_allowance_falls_back_to_the_operators_token(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    await harness.slash("server quota", member_permissions=ADMIN, per_hour=1, qa_per_hour=1)
    member = harness.user()
    await harness.slash("probe-search", user=member)
    await harness.slash("probe-search", user=member)
    assert upstream_tokens(fake) == [SERVER_TOKEN, OPERATOR_TOKEN]

    status = await harness.slash("account status", user=member)
    embed = private_embed(status)
    assert field_value(embed, "Token") == "The bot's shared account"
    assert field_value(embed, "Left this hour on this server's account").startswith("0 requests")
    assert field_value(embed, "Then on the bot's shared account").startswith("19 requests")


@pytest.mark.parametrize("harness_overrides", [{"magisterium_token": None}])
async def test_a_used_up_allowance_says_when_it_refills_and_how_to_link(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    await harness.slash("server quota", member_permissions=ADMIN, per_hour=2, qa_per_hour=1)
    member = harness.user()
    await harness.slash("probe-ask", user=member)
    refused = await harness.slash("probe-ask", user=member)

    embed = private_embed(refused)
    assert shown([embed], "title") == ["Server allowance used up"]
    assert embed["description"] == (
        "You have used this hour's questions on this server's account. It refills in 45 "
        "minutes. Link your own Magisterium account with `/account link`."
    )
    assert upstream_tokens(fake, "catholic_qa") == [SERVER_TOKEN]  # nothing sent the second time
    await harness.slash("probe-search", user=member)  # another kind: one request is left
    assert upstream_tokens(fake) == [SERVER_TOKEN]


@pytest.mark.parametrize(
    "harness_overrides", [{"shared_quota_per_hour": 1, "shared_qa_quota_per_hour": 1}]
)
async def test_both_allowances_used_up_says_so(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    await harness.slash("server quota", member_permissions=ADMIN, per_hour=1, qa_per_hour=1)
    member = harness.user()
    for _ in range(3):
        last = await harness.slash("probe-search", user=member)
    assert upstream_tokens(fake) == [SERVER_TOKEN, OPERATOR_TOKEN]
    embed = private_embed(last)
    assert shown([embed], "title") == ["Server allowance used up"]
    assert str(embed["description"]).startswith(
        "You have used this hour's requests on this server's account and on the bot's shared "
        "account. It refills in 45 minutes."
    )


@pytest.mark.parametrize("harness_overrides", [{"magisterium_token": None}])
async def test_a_kind_turned_off_is_not_served_and_tells_how_to_link(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    await harness.slash("server quota", member_permissions=ADMIN, per_hour=5, qa_per_hour=0)
    refused = await harness.slash("probe-ask", user=harness.user())
    embed = private_embed(refused)
    assert shown([embed], "title") == ["Link your Magisterium account first"]
    assert upstream_tokens(fake, "catholic_qa") == []


async def test_account_status_says_which_token_serves_here(
    harness: Harness, probe: ProbeCommands, server: None
) -> None:
    member = harness.user()
    await harness.slash("probe-ask", user=member)

    here = private_embed(await harness.slash("account status", user=member))
    assert field_value(here, "Linked") == "No"
    assert field_value(here, "Token") == "This server's account"
    assert field_value(here, "Left this hour on this server's account") == (
        "19 requests, 4 of them `/ask`"
    )
    assert field_value(here, "Then on the bot's shared account") == "20 requests, 5 of them `/ask`"

    in_dm = private_embed(await harness.slash("account status", user=member, dm=True))
    assert field_value(in_dm, "Token") == "The bot's shared account"
    assert field_value(in_dm, "Left this hour") == "20 requests, 5 of them `/ask`"

    await _link_own(harness, member)
    own = private_embed(await harness.slash("account status", user=member))
    assert field_value(own, "Token") == "Your own — working"


async def test_a_refused_server_token_is_marked_and_the_operators_serves_next(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, server: None
) -> None:
    fake.accounts.revoke(SERVER_TOKEN)
    member = harness.user()
    refused = await harness.slash("probe-search", user=member)
    embed = private_embed(refused)
    assert shown([embed], "title") == ["This server's Magisterium account no longer works"]
    assert "`/server link`" in str(embed["description"])

    status = await harness.slash("server status", member_permissions=ADMIN)
    assert field_value(private_embed(status), "Token").startswith("Refused by Magisterium")
    await harness.slash("probe-search", user=member)
    assert upstream_tokens(fake)[-1] == OPERATOR_TOKEN


# --- where the request comes from: every entry point, one task each ----------------------------


async def test_components_and_modals_carry_the_server_they_were_used_in(
    harness: Harness, entries: ProbeEntries, fake: FakeMagisterium, server: None
) -> None:
    member = harness.user()
    in_server = await harness.slash("probe-components", user=member)
    in_dm = await harness.slash("probe-components", user=member, dm=True)

    for message in (in_server, in_dm):
        await harness.click(message, "probe:view", user=member)
        await harness.click(message, "probe:dynamic", user=member)
        opened = await harness.click(message, "probe:form", user=member)
        assert opened.callback_type == 9
        await harness.submit_modal(opened, {"probe:text": "x"}, user=member)

    assert upstream_tokens(fake) == [SERVER_TOKEN] * 3 + [OPERATOR_TOKEN] * 3


async def test_the_origin_stays_with_its_own_interaction(
    harness: Harness,
    entries: ProbeEntries,
    fake: FakeMagisterium,
    server: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chooser = services_of(harness).chooser
    asked: list[Origin] = []
    choose = chooser.choose

    async def recording(origin: Origin, *, expensive: bool) -> ChosenToken:
        asked.append(origin)
        return await choose(origin, expensive=expensive)

    monkeypatch.setattr(chooser, "choose", recording)
    member = harness.user()
    entries.hold = hold = asyncio.Event()
    in_server = asyncio.create_task(harness.slash("probe-wait", user=member))
    await entries.entered.wait()  # the server's interaction is under way, paused

    await harness.slash("probe-wait", user=member, dm=True)  # a DM, in the meantime
    hold.set()
    await in_server

    assert entries.seen == [(None, None), (harness.guild.id, harness.guild.id)]
    assert upstream_tokens(fake) == [OPERATOR_TOKEN, SERVER_TOKEN]
    # Each call's token was chosen for the origin passed with it, and for nothing else.
    assert [(o.user_id, o.guild_id) for o in asked] == [
        (member.id, None),
        (member.id, harness.guild.id),
    ]

"""/server link | quota | status | unlink through the real CommandTree and modal flow; the
bot's removal; the server's ciphertext bound to its guild."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr
from sqlalchemy import func, select, update

from bot.a2a.skills import CATHOLIC_QA, DOCUMENT_SEARCH
from bot.accounts import ServerRegistry, TokenBindingError, TokenCipher, TokenRegistry
from bot.app import MagisteriumBot
from bot.app.composition import Services
from bot.app.respond import defer
from bot.services.origin import Origin
from bot.storage import Database, LinkedAccountRow, ServerAccountRow, ServerTokenUsageRow
from cogs.server.views import SERVER_TOKEN_FIELD_ID
from devtools.discord import CommandUnavailable, Harness, HarnessUser, InteractionResult
from devtools.discord.commands import InvalidOptions
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import everything_shown, field_value, shown
from tests.support.fakes import FakeWallClock

ADMIN = discord.Permissions(manage_guild=True)
SERVER_TOKEN = "pro-server-token"  # the fake's rule: anything else is Pro
# Fixed for the server quota (a real clock could cross an hour mid-test): 10:15 UTC.
NOW = dt.datetime(2026, 12, 1, 10, 15, tzinfo=dt.UTC)


class ProbeCommands(commands.Cog):
    """Stand-in skill commands: one upstream call as the invoking person, a search (with a
    query of its own each time: search results are cached for everyone) or a question."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.calls = 0

    @app_commands.command(name="probe-search", description="Search as the invoking user")
    async def probe_search(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=True)
        self.calls += 1
        query = f"Lumen Gentium {interaction.id}"
        results = await self.bot.services.magisterium.call(
            Origin.of(interaction), DOCUMENT_SEARCH, query
        )
        await interaction.followup.send(f"{len(results.hits)} results", ephemeral=True)

    @app_commands.command(name="probe-ask", description="Ask as the invoking user")
    async def probe_ask(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=True)
        answer = await self.bot.services.magisterium.call(
            Origin.of(interaction), CATHOLIC_QA, "What is grace?"
        )
        await interaction.followup.send(answer.text[:100] or "answered", ephemeral=True)


@pytest.fixture
async def probe(harness: Harness) -> ProbeCommands:
    cog = ProbeCommands(harness.bot)
    await harness.bot.add_cog(cog)
    return cog


@pytest.fixture
def quota_clock(harness: Harness) -> FakeWallClock:
    clock = FakeWallClock(NOW)
    services_of(harness).server_quota.clock = clock
    return clock


def services_of(harness: Harness) -> Services:
    return cast(MagisteriumBot, harness.bot).services


async def link_server(
    harness: Harness,
    token: str = SERVER_TOKEN,
    *,
    admin: HarnessUser | None = None,
    guild: discord.Guild | None = None,
) -> InteractionResult:
    """/server link as an admin: the form opens at once, then the token is pasted."""
    opened = await harness.slash("server link", user=admin, guild=guild, member_permissions=ADMIN)
    assert opened.callback_type == 9, opened.transcript  # the modal is the first response
    assert opened.modal is not None and len(opened.modal.title) <= 45
    return await harness.submit_modal(
        opened, {SERVER_TOKEN_FIELD_ID: token}, user=admin, member_permissions=ADMIN
    )


async def usage_rows(harness: Harness, guild_id: int | None = None) -> list[tuple[int, str, int]]:
    """(member, pool, count) of every usage row of the guild."""
    db = services_of(harness).db
    row = ServerTokenUsageRow
    async with db.session() as session:
        found = await session.execute(
            select(row.discord_user_id, row.pool, row.count).where(
                row.guild_id == (guild_id or harness.guild.id)
            )
        )
        return sorted((int(user), pool, count) for user, pool, count in found)


def upstream_tokens(fake: FakeMagisterium, skill: str = "document_search") -> list[str | None]:
    return [request.token for request in fake.requests if request.skill == skill]


def private_embed(result: InteractionResult) -> dict[str, Any]:
    assert result.ephemeral, result.transcript
    (embed,) = result.embeds
    return embed


# --- /server link --------------------------------------------------------------------------------


async def test_link_through_the_form_then_members_without_a_token_use_it(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium, quota_clock: FakeWallClock
) -> None:
    admin, member = harness.user(name="admin"), harness.user(name="member")
    linked = await link_server(harness, admin=admin)

    embed = private_embed(linked)
    assert shown([embed], "title") == ["Server account linked"]
    assert field_value(embed, "Allowance") == ("20 requests an hour per member, 5 of them `/ask`")
    assert SERVER_TOKEN not in str(linked.requests)  # never echoed
    assert [(r.method, r.token) for r in fake.requests] == [("tasks/get", SERVER_TOKEN)]
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None and account.linked_by == admin.id

    await harness.slash("probe-search", user=member)
    assert upstream_tokens(fake) == [SERVER_TOKEN]
    assert await usage_rows(harness) == [(member.id, "all", 1)]


@pytest.mark.parametrize(
    ("token", "fault", "title"),
    [
        ("invalid-server-token", None, "That token was refused"),
        ("free-server-token", None, "A paid plan is needed"),
        ("pro-server-token", Fault.GARBAGE_BODY, "Could not check the token"),
    ],
)
async def test_a_token_that_fails_validation_is_not_stored(
    harness: Harness, fake: FakeMagisterium, token: str, fault: Fault | None, title: str
) -> None:
    if fault is not None:
        fake.faults.add(fault, method="tasks/get")
    result = await link_server(harness, token)

    embed = private_embed(result)
    assert shown([embed], "title") == [title]
    assert "nothing was saved" in str(embed.get("description")).lower()
    assert token not in str(result.requests)
    assert "Traceback" not in str(everything_shown(result.embeds))
    assert await services_of(harness).servers.get(harness.guild.id) is None
    assert {r.method for r in fake.requests} == {"tasks/get"}  # no quota spent checking


async def test_a_relink_replaces_the_token_and_keeps_the_allowances(harness: Harness) -> None:
    first, second = harness.user(name="first"), harness.user(name="second")
    await link_server(harness, admin=first)
    await harness.slash("server quota", member_permissions=ADMIN, per_hour=7, qa_per_hour=2)
    relinked = await link_server(harness, "pro-server-token-2", admin=second)

    assert field_value(private_embed(relinked), "Allowance").startswith("7 requests an hour")
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None
    assert account.token.get_secret_value() == "pro-server-token-2"
    assert account.linked_by == second.id
    assert (account.allowance.per_hour, account.allowance.qa_per_hour) == (7, 2)


# --- /server quota -----------------------------------------------------------------------------


async def test_quota_sets_each_members_allowance(harness: Harness) -> None:
    await link_server(harness)
    result = await harness.slash(
        "server quota", member_permissions=ADMIN, per_hour=3, qa_per_hour=0
    )

    embed = private_embed(result)
    assert shown([embed], "title") == ["Allowance set"]
    assert field_value(embed, "Allowance") == "3 requests an hour per member; `/ask` off"
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None
    assert (account.allowance.per_hour, account.allowance.qa_per_hour) == (3, 0)

    off = await harness.slash("server quota", member_permissions=ADMIN, per_hour=0, qa_per_hour=0)
    assert field_value(private_embed(off), "Allowance").startswith("Off: ")


async def test_quota_takes_integers_in_range_only(harness: Harness) -> None:
    await link_server(harness)
    command = harness.bot.tree.get_command("server")
    assert isinstance(command, app_commands.Group)
    spec = command.to_dict(harness.bot.tree)
    [quota] = [option for option in spec["options"] if option["name"] == "quota"]
    bounds = {o["name"]: (o["type"], o["min_value"], o["max_value"]) for o in quota["options"]}
    assert bounds == {"per_hour": (4, 0, 900), "qa_per_hour": (4, 0, 120)}  # 4: integer
    assert all(option["required"] for option in quota["options"])

    for values in ({"per_hour": -1, "qa_per_hour": 1}, {"per_hour": 901, "qa_per_hour": 1}):
        with pytest.raises(InvalidOptions):
            await harness.slash("server quota", member_permissions=ADMIN, options=values)
    with pytest.raises(InvalidOptions):
        await harness.slash("server quota", member_permissions=ADMIN, per_hour=5, qa_per_hour=121)
    account = await services_of(harness).servers.get(harness.guild.id)
    assert account is not None and account.allowance.per_hour == 20  # nothing changed


async def test_quota_before_any_link_says_to_link_first(harness: Harness) -> None:
    result = await harness.slash(
        "server quota", member_permissions=ADMIN, per_hour=5, qa_per_hour=1
    )
    embed = private_embed(result)
    assert shown([embed], "title") == ["No server account linked"]
    assert "`/server link`" in str(embed.get("description"))


# --- /server status ----------------------------------------------------------------------------


async def test_status_shows_who_linked_when_the_allowance_and_counts_only(
    harness: Harness, probe: ProbeCommands, quota_clock: FakeWallClock
) -> None:
    before = await harness.slash("server status", member_permissions=ADMIN)
    assert "No account linked" in str(private_embed(before).get("description"))

    admin = harness.user(name="admin")
    await link_server(harness, admin=admin)
    members = [harness.user(name=f"member{n}") for n in range(3)]
    await harness.slash("probe-search", user=members[0])  # an hour ago
    quota_clock.advance(hours=1)
    for member in members[1:]:
        await harness.slash("probe-search", user=member)
        await harness.slash("probe-search", user=member)

    result = await harness.slash("server status", member_permissions=ADMIN, user=admin)
    embed = private_embed(result)
    assert field_value(embed, "Linked").startswith(f"Yes, by <@{admin.id}> since <t:")
    assert field_value(embed, "Token") == "Working"
    assert field_value(embed, "Allowance").startswith("20 requests an hour per member")
    assert field_value(embed, "Members who used it") == "2 this hour, 3 in the last 24 hours"
    text = " ".join(everything_shown(result.embeds))
    for member in members:  # counts only: nobody is named, nothing asked is shown
        assert str(member.id) not in text and member.name not in text
    assert "Lumen Gentium" not in text
    assert result.allowed_mentions == {"parse": []}  # the admin's mention pings nobody


async def test_usage_older_than_a_day_is_deleted(
    harness: Harness, probe: ProbeCommands, quota_clock: FakeWallClock
) -> None:
    await link_server(harness)
    old, new = harness.user(), harness.user()
    await harness.slash("probe-search", user=old)
    quota_clock.advance(hours=24)
    await harness.slash("probe-search", user=new)
    assert await usage_rows(harness) == [(new.id, "all", 1)]


# --- /server unlink and the bot's removal ---------------------------------------------------


async def test_unlink_deletes_the_account_and_its_usage_at_once(
    harness: Harness, probe: ProbeCommands, fake: FakeMagisterium
) -> None:
    await link_server(harness)
    member = harness.user()
    await harness.slash("probe-search", user=member)
    assert await usage_rows(harness) != []

    result = await harness.slash("server unlink", member_permissions=ADMIN)
    embed = private_embed(result)
    assert shown([embed], "title") == ["Server account unlinked"]
    assert "are deleted" in str(embed.get("description"))
    assert await services_of(harness).servers.get(harness.guild.id) is None
    assert await usage_rows(harness) == []

    await harness.slash("probe-search", user=member)
    assert upstream_tokens(fake) == [SERVER_TOKEN, OPERATOR_TOKEN]
    again = private_embed(await harness.slash("server unlink", member_permissions=ADMIN))
    assert shown([again], "title") == ["Nothing to delete"]
    assert again.get("description") == "This server had no Magisterium account linked."


async def test_removal_deletes_the_account_and_usage_an_outage_keeps_them(
    harness: Harness, probe: ProbeCommands
) -> None:
    other = harness.make_guild("other parish").guild
    await link_server(harness)
    await link_server(harness, "pro-other-server", guild=other)
    await harness.slash("probe-search", user=harness.user())
    servers = services_of(harness).servers

    await harness.gateway("GUILD_DELETE", {"id": str(harness.guild.id), "unavailable": True})
    assert await servers.get(harness.guild.id) is not None

    await harness.gateway("GUILD_DELETE", {"id": str(harness.guild.id)})
    assert await servers.get(harness.guild.id) is None
    assert await usage_rows(harness) == []
    assert await servers.get(other.id) is not None  # only the server that removed the bot


# --- who may run /server ------------------------------------------------------------------------


def test_the_synced_command_needs_manage_server_in_servers_only(harness: Harness) -> None:
    command = harness.bot.tree.get_command("server")
    assert isinstance(command, app_commands.Group)
    spec = command.to_dict(harness.bot.tree)
    assert spec["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    assert spec["contexts"] == [0]  # guild only: never in DMs or private channels
    assert spec["integration_types"] == [0]  # installed to servers, not to users
    names = {option["name"] for option in spec["options"]}
    assert names == {"link", "quota", "status", "unlink", "timezone", "mentions", "askchannel"}


@pytest.mark.parametrize(
    "name",
    [
        "server link",
        "server status",
        "server unlink",
        "server quota",
        "server timezone",
        "server mentions",
    ],
)
async def test_a_member_without_manage_server_cannot_run_it(harness: Harness, name: str) -> None:
    by_name: dict[str, dict[str, Any]] = {
        "server quota": {"per_hour": 1, "qa_per_hour": 1},
        "server mentions": {"enabled": False},
    }
    options = by_name.get(name, {})
    with pytest.raises(CommandUnavailable, match="manage_guild"):
        await harness.slash(name, options=options)
    with pytest.raises(CommandUnavailable, match="not offered in a"):
        await harness.slash(name, dm=True, member_permissions=ADMIN, options=options)


# --- the ciphertext is bound to its server --------------------------------------------------------


async def test_a_servers_ciphertext_decrypts_for_no_other_server_or_person(
    database: Database, cipher: TokenCipher
) -> None:
    servers, people = ServerRegistry(database, cipher), TokenRegistry(database, cipher)
    await servers.link(1001, 7, SecretStr("pro-first-server"))
    await servers.link(1002, 7, SecretStr("pro-second-server"))
    await people.link(7, SecretStr("pro-person"))
    async with database.session() as session:
        stored = await session.scalar(
            select(ServerAccountRow.token_ciphertext).where(ServerAccountRow.guild_id == 1001)
        )
        assert stored is not None and "pro-first-server" not in stored
        await session.execute(
            update(ServerAccountRow)
            .where(ServerAccountRow.guild_id == 1002)
            .values(token_ciphertext=stored)
        )
        # The server's ciphertext in the linking admin's own row: another purpose.
        await session.execute(
            update(LinkedAccountRow)
            .where(LinkedAccountRow.discord_user_id == 7)
            .values(token_ciphertext=stored)
        )

    with pytest.raises(TokenBindingError):
        await servers.get(1002)
    with pytest.raises(TokenBindingError):
        await people.get(7)
    first = await servers.get(1001)
    assert first is not None and first.token.get_secret_value() == "pro-first-server"


async def test_an_admins_unlink_forgets_them_and_the_servers_account_stays(
    database: Database, cipher: TokenCipher
) -> None:
    servers, people = ServerRegistry(database, cipher), TokenRegistry(database, cipher)
    await servers.link(1001, 7, SecretStr("pro-first-server"))
    await servers.link(1002, 8, SecretStr("pro-second-server"))

    await people.unlink(7)

    first, second = await servers.get(1001), await servers.get(1002)
    assert first is not None and first.linked_by is None
    assert first.token.get_secret_value() == "pro-first-server"
    assert second is not None and second.linked_by == 8
    async with database.session() as session:
        linked_by = select(func.count()).where(ServerAccountRow.discord_user_id == 7)
        assert await session.scalar(linked_by) == 0

"""/account through the real modal flow; per-user tokens reach Magisterium; nothing leaks."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from sqlalchemy import select

from bot.a2a.skills import DOCUMENT_SEARCH
from bot.app.respond import defer
from bot.services.feedback import FeedbackCounts
from bot.services.origin import Origin
from bot.storage.models import PersonTimezoneRow
from cogs.account.views import TOKEN_FIELD_ID
from devtools.discord import Harness, HarnessUser, InteractionResult
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_shown, field_value, shown

EPHEMERAL = 64


class SearchProbe(commands.Cog):
    """A stand-in skill command: one upstream call as the invoking person."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="probe-search", description="Search as the invoking user")
    async def probe_search(self, interaction: discord.Interaction[Any]) -> None:
        await defer(interaction, ephemeral=True)
        user_id = interaction.user.id
        # A query of its own per person: search results are cached for everyone.
        query = f"Lumen Gentium {user_id}"
        results = await self.bot.services.magisterium.call(
            Origin.of(interaction), DOCUMENT_SEARCH, query
        )
        await interaction.followup.send(f"{len(results.hits)} results", ephemeral=True)


@pytest.fixture
async def probe(harness: Harness) -> SearchProbe:
    cog = SearchProbe(harness.bot)
    await harness.bot.add_cog(cog)
    return cog


async def _link(harness: Harness, user: HarnessUser, token: str, **where: Any) -> InteractionResult:
    opened = await harness.slash("account link", user=user, **where)
    assert opened.callback_type == 9  # the modal is the first response
    assert opened.modal is not None and len(opened.modal.title) <= 45
    return await harness.submit_modal(opened, {TOKEN_FIELD_ID: token}, user=user)


async def test_link_then_each_persons_token_reaches_magisterium(
    harness: Harness, probe: SearchProbe, fake: FakeMagisterium
) -> None:
    alice, bob, carol = harness.user(name="alice"), harness.user(name="bob"), harness.user()
    linked = await _link(harness, alice, "pro-alice-token")
    assert linked.ephemeral
    assert shown(linked.embeds, "title") == ["Account linked"]
    assert "pro-alice-token" not in str(linked.requests)  # never echoed
    assert fake.requests[-1].method == "tasks/get"  # validated without spending quota
    assert fake.requests[-1].token == "pro-alice-token"
    await _link(harness, bob, "pro-bob-token", dm=True)

    for user in (alice, bob, carol):
        result = await harness.slash("probe-search", user=user)
        assert result.ephemeral and result.contents[0].endswith(" results")
    searches = [r.token for r in fake.requests if r.skill == "document_search"]
    assert searches == ["pro-alice-token", "pro-bob-token", OPERATOR_TOKEN]


@pytest.mark.parametrize(
    ("token", "fault", "title", "stored"),
    [
        ("invalid-token-1", None, "That token was refused", False),
        ("free-token-1", None, "A paid plan is needed", False),
        ("pro-token-1", Fault.RATE_LIMITED, "Account linked", True),
        ("pro-token-1", Fault.GARBAGE_BODY, "Could not check the token", False),
    ],
)
async def test_link_verdicts(
    harness: Harness,
    fake: FakeMagisterium,
    token: str,
    fault: Fault | None,
    title: str,
    stored: bool,
) -> None:
    if fault is not None:
        fake.faults.add(fault, method="tasks/get")
    user = harness.user()
    result = await _link(harness, user, token)
    assert result.ephemeral
    assert shown(result.embeds, "title") == [title]
    assert token not in str(result.requests)
    assert (await harness.bot.services.registry.get(user.id) is not None) is stored


async def test_status_and_unlink(harness: Harness) -> None:
    user = harness.user()
    before = await harness.slash("account status", user=user)
    assert before.ephemeral
    [shared] = before.embeds
    assert field_value(shared, "Token") == "The bot's shared account"
    assert field_value(shared, "Left this hour").startswith("20 requests, ")

    await _link(harness, user, "pro-status-token")
    linked = await harness.slash("account status", user=user)
    [own] = linked.embeds
    assert field_value(own, "Linked").startswith("Yes, since <t:")
    assert field_value(own, "Token") == "Your own — working"

    gone = await harness.slash("account unlink", user=user, dm=True)
    assert gone.ephemeral
    assert told(gone) == (
        "Unlinked",
        "Your token and everything the bot stored about you are deleted.",
    )
    assert await harness.bot.services.registry.get(user.id) is None
    again = await harness.slash("account unlink", user=user)
    assert told(again) == ("Nothing to delete", "Nothing was stored about you.")


def told(result: InteractionResult) -> tuple[str, str]:
    """The one private note an /account command answered: (title, text)."""
    assert result.ephemeral
    [embed] = result.embeds
    return str(embed["title"]), str(embed["description"])


async def vote_on_answers(harness: Harness, voter: HarnessUser, count: int) -> None:
    """``voter`` presses "Helpful" under ``count`` answers someone else asked for."""
    for number in range(count):
        answer = await harness.slash("ask", question=f"What is grace? ({number})")
        assert answer.message is not None
        helpful = next(c for c in answer.message.custom_ids if c.startswith("fb:h:"))
        pressed = await harness.click(answer, helpful, user=voter)
        assert pressed.ephemeral and not pressed.rejected


@pytest.mark.parametrize(
    ("token", "votes", "timezone", "title", "text"),
    [
        (
            True,
            2,
            False,
            "Unlinked",
            "Your token, your 2 votes on answers and everything else the bot stored about you "
            "are deleted.",
        ),
        (
            False,
            1,
            False,
            "Deleted",
            "You had no linked account. Your 1 vote on answers and everything else the bot "
            "stored about you are deleted.",
        ),
        (
            False,
            0,
            True,
            "Deleted",
            "You had no linked account. Everything the bot stored about you is deleted.",
        ),
    ],
    ids=["token-and-votes", "votes-only", "timezone-only"],
)
async def test_unlink_says_what_it_deleted(
    harness: Harness, token: bool, votes: int, timezone: bool, title: str, text: str
) -> None:
    user = harness.user()
    if token:
        await _link(harness, user, "pro-unlink-token")
    await vote_on_answers(harness, user, votes)
    if timezone:
        await harness.slash("account timezone", user=user, zone="Europe/Rome")
    gone = await harness.slash("account unlink", user=user)
    assert told(gone) == (title, text)
    assert await harness.bot.services.feedback.counts(harness.guild.id) == FeedbackCounts(0, 0)
    zone = select(PersonTimezoneRow.timezone).where(PersonTimezoneRow.discord_user_id == user.id)
    assert await harness.bot.services.db.first(zone) is None
    again = await harness.slash("account unlink", user=user)  # nothing left
    assert told(again) == ("Nothing to delete", "Nothing was stored about you.")


async def test_a_401_later_marks_the_token_invalid_and_says_relink(
    harness: Harness, probe: SearchProbe, fake: FakeMagisterium
) -> None:
    user = harness.user()
    await _link(harness, user, "pro-revoked-later")
    fake.accounts.revoke("pro-revoked-later")
    result = await harness.slash("probe-search", user=user)
    assert result.ephemeral
    assert_shown("/account link", result.embeds, "description")
    account = await harness.bot.services.registry.get(user.id)
    assert account is not None and account.status == "invalid"
    status = await harness.slash("account status", user=user)
    assert "needs relinking" in field_value(status.embeds[0], "Token")
    calls = fake.count()
    await harness.slash("probe-search", user=user)  # not sent upstream with a dead token
    assert fake.count() == calls


async def test_tokens_never_reach_the_database_file_or_the_logs(
    harness: Harness, probe: SearchProbe, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    tokens = [f"pro-secret-{n}-xyzzy" for n in range(3)]
    for token in tokens:
        user = harness.user()
        await _link(harness, user, token)
        await harness.slash("probe-search", user=user)
    url = harness.bot.settings.database_url
    db_file = Path(url.split("///", 1)[1])
    blobs = b"".join(p.read_bytes() for p in db_file.parent.glob(db_file.name + "*"))
    assert blobs  # the database really is there
    for token in tokens:
        assert token.encode() not in blobs
        assert token not in caplog.text


async def test_a_locked_database_says_try_again_shortly_and_loses_nothing(
    harness: Harness,
) -> None:
    import sqlite3

    user = harness.user()
    await _link(harness, user, "pro-kept-through-lock")
    db_path = harness.bot.settings.database_url.split("///", 1)[1]
    blocker = sqlite3.connect(db_path, timeout=0)
    try:
        blocker.execute("BEGIN EXCLUSIVE")  # another process holds the database
        result = await harness.slash("account unlink", user=user)
    finally:
        blocker.rollback()
        blocker.close()
    assert result.ephemeral
    assert shown(result.embeds, "title") == ["Try again shortly"]
    account = await harness.bot.services.registry.get(user.id)
    assert account is not None and account.token.get_secret_value() == "pro-kept-through-lock"

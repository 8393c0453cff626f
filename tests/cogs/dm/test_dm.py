"""Private questions in DMs: a conversation keeps its contextId until the person starts anew."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.dm.views import NEW_CONVERSATION_ID
from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_not_shown, assert_shown, shown


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {"qa_rate_limit_per_minute": 10}  # a conversation of several questions a minute


@pytest.fixture
def fake() -> FakeMagisterium:
    return FakeMagisterium(expensive_per_minute=10)


async def test_a_three_message_conversation_keeps_its_context(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    first = await harness.dm_message(user, "What is baptism?")
    second = await harness.dm_message(user, "Who may baptise?")
    third = await harness.dm_message(user, "And in an emergency?")
    asks = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert len(asks) == 3
    first_context = asks[0].context_id
    assert first_context is None
    context = await harness.bot.services.conversations.context_of(user.id)
    assert context is not None
    assert [r.context_id for r in asks[1:]] == [context, context]
    for exchange in (first, second, third):
        assert exchange.reply_embeds, exchange
    # The fake names what it continues.
    assert_shown("Who may baptise?", third.reply_embeds, "description")
    assert NEW_CONVERSATION_ID in first.replies[-1].custom_ids


async def test_new_conversation_button_starts_afresh(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    first = await harness.dm_message(user, "What is grace?")
    clicked = await harness.click(first.replies[-1], NEW_CONVERSATION_ID, user=user)
    assert shown(clicked.embeds, "title") == ["New conversation"]  # and nothing else
    await harness.dm_message(user, "What is prayer?")
    asks = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert [r.context_id for r in asks] == [None, None]


async def test_a_message_while_answering_gets_still_working_not_a_second_call(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    fake.faults.add(Fault.LATENCY, seconds=0.3)
    first, second = await asyncio.gather(
        harness.dm_message(user, "What is the Eucharist?"),
        harness.dm_message(user, "Hello?"),
    )
    assert fake.count(skill="catholic_qa") == 1
    # Both exchanges share one DM channel, so each sees every reply sent meanwhile.
    replies = {reply.id: reply for exchange in (first, second) for reply in exchange.replies}
    notes = [r for r in replies.values() if shown(r.embeds, "title") == ["Still working"]]
    assert len(notes) == 1
    footers = [text for r in replies.values() for text in shown(r.embeds, "footer")]
    assert any("catholic_qa" in text for text in footers), footers


async def test_guild_messages_and_empty_dms_are_not_questions(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    in_guild = await harness.post(user, "What is grace?")
    empty = await harness.dm_message(user, "\u200b \u200d ")
    assert in_guild.replies == [] and empty.replies == []
    assert fake.count() == 0


async def test_an_upstream_failure_is_one_clear_reply(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.PLAN_REQUIRED)
    user = harness.user()
    exchange = await harness.dm_message(user, "What is grace?")
    assert_shown("paid Magisterium plan", exchange.reply_embeds, "title")
    assert_not_shown("Traceback", exchange.replies[-1].embeds)
    assert "Traceback" not in exchange.replies[-1].content
    again = await harness.dm_message(user, "What is grace?")
    assert again.reply_embeds
    assert_not_shown("paid", again.reply_embeds)


async def test_unlink_forgets_the_conversation(harness: Harness) -> None:
    user = harness.user()
    await harness.dm_message(user, "What is grace?")
    assert await harness.bot.services.conversations.context_of(user.id) is not None
    await harness.slash("account unlink", user=user, dm=True)
    assert await harness.bot.services.conversations.context_of(user.id) is None


async def test_new_conversation_on_an_answer_sent_before_a_restart(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    await harness.dm_message(user, "What is grace?")
    assert await harness.bot.services.conversations.context_of(user.id) is not None
    button = {"type": 2, "style": 2, "label": "New conversation", "custom_id": NEW_CONVERSATION_ID}
    old = harness.existing_message(  # no view of this process holds it
        embeds=[{"title": "What is grace?", "description": "An earlier answer."}],
        components=[{"type": 1, "components": [button]}],
    )
    clicked = await harness.click(old, NEW_CONVERSATION_ID, user=user)
    assert clicked.callback_type == 4 and not clicked.followups
    assert shown(clicked.embeds, "title") == ["New conversation"]
    assert await harness.bot.services.conversations.context_of(user.id) is None

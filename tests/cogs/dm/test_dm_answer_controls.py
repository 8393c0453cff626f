"""A plain DM's answer has ``/ask``'s controls ("Read a source…", related questions, feedback)
with the DM's own "New conversation", and they work when pressed in the DM."""

from __future__ import annotations

from typing import Any

from cogs.dm.answer_views import QA_COG_NAME
from cogs.dm.views import NEW_CONVERSATION_ID
from cogs.qa.followups import NEW_CONVERSATION_ID as ASK_NEW_CONVERSATION_ID
from cogs.qa.memory import QA_COG_NAME as QA_COGS_OWN_NAME
from devtools.discord import Harness
from devtools.discord.results import SentMessage
from devtools.discord.wire import walk_components
from devtools.fake_magisterium import FakeMagisterium
from tests.support.embed_parts import shown
from tests.support.many_questions import fake, harness_overrides

QUESTION = "What is grace?"  # the fake answers with sources and related questions
__all__ = ["fake", "harness_overrides"]  # fixtures


def _components(message: SentMessage) -> list[dict[str, Any]]:
    return list(walk_components(message.components))


def _source_menu(message: SentMessage) -> dict[str, Any]:
    [menu] = [c for c in _components(message) if c.get("custom_id", "").startswith("qa:src:")]
    return menu


def _related_ids(message: SentMessage) -> list[str]:
    return [i for i in message.custom_ids if i.startswith("qa:rel:")]


def test_the_qa_cog_is_found_by_its_own_name() -> None:
    assert QA_COG_NAME == QA_COGS_OWN_NAME


async def test_a_dm_answer_has_asks_controls_and_the_dms_new_conversation(
    harness: Harness,
) -> None:
    user = harness.user()
    exchange = await harness.dm_message(user, QUESTION)
    [answer] = exchange.replies
    assert shown(answer.embeds, "title")[0] == QUESTION  # titled as /ask titles it
    assert _source_menu(answer)["placeholder"] == "Read a source…"
    assert _related_ids(answer)
    assert NEW_CONVERSATION_ID in answer.custom_ids
    assert ASK_NEW_CONVERSATION_ID not in answer.custom_ids  # one "New conversation", the DM's
    assert [c.get("label") for c in answer.components[-1]["components"]] == [
        "New conversation",
        "Helpful",
        "Not helpful",
    ]


async def test_read_a_source_in_the_dm_shows_the_passage(harness: Harness) -> None:
    user = harness.user()
    [answer] = (await harness.dm_message(user, QUESTION)).replies
    menu = _source_menu(answer)
    [first, *_] = menu["options"]
    chosen = await harness.select(answer, menu["custom_id"], [first["value"]], user=user)
    assert chosen.callback_type == 5 and chosen.ephemeral
    assert chosen.message is not None and chosen.message.visible_to == user.id
    passage = chosen.message.embeds[0]
    assert passage["title"] == first["label"].removeprefix("[1] ")  # the cited document
    assert passage.get("description")


async def test_a_related_question_in_the_dm_continues_the_conversation(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    [answer] = (await harness.dm_message(user, QUESTION)).replies
    context = await harness.bot.services.conversations.context_of(user.id)
    assert context is not None
    clicked = await harness.click(answer, _related_ids(answer)[0], user=user)
    assert clicked.message is not None and clicked.message.visible_to == user.id
    assert clicked.embeds and _source_menu(clicked.message)
    # The related question, then the next plain DM: both in the DM's conversation.
    await harness.dm_message(user, "And how is it lost?")
    asks = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert [r.context_id for r in asks] == [None, context, context]
    assert await harness.bot.services.conversations.context_of(user.id) == context


async def test_new_conversation_under_a_dm_answer_still_starts_afresh(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    [answer] = (await harness.dm_message(user, QUESTION)).replies
    clicked = await harness.click(answer, NEW_CONVERSATION_ID, user=user)
    assert shown(clicked.embeds, "title") == ["New conversation"]
    await harness.dm_message(user, "What is prayer?")
    asks = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert [r.context_id for r in asks] == [None, None]


async def test_without_the_qa_cog_a_dm_answer_keeps_the_plain_pager(harness: Harness) -> None:
    await harness.bot.unload_extension("cogs.qa")
    [answer] = (await harness.dm_message(harness.user(), QUESTION)).replies
    assert answer.embeds
    assert NEW_CONVERSATION_ID in answer.custom_ids
    assert not [i for i in answer.custom_ids if i.startswith("qa:")]

"""/ask, its follow-up buttons and the "Ask Magisterium" context menu, through the harness."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr

from cogs.qa.followups import EXPIRED_TEXT, NEW_CONVERSATION_ID, QUESTION_FIELD_ID
from devtools.discord import Harness, InteractionResult
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.cogs.qa.recent import recent_answers_of
from tests.support.embed_parts import assert_not_shown, assert_shown, shown
from tests.support.fakes import refuse_thread

QUESTION = "What is grace?"


def related_ids(result: InteractionResult) -> list[str]:
    return (
        [c for c in result.message.custom_ids if c.startswith("qa:rel:")] if result.message else []
    )


def buttons(result: InteractionResult) -> list[dict[str, Any]]:
    return [c for row in result.components for c in row["components"]]


async def test_ask_defers_then_sends_paged_answer_with_buttons(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("ask", question=QUESTION)
    assert result.callback_type == 5
    assert not result.ephemeral and result.followups
    assert result.embeds and result.embeds[0]["title"] == QUESTION
    ids = related_ids(result)
    assert ids, result.components
    assert NEW_CONVERSATION_ID in result.message.custom_ids  # type: ignore[union-attr]
    labels = [b["label"] for b in buttons(result) if b.get("custom_id", "").startswith("qa:rel")]
    assert all(len(label) <= 80 for label in labels)
    assert fake.count(skill="catholic_qa") == 1
    assert fake.requests[-1].context_id is None
    assert result.allowed_mentions == {"parse": []}


@pytest.mark.parametrize(("private", "dm"), [(True, False), (False, True), (True, True)])
async def test_private_flag_and_dms_answer_privately(
    harness: Harness, private: bool, dm: bool
) -> None:
    result = await harness.slash("ask", question=QUESTION, private=private, dm=dm)
    assert result.callback_type == 5
    assert result.ephemeral and result.embeds


@pytest.mark.parametrize("question", ["   ", "\u200b\u200b", " \u200b \ufeff\u2060 "])
async def test_empty_question_is_refused_before_any_call(
    harness: Harness, fake: FakeMagisterium, question: str
) -> None:
    result = await harness.slash("ask", question=question)
    assert result.callback_type == 4 and result.ephemeral
    assert shown(result.embeds, "title") == ["Your question is empty"]
    assert fake.count() == 0


async def test_question_of_2000_characters_is_accepted(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await harness.slash("ask", question="Why " + "x" * 1996)
    assert result.callback_type == 5 and result.embeds
    assert fake.count(skill="catholic_qa") == 1


async def _click_other_without_threads(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> tuple[InteractionResult, InteractionResult, str]:
    first = await harness.slash("ask", question=QUESTION)
    context_id = fake.requests[-1].context_id or ""
    answered = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert len(answered) == 1
    clicker = harness.user(name="clicker")
    await harness.bot.services.registry.link(clicker.id, SecretStr("pro-clicker"))
    monkeypatch.setattr(harness.bot.http, "start_thread_with_message", refuse_thread)
    clicked = await harness.click(first, related_ids(first)[0], user=clicker)
    return first, clicked, context_id


async def test_related_click_by_another_user_continues_the_conversation_as_a_reply(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, clicked, _ = await _click_other_without_threads(harness, fake, monkeypatch)
    asked = [r for r in fake.requests if r.skill == "catholic_qa"]
    assert len(asked) == 2
    assert asked[0].context_id is None
    assert asked[1].context_id is not None
    assert asked[1].token == "pro-clicker"
    assert clicked.callback_type == 5  # acknowledged at once
    assert not clicked.ephemeral and clicked.embeds  # the public reply
    assert clicked.message is not None and clicked.message.id != first.message.id  # type: ignore[union-attr]


async def test_related_click_reuses_the_first_answers_context_id(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await harness.slash("ask", question=QUESTION)
    task_id = related_ids(first)[0].split(":")[3]
    a2a = harness.bot.services.a2a
    task = await a2a.get_task(task_id, a2a.policy(SecretStr(OPERATOR_TOKEN)))
    assert task.context_id
    clicker = harness.user(name="clicker")
    await harness.bot.services.registry.link(clicker.id, SecretStr("pro-clicker"))
    monkeypatch.setattr(harness.bot.http, "start_thread_with_message", refuse_thread)
    await harness.click(first, related_ids(first)[-1], user=clicker)
    assert fake.requests[-1].skill == "catholic_qa"
    assert fake.requests[-1].context_id == task.context_id
    assert fake.requests[-1].token == "pro-clicker"


async def test_related_click_answers_in_a_thread_on_the_answer(
    harness: Harness, fake: FakeMagisterium
) -> None:
    first = await harness.slash("ask", question=QUESTION)
    threads = harness.threads
    sent_before = len(harness.channel_messages)
    clicked = await harness.click(first, related_ids(first)[0], user=harness.user(name="other"))
    assert [t["message_id"] for t in threads.opened] == [first.message.id]  # type: ignore[union-attr]
    assert len(threads.opened[0]["name"]) <= 100
    in_thread = harness.channel_messages[sent_before:]
    assert len(in_thread) == 1 and in_thread[0].embeds
    assert in_thread[0].place.channel_id == int(threads.opened[0]["id"])
    assert clicked.callback_type == 5 and clicked.deleted_original
    assert fake.count(skill="catholic_qa") == 2


async def test_click_after_restart_with_unknown_task_says_expired(
    harness: Harness, fake: FakeMagisterium
) -> None:
    long_label = "y" * 79 + "…"
    custom_id = "qa:rel:ctx-1:no-such-task:0"
    message = harness.existing_message(
        embeds=[{"title": QUESTION, "description": "old answer"}],
        components=[
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": long_label, "custom_id": custom_id}
                ],
            }
        ],
    )
    clicked = await harness.click(message, custom_id)
    assert clicked.ephemeral
    assert shown(clicked.embeds, "description") == [EXPIRED_TEXT]
    assert fake.count(skill="catholic_qa") == 0
    assert fake.count(method="tasks/get") == 1


async def test_click_after_restart_by_the_asker_finds_the_question_upstream(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await harness.slash("ask", question=QUESTION)
    rel = related_ids(first)[0]
    # As after a restart: the QA cog remembers nothing.
    recent_answers_of(harness.bot).clear()
    message = harness.existing_message(
        embeds=first.message.embeds,  # type: ignore[union-attr]
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "z" * 79 + "…", "custom_id": rel}],
            }
        ],
    )
    monkeypatch.setattr(harness.bot.http, "start_thread_with_message", refuse_thread)
    clicked = await harness.click(message, rel, user=first.user_id)
    assert fake.count(method="tasks/get") == 1
    assert fake.requests[-1].skill == "catholic_qa"
    assert fake.requests[-1].token == OPERATOR_TOKEN
    assert fake.requests[-1].context_id == rel.split(":")[2]
    assert clicked.embeds
    assert_not_shown("z" * 79, clicked.embeds)  # the question read back, not the cut label


async def test_context_menu_asks_privately(harness: Harness, fake: FakeMagisterium) -> None:
    posted = await harness.post(harness.default_user, "What does the Church teach about baptism?")
    result = await harness.context_menu("Ask Magisterium", target_message=posted.message)
    assert result.callback_type == 5 and result.ephemeral and result.embeds
    assert fake.requests[-1].skill == "catholic_qa"


async def test_context_menu_on_empty_message_is_a_friendly_error(
    harness: Harness, fake: FakeMagisterium
) -> None:
    posted = await harness.post(harness.default_user, "\u200b")
    result = await harness.context_menu("Ask Magisterium", target_message=posted.message)
    assert result.callback_type == 4 and result.ephemeral
    assert_shown("That message has no text", result.embeds, "description")
    assert fake.count() == 0


async def test_mentions_in_the_answer_ping_nobody(harness: Harness, fake: FakeMagisterium) -> None:
    fake.faults.add(Fault.MENTIONS_ANSWER)
    result = await harness.slash("ask", question=QUESTION)
    # Shown as Magisterium wrote them (and pinging nobody: allowed_mentions).
    assert_shown("@everyone @here this answer pings the user <@123>", result.embeds, "description")
    assert result.allowed_mentions_all and all(
        m == {"parse": []} for m in result.allowed_mentions_all
    )


async def test_upstream_fault_becomes_one_private_message(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.PLAN_REQUIRED)
    result = await harness.slash("ask", question=QUESTION)
    assert result.callback_type == 5
    assert len(result.visible_messages) == 1 and result.ephemeral
    assert result.deleted_original  # the public "thinking…" placeholder went away
    assert len(result.embeds) == 1


async def test_new_conversation_opens_a_form_and_asks_without_context(
    harness: Harness, fake: FakeMagisterium
) -> None:
    first = await harness.slash("ask", question=QUESTION)
    opened = await harness.click(first, NEW_CONVERSATION_ID)
    assert opened.callback_type == 9 and opened.modal is not None
    answered = await harness.submit_modal(opened, {QUESTION_FIELD_ID: "What is a sacrament?"})
    assert answered.callback_type == 5 and answered.embeds
    assert fake.count(skill="catholic_qa") == 2
    assert fake.requests[-1].context_id is None

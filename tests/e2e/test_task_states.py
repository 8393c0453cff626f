"""What a person sees for each A2A task state, through the real path: the harness dispatches
the interaction (or DM), the bot asks the fake Magisterium over HTTP (``Fault.TASK_STATE``
makes the task end in the state asked for) and the test reads what discord.py sent.

- ``rejected``: Magisterium's words, privately, titled with the question: its answer to it;
- ``input-required``: its question where the answer would have gone, with a Reply button that
  only the asker may use; the form's answer continues the same contextId (in a DM, the next
  message does);
- ``auth-required``: the relink message, and the linked token marked as needing relink;
- ``canceled`` / still pending after the poll: said so; a Message result is an answer.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import SecretStr

from bot.a2a import errors
from bot.a2a.retry import PollPolicy
from bot.render.discord_limits import CUSTOM_ID, EMBED_DESCRIPTION, MODAL_TITLE
from bot.render.look import BRAND, ERROR
from bot.services.user_errors import message_for
from devtools.discord import Harness, InteractionResult
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.cogs.daily.test_daily_scheduler import (
    SAINTS,
    SLOT,
    claims_of,
    daily_cog,
    schedule_of,
    set_daily,
)
from tests.support.embed_parts import assert_not_shown, assert_shown

QUESTION = "Tell me about Pope Pius"
REPLY = "Pius XII, please"
REFUSAL = "I can only answer questions about Catholic teaching."
WHICH = "Which Pope Pius do you mean? Twelve popes have taken that name."
REPLY_FIELD = "qa:reply:text"
RELINK = "Your Magisterium token no longer works"
ASKS = "Magisterium asks"
_TASK_IN_FOOTER = re.compile(r"task (\S+)")


def end_in(fake: FakeMagisterium, state: str, message: str = "", **params: Any) -> None:
    """The next catholic_qa task ends in ``state`` with ``message`` as its status message."""
    fake.faults.add(Fault.TASK_STATE, skill="catholic_qa", state=state, message=message, **params)


def only_embed(result: InteractionResult) -> dict[str, Any]:
    visible = result.visible_messages
    assert len(visible) == 1, result.transcript
    embeds = visible[0].embeds
    assert len(embeds) == 1, embeds
    return embeds[0]


def reply_ids(custom_ids: list[str]) -> list[str]:
    return [c for c in custom_ids if c.startswith("qa:reply:")]


def context_of_task(fake: FakeMagisterium, embed: dict[str, Any]) -> str:
    """The contextId of the task whose id the embed's footer names, as the fake stored it."""
    match = _TASK_IN_FOOTER.search(embed["footer"]["text"])
    assert match is not None, embed
    task = fake.tasks.peek(OPERATOR_TOKEN, match[1])
    assert task is not None and task["status"]["state"] == "input-required", task
    return str(task["contextId"])


@pytest.fixture
def quick_polls(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's tasks/get poll of a pending task, in milliseconds rather than seconds."""
    policy = PollPolicy(attempts=2, first_delay=0.01, max_delay=0.01)
    monkeypatch.setattr(harness.bot.services.a2a, "poll", policy)


# --- rejected ---------------------------------------------------------------------------------


async def test_rejected_after_a_public_ask_is_magisterium_words_privately(
    harness: Harness, fake: FakeMagisterium
) -> None:
    end_in(fake, "rejected", REFUSAL)
    result = await harness.slash("ask", question=QUESTION)
    assert result.callback_type == 5 and result.deleted_original  # the public placeholder
    assert result.ephemeral  # what is left is for the asker alone
    embed = only_embed(result)
    assert embed["title"] == QUESTION  # Magisterium's answer to this question
    assert embed["description"].startswith(REFUSAL)
    assert embed["color"] == BRAND.value and embed["footer"]["text"] == "Magisterium AI"
    assert_not_shown("error id", [embed])
    assert result.allowed_mentions_all == [{"parse": []}]
    assert fake.count(skill="catholic_qa") == 1  # never retried: it is an answer


async def test_a_long_rejection_is_clipped_and_pings_nobody(
    harness: Harness, fake: FakeMagisterium
) -> None:
    words = "@everyone <@123456789012345678> " + "No. " * 3000
    end_in(fake, "rejected", words)
    result = await harness.slash("ask", question=QUESTION)
    assert result.rejected == []  # Discord took every payload: within every limit
    embed = only_embed(result)
    assert len(embed["description"]) <= EMBED_DESCRIPTION
    assert embed["description"].startswith("@everyone <@123456789012345678> No.")
    assert all(m == {"parse": []} for m in result.allowed_mentions_all)


async def test_rejected_in_a_dm_is_magisterium_words(
    harness: Harness, fake: FakeMagisterium
) -> None:
    end_in(fake, "rejected", REFUSAL)
    exchange = await harness.dm_message(harness.user(), QUESTION)
    [embed] = exchange.reply_embeds
    assert embed["description"].startswith(REFUSAL) and embed["color"] == BRAND.value


# --- input-required: /ask, the menu and related questions --------------------------------------


async def _asked_back(harness: Harness, fake: FakeMagisterium, **options: Any) -> InteractionResult:
    end_in(fake, "input-required", WHICH)
    return await harness.slash("ask", question=QUESTION, **options)


async def test_input_required_shows_the_question_with_a_reply_button(
    harness: Harness, fake: FakeMagisterium
) -> None:
    result = await _asked_back(harness, fake)
    assert result.callback_type == 5 and not result.deleted_original
    assert not result.ephemeral  # in the answer's place: the asker chose a public answer
    embed = only_embed(result)
    assert embed["author"]["name"] == ASKS and embed["title"] == QUESTION
    assert embed["description"].startswith(WHICH)
    assert "Reply" in embed["description"] and embed["color"] == BRAND.value
    assert result.message is not None
    [custom_id] = reply_ids(result.message.custom_ids)
    assert len(custom_id) <= CUSTOM_ID
    context_id = context_of_task(fake, embed)
    assert custom_id == f"qa:reply:{result.user_id}:{context_id}"


async def test_reply_opens_a_form_and_continues_the_same_context(
    harness: Harness, fake: FakeMagisterium
) -> None:
    asked = await _asked_back(harness, fake)
    context_id = context_of_task(fake, only_embed(asked))
    assert asked.message is not None
    [custom_id] = reply_ids(asked.message.custom_ids)

    opened = await harness.click(asked, custom_id)
    assert opened.callback_type == 9 and opened.modal is not None  # the first response
    assert len(opened.modal.title) <= MODAL_TITLE
    assert [i["custom_id"] for i in opened.modal.inputs] == [REPLY_FIELD]
    answered = await harness.submit_modal(opened, {REPLY_FIELD: REPLY})

    sent = fake.requests[-1]
    assert (sent.skill, sent.context_id) == ("catholic_qa", context_id)
    assert sent.parts == [{"kind": "text", "text": REPLY}]
    assert answered.callback_type == 5 and not answered.ephemeral
    embed = only_embed(answered)
    assert embed["title"] == REPLY and embed["color"] == BRAND.value
    assert f'Continuing our conversation about "{QUESTION}"' in embed["description"]


async def test_only_the_asker_can_reply(harness: Harness, fake: FakeMagisterium) -> None:
    asked = await _asked_back(harness, fake)
    assert asked.message is not None
    [custom_id] = reply_ids(asked.message.custom_ids)
    sent = len(fake.requests)
    other = await harness.click(asked, custom_id, user=harness.user(name="bystander"))
    assert other.callback_type == 4 and other.ephemeral and other.modal is None
    assert_shown("Only the person who asked can reply", other.embeds, "description")
    assert len(fake.requests) == sent


async def test_the_reply_button_survives_a_restart(harness: Harness, fake: FakeMagisterium) -> None:
    asked = await _asked_back(harness, fake)
    assert asked.message is not None
    [custom_id] = reply_ids(asked.message.custom_ids)
    context_id = custom_id.rsplit(":", 1)[1]
    # The same message as a process started later holds it: no view of any kind stored.
    restarted = harness.existing_message(
        embeds=asked.message.embeds, components=asked.message.components
    )
    opened = await harness.click(restarted, custom_id, user=asked.user_id)
    assert opened.callback_type == 9
    await harness.submit_modal(opened, {REPLY_FIELD: REPLY})
    assert fake.requests[-1].context_id == context_id


async def test_a_private_ask_asks_back_and_answers_privately(
    harness: Harness, fake: FakeMagisterium
) -> None:
    asked = await _asked_back(harness, fake, private=True)
    assert asked.ephemeral
    assert asked.message is not None
    [custom_id] = reply_ids(asked.message.custom_ids)
    opened = await harness.click(asked, custom_id)
    answered = await harness.submit_modal(opened, {REPLY_FIELD: REPLY})
    assert answered.ephemeral and answered.embeds


async def test_the_message_menu_asks_back_privately(
    harness: Harness, fake: FakeMagisterium
) -> None:
    end_in(fake, "input-required", WHICH)
    posted = await harness.post(harness.user(), QUESTION)
    asked = await harness.context_menu("Ask Magisterium", target_message=posted.message)
    assert asked.callback_type == 5 and asked.ephemeral
    assert only_embed(asked)["description"].startswith(WHICH)
    assert asked.message is not None and len(reply_ids(asked.message.custom_ids)) == 1


# --- input-required in DMs ----------------------------------------------------------------------


async def test_a_dm_question_back_is_answered_by_the_next_message(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    end_in(fake, "input-required", WHICH)
    first = await harness.dm_message(user, QUESTION)
    [embed] = first.reply_embeds
    assert embed["author"]["name"] == ASKS and embed["description"].startswith(WHICH)
    assert "next message" in embed["description"]
    context_id = context_of_task(fake, embed)
    assert await harness.bot.services.conversations.context_of(user.id) == context_id

    second = await harness.dm_message(user, REPLY)
    assert fake.requests[-1].context_id == context_id
    continuing = f'Continuing our conversation about "{QUESTION}"'
    assert_shown(continuing, second.reply_embeds, "description")


# --- auth-required, canceled, not finished, Message results -------------------------------------


async def test_auth_required_asks_to_relink_and_marks_the_linked_token(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    registry = harness.bot.services.registry
    await registry.link(user.id, SecretStr("pro-own-token"))
    end_in(fake, "auth-required", "Sign in to Magisterium again to continue.")
    result = await harness.slash("ask", question=QUESTION, user=user)
    assert result.ephemeral and result.deleted_original
    embed = only_embed(result)
    assert embed["title"] == RELINK and "`/account link`" in embed["description"]
    assert_not_shown("error id", [embed])
    account = await registry.get(user.id)
    assert account is not None and account.status == "invalid"
    assert fake.requests[-1].token == "pro-own-token"


async def test_canceled_is_said_so(harness: Harness, fake: FakeMagisterium) -> None:
    end_in(fake, "canceled", "The task was canceled before it finished.")
    result = await harness.slash("ask", question=QUESTION)
    embed = only_embed(result)
    assert result.ephemeral and embed["title"] == "The request was canceled"
    assert "Try again" in embed["description"] and embed["color"] == ERROR.value
    assert "The task was canceled before it finished." in embed["description"]
    assert_not_shown("error id", [embed])


@pytest.mark.parametrize("state", ["submitted", "working", "unknown"])
@pytest.mark.usefixtures("quick_polls")
async def test_still_pending_after_the_poll_is_not_finished_try_again(
    harness: Harness, fake: FakeMagisterium, state: str
) -> None:
    end_in(fake, state)
    result = await harness.slash("ask", question=QUESTION)
    embed = only_embed(result)
    assert result.ephemeral and embed["title"] == "Magisterium did not finish in time"
    assert "Try again" in embed["description"]
    assert_not_shown("error id", [embed])
    assert fake.count(method="tasks/get") == 2  # the client's bounded poll, then the message
    assert fake.count(skill="catholic_qa") == 1


@pytest.mark.usefixtures("quick_polls")
async def test_working_that_finishes_during_the_poll_is_the_answer(
    harness: Harness, fake: FakeMagisterium
) -> None:
    end_in(fake, "working", polls=1)
    result = await harness.slash("ask", question=QUESTION)
    embed = only_embed(result)
    assert not result.ephemeral and embed["title"] == QUESTION
    assert fake.count(method="tasks/get") == 1


async def test_a_message_result_is_shown_as_an_answer(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.MESSAGE_RESULT, skill="catholic_qa", times=2)
    result = await harness.slash("ask", question=QUESTION)
    embed = only_embed(result)
    assert not result.ephemeral and embed["title"] == QUESTION
    assert QUESTION in embed["description"] and embed["color"] == BRAND.value
    exchange = await harness.dm_message(harness.user(), "Where should I begin?")
    assert_shown("Where should I begin?", exchange.reply_embeds, "description")  # generic


async def test_failed_shows_magisterium_reason(harness: Harness, fake: FakeMagisterium) -> None:
    end_in(fake, "failed", "The index is offline.")
    result = await harness.slash("ask", question=QUESTION)
    embed = only_embed(result)
    assert embed["title"] == "Magisterium could not answer"
    assert "The index is offline." in embed["description"]


async def test_a_german_asker_is_asked_back_in_german(
    harness: Harness, fake: FakeMagisterium
) -> None:
    german = harness.user(name="gretchen", locale="de")
    end_in(fake, "input-required", WHICH)
    asked = await harness.slash("ask", question=QUESTION, user=german)
    embed = only_embed(asked)
    assert embed["author"]["name"] == "Magisterium fragt"
    assert embed["description"].startswith(WHICH)  # Magisterium's words stay as they came
    assert "„Antworten“" in embed["description"]
    [button] = [c for row in asked.components for c in row["components"]]
    assert button["label"] == "Antworten"
    opened = await harness.click(asked, button["custom_id"])
    assert opened.modal is not None and opened.modal.title == "Antwort an Magisterium"


def test_a_throttling_gateway_says_when_to_come_back() -> None:
    """A bare 429 from whatever fronts Magisterium (no JSON-RPC body): not this token's pool."""
    message = message_for(errors.GatewayThrottled("HTTP 429", retry_after=30, http_status=429))
    assert message is not None and message.title == "Magisterium is busy right now"
    assert message.text.endswith("Try again in 30 seconds.")


# --- daily posts: a transient failure with its reason recorded ----------------------------------


@pytest.mark.usefixtures("quick_polls")
@pytest.mark.parametrize(
    ("state", "title"),
    [
        ("rejected", "Magisterium declined this request"),
        ("working", "Magisterium did not finish in time"),
        ("input-required", "Magisterium needs more detail"),
    ],
)
async def test_a_daily_post_that_does_not_complete_is_retried_with_its_reason(
    harness: Harness, fake: FakeMagisterium, state: str, title: str
) -> None:
    await set_daily(harness)
    cog = daily_cog(harness)
    fake.faults.add(Fault.TASK_STATE, skill=SAINTS, state=state, message="Not today.")
    report = await cog.tick(SLOT)
    assert (report.posted, report.failed) == (0, 1)
    assert await claims_of(harness) == {}  # released for a later tick
    schedule = await schedule_of(harness)
    assert schedule.last_error is not None and schedule.last_error.startswith(title)
    assert schedule.retry_at is not None
    assert (await cog.tick(schedule.retry_at)).posted == 1

"""Errors, /account, /ask, DMs and /help speak through the message catalogue.

A fake catalogue wraps every message it translates in ⟦…⟧ for any language but English, so a
German user's screens must show only wrapped text (no English literal slipped through), while
Magisterium's own words and the person's question stay as they are, and English stays plain.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from discord import app_commands

from bot.a2a import errors
from bot.accounts.errors import QuotaExceeded, WrongEncryptionKey
from bot.app import lifecycle
from bot.app.error_reporting import error_embed_for
from bot.i18n import using_locale
from bot.limits import LimiterBusy
from bot.services.user_errors import message_for
from bot.storage import StorageUnavailable
from cogs.account.views import TOKEN_FIELD_ID
from cogs.dm.views import NEW_CONVERSATION_ID as DM_NEW_CONVERSATION_ID
from cogs.qa.followups import NEW_CONVERSATION_ID, QUESTION_FIELD_ID
from cogs.qa.text import thread_name
from devtools.discord import Harness, HarnessUser
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import assert_not_shown, assert_shown, shown
from tests.support.fakes import upstream_received, wrap_locales

QUESTION = "What is grace?"
_WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")


@pytest.fixture(autouse=True)
def wrapping_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    """English is the source (plain); every other locale wraps."""
    wrap_locales(monkeypatch, lambda locale: locale != "en")


def all_wrapped(text: str) -> bool:
    """Whether ``text`` is nothing but catalogue messages (nested ones included), joined by
    spaces, punctuation or layout."""
    while True:
        stripped = _WRAPPED.sub("", text)
        if stripped == text:
            break
        text = stripped
    return re.fullmatch(r"[\s.,;:—`\-]*", text) is not None


def embed_texts(embed: dict[str, Any]) -> list[str]:
    texts = [embed.get("title", ""), embed.get("description", "")]
    for field in embed.get("fields", []):
        texts += [field["name"], field["value"]]
    return [t for t in texts if t]


def assert_translated(embeds: list[dict[str, Any]]) -> None:
    """Every title, description and field of ``embeds`` came from the catalogue."""
    assert embeds
    for embed in embeds:
        for text in embed_texts(embed):
            assert all_wrapped(text), text


def labels(components: list[dict[str, Any]]) -> dict[str, str]:
    """The label of each button, by custom_id."""
    return {
        c["custom_id"]: c.get("label", "")
        for row in components
        for c in row["components"]
        if c.get("custom_id")
    }


@pytest.fixture
def german(harness: Harness) -> HarnessUser:
    return harness.user(name="gretchen", locale="de")


# --- errors ---------------------------------------------------------------------------------


KNOWN_ERRORS: list[BaseException] = [
    LimiterBusy(3.2),
    QuotaExceeded(1, "qa"),
    QuotaExceeded(120, "all"),
    StorageUnavailable("down"),
    WrongEncryptionKey("no key fits"),
    errors.Unauthorized("401"),
    errors.PlanRequired("403"),
    errors.RateLimited("429", retry_after=45),
    errors.RateLimited("429"),  # no wait given: "in a minute"
    errors.TaskFailed("failed"),
    errors.InvalidParams("bad"),
    errors.TransportError("down"),
    errors.A2AError("odd"),
]


def _check_errors() -> list[BaseException]:
    cooldown = app_commands.Cooldown(1, 60.0)
    return [
        app_commands.NoPrivateMessage(),
        app_commands.MissingPermissions(["manage_channels"]),
        app_commands.BotMissingPermissions(["send_messages", "embed_links"]),
        app_commands.CommandOnCooldown(cooldown, 12.4),
        app_commands.CheckFailure(),
        RuntimeError("unexpected"),
    ]


@pytest.mark.parametrize("error", KNOWN_ERRORS, ids=lambda e: type(e).__name__)
def test_every_known_error_is_translated(error: BaseException) -> None:
    with using_locale("de"):
        message = message_for(error)
    assert message is not None
    assert all_wrapped(message.title), message.title
    assert all_wrapped(message.text), message.text


def test_check_failures_and_the_generic_error_are_translated() -> None:
    for error in _check_errors():
        with using_locale("pl"):
            embed = dict(error_embed_for(error, where="test").to_dict())
        assert_translated([embed])


def test_waits_use_plural_forms() -> None:
    with using_locale("de"):
        one = message_for(errors.RateLimited("429", retry_after=1))
        many = message_for(QuotaExceeded(45, "qa"))
    assert one is not None
    assert one.text == "⟦Magisterium's rate limit was reached.⟧ ⟦Try again in 1 second.⟧"
    assert many is not None and "⟦Try again in 45 seconds, or link" in many.text
    english = message_for(errors.RateLimited("429", retry_after=1))
    assert english is not None and english.text.endswith("Try again in 1 second.")
    assert "⟦" not in english.title + english.text


async def test_an_upstream_error_reaches_a_german_user_translated(
    harness: Harness, fake: FakeMagisterium, german: HarnessUser
) -> None:
    fake.faults.add(Fault.UNAUTHORIZED)
    result = await harness.slash("ask", user=german, question=QUESTION)
    assert result.ephemeral
    assert_translated(result.embeds)
    link = "⟦Link your own Magisterium account with `/account link`.⟧"
    assert_shown(link, result.embeds, "description")


async def test_english_errors_stay_plain(harness: Harness, fake: FakeMagisterium) -> None:
    fake.faults.add(Fault.PLAN_REQUIRED)
    result = await harness.slash("ask", question=QUESTION)
    assert shown(result.embeds, "title") == ["A paid Magisterium plan is needed"]
    assert_not_shown("⟦", result.embeds)


async def test_restarting_notice_is_translated(harness: Harness, german: HarnessUser) -> None:
    harness.bot.draining = True
    result = await harness.slash("help", user=german)
    assert_translated(result.embeds)


async def test_a_cut_off_command_is_told_in_its_own_language(
    harness: Harness,
    fake: FakeMagisterium,
    german: HarnessUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    received = upstream_received(fake, monkeypatch)
    fake.faults.add(Fault.LATENCY, seconds=600, skill="catholic_qa")  # never answers in time
    ask = asyncio.create_task(harness.slash("ask", user=german, question=QUESTION))
    async with asyncio.timeout(20):
        await received.wait()
        # The drain runs in no one's locale; the notice must still be German.
        await lifecycle.drain_and_close(harness.bot, grace=0.1)
    result = await ask
    assert_translated(result.embeds)
    assert shown(result.embeds, "title") == ["⟦Interrupted⟧"]


# --- /account -------------------------------------------------------------------------------


async def test_link_modal_and_verdict_are_translated(harness: Harness, german: HarnessUser) -> None:
    opened = await harness.slash("account link", user=german)
    assert opened.modal is not None
    assert opened.modal.title == "⟦Link your Magisterium account⟧"
    (field,) = opened.modal.inputs
    assert field["custom_id"] == TOKEN_FIELD_ID
    assert field["label"] == "⟦Magisterium access token⟧"
    assert all_wrapped(field["placeholder"])
    linked = await harness.submit_modal(opened, {TOKEN_FIELD_ID: "pro-german-token"}, user=german)
    assert_translated(linked.embeds)
    assert shown(linked.embeds, "title") == ["⟦Account linked⟧"]


async def test_refused_token_explains_in_one_translated_text(
    harness: Harness, german: HarnessUser
) -> None:
    opened = await harness.slash("account link", user=german)
    refused = await harness.submit_modal(opened, {TOKEN_FIELD_ID: "invalid-token-9"}, user=german)
    assert_translated(refused.embeds)
    assert_shown("⟦A2A accepts only tokens", refused.embeds, "description")


async def test_account_status_and_unlink_are_translated(
    harness: Harness, german: HarnessUser
) -> None:
    shared = await harness.slash("account status", user=german)
    assert_translated(shared.embeds)
    assert_shown("⟦20 requests, ", shared.embeds, "field_value")
    opened = await harness.slash("account link", user=german)
    await harness.submit_modal(opened, {TOKEN_FIELD_ID: "pro-status-de"}, user=german)
    own = await harness.slash("account status", user=german)
    assert_translated(own.embeds)
    gone = await harness.slash("account unlink", user=german)
    assert_translated(gone.embeds)


async def test_english_modal_is_unchanged(harness: Harness) -> None:
    opened = await harness.slash("account link")
    assert opened.modal is not None and opened.modal.title == "Link your Magisterium account"
    assert opened.modal.inputs[0]["label"] == "Magisterium access token"


# --- /ask -----------------------------------------------------------------------------------


async def test_answer_buttons_are_translated_but_magisterium_text_is_not(
    harness: Harness, german: HarnessUser
) -> None:
    result = await harness.slash("ask", user=german, question=QUESTION)
    assert result.embeds[0]["title"] == QUESTION  # the person's own words
    assert "⟦" not in result.embeds[0]["description"]  # Magisterium's answer
    buttons = labels(result.components)
    assert buttons[NEW_CONVERSATION_ID] == "⟦New conversation⟧"
    related = [label for custom_id, label in buttons.items() if custom_id.startswith("qa:rel:")]
    assert related and not any("⟦" in label for label in related)  # Magisterium's questions

    opened = await harness.click(result, NEW_CONVERSATION_ID, user=german)
    assert opened.modal is not None and opened.modal.title == "⟦Ask a new question⟧"
    assert [field["label"] for field in opened.modal.inputs] == ["⟦Your question⟧"]
    empty = await harness.submit_modal(opened, {QUESTION_FIELD_ID: " \u200b "}, user=german)
    assert_translated(empty.embeds)


async def test_ask_refusals_are_translated(harness: Harness, german: HarnessUser) -> None:
    empty = await harness.slash("ask", user=german, question="\u200b")
    assert_translated(empty.embeds)
    posted = await harness.post(german, "\u200b")
    no_text = await harness.context_menu(
        "Ask Magisterium", target_message=posted.message, user=german
    )
    assert_translated(no_text.embeds)


def test_fallback_thread_name_is_translated() -> None:
    with using_locale("it"):
        assert thread_name(" \n ") == "⟦Follow-up⟧"
        assert thread_name("Chi è?") == "Chi è?"


# --- DMs ------------------------------------------------------------------------------------


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {"qa_rate_limit_per_minute": 10}


async def test_a_dm_answers_in_the_language_of_the_latest_interaction(
    harness: Harness, fake: FakeMagisterium, german: HarnessUser
) -> None:
    await harness.slash("help", user=german)  # the bot now knows gretchen's language
    exchange = await harness.dm_message(german, QUESTION)
    reply = exchange.replies[-1]
    assert "⟦" not in reply.embeds[0]["description"]  # Magisterium's answer
    assert labels(reply.components)[DM_NEW_CONVERSATION_ID] == "⟦New conversation⟧"

    clicked = await harness.click(reply, DM_NEW_CONVERSATION_ID, user=german)
    assert_translated(clicked.embeds)

    fake.faults.add(Fault.PLAN_REQUIRED)
    failed = await harness.dm_message(german, "And prayer?")
    assert_translated(failed.replies[-1].embeds)


async def test_a_dm_while_restarting_is_translated(harness: Harness, german: HarnessUser) -> None:
    await harness.slash("help", user=german)
    harness.bot.draining = True
    exchange = await harness.dm_message(german, QUESTION)
    assert_translated(exchange.reply_embeds)


async def test_a_dm_from_someone_unknown_is_english(harness: Harness) -> None:
    stranger = harness.user(locale="de")  # no interaction yet: the DM shows no locale
    exchange = await harness.dm_message(stranger, QUESTION)
    reply = exchange.replies[-1]
    assert labels(reply.components)[DM_NEW_CONVERSATION_ID] == "New conversation"


# --- /help ----------------------------------------------------------------------------------


async def test_help_names_commands_as_discord_shows_them_in_the_language(
    harness: Harness, german: HarnessUser
) -> None:
    result = await harness.slash("help", user=german)
    (embed,) = result.embeds
    commands = embed["fields"][0]["value"]
    setup = embed["fields"][1]["value"]
    embed["fields"][0]["value"] = embed["fields"][1]["value"] = "⟦checked below⟧"
    assert_translated([embed])
    lines = commands.splitlines()
    assert lines[0].startswith("`/⟦ask⟧` — ⟦")  # the same catalogue entry `sync` localises
    assert lines[-2].startswith("`⟦DM the bot⟧` — ⟦")
    assert lines[-1].startswith("`⟦Mention the bot⟧` — ⟦")
    assert setup.splitlines()[-1].startswith("`/⟦server⟧` — ⟦")
    pattern = r"`(/⟦[a-z]+⟧( ⟦[a-z]+⟧)?|⟦[^⟧]+⟧)` — ⟦[^⟧]+⟧"  # `/⟦account⟧ ⟦timezone⟧` too
    assert all(re.fullmatch(pattern, line) for line in lines + setup.splitlines()), lines


async def test_help_in_english_is_plain(harness: Harness) -> None:
    result = await harness.slash("help")
    assert_not_shown("⟦", result.embeds)
    assert result.embeds[0]["title"] == "Magisterium AI for Discord"

"""Asking by mention, through the real path: MESSAGE_CREATE payloads as Discord sends them to an
app without the Message Content intent (``mentions``, ``mention_roles``, a reply's
``message_reference`` and ``referenced_message``), parsed by discord.py's own state; what the
bot sends is read from the REST payloads it makes (``message_reference``, ``allowed_mentions``,
components)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Any, cast

import discord
import pytest
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.app.application import default_intents
from bot.app.composition import Services
from bot.services.answer_conversations import RETENTION, Kind
from bot.storage import StorageUnavailable
from cogs.qa.followups import NEW_CONVERSATION_ID
from cogs.qa.mentions import MENTIONS_COG_NAME, MentionsCog
from devtools.discord import Harness, MessageExchange, SentMessage
from devtools.discord.fixtures import OPERATOR_TOKEN
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.support.embed_parts import shown
from tests.support.fakes import FakeWallClock, wrap_locales

QUESTION = "What is grace?"
NO_PING = {"parse": [], "replied_user": False}
ADMIN = discord.Permissions(manage_guild=True)


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {"qa_rate_limit_per_minute": 20}  # conversations of several questions a minute


@pytest.fixture
def fake() -> FakeMagisterium:
    return FakeMagisterium(expensive_per_minute=20)


@pytest.fixture(autouse=True)
def bot_role(harness: Harness) -> discord.Role:
    """The role Discord gives the bot when it joins through its install link."""
    return harness.managed_role()


def asked(fake: FakeMagisterium) -> list[Any]:
    return [r for r in fake.requests if r.skill == "catholic_qa"]


def question_sent(request: Any) -> str:
    return " ".join(str(part.get("text", "")) for part in request.parts)


def the_reply(exchange: MessageExchange) -> SentMessage:
    """The one message the bot sent for ``exchange``: a reply to it that pings nobody."""
    assert len(exchange.replies) == 1, exchange.replies
    reply = exchange.replies[0]
    assert reply.request is not None
    reference = reply.request.get("message_reference")
    assert reference is not None and int(reference["message_id"]) == exchange.message.id
    assert reply.allowed_mentions == NO_PING
    return reply


def no_errors(exchange: MessageExchange) -> None:
    assert [r for r in exchange.log_records if r.levelno >= logging.ERROR] == []


def services(harness: Harness) -> Services:
    return cast(MagisteriumBot, harness.bot).services


def mentions_cog(harness: Harness) -> Any:
    cog = harness.bot.get_cog(MENTIONS_COG_NAME)
    assert type(cog).__name__ == MentionsCog.__name__  # a reloaded module makes a new class
    return cog


# --- a mention is a question -----------------------------------------------------------------


async def test_a_mention_is_answered_as_a_public_reply_with_everything_ask_has(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    exchange = await harness.mention(user, QUESTION)
    reply = the_reply(exchange)
    assert shown(reply.embeds, "title")[0] == QUESTION
    ids = reply.custom_ids
    assert NEW_CONVERSATION_ID in ids
    assert any(i.startswith("qa:src:") for i in ids)  # "Read a source…"
    assert any(i.startswith("qa:rel:") for i in ids)  # related questions
    assert any(i.startswith("fb:") for i in ids)  # "Helpful" / "Not helpful"
    assert not reply.ephemeral and reply.content == ""
    (request,) = asked(fake)
    assert question_sent(request) == QUESTION and request.context_id is None
    assert request.token == OPERATOR_TOKEN  # the asker linked none: the shared account
    assert harness.typing_in == [harness.channel.id]  # "Typing…" while Magisterium works
    no_errors(exchange)


async def test_the_answer_is_the_same_as_ask_gives(harness: Harness) -> None:
    user = harness.user()
    by_command = await harness.slash("ask", user=user, question=QUESTION)
    by_mention = the_reply(await harness.mention(user, QUESTION))
    assert by_command.message is not None
    assert [c.split(":")[:2] for c in by_mention.custom_ids[1:]] == [
        c.split(":")[:2] for c in by_command.message.custom_ids[1:]
    ]  # the same controls (the pager's own ids are random)
    assert shown(by_mention.embeds, "title") == shown(by_command.embeds, "title")


async def test_no_prefix_commands_and_no_error_for_ordinary_messages(
    harness: Harness, fake: FakeMagisterium, caplog: pytest.LogCaptureFixture
) -> None:
    """The prefix was the bot's mention: "<@bot> What is grace?" ran command "What" and logged
    ERROR CommandNotFound."""
    user = harness.user()
    with caplog.at_level(logging.INFO):
        chat = await harness.message(user, "Hello everyone, what is grace?")
        command_like = await harness.mention(user, "help")
    assert chat.replies == [] and chat.message.content == ""  # withheld: not for the bot
    assert shown(the_reply(command_like).embeds, "title") == ["help"]  # a question, not a command
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not any("CommandNotFound" in r.getMessage() for r in caplog.records)
    assert len(asked(fake)) == 1


def test_no_privileged_intent_and_server_messages_on() -> None:
    intents = default_intents()
    assert intents.guild_messages and intents.guilds and intents.dm_messages
    assert not intents.message_content and not intents.members and not intents.presences


@pytest.mark.parametrize("text", ["", "   ", "\u200b \u2060"])
async def test_a_bare_mention_gets_a_short_how_to(
    harness: Harness, fake: FakeMagisterium, text: str
) -> None:
    exchange = await harness.mention(harness.user(), text)
    reply = the_reply(exchange)
    assert shown(reply.embeds, "title") == ["Ask me a question"]
    (how_to,) = shown(reply.embeds, "description")
    assert "What is grace?" in how_to and "/ask" in how_to
    assert str(harness.bot_user["username"]) in how_to
    assert fake.requests == []
    no_errors(exchange)


async def test_a_mention_is_answered_in_the_language_of_the_askers_last_command(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message carries no locale: the asker's latest interaction's, else the server's."""
    wrap_locales(monkeypatch, lambda locale: locale == "fr")
    french, newcomer = harness.user(locale="fr"), harness.user()
    await harness.slash("help", user=french)
    in_french = the_reply(await harness.mention(french, ""))
    assert shown(in_french.embeds, "title") == ["⟦Ask me a question⟧"]
    in_servers = the_reply(await harness.mention(newcomer, ""))  # the server's: en-US here
    assert shown(in_servers.embeds, "title") == ["Ask me a question"]


@pytest.mark.parametrize(
    "kind",
    ["bot", "webhook", "system", "everyone", "here", "code", "quote", "other user"],
)
async def test_what_is_not_a_question_gets_nothing(
    harness: Harness, fake: FakeMagisterium, kind: str
) -> None:
    user, me = harness.user(), f"<@{harness.bot_user['id']}>"
    other = harness.user(name="other")
    content = {
        "everyone": f"@everyone {QUESTION}",
        "here": f"@here {QUESTION}",
        "code": f"Type `{me} {QUESTION}` to ask",
        "quote": f"> {me} {QUESTION}\nthey asked yesterday",
        "other user": f"<@{other.id}> {QUESTION}",
    }.get(kind, f"{me} {QUESTION}")
    exchange = await harness.message(
        user,
        content,
        author_is_bot=kind == "bot",
        webhook_id=123 if kind == "webhook" else None,
        message_type=7 if kind == "system" else None,  # a member joined
    )
    assert exchange.replies == [] and fake.requests == [] and harness.typing_in == []
    no_errors(exchange)


async def test_everyone_with_the_bots_own_mention_is_a_question(
    harness: Harness, fake: FakeMagisterium
) -> None:
    exchange = await harness.message(
        harness.user(), f"@everyone <@{harness.bot_user['id']}> {QUESTION}"
    )
    assert shown(the_reply(exchange).embeds, "title") == [f"@everyone {QUESTION}"]


async def test_the_bots_role_counts_where_discord_delivers_the_text(
    harness: Harness, fake: FakeMagisterium, bot_role: discord.Role
) -> None:
    harness.content_for_role_mentions = True
    exchange = await harness.mention(harness.user(), QUESTION, role=bot_role)
    assert shown(the_reply(exchange).embeds, "title") == [QUESTION]
    assert question_sent(asked(fake)[0]) == QUESTION


async def test_a_role_mention_without_its_text_says_to_mention_the_app(
    harness: Harness, fake: FakeMagisterium, bot_role: discord.Role
) -> None:
    exchange = await harness.mention(harness.user(), QUESTION, role=bot_role)
    assert exchange.message.content == ""  # Discord withheld it
    (text,) = shown(the_reply(exchange).embeds, "description")
    assert "role" in text and "/ask" in text
    assert fake.requests == []


async def test_a_4000_character_message_asks_its_first_2000_and_says_so(
    harness: Harness, fake: FakeMagisterium
) -> None:
    long = "Why " + "is grace freely given " * 180  # 3,964 characters
    exchange = await harness.mention(harness.user(), long)
    reply = the_reply(exchange)
    assert "2,000" in reply.content and "first" in reply.content
    (request,) = asked(fake)
    assert len(question_sent(request)) <= 2000 and long.startswith(question_sent(request))
    assert reply.allowed_mentions == NO_PING


@pytest.mark.parametrize("bulk", [False, True])
async def test_a_question_deleted_before_its_answer_gets_no_answer(
    harness: Harness, fake: FakeMagisterium, bulk: bool
) -> None:
    fake.faults.add(Fault.LATENCY, seconds=0.3)
    user, message_id = harness.user(), 1 << 60

    async def delete_meanwhile() -> None:
        await asyncio.sleep(0.1)
        if bulk:  # a moderator's purge
            where = {"channel_id": str(harness.channel.id), "guild_id": str(harness.guild.id)}
            await harness.gateway("MESSAGE_DELETE_BULK", {"ids": [str(message_id)], **where})
        else:
            await harness.delete_message(message_id)

    exchange, _ = await asyncio.gather(
        harness.mention(user, QUESTION, message_id=message_id), delete_meanwhile()
    )
    assert len(asked(fake)) == 1  # already asked
    assert exchange.replies == []  # its text would be public again as the answer's title
    no_errors(exchange)


async def test_an_edit_before_the_answer_is_no_second_question(
    harness: Harness, fake: FakeMagisterium
) -> None:
    """The answer is to the text as it was sent; an edit asks nothing (a new message does)."""
    fake.faults.add(Fault.LATENCY, seconds=0.3)
    user, message_id = harness.user(), 1 << 60
    me = f"<@{harness.bot_user['id']}>"

    async def edit_meanwhile() -> None:
        await asyncio.sleep(0.1)
        await harness.edit_message(message_id, f"{me} What is mercy?")

    exchange, _ = await asyncio.gather(
        harness.mention(user, QUESTION, message_id=message_id), edit_meanwhile()
    )
    assert shown(the_reply(exchange).embeds, "title") == [QUESTION]
    assert len(asked(fake)) == 1
    no_errors(exchange)


async def test_with_the_database_down_a_mention_is_left_unanswered(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The admins may have turned mentions off: better silent than against their choice."""
    settings = services(harness).server_settings

    async def down(guild_id: int) -> bool:
        raise StorageUnavailable("the database is down")

    monkeypatch.setattr(settings, "mentions_enabled", down)
    exchange = await harness.mention(harness.user(), QUESTION)
    assert exchange.replies == [] and fake.requests == []
    assert [r.levelname for r in exchange.log_records] == ["WARNING"]


@pytest.mark.parametrize("fault", [Fault.RATE_LIMITED, Fault.PLAN_REQUIRED, Fault.INTERNAL_ERROR])
async def test_a_failure_is_a_reply_in_the_words_ask_uses(
    harness: Harness, fake: FakeMagisterium, fault: Fault
) -> None:
    """Each asker on a token of their own: a rate limit pauses the token it struck."""
    registry = services(harness).registry
    commander, mentioner = harness.user(name="commander"), harness.user(name="mentioner")
    await registry.link(commander.id, SecretStr("pro-commander"))
    await registry.link(mentioner.id, SecretStr("pro-mentioner"))
    times = 2 if fault is Fault.INTERNAL_ERROR else 1  # retried once
    fake.faults.add(fault, times=times)
    by_command = await harness.slash("ask", user=commander, question=QUESTION)
    fake.faults.add(fault, times=times)
    exchange = await harness.mention(mentioner, "What is mercy?")
    reply = the_reply(exchange)
    assert shown(reply.embeds, "title") == shown(by_command.embeds, "title")
    assert not any("Traceback" in text for text in shown(reply.embeds, "description"))
    no_errors(exchange)


async def test_magisterium_asking_back_is_a_reply_and_a_reply_to_it_continues(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(
        Fault.TASK_STATE, skill="catholic_qa", state="input-required", message="Which grace?"
    )
    user = harness.user()
    first = the_reply(await harness.mention(user, "Tell me about grace"))
    assert any(i.startswith("qa:reply:") for i in first.custom_ids)
    context = asked(fake)[0]
    await harness.reply(user, first, "Sanctifying grace")
    assert asked(fake)[1].context_id is not None
    assert asked(fake)[1].context_id == await context_of(harness, first.id)
    assert context.context_id is None


async def test_while_restarting_a_mention_is_told_to_try_again(
    harness: Harness, fake: FakeMagisterium
) -> None:
    cast(MagisteriumBot, harness.bot).draining = True
    exchange = await harness.mention(harness.user(), QUESTION)
    assert shown(the_reply(exchange).embeds, "title") == ["Restarting"]
    assert fake.requests == []


# --- whose token, where --------------------------------------------------------------------


async def test_the_servers_account_serves_a_mention_in_that_server(
    harness: Harness, fake: FakeMagisterium
) -> None:
    bot_services = services(harness)
    await bot_services.servers.link(harness.guild.id, 7, SecretStr("pro-server-token"))
    member = harness.user()
    await harness.mention(member, QUESTION)
    assert asked(fake)[-1].token == "pro-server-token"
    other_guild_channel = harness.make_guild("Elsewhere")
    await harness.mention(member, "What is mercy?", channel=other_guild_channel)
    assert asked(fake)[-1].token == OPERATOR_TOKEN  # never another server's account


async def test_a_person_who_linked_asks_with_their_own_token(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    await services(harness).registry.link(user.id, SecretStr("pro-own"))
    await harness.mention(user, QUESTION)
    assert asked(fake)[-1].token == "pro-own"


# --- replies and threads continue ------------------------------------------------------------


async def context_of(harness: Harness, message_id: int) -> str | None:
    found = await services(harness).answer_conversations.find(message_id)
    return None if found is None else str(found.context_id)


async def test_a_reply_to_an_answer_continues_it_whoever_writes_it(
    harness: Harness, fake: FakeMagisterium
) -> None:
    asker, other = harness.user(name="asker"), harness.user(name="other")
    first = the_reply(await harness.mention(asker, QUESTION))
    context = await context_of(harness, first.id)
    assert context is not None
    second_exchange = await harness.reply(other, first, "And sanctifying grace?")
    assert second_exchange.message.content == "And sanctifying grace?"  # the ping delivered it
    second = the_reply(second_exchange)
    assert asked(fake)[1].context_id == context
    third = the_reply(await harness.reply(asker, second, "And actual grace?"))
    assert asked(fake)[2].context_id == context
    assert await context_of(harness, third.id) == context
    assert "expired" not in second.content


async def test_a_reply_without_the_ping_is_not_seen(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    first = the_reply(await harness.mention(user, QUESTION))
    quiet = await harness.reply(user, first, "And sanctifying grace?", ping=False)
    assert quiet.message.content == "" and quiet.replies == []
    assert len(asked(fake)) == 1


async def test_a_public_ask_answer_and_its_related_thread_continue(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    result = await harness.slash("ask", user=user, question=QUESTION)
    assert result.message is not None
    context = await context_of(harness, result.message.id)
    assert context is not None
    replied = await harness.reply(user, result.message, "Who gives it?")
    the_reply(replied)
    assert asked(fake)[-1].context_id == context

    threads = harness.threads
    related = next(i for i in result.message.custom_ids if i.startswith("qa:rel:"))
    await harness.click(result.message, related, user=harness.user(name="clicker"))
    (opened,) = threads.opened
    thread = harness.guild.get_thread(int(opened["id"]))
    assert thread is not None
    found = await services(harness).answer_conversations.find(thread.id)
    assert found is not None and found.kind is Kind.THREAD and found.context_id == context
    in_thread = await harness.mention(harness.user(name="reader"), "And mercy?", channel=thread)
    reply = the_reply(in_thread)
    assert reply.place.channel_id == thread.id
    assert asked(fake)[-1].context_id == context


async def test_a_reply_that_overtakes_its_answers_record_waits_for_it(
    harness: Harness, fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone replies the moment the answer appears, before the bot has recorded which
    conversation it continues: the reply waits for that record instead of asking anew."""
    store = services(harness).answer_conversations
    remember, recording, release = store.remember, asyncio.Event(), asyncio.Event()

    async def slow_remember(*args: Any, **kwargs: Any) -> bool:
        recording.set()
        await release.wait()
        return await remember(*args, **kwargs)

    cog = mentions_cog(harness)
    wait_for_records, waiting = cog._answers_posted, asyncio.Event()

    async def spied_wait(posting: Any) -> None:
        waiting.set()
        await wait_for_records(posting)

    monkeypatch.setattr(store, "remember", slow_remember)
    monkeypatch.setattr(cog, "_answers_posted", spied_wait)
    user = harness.user()
    first = asyncio.create_task(harness.mention(user, QUESTION))
    await recording.wait()  # the answer is posted; its record is not written yet
    answer = harness.channel_messages[-1]
    reply = asyncio.create_task(harness.reply(harness.user(name="quick"), answer, "And mercy?"))
    async with asyncio.timeout(30):  # a guard: without the wait the reply never reaches it
        await waiting.wait()
    release.set()
    await first
    the_reply(await reply)
    context = await context_of(harness, answer.id)
    assert context is not None and asked(fake)[-1].context_id == context


async def test_a_private_answer_is_not_recorded(harness: Harness) -> None:
    result = await harness.slash("ask", question=QUESTION, private=True)
    assert result.message is not None and result.ephemeral
    assert await context_of(harness, result.message.id) is None


async def test_a_reply_to_a_message_that_is_no_answer_is_a_new_question(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user, other = harness.user(), harness.user(name="other")
    plain = await harness.message(other, "I wonder about grace")
    how_to = the_reply(await harness.mention(user, ""))
    for target in (plain, how_to):
        exchange = await harness.reply(
            user, target, f"<@{harness.bot_user['id']}> What is grace, then?"
        )
        reply = the_reply(exchange)
        assert "expired" not in reply.content
        assert asked(fake)[-1].context_id is None


async def test_a_reply_to_an_answer_older_than_24_hours_is_a_new_question_with_a_note(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    first = the_reply(await harness.mention(user, QUESTION))
    later = FakeWallClock(dt.datetime.now(dt.UTC) + RETENTION + dt.timedelta(minutes=1))
    services(harness).answer_conversations.clock = later
    mentions_cog(harness).now = later
    exchange = await harness.reply(user, first, "And sanctifying grace?")
    reply = the_reply(exchange)
    assert "expired" in reply.content and "new question" in reply.content
    assert asked(fake)[-1].context_id is None
    assert shown(reply.embeds, "title") == ["And sanctifying grace?"]
    no_errors(exchange)


async def test_a_reply_to_an_old_message_of_the_bots_that_is_no_answer_has_no_note(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    how_to = the_reply(await harness.mention(user, ""))
    later = FakeWallClock(dt.datetime.now(dt.UTC) + RETENTION + dt.timedelta(minutes=1))
    services(harness).answer_conversations.clock = later
    mentions_cog(harness).now = later
    reply = the_reply(await harness.reply(user, how_to, QUESTION))
    assert reply.content == "" and asked(fake)[-1].context_id is None


async def test_a_mention_in_the_bots_thread_after_24_hours_starts_it_anew_with_a_note(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    result = await harness.slash("ask", user=user, question=QUESTION)
    assert result.message is not None
    threads = harness.threads
    related = next(i for i in result.message.custom_ids if i.startswith("qa:rel:"))
    await harness.click(result.message, related, user=user)
    thread = harness.guild.get_thread(int(threads.opened[0]["id"]))
    assert thread is not None
    later = FakeWallClock(dt.datetime.now(dt.UTC) + RETENTION + dt.timedelta(minutes=1))
    store = services(harness).answer_conversations
    store.clock = later
    mentions_cog(harness).now = later
    reply = the_reply(await harness.mention(user, "And mercy?", channel=thread))
    assert "expired" in reply.content
    assert asked(fake)[-1].context_id is None
    found = await store.find(thread.id)  # the thread now continues the new conversation
    assert found is not None and found.kind is Kind.THREAD
    await harness.mention(user, "And justice?", channel=thread)
    assert asked(fake)[-1].context_id == found.context_id


async def test_the_record_outlives_a_restart(harness: Harness, fake: FakeMagisterium) -> None:
    user = harness.user()
    first = the_reply(await harness.mention(user, QUESTION))
    await harness.reload_extension("cogs.qa")  # a new cog: nothing in memory
    context = await context_of(harness, first.id)
    await harness.reply(user, first, "And sanctifying grace?")
    assert context is not None and asked(fake)[-1].context_id == context


# --- where ----------------------------------------------------------------------------------


async def test_a_forum_post_a_voice_chat_and_a_thread_are_answered_in_place(
    harness: Harness, fake: FakeMagisterium
) -> None:
    user = harness.user()
    post = harness.thread("How do I pray?", parent=harness.make_forum_channel(), owner=user)
    voice = harness.make_voice_channel()
    thread = harness.thread("chat", owner=user)
    for place in (post, voice, thread):
        reply = the_reply(await harness.mention(user, QUESTION, channel=place))
        assert reply.place.channel_id == place.id
    assert [r.context_id for r in asked(fake)] == [None, None, None]  # nothing to continue
    again = await harness.mention(user, "And mercy?", channel=thread)
    the_reply(again)
    assert asked(fake)[-1].context_id is None  # a person's thread is no conversation of ours


async def test_where_the_bot_cannot_post_nothing_happens(
    harness: Harness, fake: FakeMagisterium
) -> None:
    me = harness.guild.me
    harness.set_permissions(harness.channel, me, send_messages=False)
    exchange = await harness.mention(harness.user(), QUESTION)
    assert exchange.replies == [] and fake.requests == []
    no_errors(exchange)


async def test_without_embed_links_a_plain_note_says_why(
    harness: Harness, fake: FakeMagisterium
) -> None:
    harness.set_permissions(harness.channel, harness.guild.me, embed_links=False)
    exchange = await harness.mention(harness.user(), QUESTION)
    reply = the_reply(exchange)
    assert reply.embeds == [] and "Embed Links" in reply.content
    assert fake.requests == []


# --- the admins decide -------------------------------------------------------------------------


async def test_server_mentions_off_means_no_reply_and_no_call(
    harness: Harness, fake: FakeMagisterium
) -> None:
    off = await harness.slash("server mentions", member_permissions=ADMIN, enabled=False)
    assert off.ephemeral and shown(off.embeds, "title") == ["Mentions turned off"]
    status = await harness.slash("server status", member_permissions=ADMIN)
    assert any("ignores mentions" in v for v in shown(status.embeds, "field_value"))
    exchange = await harness.mention(harness.user(), QUESTION)
    assert exchange.replies == [] and fake.requests == [] and harness.typing_in == []
    other = await harness.mention(harness.user(), QUESTION, channel=harness.make_guild("Elsewhere"))
    the_reply(other)  # only that server
    on = await harness.slash("server mentions", member_permissions=ADMIN, enabled=True)
    assert shown(on.embeds, "title") == ["Mentions turned on"]
    the_reply(await harness.mention(harness.user(), QUESTION))


async def test_removing_the_bot_forgets_the_servers_setting_and_records(
    harness: Harness,
) -> None:
    bot_services = services(harness)
    first = the_reply(await harness.mention(harness.user(), QUESTION))
    await bot_services.server_settings.set_mentions(harness.guild.id, False)
    await harness.gateway("GUILD_DELETE", {"id": str(harness.guild.id)})
    assert await bot_services.server_settings.mentions_enabled(harness.guild.id) is True
    assert await bot_services.answer_conversations.find(first.id) is None

"""Ask channels through the real path: ``/server askchannel`` as INTERACTION_CREATE payloads,
then members' MESSAGE_CREATE payloads (with the Message Content intent, as Discord sends them
then) parsed by discord.py; what the bot does is read from the REST calls it makes (the thread
it starts, where its answer goes, ``message_reference``, ``allowed_mentions``)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Any, cast

import discord
import pytest
from pydantic import SecretStr

from bot.app import MagisteriumBot
from bot.app.composition import Services
from bot.services.answer_conversations import RETENTION, Kind
from bot.services.ask_channels import MAX_PER_SERVER, AskChannel, AskChannelKind
from cogs.qa.followups import NEW_CONVERSATION_ID
from cogs.qa.mentions import MENTIONS_COG_NAME
from devtools.discord import Harness, MessageExchange, SentMessage
from devtools.discord.records import http_error
from devtools.discord.threads import FakeThreads
from devtools.fake_magisterium import FakeMagisterium
from tests.support.embed_parts import shown
from tests.support.fakes import FakeWallClock

QUESTION = "What is grace?"
SERVER_TOKEN = "pro-server-token"
NO_PING = {"parse": [], "replied_user": False}
ADMIN = discord.Permissions(manage_guild=True)


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return {"message_content_intent": True, "qa_rate_limit_per_minute": 20}


@pytest.fixture
def fake() -> FakeMagisterium:
    return FakeMagisterium(expensive_per_minute=20)


@pytest.fixture(autouse=True)
def bot_role(harness: Harness) -> discord.Role:
    """The role Discord gives the bot when it joins through its install link (with Create
    Public Threads and Send Messages in Threads)."""
    return harness.managed_role()


@pytest.fixture
def threads(harness: Harness) -> FakeThreads:
    return harness.threads


def services(harness: Harness) -> Services:
    return cast(MagisteriumBot, harness.bot).services


def asked(fake: FakeMagisterium) -> list[Any]:
    return [r for r in fake.requests if r.skill == "catholic_qa"]


def question_sent(request: Any) -> str:
    return " ".join(str(part.get("text", "")) for part in request.parts)


def no_errors(exchange: MessageExchange) -> None:
    assert [r for r in exchange.log_records if r.levelno >= logging.ERROR] == []


def reply_in(exchange: MessageExchange, channel_id: int) -> SentMessage:
    """The one message the bot sent: a reply to ``exchange``'s message in ``channel_id``."""
    (reply,) = exchange.replies
    assert reply.place.channel_id == channel_id
    assert reply.request is not None
    reference = reply.request.get("message_reference")
    assert reference is not None and int(reference["message_id"]) == exchange.message.id
    assert reply.allowed_mentions == NO_PING
    return reply


async def make_ask_channel(
    harness: Harness, channel: discord.TextChannel | discord.ForumChannel | None = None
) -> Any:
    result = await harness.slash(
        "server askchannel set",
        member_permissions=ADMIN,
        options={"channel": channel or harness.channel},
    )
    assert result.ephemeral
    return result


# --- /server askchannel -------------------------------------------------------------------


async def test_set_a_text_channel_then_status_lists_it_then_off(harness: Harness) -> None:
    result = await make_ask_channel(harness)
    assert shown(result.embeds, "title") == ["Ask channel set"]
    assert "thread" in shown(result.embeds, "description")[0]
    status = await harness.slash("server status", member_permissions=ADMIN)
    assert f"<#{harness.channel.id}>" in shown(status.embeds, "field_value")
    off = await harness.slash(
        "server askchannel off", member_permissions=ADMIN, options={"channel": harness.channel}
    )
    assert shown(off.embeds, "title") == ["Ask channel turned off"]
    again = await harness.slash(
        "server askchannel off", member_permissions=ADMIN, options={"channel": harness.channel}
    )
    assert shown(again.embeds, "title") == ["Not an ask channel"]
    assert await services(harness).ask_channels.of_server(harness.guild.id) == []


async def test_a_forum_is_set_as_one(harness: Harness) -> None:
    forum = harness.make_forum_channel()
    result = await make_ask_channel(harness, forum)
    assert "post" in shown(result.embeds, "description")[0]
    assert await services(harness).ask_channels.of_server(harness.guild.id) == [
        AskChannel(forum.id, harness.guild.id, AskChannelKind.FORUM)
    ]


async def test_missing_permissions_are_named_and_nothing_is_stored(harness: Harness) -> None:
    harness.set_permissions(harness.channel, harness.guild.me, create_public_threads=False)
    result = await make_ask_channel(harness)
    assert shown(result.embeds, "title") == ["I cannot answer in that channel"]
    (text,) = shown(result.embeds, "description")
    assert "Create Public Threads" in text and "Embed Links" not in text
    assert await services(harness).ask_channels.of_server(harness.guild.id) == []


async def test_at_most_ten_a_server(harness: Harness) -> None:
    store = services(harness).ask_channels
    for channel_id in range(1, MAX_PER_SERVER + 1):
        await store.set(harness.guild.id, channel_id, AskChannelKind.TEXT)
    result = await make_ask_channel(harness)
    assert shown(result.embeds, "title") == ["Too many ask channels"]
    assert "10" in shown(result.embeds, "description")[0]


async def test_the_command_is_for_admins(harness: Harness) -> None:
    command = harness.bot.tree.get_command("server")
    assert isinstance(command, discord.app_commands.Group)
    group = command.get_command("askchannel")
    assert isinstance(group, discord.app_commands.Group)
    assert sorted(c.name for c in group.commands) == ["off", "set"]
    spec = command.to_dict(harness.bot.tree)
    assert spec["default_member_permissions"] == ADMIN.value
    (option,) = [o for o in spec["options"] if o["name"] == "askchannel"]
    (set_spec,) = [o for o in option["options"] if o["name"] == "set"]
    (channel,) = set_spec["options"]
    assert sorted(channel["channel_types"]) == sorted(
        [discord.ChannelType.text.value, discord.ChannelType.news.value, 15, 16]
    )  # text and announcement channels, forums and media channels (forums of images)


async def test_a_deleted_channel_is_forgotten(harness: Harness) -> None:
    forum = harness.make_forum_channel()
    await make_ask_channel(harness, forum)
    data = {"id": str(forum.id), "type": 15, "guild_id": str(harness.guild.id), "name": "forum"}
    await harness.gateway("CHANNEL_DELETE", data)
    assert await services(harness).ask_channels.of_server(harness.guild.id) == []


# --- a text channel: a question per message, answered in a thread ---------------------------


async def test_a_new_message_is_answered_in_a_thread_and_the_thread_continues(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    await make_ask_channel(harness)
    asker, other = harness.user(name="asker"), harness.user(name="other")
    exchange = await harness.message(asker, QUESTION)
    (opened,) = threads.opened
    assert int(opened["message_id"]) == exchange.message.id  # a thread on the question
    assert opened["asked"]["name"] == QUESTION
    assert (
        opened["asked"]["auto_archive_duration"] == 1440
    )  # a day: as long as Magisterium keeps it
    (answer,) = exchange.replies
    assert answer.place.channel_id == exchange.message.id  # posted in the thread
    assert answer.request is not None and "message_reference" not in answer.request
    assert NEW_CONVERSATION_ID in answer.custom_ids
    assert any(i.startswith("fb:") for i in answer.custom_ids)
    assert harness.typing_in == [harness.channel.id]
    (first,) = asked(fake)
    assert question_sent(first) == QUESTION and first.context_id is None
    thread = harness.guild.get_thread(exchange.message.id)
    assert thread is not None
    found = await services(harness).answer_conversations.find(thread.id)
    assert found is not None and found.kind is Kind.THREAD

    follow_up = await harness.message(other, "And who gives it?", channel=thread)
    reply_in(follow_up, thread.id)
    assert asked(fake)[-1].context_id == found.context_id  # whoever writes it
    assert len(threads.opened) == 1
    no_errors(exchange)
    no_errors(follow_up)


@pytest.mark.parametrize("kind", ["reply to a person", "mentions a person", "no text", "bot"])
async def test_people_talking_to_each_other_is_no_question(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads, kind: str
) -> None:
    await make_ask_channel(harness)
    asker, other = harness.user(name="asker"), harness.user(name="other")
    earlier = await harness.message(other, "", author_is_bot=True)  # not a question: a bot's
    exchange = await harness.message(
        asker,
        {"mentions a person": f"<@{other.id}> what do you think?", "no text": ""}.get(
            kind, "I agree with you"
        ),
        reply_to=earlier if kind == "reply to a person" else None,
        author_is_bot=kind == "bot",
    )
    assert exchange.replies == [] and threads.opened == [] and asked(fake) == []
    no_errors(exchange)


async def test_a_message_that_also_mentions_the_bot_is_answered_once(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    await make_ask_channel(harness)
    exchange = await harness.mention(harness.user(), QUESTION)
    assert len(exchange.replies) == 1 and len(threads.opened) == 1
    assert [question_sent(r) for r in asked(fake)] == [QUESTION]


async def test_other_channels_are_not_ask_channels(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    """With the intent, Discord delivers every message's text: only the chosen channels ask."""
    await make_ask_channel(harness)
    elsewhere = harness.make_text_channel("chat")
    chat = await harness.message(
        harness.user(), "Hello everyone, what is grace?", channel=elsewhere
    )
    assert chat.message.content != "" and chat.replies == [] and asked(fake) == []


async def test_a_thread_members_started_in_the_channel_is_theirs(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    await make_ask_channel(harness)
    user = harness.user()
    theirs = harness.thread("our chat", owner=user)
    exchange = await harness.message(user, "Let us talk", channel=theirs)
    assert exchange.replies == [] and asked(fake) == []


async def test_without_thread_permissions_the_answer_is_a_reply_in_the_channel(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    await make_ask_channel(harness)
    harness.set_permissions(harness.channel, harness.guild.me, create_public_threads=False)
    exchange = await harness.message(harness.user(), QUESTION)
    reply_in(exchange, harness.channel.id)
    assert threads.opened == []


@pytest.mark.parametrize(
    ("status", "code", "answered"),
    [(403, 50013, True), (404, 10008, False)],
    ids=["refused: a reply instead", "question deleted: no answer"],
)
async def test_when_discord_refuses_the_thread(
    harness: Harness,
    fake: FakeMagisterium,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
    code: int,
    answered: bool,
) -> None:
    await make_ask_channel(harness)

    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise http_error(status, code, "refused")

    monkeypatch.setattr(harness.bot.http, "start_thread_with_message", refuse)
    exchange = await harness.message(harness.user(), QUESTION)
    if answered:
        reply_in(exchange, harness.channel.id)
    else:
        assert exchange.replies == []
    assert len(asked(fake)) == 1
    no_errors(exchange)


async def test_after_24_hours_the_thread_starts_anew_with_a_note(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    await make_ask_channel(harness)
    user = harness.user()
    exchange = await harness.message(user, QUESTION)
    thread = harness.guild.get_thread(exchange.message.id)
    assert thread is not None
    later = FakeWallClock(dt.datetime.now(dt.UTC) + RETENTION + dt.timedelta(minutes=1))
    services(harness).answer_conversations.clock = later
    harness.bot.get_cog(MENTIONS_COG_NAME).now = later  # type: ignore[union-attr]
    again = await harness.message(user, "And mercy?", channel=thread)
    reply = reply_in(again, thread.id)
    assert "expired" in reply.content
    assert asked(fake)[-1].context_id is None


# --- a forum: a question per post, answered in it ---------------------------------------------


async def test_a_forum_post_is_answered_in_the_post_with_its_title(
    harness: Harness, fake: FakeMagisterium
) -> None:
    forum = harness.make_forum_channel()
    await make_ask_channel(harness, forum)
    poster = harness.user(name="poster")
    post = harness.thread("Is grace earned?", parent=forum, owner=poster)
    starter = await harness.message(
        poster, "I read that it is a gift.", channel=post, message_id=post.id
    )
    reply_in(starter, post.id)
    (first,) = asked(fake)
    assert question_sent(first) == "Is grace earned?\n\nI read that it is a gift."
    found = await services(harness).answer_conversations.find(post.id)
    assert found is not None
    follow_up = await harness.message(harness.user(), "Then why pray?", channel=post)
    reply_in(follow_up, post.id)
    assert asked(fake)[-1].context_id == found.context_id


# --- the flood bound --------------------------------------------------------------------------


async def test_one_question_at_a_time_then_one_note_then_silence(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads, monkeypatch: pytest.MonkeyPatch
) -> None:
    await make_ask_channel(harness)
    magisterium = services(harness).magisterium
    entered, release = asyncio.Event(), asyncio.Event()
    real_call = magisterium.call

    async def held_call(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await release.wait()
        return await real_call(*args, **kwargs)

    monkeypatch.setattr(magisterium, "call", held_call)
    flooder, other = harness.user(name="flooder"), harness.user(name="other")
    first = asyncio.create_task(harness.message(flooder, QUESTION))
    async with asyncio.timeout(5):
        await entered.wait()
    second = await harness.message(flooder, "And mercy?")
    third = await harness.message(flooder, "And justice?")
    entered.clear()
    someone_else = asyncio.create_task(harness.message(other, "And hope?"))
    await entered.wait()  # another member is not held back
    release.set()
    answered, theirs = await first, await someone_else
    (busy,) = second.replies
    assert shown(busy.embeds, "title") == ["One question at a time"]
    assert busy.request is not None
    assert int(busy.request["message_reference"]["message_id"]) == second.message.id
    assert third.replies == []
    # Each answered in the thread on its own question (an exchange also lists what the bot
    # sent meanwhile for the others).
    for exchange in (answered, theirs):
        (in_thread,) = harness.messages_in(exchange.message.id)
        assert NEW_CONVERSATION_ID in in_thread.custom_ids
    fourth = await harness.message(flooder, "And love?")  # answered: their turn again
    assert len(fourth.replies) == 1
    assert [question_sent(r) for r in asked(fake)] == [QUESTION, "And hope?", "And love?"]


async def test_a_used_up_allowance_is_said_once_then_silence(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    await make_ask_channel(harness)
    limit = cast(MagisteriumBot, harness.bot).settings.shared_qa_quota_per_hour
    assert 0 < limit < 7  # the shared token's questions an hour per person serve them
    flooder = harness.user(name="flooder")
    sent = [(await harness.message(flooder, f"Question {n}?")).replies for n in range(8)]
    answered = [r for r in sent if r and r[0].place.channel_id != harness.channel.id]
    refused = [r for r in sent if r and r[0].place.channel_id == harness.channel.id]
    assert len(answered) == limit == len(asked(fake))  # nothing more asked upstream
    assert len(refused) == 1  # told once, as a reply in the channel
    assert sent.count([]) == 8 - limit - 1  # then silence
    (told,) = refused[0]
    assert "hour" in " ".join(shown(told.embeds, "description")).lower()


async def test_a_flood_costs_the_servers_account_one_members_allowance(
    harness: Harness, fake: FakeMagisterium, threads: FakeThreads
) -> None:
    """The server's account serves a member their hourly questions; past them, the shared
    token's per-person quota; past both, one refusal and silence."""
    await make_ask_channel(harness)
    server = services(harness).servers
    linked = await server.link(harness.guild.id, 1, SecretStr(SERVER_TOKEN))
    allowance = linked.allowance.qa_per_hour
    shared = cast(MagisteriumBot, harness.bot).settings.shared_qa_quota_per_hour
    flooder = harness.user(name="flooder")
    for number in range(20):
        await harness.message(flooder, f"Question {number}?")
    tokens = [r.token for r in asked(fake)]
    assert tokens.count(SERVER_TOKEN) == allowance  # never more of the server's account
    assert len(tokens) == allowance + shared
    other = await harness.message(harness.user(name="other"), QUESTION)
    assert asked(fake)[-1].token == SERVER_TOKEN  # the others still have theirs
    assert other.replies


# --- without the intent ---------------------------------------------------------------------


class TestWithoutTheIntent:
    @pytest.fixture
    def harness_overrides(self) -> dict[str, Any]:
        return {}

    async def test_the_command_explains_and_stores_nothing(self, harness: Harness) -> None:
        result = await make_ask_channel(harness)
        assert shown(result.embeds, "title") == ["Ask channels are not available on this bot"]
        (text,) = shown(result.embeds, "description")
        assert "MESSAGE_CONTENT_INTENT=true" in text and "Message Content Intent" in text
        assert await services(harness).ask_channels.of_server(harness.guild.id) == []

    async def test_stored_ones_are_inactive_and_status_says_so(
        self, harness: Harness, fake: FakeMagisterium
    ) -> None:
        store = services(harness).ask_channels
        await store.set(harness.guild.id, harness.channel.id, AskChannelKind.TEXT)
        exchange = await harness.message(harness.user(), QUESTION)
        assert exchange.replies == [] and asked(fake) == []
        status = await harness.slash("server status", member_permissions=ADMIN)
        assert any("Inactive" in v for v in shown(status.embeds, "field_value"))

"""The harness's server messages: MESSAGE_CREATE payloads as Discord sends them to an app
without the Message Content intent, and the gateway events around them."""

from __future__ import annotations

import discord

from devtools.discord import Harness


async def test_a_mention_lists_the_bot_and_keeps_its_text(harness: Harness) -> None:
    user, other = harness.user(), harness.user(name="other")
    data, place = harness.message_create(
        user, f"<@{harness.bot_user['id']}> and <@{other.id}>: what is grace?"
    )
    assert [m["id"] for m in data["mentions"]] == [str(harness.bot_user["id"]), str(other.id)]
    assert data["content"].endswith("what is grace?") and data["type"] == 0
    assert place.channel_id == harness.channel.id and "member" in data
    assert "message_reference" not in data and "webhook_id" not in data


async def test_other_messages_arrive_without_their_text(harness: Harness) -> None:
    user = harness.user()
    for content in ("What is grace?", "@everyone What is grace?"):
        data, _place = harness.message_create(user, content)
        assert data["content"] == "" and data["embeds"] == [] and data["mentions"] == []
    data, _place = harness.message_create(user, "@here hi")
    assert data["mention_everyone"] is True


async def test_a_role_mention_has_its_text_only_if_the_harness_is_told_so(
    harness: Harness,
) -> None:
    role = harness.managed_role()
    assert harness.guild.self_role == role and role in harness.guild.me.roles
    assert harness.channel.permissions_for(harness.guild.me).send_messages_in_threads
    data, _place = harness.message_create(harness.user(), f"<@&{role.id}> What is grace?")
    assert data["mention_roles"] == [str(role.id)] and data["content"] == ""
    harness.content_for_role_mentions = True
    data, _place = harness.message_create(harness.user(), f"<@&{role.id}> What is grace?")
    assert data["content"] == f"<@&{role.id}> What is grace?"


async def test_a_reply_carries_the_reference_and_pings_the_replied_author(
    harness: Harness,
) -> None:
    asker, replier = harness.user(), harness.user(name="replier")
    first = await harness.message(asker, f"<@{harness.bot_user['id']}> hello")
    data, _place = harness.message_create(replier, "Me too", reply_to=first)
    assert data["type"] == 19
    assert data["message_reference"]["message_id"] == str(first.message.id)
    assert data["referenced_message"]["id"] == str(first.message.id)
    assert [m["id"] for m in data["mentions"]] == [str(asker.id)]
    quiet, _place = harness.message_create(replier, "Me too", reply_to=first, ping=False)
    assert quiet["mentions"] == []
    gone, _place = harness.message_create(replier, "Me too", reply_to=12345)
    assert gone["referenced_message"] is None


async def test_threads_forums_and_voice_chats_are_places_to_write(harness: Harness) -> None:
    forum = harness.make_forum_channel()
    post = harness.thread("A post", parent=forum, owner=harness.user())
    thread = harness.thread("On a message", thread_id=4242)
    voice = harness.make_voice_channel()
    assert post.parent == forum and thread.id == 4242 and thread.owner_id == harness.bot.user.id  # type: ignore[union-attr]
    for place in (post, thread, voice):
        exchange = await harness.message(harness.user(), "hi", channel=place)
        assert exchange.message.channel == place


async def test_deleting_and_editing_send_the_gateway_events(harness: Harness) -> None:
    """As Discord tells the bot: the raw events only, for the bot keeps no message
    (``max_messages=None``, which the harness carries over from the bot, as every test runs)."""
    edits: list[discord.RawMessageUpdateEvent] = []
    deletes: list[discord.RawMessageDeleteEvent] = []

    async def on_raw_message_edit(payload: discord.RawMessageUpdateEvent) -> None:
        edits.append(payload)

    async def on_raw_message_delete(payload: discord.RawMessageDeleteEvent) -> None:
        deletes.append(payload)

    harness.bot.add_listener(on_raw_message_edit)
    harness.bot.add_listener(on_raw_message_delete)
    exchange = await harness.message(harness.user(), f"<@{harness.bot_user['id']}> hi")
    await harness.edit_message(exchange.message.id, f"<@{harness.bot_user['id']}> hello")
    edited = [(e.message_id, e.message.content[-5:]) for e in edits]
    assert edited == [(exchange.message.id, "hello")]
    await harness.delete_message(exchange.message.id)
    assert [d.message_id for d in deletes] == [exchange.message.id]
    assert edits[0].cached_message is None and deletes[0].cached_message is None
    assert harness.state._messages is None and not harness.bot.cached_messages

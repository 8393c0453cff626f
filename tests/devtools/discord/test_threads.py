"""The harness's threads started on a message (``harness.threads``): opened as Discord opens
them, refused as Discord refuses them."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from devtools.discord import Harness

MESSAGE_ID = 424242


async def start(harness: Harness, channel_id: int, **fields: Any) -> Any:
    asked = {"name": "A question", "auto_archive_duration": 1440, **fields}
    return await harness.bot.http.start_thread_with_message(channel_id, MESSAGE_ID, **asked)


async def test_the_harness_opens_a_thread_with_the_messages_id(harness: Harness) -> None:
    data = await start(harness, harness.channel.id, reason="asked")
    assert data["id"] == str(MESSAGE_ID) and data["parent_id"] == str(harness.channel.id)
    [opened] = harness.threads.opened
    assert opened["message_id"] == MESSAGE_ID and opened["asked"]["reason"] == "asked"
    assert harness.guild.get_thread(MESSAGE_ID) is not None


async def test_a_second_thread_on_the_message_is_refused(harness: Harness) -> None:
    await start(harness, harness.channel.id)
    with pytest.raises(discord.HTTPException) as refused:
        await start(harness, harness.channel.id)
    assert (refused.value.status, refused.value.code) == (400, 160004)
    assert len(harness.threads.opened) == 1


async def test_only_a_text_channels_message_gets_a_thread(harness: Harness) -> None:
    forum = harness.make_forum_channel()
    post = harness.thread("A post", parent=forum, owner=harness.user())
    thread = harness.thread("On a message")
    dm = harness.dm_channel_id(harness.user())
    for place_id in (post.id, thread.id, dm):
        with pytest.raises(discord.HTTPException) as refused:
            await start(harness, place_id)
        assert (refused.value.status, refused.value.code) == (400, 50024)
    with pytest.raises(discord.NotFound) as unknown:
        await start(harness, 1)
    assert unknown.value.code == 10003
    assert harness.threads.opened == []


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"auto_archive_duration": 30}, "auto_archive_duration"),
        ({"rate_limit_per_user": 21601}, "rate_limit_per_user"),
    ],
)
async def test_a_name_or_duration_discord_refuses_is_50035(
    harness: Harness, fields: dict[str, Any], field: str
) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await start(harness, harness.channel.id, **fields)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert field in str(refused.value)
    assert harness.threads.opened == []

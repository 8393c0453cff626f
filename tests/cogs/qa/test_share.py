"""The "Share in channel" button under a private answer, through the harness: where it is
offered, what it posts, and every way a press is refused."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.render.discord_limits import ACTION_ROWS, check_message_embeds
from cogs.qa.share import (
    ALREADY_TEXT,
    BOT_CANNOT_TEXT,
    GONE_TEXT,
    NOT_THE_ASKER,
    POST_FAILED_TEXT,
    YOU_CANNOT_TEXT,
)
from devtools.discord import Harness, InteractionResult, SentMessage
from devtools.discord.wire import BOT_PERMISSIONS, MEMBER_PERMISSIONS, snowflake, walk_components
from devtools.fake_magisterium import FakeMagisterium, Fault
from tests.cogs.qa.recent import recent_answers_of
from tests.support.embed_parts import shown
from tests.support.many_questions import fake, harness_overrides

QUESTION = "What is grace?"
NEXT = "Next ▶"
__all__ = ["fake", "harness_overrides"]  # fixtures


def share_id(message: SentMessage | None) -> str | None:
    assert message is not None
    return next((c for c in message.custom_ids if c.startswith("qa:share:")), None)


def without(permissions: discord.Permissions, **denied: bool) -> discord.Permissions:
    changed = discord.Permissions(permissions.value)
    changed.update(**denied)
    return changed


async def private_answer(harness: Harness, **where: Any) -> InteractionResult:
    result = await harness.slash("ask", question=QUESTION, private=True, **where)
    assert result.ephemeral and result.embeds, result.transcript
    return result


def new_posts(harness: Harness, before: int) -> list[SentMessage]:
    return harness.channel_messages[before:]


async def all_pages(harness: Harness, answer: InteractionResult) -> list[dict[str, Any]]:
    """Every page of a paged answer, turned with ▶ by its asker, as Discord was sent them."""
    assert answer.message is not None
    pages = [answer.message.embeds[0]]
    while True:
        [next_button] = [
            c for c in walk_components(answer.message.components) if c.get("label") == NEXT
        ]
        if next_button.get("disabled"):
            return pages
        turned = await harness.click(answer, next_button["custom_id"])
        assert turned.callback_type == 7
        pages.append(answer.message.embeds[0])


# --- where it is offered --------------------------------------------------------------------


async def test_private_answer_offers_share_and_public_one_does_not(harness: Harness) -> None:
    private = await private_answer(harness)
    public = await harness.slash("ask", question=QUESTION)
    assert share_id(private.message) is not None
    assert share_id(public.message) is None
    [button] = [
        c
        for c in walk_components(private.components)
        if c.get("custom_id", "").startswith("qa:share:")
    ]
    assert button["label"] == "Share in channel" and len(button["custom_id"]) <= 100


@pytest.mark.parametrize("where", [{"dm": True}, {"private_channel": True}])
async def test_no_share_in_dms_nor_in_group_dms(harness: Harness, where: dict[str, bool]) -> None:
    # DMs: nowhere public. A group DM: the app is only user-installed there, the bot has no
    # seat and cannot post as itself.
    answer = await harness.slash("ask", question=QUESTION, **where)
    assert answer.ephemeral and answer.embeds
    assert share_id(answer.message) is None


async def test_context_menu_and_private_follow_up_offer_share(harness: Harness) -> None:
    posted = await harness.post(harness.default_user, "What does the Church teach about baptism?")
    menu = await harness.context_menu("Ask Magisterium", target_message=posted.message)
    assert menu.ephemeral and share_id(menu.message) is not None
    private = await private_answer(harness)
    assert private.message is not None
    related = next(c for c in private.message.custom_ids if c.startswith("qa:rel:"))
    follow_up = await harness.click(private, related)
    assert follow_up.ephemeral and follow_up.embeds
    assert share_id(follow_up.message) is not None


@pytest.mark.parametrize(
    ("app", "member"),
    [
        (without(BOT_PERMISSIONS, send_messages=False), MEMBER_PERMISSIONS),
        (without(BOT_PERMISSIONS, embed_links=False), MEMBER_PERMISSIONS),
        (BOT_PERMISSIONS, without(MEMBER_PERMISSIONS, send_messages=False)),
    ],
)
async def test_not_offered_where_the_post_could_not_be_made(
    harness: Harness, app: discord.Permissions, member: discord.Permissions
) -> None:
    answer = await private_answer(harness, app_permissions=app, member_permissions=member)
    assert share_id(answer.message) is None


# --- what it posts --------------------------------------------------------------------------


async def test_share_posts_the_same_embeds_credited_without_a_ping(harness: Harness) -> None:
    answer = await private_answer(harness)
    custom_id = share_id(answer.message)
    assert custom_id is not None and answer.message is not None
    before = len(harness.channel_messages)
    pressed = await harness.click(answer, custom_id)
    assert pressed.callback_type == 6  # acknowledged; the public post is the reply
    assert not pressed.followups and not pressed.rejected
    [post] = new_posts(harness, before)
    asker = answer.user_id
    assert post.place.channel_id == harness.channel.id
    assert not post.flags & 64  # public
    assert post.content == f"Asked by <@{asker}>"
    assert post.allowed_mentions == {"parse": []}  # the mention renders, nobody is pinged
    assert post.embeds == answer.message.embeds
    # Readers of the public copy can open its sources too.
    assert any(c.startswith("qa:src:") for c in post.custom_ids)
    assert share_id(post) is None


async def test_a_paged_answer_is_shared_whole_within_discords_limits(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.HUGE_ANSWER)
    answer = await private_answer(harness)
    assert answer.message is not None and len(answer.message.components) <= ACTION_ROWS
    custom_id = share_id(answer.message)
    assert custom_id is not None
    pages = await all_pages(harness, answer)
    assert len(pages) > 2
    before = len(harness.channel_messages)
    await harness.click(answer, custom_id)
    posts = new_posts(harness, before)
    assert [e for post in posts for e in post.embeds] == pages  # every page, in order
    assert 1 < len(posts) <= len(pages)
    for post in posts:
        embeds = [discord.Embed.from_dict(e) for e in post.embeds]
        assert check_message_embeds(embeds, post.content) == [], post.embeds
        assert post.allowed_mentions == {"parse": []}
    assert posts[0].content.startswith("Asked by <@") and not any(p.content for p in posts[1:])
    assert any(c.startswith("qa:src:") for c in posts[-1].custom_ids)


def context_of_answer(answer: InteractionResult) -> str:
    """The contextId of an answer, as its related-question buttons carry it."""
    assert answer.message is not None
    related = next(c for c in answer.message.custom_ids if c.startswith("qa:rel:"))
    return related.split(":")[2]


def asked(fake: FakeMagisterium) -> list[Any]:
    return [r for r in fake.requests if r.skill == "catholic_qa"]


async def test_a_reply_to_the_shared_post_continues_the_answers_conversation(
    harness: Harness, fake: FakeMagisterium
) -> None:
    answer = await private_answer(harness)
    context = context_of_answer(answer)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    before = len(harness.channel_messages)
    await harness.click(answer, custom_id)
    [post] = new_posts(harness, before)
    replied = await harness.reply(harness.user(name="reader"), post, "And sanctifying grace?")
    [reply] = replied.replies
    assert reply.embeds and "expired" not in reply.content
    assert len(asked(fake)) == 2
    assert asked(fake)[-1].context_id == context  # the same conversation, not a new one
    assert "And sanctifying grace?" in str(asked(fake)[-1].parts)


async def test_a_reply_to_any_post_of_a_paged_share_continues_it(
    harness: Harness, fake: FakeMagisterium
) -> None:
    fake.faults.add(Fault.HUGE_ANSWER)
    answer = await private_answer(harness)
    context = context_of_answer(answer)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    before = len(harness.channel_messages)
    await harness.click(answer, custom_id)
    posts = new_posts(harness, before)
    assert len(posts) > 1
    for post in (posts[0], posts[-1]):  # the credited first, the last with its controls
        replied = await harness.reply(harness.default_user, post, "Who gives it?")
        assert len(replied.replies) == 1
    assert [r.context_id for r in asked(fake)] == [None, context, context]


async def test_share_in_the_asked_channel_not_elsewhere(harness: Harness) -> None:
    other = harness.make_text_channel("questions")
    answer = await private_answer(harness, channel=other)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    await harness.click(answer, custom_id)
    assert len(harness.messages_in(other)) == 1
    assert harness.messages_in(harness.channel) == []


async def open_thread(harness: Harness) -> discord.Thread:
    """A public thread in the harness's channel, as the gateway announces one."""
    thread_id = snowflake()
    await harness.gateway(
        "THREAD_CREATE",
        {
            "id": str(thread_id),
            "type": discord.ChannelType.public_thread.value,
            "guild_id": str(harness.guild.id),
            "parent_id": str(harness.channel.id),
            "owner_id": str(harness.default_user.id),
            "name": "grace",
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "locked": False,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
            },
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "newly_created": True,
        },
    )
    thread = harness.guild.get_thread(thread_id)
    assert thread is not None
    return thread


async def test_in_a_thread_sending_in_threads_is_what_counts(harness: Harness) -> None:
    thread = await open_thread(harness)
    in_thread: Any = {"channel": thread}
    no_threads = without(BOT_PERMISSIONS, send_messages_in_threads=False)
    barred = await private_answer(harness, app_permissions=no_threads, **in_thread)
    assert share_id(barred.message) is None
    member = without(MEMBER_PERMISSIONS, send_messages_in_threads=False)
    muted = await private_answer(harness, member_permissions=member, **in_thread)
    assert share_id(muted.message) is None
    # Sending in the parent channel is not needed to post in its thread.
    threads_only = without(BOT_PERMISSIONS, send_messages=False)
    answer = await private_answer(harness, app_permissions=threads_only, **in_thread)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    await harness.click(answer, custom_id, app_permissions=threads_only)
    [post] = harness.messages_in(thread)
    assert post.content.startswith("Asked by <@")
    assert harness.messages_in(harness.channel) == []


# --- refusals -------------------------------------------------------------------------------


async def test_second_press_says_already_shared(harness: Harness) -> None:
    answer = await private_answer(harness)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    before = len(harness.channel_messages)
    await harness.click(answer, custom_id)
    again = await harness.click(answer, custom_id)
    assert again.callback_type == 4 and again.ephemeral
    assert shown(again.embeds, "description") == [ALREADY_TEXT]
    assert len(new_posts(harness, before)) == 1


@pytest.mark.parametrize(
    ("app", "member", "told"),
    [
        (without(BOT_PERMISSIONS, send_messages=False), MEMBER_PERMISSIONS, BOT_CANNOT_TEXT),
        (without(BOT_PERMISSIONS, embed_links=False), MEMBER_PERMISSIONS, BOT_CANNOT_TEXT),
        (without(BOT_PERMISSIONS, view_channel=False), MEMBER_PERMISSIONS, BOT_CANNOT_TEXT),
        (BOT_PERMISSIONS, without(MEMBER_PERMISSIONS, send_messages=False), YOU_CANNOT_TEXT),
    ],
)
async def test_press_refused_where_permissions_changed_since(
    harness: Harness, app: discord.Permissions, member: discord.Permissions, told: str
) -> None:
    answer = await private_answer(harness)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    before = len(harness.channel_messages)
    pressed = await harness.click(answer, custom_id, app_permissions=app, member_permissions=member)
    assert pressed.callback_type == 4 and pressed.ephemeral
    assert shown(pressed.embeds, "description") == [told]
    assert new_posts(harness, before) == []


async def test_post_refused_by_discord_is_told_and_can_be_retried(harness: Harness) -> None:
    answer = await private_answer(harness)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    before = len(harness.channel_messages)
    harness.fail_channel_sends(403, 50013, "Missing Permissions")
    refused = await harness.click(answer, custom_id)
    assert refused.callback_type == 6
    assert [f.message_body.get("flags") for f in refused.followups] == [64]  # type: ignore[union-attr]
    assert shown(refused.embeds, "description") == [POST_FAILED_TEXT]
    assert new_posts(harness, before) == []
    retried = await harness.click(answer, custom_id)  # nothing was posted: not "already shared"
    assert retried.callback_type == 6 and not retried.followups
    assert len(new_posts(harness, before)) == 1


async def test_someone_else_pressing_is_refused(harness: Harness) -> None:
    # Only the asker sees a private answer; a copy of its button elsewhere is refused anyway.
    answer = await private_answer(harness)
    custom_id = share_id(answer.message)
    assert custom_id is not None and answer.message is not None
    copied = harness.existing_message(
        embeds=answer.message.embeds, components=answer.message.components
    )
    before = len(harness.channel_messages)
    pressed = await harness.click(copied, custom_id, user=harness.user(name="someone"))
    assert pressed.callback_type == 4 and pressed.ephemeral
    assert shown(pressed.embeds, "description") == [NOT_THE_ASKER]
    assert new_posts(harness, before) == []
    # The asker still can.
    await harness.click(answer, custom_id)
    assert len(new_posts(harness, before)) == 1


async def test_press_after_a_restart_says_ask_again(harness: Harness) -> None:
    answer = await private_answer(harness)
    custom_id = share_id(answer.message)
    assert custom_id is not None
    # As after a restart: the QA cog remembers no answer to share.
    recent_answers_of(harness.bot).shares.clear()
    before = len(harness.channel_messages)
    pressed = await harness.click(answer, custom_id)
    assert pressed.callback_type == 4 and pressed.ephemeral
    assert shown(pressed.embeds, "description") == [GONE_TEXT]
    assert new_posts(harness, before) == []
    assert not [r for r in pressed.log_records if r.levelno >= 40]

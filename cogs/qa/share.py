"""The "Share in channel" button: a private answer posted publicly where it was asked,
credited to the asker without a ping.

Offered only where a public post can be made: a server channel of a server the bot is
installed in (not a DM, nor a group DM or a server where the app is only user-installed: the
bot has no seat there), where the bot may view, send (in threads: send in threads) and embed
links, and the asker may send messages. Both are checked again on the press, since
permissions change.

What is posted is what was shown privately: every page of the answer, in order, in as few
messages as Discord's limits allow (10 embeds, 6000 characters each), the first one saying
"Asked by @name" (``AllowedMentions.none()``: the mention renders, nobody is pinged), the last
one carrying the "Read a source…" menu and the "Helpful" / "Not helpful" buttons (so its
readers can vote too). Once: a second press says it was already shared. The post is recorded
like every public answer (``cogs.qa.conversations``): a reply to it continues the private
answer's conversation, whoever writes it.

The pages live in the QA cog's memory (``SHARE_MEMORY_SIZE`` answers); the button's custom_id
carries the asker and the memory key. After a restart the memory is gone and the press gets a
friendly "ask again".
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import N_, _, use_interaction_locale
from bot.render.discord_limits import message_batches
from bot.render.embeds import notice_embed
from bot.render.pager import Paginator
from bot.render.views import ReportedDynamicItem
from cogs._feedback import FeedbackButton, shown_feedback
from cogs.qa.answers import ACTIONS_ROW
from cogs.qa.conversations import continues_of, remember_shared
from cogs.qa.memory import SharedAnswer, ShareMemory, recent_answers
from cogs.qa.sources import SourceSelect, shown_source_view

if TYPE_CHECKING:
    from typing import Self

    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

SHARE_PREFIX = "qa:share"
SHARE_TEMPLATE = rf"{SHARE_PREFIX}:(?P<asker>\d{{1,20}}):(?P<key>[0-9a-f]{{16}})"
THREADS = frozenset(
    {
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    }
)
NOT_THE_ASKER = N_("Only the person who asked can share this answer.")
GONE_TITLE = N_("This answer can no longer be shared")
GONE_TEXT = N_(
    "The bot has restarted since it was given, so it cannot be posted any more. "
    "Ask again with `/ask`, then share the new answer."
)
ALREADY_TITLE = N_("Already shared")
ALREADY_TEXT = N_("This answer is already posted in the channel.")
BOT_CANNOT_TITLE = N_("I cannot post here")
BOT_CANNOT_TEXT = N_(
    "I need the permissions to send messages and embed links in this channel to share the "
    "answer. Ask a moderator, or share it in another channel."
)
YOU_CANNOT_TITLE = N_("You cannot post here")
YOU_CANNOT_TEXT = N_("You may not send messages in this channel, so the answer cannot be shared.")
POST_FAILED_TEXT = N_(
    "Discord refused the post in this channel. Check my permissions here, or share it elsewhere."
)

_Button = discord.ui.Button[discord.ui.View]


# --- where a public post is possible --------------------------------------------------------


def _in_thread(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    return getattr(interaction.channel, "type", None) in THREADS


def bot_can_post(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    """A server channel of a server the bot is installed in, where it may post embeds."""
    if interaction.guild_id is None or not interaction.context.guild:
        return False
    if not interaction.is_guild_integration():
        return False  # a user install: the app has no seat in this server
    app = interaction.app_permissions
    send = app.send_messages_in_threads if _in_thread(interaction) else app.send_messages
    return app.view_channel and app.embed_links and send


def person_may_send(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    person = interaction.permissions
    return person.send_messages_in_threads if _in_thread(interaction) else person.send_messages


def share_possible(interaction: discord.Interaction[MagisteriumBot]) -> bool:
    return bot_can_post(interaction) and person_may_send(interaction)


def offer_share(
    view: Paginator,
    *,
    asker_id: int,
    sources: SourceSelect | None,
    shares: ShareMemory,
    feedback: Sequence[FeedbackButton] = (),
) -> None:
    """Add "Share in channel" to a private answer's view, remembering what it shows in
    ``shares``: its pages, and for the last message posted its "Read a source…" menu and its
    ``feedback`` buttons."""
    menu = shown_source_view(sources) if sources is not None else discord.ui.View(timeout=None)
    for button in shown_feedback(feedback):
        menu.add_item(button)
    shared = SharedAnswer(
        asker_id, list(view.pages), menu if menu.children else None, continues_of(view)
    )
    key = shares.keep(shared)
    view.add_item(ShareButton(asker_id, key))


# --- the button -----------------------------------------------------------------------------


class ShareButton(ReportedDynamicItem[_Button], template=SHARE_TEMPLATE):
    def __init__(self, asker_id: int, key: str) -> None:
        super().__init__(
            discord.ui.Button(
                # Translators: a button under a private answer: posts it publicly in the
                # channel (at most 80 characters).
                label=_("Share in channel"),
                emoji="📣",
                custom_id=f"{SHARE_PREFIX}:{asker_id}:{key}",
                style=discord.ButtonStyle.secondary,
                row=ACTIONS_ROW,
            )
        )
        self.asker_id = asker_id
        self.key = key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["asker"]), match["key"])

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """Only the asker shares (a private answer is theirs alone; a forged or copied button
        is refused all the same)."""
        use_interaction_locale(interaction)
        if interaction.user.id == self.asker_id:
            return True
        await _tell(interaction, _("Not your answer"), _(NOT_THE_ASKER))
        return False

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await share_answer(interaction, self.key)


async def _tell(interaction: discord.Interaction[discord.Client], title: str, text: str) -> None:
    embed = notice_embed(title, text)
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _refusal(
    interaction: discord.Interaction[MagisteriumBot], entry: SharedAnswer | None
) -> tuple[str, str] | None:
    """Why the answer cannot be shared now (title, text), or None when it can."""
    if entry is None:
        return _(GONE_TITLE), _(GONE_TEXT)
    if entry.shared:
        return _(ALREADY_TITLE), _(ALREADY_TEXT)
    if not bot_can_post(interaction) or not isinstance(
        interaction.channel, discord.abc.Messageable
    ):
        return _(BOT_CANNOT_TITLE), _(BOT_CANNOT_TEXT)
    if not person_may_send(interaction):
        return _(YOU_CANNOT_TITLE), _(YOU_CANNOT_TEXT)
    return None


async def share_answer(interaction: discord.Interaction[MagisteriumBot], key: str) -> None:
    entry = recent_answers(interaction.client).shares.get(key)
    refused = _refusal(interaction, entry)
    channel = interaction.channel
    if refused is not None or entry is None or not isinstance(channel, discord.abc.Messageable):
        await _tell(interaction, *(refused or (_(GONE_TITLE), _(GONE_TEXT))))
        return
    entry.shared = True  # claimed before the first await: a double press posts once
    await interaction.response.defer()  # the public post is the reply; nothing else is shown
    posted: list[discord.Message] = []
    try:
        await _post(channel, entry, interaction.user, posted)
    except discord.HTTPException as exc:
        log.info("answer not shared: HTTP %s code %s", exc.status, exc.code)
        await _tell(interaction, _(BOT_CANNOT_TITLE), _(POST_FAILED_TEXT))
    # A reply to what was posted (even a part, when Discord refused the rest) continues it.
    client = interaction.client
    await remember_shared(client, posted, entry.continues, guild_id=interaction.guild_id)


async def _post(
    channel: discord.abc.Messageable,
    entry: SharedAnswer,
    asker: discord.abc.User,
    posted: list[discord.Message],
) -> None:
    """Post every page, adding each message to ``posted``; releases the claim when nothing at
    all could be posted."""
    batches = message_batches(entry.pages)
    # Translators: above an answer someone shared in a channel; {mention} is them.
    credit = _("Asked by {mention}").format(mention=asker.mention)
    for number, embeds in enumerate(batches):
        extra: dict[str, Any] = {"content": credit} if number == 0 else {}
        if number == len(batches) - 1 and entry.menu is not None:
            extra["view"] = entry.menu
        try:
            sent = await channel.send(
                embeds=embeds, allowed_mentions=discord.AllowedMentions.none(), **extra
            )
        except discord.HTTPException:
            if number == 0:
                entry.shared = False  # nothing was posted: the person may try again
            raise
        posted.append(sent)

"""People's daily posts (``/mydaily``), the Discord side: the DM of each post the planner finds due.

Run inside the daily tick (``cogs.daily.sender``): the same planner (due, claim, fetch,
outcome) on the person's store, joined to the servers' tick so a feed and date is fetched once
for both, and the same pace and concurrency for the sends. The message is the channel post's
(``cogs.daily.post``) in the person's language, pinging nobody.

Which process sends a person's DM when the bot runs as several (``SHARD_IDS``): the one running
the shard ``(user id >> 22) % shard count`` (``bot.daily.personal.shard_of_user``), the formula
Discord uses for servers. Every person has exactly one such process, DMs spread over the
processes as servers do (each paces its share of the bot's rate), and no process reads or
races for claims that are another's; the claim still makes any overlap (a shard moved during
a redeploy) post once.

Closed DMs (Discord's 50007) pause the schedule with the reason ``/mydaily status`` shows; it
stays paused until the person runs ``/mydaily set`` again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.daily import Feed
from bot.daily.pace import Pace
from bot.daily.personal import DM_REFUSED, DMS_CLOSED, PersonalSchedule, shard_of_user
from bot.daily.personal_store import PersonalScheduleStore
from bot.daily.planner import Content, DailyPlanner, Outcome, SchedulerConfig, Tick
from bot.i18n import using_locale
from cogs.daily.personal_upstream import PersonalUpstream
from cogs.daily.post import DailyPost, build_post
from cogs.daily.reasons import NOT_TAKEN

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

CANNOT_SEND_TO_USER = 50007
_HISTORY_LOOKBACK = 25
DMChannel = discord.DMChannel | discord.PartialMessageable


@dataclass
class DueDM:
    schedule: PersonalSchedule
    day: dt.date


def dm_nonce_of(user_id: int, feed: Feed, day: dt.date) -> int:
    """The Discord nonce of one person's DM for one date (see ``cogs.daily.post.nonce_of``)."""
    digest = hashlib.sha256(f"mydaily:{user_id}:{feed.value}:{day.isoformat()}".encode())
    return int.from_bytes(digest.digest()[:8], "big") >> 1


def dm_outcome(error: Exception) -> tuple[Outcome, str]:
    """What a failed DM means for the schedule, and the reason recorded."""
    if isinstance(error, discord.Forbidden):
        if error.code == CANNOT_SEND_TO_USER:
            return Outcome.PAUSED, DMS_CLOSED
        return Outcome.PAUSED, DM_REFUSED.format(code=error.code)
    return Outcome.FAILED, NOT_TAKEN.format(status=getattr(error, "status", None))


class PersonalPosts:
    def __init__(
        self,
        bot: MagisteriumBot,
        store: PersonalScheduleStore,
        *,
        config: SchedulerConfig,
        claimant: str | None = None,
    ) -> None:
        self.bot = bot
        self.store = store
        self.planner = DailyPlanner(
            store, PersonalUpstream(bot), config=config, claimant=claimant, serves=self.serves
        )

    def serves(self, schedule: PersonalSchedule) -> bool:
        """Whether this process sends ``schedule``'s DMs (see the module's note)."""
        shard_ids, shard_count = self.bot.shard_ids, self.bot.shard_count
        if shard_ids is None or not shard_count:
            return True  # one process runs every shard
        return shard_of_user(schedule.user_id, shard_count) in shard_ids

    async def due(self, tick: Tick[PersonalSchedule]) -> list[DueDM]:
        found = []
        for schedule in tick.schedules:
            day = await tick.due(schedule)
            if day is not None:
                found.append(DueDM(schedule, day))
        return found

    async def send(
        self, tick: Tick[PersonalSchedule], post: DueDM, content: Content, pace: Pace
    ) -> None:
        schedule, day = post.schedule, post.day
        claimed = await tick.claim(schedule, day)
        if claimed is None:
            return
        with using_locale(schedule.locale):
            message = build_post(schedule.feed, day, content, role=None)
        try:
            channel = await self._channel(schedule, pace)
            if claimed == "taken_over" and await self._went_out(tick, post, channel, message):
                return
            await pace.turn()
            sent = await channel.send(
                embeds=message.embeds,
                view=message.view or discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=dm_nonce_of(schedule.user_id, schedule.feed, day),
            )
        except (discord.HTTPException, OSError, TimeoutError) as error:
            if isinstance(error, discord.NotFound):  # the DM channel went: open a new one
                await self.store.remember_dm_channel(schedule.user_id, None)
            outcome, reason = dm_outcome(error)
            await tick.not_sent(schedule, day, outcome, reason)
            return
        await tick.posted(schedule, day, sent.id)

    async def _channel(self, schedule: PersonalSchedule, pace: Pace) -> DMChannel:
        """The person's DM with the bot: known from an earlier post (no request), else opened
        (a request of its own, paced like a post) and remembered."""
        if schedule.dm_channel_id is not None:
            cached = self.bot.get_channel(schedule.dm_channel_id)
            if isinstance(cached, discord.DMChannel):
                return cached
            return self.bot.get_partial_messageable(
                schedule.dm_channel_id, type=discord.ChannelType.private
            )
        await pace.turn()
        channel = await self.bot.create_dm(discord.Object(schedule.user_id))
        await self.store.remember_dm_channel(schedule.user_id, channel.id)
        return channel

    async def _went_out(
        self, tick: Tick[PersonalSchedule], post: DueDM, channel: DMChannel, message: DailyPost
    ) -> bool:
        """Whether a dead claimant's DM is in the conversation already (then it is recorded)."""
        earlier = await self._already_sent(channel, message)
        if earlier is None:
            return False
        schedule = post.schedule
        log.info("daily %s of %s: the dead claimant's DM went out", schedule.feed, schedule.where)
        await tick.posted(schedule, post.day, earlier.id, sent_earlier=True)
        return True

    async def _already_sent(self, channel: DMChannel, post: DailyPost) -> discord.Message | None:
        """The bot's recent DM carrying this post: Discord's nonce check covers only a few
        minutes, so look."""
        me = self.bot.user
        if me is None or not post.embeds:
            return None
        title = post.embeds[0].title
        try:
            async for message in channel.history(limit=_HISTORY_LOOKBACK):
                mine = message.author.id == me.id
                if mine and message.embeds and message.embeds[0].title == title:
                    return message
        except discord.HTTPException as error:
            log.info(
                "could not read the DM history of channel %s: HTTP %s", channel.id, error.status
            )
        return None

"""Daily posts, the Discord side: one ``tick(now)`` sends every post the planner finds due.

The decisions (due, claim, fetch, outcome) are ``bot.daily.planner``'s. What needs Discord is
here: which servers this process serves, the channel and the bot's permissions there, the
message (``cogs.daily.post``), the send, and what Discord's errors mean for the schedule.
Sends run with bounded concurrency, started at a pace under Discord's global rate limit
(``bot.daily.pace``: this process's share of it); nothing a tick meets is raised to its caller:
every failure ends in the schedule's record (``/daily status``) and the log.

People's daily DMs (``/mydaily``, ``cogs.daily.personal_sender``) go out in the same tick, on
the same pace and concurrency, from the same fetch of each feed and date.

Languages: the day's content is fetched once, and each server's post is rendered in its own
language (the schedule's choice, or the server's preferred locale). Reasons are recorded in
English and translated when ``/daily status`` shows them (``cogs.daily.reasons``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.daily import Schedule, ScheduleStore
from bot.daily.pace import Pace, process_share
from bot.daily.personal import PersonalSchedule
from bot.daily.planner import (
    Content,
    DailyPlanner,
    Outcome,
    SchedulerConfig,
    Tick,
    TickReport,
    by_feed_and_day,
)
from bot.i18n import using_locale
from cogs.daily.checks import PostChannel, missing_permissions, missing_reason
from cogs.daily.personal_sender import DueDM, PersonalPosts
from cogs.daily.post import DailyPost, build_post, nonce_of, post_locale
from cogs.daily.reasons import CHANNEL_GONE, NOT_TAKEN, REFUSED, ROLE_GONE
from cogs.daily.upstream import ServicesUpstream

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

# Messages searched for a post a dead process may have sent before it could record it.
_HISTORY_LOOKBACK = 25


@dataclass
class DuePost:
    schedule: Schedule
    day: dt.date
    channel: PostChannel
    guild: discord.Guild


class DailySender:
    def __init__(
        self,
        bot: MagisteriumBot,
        store: ScheduleStore,
        *,
        config: SchedulerConfig | None = None,
        claimant: str | None = None,
    ) -> None:
        self.bot = bot
        upstream = ServicesUpstream(bot)
        self._store = store
        self.planner = DailyPlanner(store, upstream, config=config, claimant=claimant)
        self.personal = PersonalPosts(
            bot,
            bot.services.personal_schedules,
            config=self.planner.config,
            claimant=self.planner.claimant,
        )
        # One pace for every tick of this process: a tick that runs into the next keeps it.
        self.pace = Pace(self.planner.config.posts_per_second)

    @property
    def store(self) -> ScheduleStore:
        return self._store

    async def tick(self, now: dt.datetime) -> TickReport:
        tick = await self.planner.begin(now)
        personal = await self.personal.planner.begin(now, joining=tick)
        due: list[DuePost] = []
        for schedule in tick.schedules:
            post = await self._check(tick, schedule)
            if post is not None:
                due.append(post)
        dms = await self.personal.due(personal)
        tick.report.due = len(due) + len(dms)
        config = self.planner.config
        # Read at each tick: the shard count is known once connected (and the config may change).
        self.pace.per_second = config.posts_per_second * process_share(
            self.bot.shard_ids, self.bot.shard_count
        )
        limit = asyncio.Semaphore(config.concurrency)
        async with asyncio.TaskGroup() as sending:
            for (feed, day), posts in by_feed_and_day(due).items():
                content, ready = await tick.fetch(feed, day, posts)
                if content is None:
                    continue
                for post in ready:
                    sending.create_task(self._send_guarded(tick, post, content, limit))
            # After the servers': a feed and date they fetched is not fetched again.
            for (feed, day), dm_posts in by_feed_and_day(dms).items():
                content, dm_ready = await personal.fetch(feed, day, dm_posts)
                if content is None:
                    continue
                for dm in dm_ready:
                    sending.create_task(self._send_dm_guarded(personal, dm, content, limit))
        report = tick.report
        self.bot.metrics.daily_tick(sent=report.posted, failed=report.failed, delays=report.delays)
        await self.personal.planner.prune(personal)
        return await self.planner.end(tick)

    async def _send_dm_guarded(
        self,
        tick: Tick[PersonalSchedule],
        post: DueDM,
        content: Content,
        limit: asyncio.Semaphore,
    ) -> None:
        async with limit:
            try:
                await self.personal.send(tick, post, content, self.pace)
            except Exception:  # one person's failure never stops the others, nor the loop
                log.exception("daily %s for %s failed", post.schedule.feed, post.schedule.where)
                tick.report.errors.append(f"{post.schedule.user_id}: unexpected error")

    async def _check(self, tick: Tick[Schedule], schedule: Schedule) -> DuePost | None:
        """The post to send for ``schedule``, if it is due and its channel can take it."""
        guild = self.bot.get_guild(schedule.guild_id)
        if guild is None or guild.unavailable:
            return None  # another process's shard, or a server outage: not ours to judge
        day = await tick.due(schedule)
        if day is None:
            return None
        channel = guild.get_channel_or_thread(schedule.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            await tick.disable(schedule, CHANNEL_GONE)
            return None
        missing = missing_permissions(channel, guild.me)
        if missing:
            await tick.disable(schedule, missing_reason(channel, missing))
            return None
        return DuePost(schedule, day, channel, guild)

    async def _send_guarded(
        self, tick: Tick[Schedule], post: DuePost, content: Content, limit: asyncio.Semaphore
    ) -> None:
        async with limit:
            try:
                await self._send(tick, post, content)
            except Exception:  # one server's failure never stops the others, nor the loop
                log.exception(
                    "daily %s for guild %s failed", post.schedule.feed, post.schedule.guild_id
                )
                tick.report.errors.append(f"{post.schedule.guild_id}: unexpected error")

    async def _send(self, tick: Tick[Schedule], post: DuePost, content: Content) -> None:
        schedule, day = post.schedule, post.day
        claimed = await tick.claim(schedule, day)
        if claimed is None:
            return
        role = post.guild.get_role(schedule.role_id) if schedule.role_id else None
        with using_locale(post_locale(schedule, post.guild)):
            message = build_post(schedule.feed, day, content, role=role)
        if claimed == "taken_over" and await _went_out(tick, post, message):
            return
        await self.pace.turn()
        try:
            sent = await post.channel.send(
                content=message.content,
                embeds=message.embeds,
                view=message.view or discord.utils.MISSING,
                allowed_mentions=message.allowed_mentions,
                nonce=nonce_of(schedule.guild_id, schedule.feed, day),
            )
        except (discord.HTTPException, OSError, TimeoutError) as error:
            outcome, reason = outcome_of(error, post.channel)
            await tick.not_sent(schedule, day, outcome, reason)
            return
        await tick.posted(schedule, day, sent.id)
        if schedule.role_id and role is None:
            await tick.note(schedule, ROLE_GONE)


def outcome_of(error: Exception, channel: PostChannel) -> tuple[Outcome, str]:
    """What a failed send means for the schedule, and the reason recorded."""
    if isinstance(error, discord.NotFound):
        return Outcome.DISABLED, CHANNEL_GONE
    if isinstance(error, discord.Forbidden):
        return Outcome.DISABLED, REFUSED.format(channel=channel.mention, code=error.code)
    return Outcome.FAILED, NOT_TAKEN.format(status=getattr(error, "status", None))


async def _went_out(tick: Tick[Schedule], post: DuePost, message: DailyPost) -> bool:
    """Whether the dead claimant's post is in the channel already (then it is recorded)."""
    earlier = await _already_sent(post.channel, message)
    if earlier is None:
        return False
    schedule = post.schedule
    log.info(
        "daily %s of guild %s: the dead claimant's post went out", schedule.feed, schedule.guild_id
    )
    await tick.posted(schedule, post.day, earlier.id, sent_earlier=True)
    return True


async def _already_sent(channel: PostChannel, post: DailyPost) -> discord.Message | None:
    """The bot's recent message carrying this post, if the process that claimed it before
    sent it and died before recording it. Discord's nonce check covers only a few minutes, so
    look; without Read Message History, the nonce is all there is."""
    me = channel.guild.me
    if not channel.permissions_for(me).read_message_history or not post.embeds:
        return None
    title = post.embeds[0].title
    try:
        async for message in channel.history(limit=_HISTORY_LOOKBACK):
            if message.author.id == me.id and message.embeds and message.embeds[0].title == title:
                return message
    except discord.HTTPException as error:
        log.info("could not read the history of channel %s: HTTP %s", channel.id, error.status)
    return None

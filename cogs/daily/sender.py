"""The daily-post scheduler: one ``tick(now)`` a minute posts every schedule that is due.

A tick: read the live schedules; keep those whose guild this process serves, whose local slot
is due (see ``bot.daily.clock``) and not yet posted; pause or disable those whose token or
channel cannot work, saying why; fetch each feed and date once, whatever the number of
servers; then, with bounded concurrency, claim each (schedule, local date) atomically in the
database and send. Nothing a tick meets is raised to its caller: every failure ends in the
schedule's record (``/daily status``) and the log.

Languages: the day's content is fetched once, and each server's post is rendered in its own
language (the schedule's choice, or the server's preferred locale). Reasons are recorded in
English and translated when ``/daily status`` shows them (``cogs.daily.reasons``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import socket
import uuid
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.a2a import errors
from bot.app.user_errors import message_for
from bot.daily import Feed, Schedule, ScheduleStatus, ScheduleStore, due_date
from bot.daily.clock import DEFAULT_GRACE, backoff
from bot.i18n import DEFAULT_LOCALE, using_locale
from bot.services.tokens import (
    OWNER_NOT_LINKED,
    OWNER_REFUSED,
    SHARED_ACCOUNT_GONE,
    ChosenToken,
    LinkedTokenInvalid,
    ScheduleTokenUnavailable,
)
from cogs.daily.checks import missing_permissions, missing_reason
from cogs.daily.post import Content, DailyPost, build_post, nonce_of, post_locale
from cogs.daily.reasons import CHANNEL_GONE, FAILED, NOT_TAKEN, REFUSED, ROLE_GONE, UNREACHABLE

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

log = logging.getLogger(__name__)

# Token reasons a schedule pauses for; it resumes by itself once the token works again.
TOKEN_REASONS = frozenset({OWNER_NOT_LINKED, OWNER_REFUSED, SHARED_ACCOUNT_GONE})
# Claims of older dates can never be due again (grace < 1 day); pruned once an hour.
_CLAIM_RETENTION = dt.timedelta(days=3)
_PRUNE_EVERY = dt.timedelta(hours=1)
# Messages searched for a post a dead process may have sent before it could record it.
_HISTORY_LOOKBACK = 25


@dataclass(frozen=True)
class SchedulerConfig:
    grace: dt.timedelta = DEFAULT_GRACE
    concurrency: int = 8  # sends in flight at once; discord.py queues per-route rate limits
    lease: dt.timedelta = dt.timedelta(minutes=5)  # after this, a "sending" claim is stale


@dataclass
class TickReport:
    """What one tick did, for logs, tests and the benchmark."""

    due: int = 0
    posted: int = 0
    failed: int = 0  # transient: retried on a later tick inside the grace window
    paused: int = 0
    disabled: int = 0
    already_claimed: int = 0
    fetches: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class DuePost:
    schedule: Schedule
    day: dt.date
    channel: discord.TextChannel | discord.Thread
    guild: discord.Guild


def new_claimant() -> str:
    """Who holds a claim: readable in the database, unique per scheduler instance."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class DailyScheduler:
    def __init__(
        self,
        bot: MagisteriumBot,
        store: ScheduleStore,
        *,
        config: SchedulerConfig | None = None,
        claimant: str | None = None,
    ) -> None:
        self.bot = bot
        self.store = store
        self.config = config or SchedulerConfig()
        self.claimant = claimant or new_claimant()
        self._pruned_at: dt.datetime | None = None

    async def tick(self, now: dt.datetime) -> TickReport:
        if now.tzinfo is None or now.utcoffset() is None:
            raise ValueError("tick(now) needs an aware datetime")
        report = TickReport()
        services = self.bot.services
        schedules = await self.store.live()
        owners = {s.owner_id for s in schedules if not s.on_shared_token and s.owner_id}
        statuses = await services.registry.statuses(owners)
        due: list[DuePost] = []
        for schedule in schedules:
            post = await self._check(schedule, now, statuses, report)
            if post is not None:
                due.append(post)
        report.due = len(due)
        groups: dict[tuple[Feed, dt.date], list[DuePost]] = defaultdict(list)
        for post in due:
            groups[(post.schedule.feed, post.day)].append(post)
        limit = asyncio.Semaphore(self.config.concurrency)
        async with asyncio.TaskGroup() as sending:
            for (feed, day), posts in groups.items():
                content, ready = await self._fetch(feed, day, posts, now, report)
                if content is None:
                    continue
                for post in ready:
                    sending.create_task(self._send_guarded(post, content, now, limit, report))
        self.bot.metrics.daily_tick(sent=report.posted, failed=report.failed)
        await self._prune(now)
        if report.due:
            log.info(
                "daily tick: %d due, %d posted, %d failed, %d fetches",
                report.due,
                report.posted,
                report.failed,
                report.fetches,
            )
        return report

    # -- which schedules are due

    async def _check(
        self,
        schedule: Schedule,
        now: dt.datetime,
        statuses: Mapping[int, str],
        report: TickReport,
    ) -> DuePost | None:
        guild = self.bot.get_guild(schedule.guild_id)
        if guild is None or guild.unavailable:
            return None  # another process's shard, or a server outage: not ours to judge
        token_problem = self._token_problem(schedule, statuses)
        if schedule.status is ScheduleStatus.PAUSED:
            if schedule.status_reason not in TOKEN_REASONS or token_problem is not None:
                return None
            await self.store.set_status(
                schedule.guild_id, schedule.feed, ScheduleStatus.ACTIVE, None, now=now
            )
            log.info("daily %s of guild %s resumed", schedule.feed, schedule.guild_id)
        day = due_date(schedule, now, grace=self.config.grace)
        if day is None:
            return None
        if schedule.last_posted_date is not None and schedule.last_posted_date >= day:
            return None
        if schedule.retry_at is not None and now < schedule.retry_at:
            return None
        if token_problem is not None:
            await self._pause(schedule, token_problem, now, report)
            return None
        channel = guild.get_channel_or_thread(schedule.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            await self._disable(schedule, CHANNEL_GONE, now, report)
            return None
        missing = missing_permissions(channel, guild.me)
        if missing:
            await self._disable(schedule, missing_reason(channel, missing), now, report)
            return None
        return DuePost(schedule, day, channel, guild)

    def _token_problem(self, schedule: Schedule, statuses: Mapping[int, str]) -> str | None:
        if schedule.on_shared_token:
            chooser = self.bot.services.chooser
            return None if chooser.has_shared_token else SHARED_ACCOUNT_GONE
        status = statuses.get(schedule.owner_id) if schedule.owner_id else None
        if status is None:
            return OWNER_NOT_LINKED
        return OWNER_REFUSED if status == "invalid" else None

    # -- one fetch per feed and date

    async def _fetch(
        self,
        feed: Feed,
        day: dt.date,
        posts: list[DuePost],
        now: dt.datetime,
        report: TickReport,
    ) -> tuple[Content | None, list[DuePost]]:
        """The day's content, fetched with the first schedule's token that works; and the
        posts still to send (those whose token was refused are paused, not sent)."""
        chooser = self.bot.services.chooser
        refused: set[tuple[str, int | None]] = set()
        ready = list(posts)
        for post in posts:
            schedule = post.schedule
            who = (schedule.token_source, schedule.owner_id)
            if who in refused:
                continue
            try:
                token = await chooser.for_schedule(schedule.owner_id, schedule.token_source)
                report.fetches += 1
                content = await self._call(feed, day, schedule.owner_id or 0, token)
            except (ScheduleTokenUnavailable, LinkedTokenInvalid) as error:
                reason = (
                    error.reason if isinstance(error, ScheduleTokenUnavailable) else OWNER_REFUSED
                )
                refused.add(who)
                for other in [
                    p for p in ready if (p.schedule.token_source, p.schedule.owner_id) == who
                ]:
                    ready.remove(other)
                    await self._pause(other.schedule, reason, now, report)
                continue
            except Exception as error:
                await self._fetch_failed(feed, day, ready, error=error, now=now, report=report)
                return None, []
            return content, ready
        return None, []

    async def _call(self, feed: Feed, day: dt.date, user_id: int, token: ChosenToken) -> Content:
        magisterium = self.bot.services.magisterium
        if feed is Feed.SAINTS:
            return await magisterium.saints(user_id, day, token=token)
        return await magisterium.readings(user_id, day, token=token)

    async def _fetch_failed(
        self,
        feed: Feed,
        day: dt.date,
        posts: list[DuePost],
        *,
        error: Exception,
        now: dt.datetime,
        report: TickReport,
    ) -> None:
        with using_locale(DEFAULT_LOCALE):  # recorded in English, translated where shown
            known = message_for(error)
        if known is None:
            log.error("daily %s for %s: unexpected error", feed, day, exc_info=error)
            text = UNREACHABLE
        else:
            log.warning("daily %s for %s: %s", feed, day, type(error).__name__)
            text = FAILED.format(title=known.title, text=known.text)
        if isinstance(error, errors.Unauthorized):
            log.error("daily posts: the operator's MAGISTERIUM_TOKEN was refused (401)")
        for post in posts:
            await self._failed(post.schedule, text, now, report)

    # -- claim, send, record

    async def _send_guarded(
        self,
        post: DuePost,
        content: Content,
        now: dt.datetime,
        limit: asyncio.Semaphore,
        report: TickReport,
    ) -> None:
        async with limit:
            try:
                await self._send(post, content, now, report)
            except Exception:  # one server's failure never stops the others, nor the loop
                log.exception(
                    "daily %s for guild %s failed", post.schedule.feed, post.schedule.guild_id
                )
                report.errors.append(f"{post.schedule.guild_id}: unexpected error")

    async def _send(
        self, post: DuePost, content: Content, now: dt.datetime, report: TickReport
    ) -> None:
        schedule, day = post.schedule, post.day
        claimed = await self.store.claim_or_take_over(
            schedule, day, claimant=self.claimant, now=now, lease=self.config.lease
        )
        if claimed is None:
            report.already_claimed += 1
            return
        role = post.guild.get_role(schedule.role_id) if schedule.role_id else None
        with using_locale(post_locale(schedule, post.guild)):
            message = build_post(schedule.feed, day, content, role=role)
        if claimed == "taken_over":
            earlier = await _already_sent(post.channel, message)
            if earlier is not None:
                log.info(
                    "daily %s of guild %s: the dead claimant's post went out",
                    schedule.feed,
                    schedule.guild_id,
                )
                await self.store.posted(
                    schedule, day, claimant=self.claimant, message_id=earlier.id, now=now
                )
                report.posted += 1
                return
        try:
            sent = await post.channel.send(
                content=message.content,
                embeds=message.embeds,
                view=message.view or discord.utils.MISSING,
                allowed_mentions=message.allowed_mentions,
                nonce=nonce_of(schedule.guild_id, schedule.feed, day),
            )
        except discord.NotFound:
            await self.store.release(schedule, day, claimant=self.claimant)
            await self._disable(schedule, CHANNEL_GONE, now, report)
            return
        except discord.Forbidden as error:
            await self.store.release(schedule, day, claimant=self.claimant)
            reason = REFUSED.format(channel=post.channel.mention, code=error.code)
            await self._disable(schedule, reason, now, report)
            return
        except (discord.HTTPException, OSError, TimeoutError) as error:
            await self.store.release(schedule, day, claimant=self.claimant)
            status = getattr(error, "status", None)
            await self._failed(schedule, NOT_TAKEN.format(status=status), now, report)
            return
        await self.store.posted(schedule, day, claimant=self.claimant, message_id=sent.id, now=now)
        report.posted += 1
        if schedule.role_id and role is None:
            await self.store.note(schedule, ROLE_GONE, now=now)

    async def _pause(
        self, schedule: Schedule, reason: str, now: dt.datetime, report: TickReport
    ) -> None:
        report.paused += 1
        log.info("daily %s of guild %s paused: token unusable", schedule.feed, schedule.guild_id)
        await self.store.set_status(
            schedule.guild_id, schedule.feed, ScheduleStatus.PAUSED, reason, now=now
        )

    async def _disable(
        self, schedule: Schedule, reason: str, now: dt.datetime, report: TickReport
    ) -> None:
        report.disabled += 1
        log.info("daily %s of guild %s disabled: %s", schedule.feed, schedule.guild_id, reason)
        await self.store.set_status(
            schedule.guild_id, schedule.feed, ScheduleStatus.DISABLED, reason, now=now
        )

    async def _failed(
        self, schedule: Schedule, error: str, now: dt.datetime, report: TickReport
    ) -> None:
        report.failed += 1
        report.errors.append(f"{schedule.guild_id}: {error}")
        retry_at = now + backoff(schedule.failures + 1)
        await self.store.record_failure(schedule, error, now=now, retry_at=retry_at)

    async def _prune(self, now: dt.datetime) -> None:
        if self._pruned_at is not None and now - self._pruned_at < _PRUNE_EVERY:
            return
        self._pruned_at = now
        await self.store.prune_claims((now - _CLAIM_RETENTION).date())


async def _already_sent(
    channel: discord.TextChannel | discord.Thread, post: DailyPost
) -> discord.Message | None:
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

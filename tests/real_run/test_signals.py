"""Signals on the real run path: ``python -m bot run`` as a child process on the stand-in.

- SIGTERM with 20 answers in flight: the bot drains (new interactions and DMs are told
  "Restarting", privately), every answer in flight is delivered within
  ``SHUTDOWN_GRACE_SECONDS``, and the process exits 0.
- SIGKILL during a daily post, then a restart on the same database and Discord: the post is in
  the channel exactly once and the schedule records the message that went out, whether the
  killed send reached Discord or not, and with or without Read Message History (without it,
  only the nonce with ``enforce_nonce`` stops a second message).

Waiting: on the stand-in, the upstream and the lines of the bot's log, never on the clock; what
the bot wrote to its database is read once it has exited.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import discord
import pytest
from aiohttp import web
from pydantic import SecretStr
from sqlalchemy import select, update

from bot.accounts import TokenCipher, TokenRegistry
from bot.app.lifecycle import restarting_notice
from bot.daily import Feed, ScheduleStore
from bot.daily.planner import SchedulerConfig
from bot.storage import Database
from bot.storage.models import DailyClaimRow
from devtools.discord.wire import BOT_PERMISSIONS, EPHEMERAL, JSON, MEMBER_PERMISSIONS
from devtools.discord_standin import StandIn
from devtools.discord_standin.rest import LOST
from devtools.discord_standin.server import Delivered
from devtools.discord_standin.world import Channel, Guild
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer, running_fake_server
from devtools.fake_magisterium.agent_card import A2A_PATH
from tests.support.held_upstream import Handler, running_fake_server_with
from tests.support.real_run import (
    KEY,
    START_TIMEOUT,
    BotProcess,
    bot_env,
    embed_titles,
    running_bot,
    seed_daily_post,
)

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

T = TypeVar("T")
IN_FLIGHT = 20
GRACE_SECONDS = 20.0
# What closing takes after the last answer: the gateway, the services, the interpreter's exit.
EXIT_MARGIN_SECONDS = 10.0
LEASE = SchedulerConfig().lease


def assert_clean(standin: StandIn, *bots: BotProcess, secrets: tuple[str, ...] = ()) -> None:
    for bot in bots:
        log = bot.log()
        assert "Traceback" not in log, log
        for secret in (standin.token, *secrets):
            assert secret not in log, f"a secret is in the log of {bot.log_path.name}"
    assert standin.rest.problems == []
    assert standin.double_acknowledgements() == []


# --- SIGTERM with answers in flight ----------------------------------------------------------


class HeldDoor:
    """The upstream's door: every A2A request waits there until :meth:`open`; the tokens of
    those waiting are known, and a test can wait until ``n`` are."""

    def __init__(self) -> None:
        self.tokens: list[str] = []
        self._opened = asyncio.Event()
        self._arrival = asyncio.Event()

    def open(self) -> None:
        self._opened.set()

    async def until_held(self, count: int, *, timeout: float) -> None:  # noqa: ASYNC109
        try:
            async with asyncio.timeout(timeout):
                while len(self.tokens) < count:
                    self._arrival.clear()
                    await self._arrival.wait()
        except TimeoutError:
            raise AssertionError(
                f"after {timeout} s, {len(self.tokens)} upstream requests held, not {count}"
            ) from None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method == "POST" and request.path == A2A_PATH and not self._opened.is_set():
            self.tokens.append(request.headers.get("Authorization", "").removeprefix("Bearer "))
            self._arrival.set()
            await self._opened.wait()
        return await handler(request)


def deferred(delivered: Delivered) -> bool:
    return any(r.callback_type == 5 for r in delivered.session.requests)


def answered_at_once(delivered: Delivered) -> JSON | None:
    """The message body of the interaction's first and only callback, if it was a message."""
    callbacks = [r for r in delivered.session.requests if r.kind == "callback"]
    if len(callbacks) != 1 or callbacks[0].callback_type != 4:
        return None
    return callbacks[0].message_body


async def link_tokens(database_url: str, user_ids: list[int]) -> list[str]:
    """Each person links a Magisterium token of their own (as /account link stores it)."""
    tokens = [f"pro-linked-{i:02d}-of-{user_id}" for i, user_id in enumerate(user_ids)]
    async with Database(database_url) as db:
        await db.migrate()
        registry = TokenRegistry(db, TokenCipher.from_setting(KEY))
        for user_id, token in zip(user_ids, tokens, strict=True):
            await registry.link(user_id, SecretStr(token))
    return tokens


async def test_sigterm_delivers_every_answer_in_flight_and_turns_new_work_away(
    standin: StandIn, tmp_path: Path
) -> None:
    parish = standin.world.add_guild("St Anne's Parish")
    general = parish.channels[0]
    people = [standin.world.add_person(f"parishioner{i}") for i in range(IN_FLIGHT)]
    latecomer = standin.world.add_person("latecomer")
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    # 20 answers at once within Magisterium's per-token limits (15 a minute, 2 catholic_qa a
    # minute, 4 in flight): 20 people with a linked token each, the bot's and the fake's
    # limits left at their production defaults, so the 20 are in flight together.
    tokens = await link_tokens(database_url, [p.id for p in people])
    door = HeldDoor()

    async with (
        running_fake_server_with(FakeMagisterium(), door.middleware) as upstream,
        asyncio.timeout(START_TIMEOUT + 120),
    ):
        env = bot_env(
            standin, upstream.url, database_url, SHUTDOWN_GRACE_SECONDS=str(GRACE_SECONDS)
        )
        async with running_bot(env, tmp_path) as bot:
            await standin.connected({0}, timeout=START_TIMEOUT)
            questions = [
                f"Question {i}: what does the Church teach on grace?" for i in range(IN_FLIGHT)
            ]
            asked = [
                await standin.slash(person, general, "ask", question=question)
                for person, question in zip(people, questions, strict=True)
            ]
            await standin.until(
                lambda: all(deferred(d) for d in asked), timeout=30, what="20 deferrals"
            )
            await door.until_held(IN_FLIGHT, timeout=30)
            assert sorted(door.tokens) == sorted(tokens), "each answer waits on its own token"
            assert all(standin.answer(d) is None for d in asked), "nothing answered yet"

            signalled = time.monotonic()
            bot.process.send_signal(signal.SIGTERM)
            draining = await bot.logged(r"draining (\d+) in-flight", timeout=10)
            assert int(draining.group(1)) >= IN_FLIGHT, draining.group(0)

            # While it drains: a new command and a new DM are turned away, privately.
            late = await standin.slash(latecomer, general, "ask", question="Am I too late?")
            notice = await standin.until(
                lambda: answered_at_once(late), timeout=10, what="the restarting notice"
            )
            expected = restarting_notice()
            assert int(notice.get("flags") or 0) & EPHEMERAL, notice
            assert [(e.get("title"), e.get("description")) for e in notice["embeds"]] == [
                (expected.title, expected.description)
            ]
            dm = await standin.dm(latecomer, "What is baptism?")
            dm_reply = (await standin.replies_in(dm, 1, timeout=10))[0]
            assert embed_titles([dm_reply]) == [expected.title]
            assert all(standin.answer(d) is None for d in asked), "still none answered"

            door.open()
            answers = [await standin.answered(d, timeout=GRACE_SECONDS) for d in asked]
            status = await bot.exited(timeout=GRACE_SECONDS + EXIT_MARGIN_SECONDS)
            shutdown = time.monotonic() - signalled

        fake = upstream.fake
        asked_upstream = [r for r in fake.requests if r.skill == "catholic_qa"]

    print(f"SIGTERM to exit: {shutdown:.2f} s (grace {GRACE_SECONDS:g} s)")
    assert status == 0
    assert shutdown < GRACE_SECONDS + EXIT_MARGIN_SECONDS
    for question, answer in zip(questions, answers, strict=True):
        assert embed_titles(answer)[0] == question
        assert not any(m.ephemeral for m in answer), "answers are public, as deferred"
    assert sorted(r.token or "" for r in asked_upstream) == sorted(tokens)
    assert all(r.http_status == 200 and r.error_code is None for r in asked_upstream)
    assert len(standin.delivered) == IN_FLIGHT + 1
    log = bot.log()
    assert "still running after the grace period" not in log
    assert "shut down" in log
    assert_clean(standin, bot, secrets=tuple(tokens))


# --- SIGKILL during a daily post ----------------------------------------------------------


@asynccontextmanager
async def daily_world(
    standin: StandIn,
    *,
    bot_permissions: discord.Permissions = BOT_PERMISSIONS,
    everyone: discord.Permissions = MEMBER_PERMISSIONS,
) -> AsyncIterator[tuple[Guild, Channel, RunningFakeServer]]:
    parish = standin.world.add_guild(
        "St Anne's Parish", bot_permissions=bot_permissions, everyone_permissions=everyone
    )
    async with running_fake_server(FakeMagisterium()) as upstream:
        yield parish, parish.channels[0], upstream


async def claims_of(database_url: str, guild_id: int) -> list[DailyClaimRow]:
    async with Database(database_url) as db, db.session() as session:
        statement = select(DailyClaimRow).where(DailyClaimRow.guild_id == guild_id)
        return list(await session.scalars(statement))


async def age_claims(database_url: str, guild_id: int) -> None:
    """What the lease running out looks like in the database: the dead process's claim taken
    ``lease`` and a minute earlier (rather than waiting three real minutes)."""
    async with Database(database_url) as db, db.session() as session:
        for claim in await session.scalars(
            select(DailyClaimRow).where(DailyClaimRow.guild_id == guild_id)
        ):
            await session.execute(
                update(DailyClaimRow)
                .where(
                    DailyClaimRow.guild_id == claim.guild_id,
                    DailyClaimRow.feed == claim.feed,
                    DailyClaimRow.local_date == claim.local_date,
                )
                .values(claimed_at=claim.claimed_at - LEASE - dt.timedelta(minutes=1))
            )


async def recorded_post(database_url: str, guild_id: int) -> int | None:
    """The message id the schedule records as posted, once both records say posted."""
    async with Database(database_url) as db:
        schedule = await ScheduleStore(db).get(guild_id, Feed.SAINTS)
    claims = await claims_of(database_url, guild_id)
    if schedule is None or schedule.last_message_id is None:
        return None
    if [c.state for c in claims] != ["posted"] or claims[0].message_id != schedule.last_message_id:
        return None
    return schedule.last_message_id


def channel_posts(standin: StandIn, channel: Channel) -> list[str]:
    """The status of each POST of a message to ``channel``, in order."""
    return [
        f"{r.status}"
        for r in standin.rest.requests
        if r.kind == "channel_message" and r.method == "POST" and str(channel.id) in r.path
    ]


def history_reads(standin: StandIn, channel: Channel) -> int:
    return sum(
        1
        for r in standin.rest.requests
        if r.kind == "channel_history" and str(channel.id) in r.path
    )


async def kill_mid_post(
    standin: StandIn,
    env: dict[str, str],
    tmp_path: Path,
    database_url: str,
    guild: Guild,
    *,
    went_out: bool,
) -> BotProcess:
    """Start a bot, hold its daily post's send (acted on or not), SIGKILL it there, let the
    send go, and age the claim it left behind; the dead bot."""
    arrived, release = standin.rest.hold("channel_message", act_first=went_out)
    async with running_bot(env, tmp_path, "killed") as bot:
        await standin.connected({0}, timeout=START_TIMEOUT)
        await asyncio.wait_for(arrived.wait(), 60)
        await bot.kill()
    if went_out:
        release.set()  # its answer goes to nobody; later sends pass
    else:
        standin.rest.lose("channel_message")
    claims = await claims_of(database_url, guild.id)
    assert [c.state for c in claims] == ["sending"], "the dead process still holds the claim"
    assert f":{bot.pid}:" in claims[0].claimed_by
    await age_claims(database_url, guild.id)
    return bot


@asynccontextmanager
async def restarted_bot(
    standin: StandIn, env: dict[str, str], tmp_path: Path
) -> AsyncIterator[BotProcess]:
    """The bot started again on the same database and Discord, once it has identified."""

    def identifies() -> int:
        return sum(1 for e in standin.gateway.events if e.kind == "identify")

    before = identifies()
    async with running_bot(env, tmp_path, "restarted") as bot:
        await standin.until(
            lambda: identifies() > before, timeout=START_TIMEOUT, what="the restart to identify"
        )
        yield bot


@pytest.mark.parametrize(
    "read_history", [True, False], ids=["with-read-message-history", "nonce-only"]
)
async def test_sigkill_after_the_send_went_out_posts_once_after_restart(
    standin: StandIn,
    tmp_path: Path,
    postgres_url: str,
    read_history: bool,
) -> None:
    # Without it, neither the bot's role nor @everyone grants Read Message History.
    permissions = discord.Permissions(BOT_PERMISSIONS.value)
    permissions.read_message_history = read_history
    everyone = discord.Permissions(MEMBER_PERMISSIONS.value)
    everyone.read_message_history = read_history
    async with daily_world(standin, bot_permissions=permissions, everyone=everyone) as (
        parish,
        general,
        upstream,
    ):
        await seed_daily_post(postgres_url, guild_id=parish.id, channel_id=general.id)
        env = bot_env(standin, upstream.url, postgres_url)
        async with asyncio.timeout(2 * START_TIMEOUT + 120):
            killed = await kill_mid_post(
                standin, env, tmp_path, postgres_url, parish, went_out=True
            )
            assert len(general.messages) == 1, "the killed process's send did reach Discord"
            sent_id = int(general.messages[0]["id"])

            async with restarted_bot(standin, env, tmp_path) as bot:
                await bot.logged(r"daily tick: 1 due, 1 posted", timeout=90)
                assert await bot.terminate(timeout=30) == 0
            recorded = await recorded_post(postgres_url, parish.id)

    assert recorded == sent_id, "the schedule records the message that went out"
    assert len(general.messages) == 1, "exactly one post in the channel"
    if read_history:
        # The restarted bot found its post in the channel's history: nothing sent again.
        assert channel_posts(standin, general) == ["200"]
        assert history_reads(standin, general) >= 1
    else:
        # It cannot read the history: it sends again, and Discord returns the earlier
        # message for the same nonce (enforce_nonce) instead of posting a second one.
        assert channel_posts(standin, general) == ["200", "200"]
        assert history_reads(standin, general) == 0
        resend = [
            r.payload
            for r in standin.rest.requests
            if r.kind == "channel_message" and r.method == "POST"
        ]
        assert isinstance(resend[0], dict) and isinstance(resend[1], dict)
        assert resend[1]["nonce"] == resend[0]["nonce"] and resend[1]["enforce_nonce"] is True
    assert_clean(standin, killed, bot)


async def test_sigkill_before_the_send_reached_discord_posts_once_after_restart(
    standin: StandIn, tmp_path: Path, postgres_url: str
) -> None:
    async with daily_world(standin) as (parish, general, upstream):
        await seed_daily_post(postgres_url, guild_id=parish.id, channel_id=general.id)
        env = bot_env(standin, upstream.url, postgres_url)
        async with asyncio.timeout(2 * START_TIMEOUT + 120):
            killed = await kill_mid_post(
                standin, env, tmp_path, postgres_url, parish, went_out=False
            )
            assert general.messages == [], "the killed process's send never reached Discord"

            async with restarted_bot(standin, env, tmp_path) as bot:
                sent = await standin.replies_in(general, 1, timeout=90)
                await bot.logged(r"daily tick: 1 due, 1 posted", timeout=30)
                assert await bot.terminate(timeout=30) == 0
            recorded = await recorded_post(postgres_url, parish.id)

    assert recorded == int(sent[0]["id"])
    assert len(general.messages) == 1, "exactly one post in the channel"
    # The lost send, then the restarted bot's: it looked in the history first (nothing there).
    assert channel_posts(standin, general) == [str(LOST), "200"]
    assert history_reads(standin, general) >= 1
    assert_clean(standin, killed, bot)


async def test_sigterm_during_a_daily_post_lets_it_finish_and_records_it(
    standin: StandIn, tmp_path: Path, postgres_url: str
) -> None:
    async with daily_world(standin) as (parish, general, upstream):
        await seed_daily_post(postgres_url, guild_id=parish.id, channel_id=general.id)
        env = bot_env(standin, upstream.url, postgres_url)
        arrived, release = standin.rest.hold("channel_message", act_first=True)
        async with asyncio.timeout(START_TIMEOUT + 60), running_bot(env, tmp_path) as bot:
            await asyncio.wait_for(arrived.wait(), 60)  # the post is out; Discord's answer waits
            bot.process.send_signal(signal.SIGTERM)
            await bot.logged(r"draining 1 in-flight", timeout=10)
            release.set()
            assert await bot.exited(timeout=GRACE_SECONDS + EXIT_MARGIN_SECONDS) == 0
        recorded = await recorded_post(postgres_url, parish.id)

    assert recorded == int(general.messages[0]["id"]), "the drain let the tick record its post"
    assert channel_posts(standin, general) == ["200"]
    assert "cancelling" not in bot.log()
    assert_clean(standin, bot)

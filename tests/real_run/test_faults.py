"""``python -m bot run`` through the gateway's and REST API's faults, over Discord's own protocol.

The socket dropped while an answer is upstream, RECONNECT, INVALID_SESSION (resumable or not):
the shard resumes or re-identifies where Discord says, the session's buffered dispatches are
replayed, and every interaction and DM is answered exactly once. REST 429s (per route and
global) and 5xx on the answers: discord.py's own retries deliver each one once. Discord's
bucket limits: the bot paces itself on the ``X-RateLimit-*`` headers.

Slow, real tests: a child interpreter per bot, a websocket per shard, every answer over REST.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from devtools.discord_standin import Channel, Delivered, Person, StandIn, running_standin
from devtools.discord_standin.gateway import GatewayEvent
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer, running_fake_server
from tests.support.held_upstream import HeldUpstream, running_held_fake_server
from tests.support.real_run import (
    START_TIMEOUT,
    BotProcess,
    bot_env,
    embed_titles,
    registered_commands,
    running_bot,
)

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

# Each test: a bot's cold start, then its faults and answers (a re-identify waits 5 s in
# discord.py; a 5xx retry 1 s).
TEST_TIMEOUT = START_TIMEOUT + 90
GATEWAY_BOT_PATH = "/gateway"  # where /gateway/bot sends a shard to identify
RESUME_PATH = "/gateway/resume"  # READY's resume_gateway_url
WEBHOOK_RETRY = "is rate limited. Retrying in"  # discord.py's webhook adapter, on a 429
HTTP_RETRY = "We are being rate limited."  # discord.py's HTTPClient, on a 429
GLOBAL_RETRY = "Global rate limit has been hit"


@dataclass
class Run:
    """A bot on a stand-in with one server, its first channel, and people to ask."""

    standin: StandIn
    upstream: RunningFakeServer
    bot: BotProcess
    channel: Channel
    people: list[Person]


@asynccontextmanager
async def bot_on(
    standin: StandIn, upstream: RunningFakeServer, tmp_path: Path, people: int = 3
) -> AsyncIterator[Run]:
    """The stand-in served with the real commands, a bot connected to it; at the end, the bot
    stopped with SIGTERM (exit 0) and everything every test checks of a run checked."""
    standin.commands.register(await registered_commands(tmp_path))
    async with running_standin(standin):
        parish = standin.world.add_guild("St Anne's Parish")
        persons = [standin.world.add_person(f"person{i}") for i in range(people)]
        database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
        # Room for every question a test asks in a minute, on both sides of the wire.
        env = bot_env(
            standin,
            upstream.url,
            database_url,
            QA_RATE_LIMIT_PER_MINUTE="30",
            RATE_LIMIT_PER_MINUTE="60",
        )
        async with running_bot(env, tmp_path) as bot:
            await standin.connected({0}, timeout=START_TIMEOUT)
            yield Run(standin, upstream, bot, parish.channels[0], persons)
            assert await bot.terminate(timeout=30) == 0
        log = bot.log()
        assert "Traceback" not in log, log
        assert standin.token not in log
        assert standin.rest.problems == []
        assert standin.double_acknowledgements() == []


def upstream_with() -> FakeMagisterium:
    return FakeMagisterium(basic_per_minute=60, expensive_per_minute=30)


def answered_once(standin: StandIn, delivered: Delivered) -> None:
    """One acknowledgement and one visible answer sent for ``delivered``, never a second."""
    session = delivered.session
    ok = [r for r in session.requests if r.status < 400]
    callbacks = [r for r in ok if r.kind == "callback"]
    answers = [r for r in ok if r.kind in ("followup", "edit_original")]
    assert len(callbacks) == 1, [(r.kind, r.status) for r in session.requests]
    assert len(answers) == 1, [(r.kind, r.status) for r in session.requests]
    assert standin.answer(delivered), f"interaction {session.interaction_id} shows no answer"


def replied_once(standin: StandIn, channel: Channel, person: Person) -> None:
    """Each DM ``person`` wrote in ``channel`` got one message from the bot: an answer, or (a
    question sent while the previous one is answered) a reply saying so to that very DM."""
    bot_id = str(standin.world.application_id)
    asked = [str(m["id"]) for m in channel.messages if m["author"]["id"] == str(person.id)]
    replies = [m for m in channel.messages if m["author"]["id"] == bot_id]
    replied_to = [
        str(m["message_reference"]["message_id"]) for m in replies if m.get("message_reference")
    ]
    assert len(replies) == len(asked), replies
    assert len(set(replied_to)) == len(replied_to) and set(replied_to) <= set(asked), replies
    assert all(m["embeds"] for m in replies), replies


def events(standin: StandIn, kind: str, since: int = 0) -> list[GatewayEvent]:
    return [e for e in standin.gateway.events[since:] if e.kind == kind]


async def disconnected(
    standin: StandIn, cut: Callable[[], Awaitable[None] | None]
) -> tuple[int, asyncio.Event]:
    """``cut`` shard 0's socket with new sockets held: once the stand-in has seen the old one
    close and the bot's new one arrive, the shard is disconnected until the returned release
    is set, and its session buffers what is dispatched to it. (Where the events list stood
    before the cut, the release.)"""
    since = len(standin.gateway.events)
    session = standin.gateway.session_of_shard(0)
    arrived, release = standin.gateway.hold_connections()
    cutting = cut()
    if cutting is not None:
        await cutting
    await standin.until(
        lambda: [e for e in events(standin, "close", since) if e.session_id == session.id],
        timeout=30,
        what="the stand-in to see shard 0's socket close",
    )
    await asyncio.wait_for(arrived.wait(), 30)  # the bot is back, held before HELLO
    assert session.connection is None
    return since, release


async def resumed(standin: StandIn, since: int, session_id: str) -> GatewayEvent:
    """The shard's RESUME (after ``since``), checked to be at the resume URL, in its session."""
    resume = await standin.until(
        lambda: (
            next(iter(events(standin, "resumed", since)), None)
            and events(standin, "resume", since)[0]
        ),
        timeout=30,
        what="shard 0 to resume",
    )
    assert resume.session_id == session_id
    assert resume.detail["path"] == RESUME_PATH, resume.detail
    assert events(standin, "identify", since) == [], "resumed, not re-identified"
    return resume


# --- the socket dropped, RECONNECT, INVALID_SESSION ---------------------------------------------


async def test_a_socket_dropped_mid_answer_resumes_and_loses_nothing(tmp_path: Path) -> None:
    held = HeldUpstream()
    async with (
        asyncio.timeout(TEST_TIMEOUT),
        running_held_fake_server(upstream_with(), held) as upstream,
        bot_on(StandIn(), upstream, tmp_path) as run,
    ):
        standin, (ann, bob, _) = run.standin, run.people
        session = standin.gateway.session_of_shard(0)
        first = await standin.slash(ann, run.channel, "ask", question="What is grace?")
        await asyncio.wait_for(held.arrived.wait(), 30)  # deferred, and waiting upstream
        assert first.session.acknowledged

        since, release = await disconnected(standin, lambda: standin.gateway.drop(0))
        assert [e.kind for e in standin.gateway.events[since:]] == ["dropped", "close"]
        second = await standin.slash(bob, run.channel, "search", query="baptism")
        dm = await standin.dm(ann, "What is baptism?")

        # Upstream answers while the shard is still down: the answer goes out over REST.
        held.release()
        answer = await standin.answered(first, timeout=30)
        assert embed_titles(answer)[0] == "What is grace?"
        assert session.connection is None and events(standin, "resume", since) == []

        release.set()
        resume = await resumed(standin, since, session.id)
        assert resume.detail["replayed"] == 2, "the interaction and the DM, sent while down"
        await standin.answered(second, timeout=30)
        await standin.replies_in(dm, 1, timeout=30)
        answered_once(standin, first)
        answered_once(standin, second)
        replied_once(standin, dm, ann)


async def reconnect(standin: StandIn) -> None:
    await standin.gateway.send_reconnect(0)


async def invalidate_resumable(standin: StandIn) -> None:
    await standin.gateway.invalidate(0, resumable=True)


@pytest.mark.parametrize(
    ("cut", "told"),
    [(reconnect, "reconnect_sent"), (invalidate_resumable, "invalid_session")],
    ids=["RECONNECT", "INVALID_SESSION-resumable"],
)
async def test_the_shard_resumes_at_the_resume_url_when_told_to(
    cut: Callable[[StandIn], Awaitable[None]], told: str, tmp_path: Path
) -> None:
    async with (
        asyncio.timeout(TEST_TIMEOUT),
        running_fake_server(upstream_with()) as upstream,
        bot_on(StandIn(), upstream, tmp_path) as run,
    ):
        standin, (ann, bob, _) = run.standin, run.people
        session = standin.gateway.session_of_shard(0)
        since, release = await disconnected(standin, lambda: cut(standin))
        # Told, then the bot's own close (not 1000: that would end the session).
        assert [(e.kind, e.detail.get("code")) for e in standin.gateway.events[since:]] == [
            (told, None),
            ("close", 4000),
        ]
        # What is dispatched between the fault and the resume waits in the session.
        asked = await standin.slash(bob, run.channel, "ask", question="What is grace?")
        dm = await standin.dm(ann, "What is baptism?")
        release.set()

        resume = await resumed(standin, since, session.id)
        assert resume.detail["replayed"] == 2
        await standin.answered(asked, timeout=30)
        await standin.replies_in(dm, 1, timeout=30)
        answered_once(standin, asked)
        replied_once(standin, dm, ann)
        # And the resumed socket carries what comes next.
        later = await standin.slash(ann, run.channel, "search", query="grace")
        await standin.answered(later, timeout=30)
        answered_once(standin, later)


async def test_an_invalid_session_reidentifies_at_the_gateway_bot_url(tmp_path: Path) -> None:
    async with (
        asyncio.timeout(TEST_TIMEOUT),
        running_fake_server(upstream_with()) as upstream,
        bot_on(StandIn(), upstream, tmp_path) as run,
    ):
        standin, (ann, _, _) = run.standin, run.people
        (first,) = events(standin, "identify")
        assert first.detail["path"] == GATEWAY_BOT_PATH
        since = len(standin.gateway.events)
        await standin.gateway.invalidate(0, resumable=False)

        # discord.py waits 5 s before identifying again; not at its built-in default gateway,
        # at the URL /gateway/bot gave.
        again = await standin.until(
            lambda: next(iter(events(standin, "identify", since)), None),
            timeout=30,
            what="shard 0 to identify again",
        )
        assert again.session_id != first.session_id
        assert again.shard == first.shard
        assert again.detail["path"] == GATEWAY_BOT_PATH
        assert again.detail["intents"] == first.detail["intents"]
        assert events(standin, "resume", since) == []
        assert standin.gateway.session_of_shard(0).id == again.session_id

        asked = await standin.slash(ann, run.channel, "ask", question="What is grace?")
        await standin.answered(asked, timeout=30)
        answered_once(standin, asked)
        dm = await standin.dm(ann, "What is baptism?")
        await standin.replies_in(dm, 1, timeout=30)
        replied_once(standin, dm, ann)


# --- REST: 429s, 5xx, bucket limits --------------------------------------------------------------

BURST = 10


async def burst(run: Run) -> list[Delivered]:
    """``BURST`` quick commands at once, from as many people as the run has."""
    return [
        await run.standin.slash(run.people[i % len(run.people)], run.channel, "saints")
        for i in range(BURST)
    ]


async def all_answered(standin: StandIn, delivered: list[Delivered]) -> None:
    await standin.until(
        lambda: all(standin.answer(d) for d in delivered),
        timeout=60,
        what=f"answers to all {len(delivered)} interactions",
    )
    for one in delivered:
        answered_once(standin, one)


@pytest.mark.parametrize("is_global", [False, True], ids=["route", "global"])
async def test_429s_on_followups_in_a_burst_are_retried_and_each_answer_sent_once(
    is_global: bool, tmp_path: Path
) -> None:
    refusals = 6
    standin = StandIn()
    async with (
        asyncio.timeout(TEST_TIMEOUT),
        running_fake_server(upstream_with()) as upstream,
        bot_on(standin, upstream, tmp_path, people=BURST) as run,
    ):
        standin.ratelimits.refuse("webhook", count=refusals, retry_after=0.3, is_global=is_global)
        # And one on a DM reply, which goes through discord.py's HTTPClient, not its webhooks.
        standin.ratelimits.refuse("channel_message", count=1, retry_after=0.3, is_global=is_global)
        ann = run.people[0]
        delivered = await burst(run)
        dm = await standin.dm(ann, "What is grace?")
        await all_answered(standin, delivered)
        await standin.replies_in(dm, 1, timeout=30)
        replied_once(standin, dm, ann)

        assert (
            sorted(standin.ratelimits.refused)
            == [("channel_message", 429, is_global)] + [("webhook", 429, is_global)] * refusals
        )
        limited = [r for r in standin.rest.requests if r.status == 429]
        assert len(limited) == refusals + 1
        for refused in limited:  # each refused request was sent again, and went through
            assert any(
                r.path == refused.path and r.status < 400 and r.at > refused.at
                for r in standin.rest.requests
            ), refused.path
        log = run.bot.log()
    assert log.count(WEBHOOK_RETRY) == refusals, log
    assert log.count(HTTP_RETRY) == 1, log
    assert (GLOBAL_RETRY in log) is is_global


async def test_5xx_on_followups_and_dm_replies_are_retried_and_sent_once(tmp_path: Path) -> None:
    standin = StandIn()
    async with (
        asyncio.timeout(TEST_TIMEOUT),
        running_fake_server(upstream_with()) as upstream,
        bot_on(standin, upstream, tmp_path) as run,
    ):
        standin.ratelimits.refuse("webhook", count=2, status=502)
        standin.ratelimits.refuse("channel_message", count=1, status=502)
        delivered = [await standin.slash(person, run.channel, "saints") for person in run.people]
        ann = run.people[0]
        dm = await standin.dm(ann, "What is grace?")
        await all_answered(standin, delivered)
        await standin.replies_in(dm, 1, timeout=30)
        replied_once(standin, dm, ann)

        assert sorted(standin.ratelimits.refused) == [
            ("channel_message", 502, False),
            ("webhook", 502, False),
            ("webhook", 502, False),
        ]
        failed = [r for r in standin.rest.requests if r.status >= 500]
        assert len(failed) == 3
        for refused in failed:
            retried = [
                r for r in standin.rest.requests if r.path == refused.path and r.at > refused.at
            ]
            assert [r.status < 400 for r in retried] == [True], refused.path


async def test_the_bot_paces_itself_on_the_buckets_headers(tmp_path: Path) -> None:
    # Discord's buckets, made small: one followup per interaction token per second, two
    # messages a second in a channel. One person's DMs all go into one channel.
    standin = StandIn(limits={"webhook": (1, 1.0), "channel_message": (2, 1.0)})
    dms = 5
    async with (
        asyncio.timeout(TEST_TIMEOUT),
        running_fake_server(upstream_with()) as upstream,
        bot_on(standin, upstream, tmp_path, people=BURST) as run,
    ):
        delivered = await burst(run)
        ann = run.people[0]
        for i in range(dms):
            channel = await standin.dm(ann, f"Question {i}: what is grace?")
        await all_answered(standin, delivered)
        await standin.replies_in(channel, dms, timeout=60)
        replied_once(standin, channel, ann)

        # The buckets were full at times, and yet never a 429: the bot waited for their reset.
        assert standin.ratelimits.refused == []
        assert [r for r in standin.rest.requests if r.status == 429] == []
        posts = [
            r.at
            for r in standin.rest.requests
            if r.kind == "channel_message" and r.path == f"/channels/{channel.id}/messages"
        ]
        assert len(posts) == dms
        assert posts[-1] - posts[0] >= (dms - 1) // 2 * 1.0 - 0.05, posts
        log = run.bot.log()
    assert WEBHOOK_RETRY not in log and HTTP_RETRY not in log, log

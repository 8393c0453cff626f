"""``python -m bot run`` at scale, over Discord's own protocol: two shards in one process, then
two shard processes (``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``) on one PostgreSQL and Redis.

What each proves:

- two shards in one process: both identify (the second one after discord.py's 5 s pause), the
  READY of each names only its own servers, and a command in a server of each shard is
  delivered on that server's shard and answered;
- two processes: each identifies only its shard and answers only its own servers (the gateway
  session every interaction went to is the one that process logged); one daily post per server
  and date, recorded in the schedules, however often both processes tick; and the limiter they
  share through Redis holds Magisterium's real per-token limits (15 requests and 2
  ``catholic_qa`` a minute) across both, with no upstream 429: a burst of 26 commands from both
  processes at once is answered within those limits or told politely to come back.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
import secrets
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.daily import Feed, ScheduleStore
from bot.storage import Database
from devtools.discord.records import StoredMessage
from devtools.discord_standin import (
    Channel,
    Delivered,
    Guild,
    Person,
    StandIn,
    running_standin,
    shard_of,
)
from devtools.discord_standin.gateway import Session
from devtools.fake_magisterium import (
    FakeMagisterium,
    RunningFakeServer,
    UpstreamRequest,
    running_fake_server,
)
from devtools.fake_magisterium.replies import Reply
from devtools.fake_magisterium.rpc import RATE_LIMITED
from tests.support.real_run import (
    START_TIMEOUT,
    BotProcess,
    bot_env,
    embed_titles,
    registered_commands,
    running_bot,
    seed_daily_post,
)
from tests.support.workers import REDIS_URL

pytestmark = [pytest.mark.slow, pytest.mark.real_run]

SHARDS = 2
DISCORD_EPOCH_MS = 1_420_070_400_000
# Magisterium's Pro limits, the bot's defaults and the fake's: nothing here lowers them.
PER_MINUTE, QA_PER_MINUTE, WINDOW = 15, 2, 60.0
BUSY_TITLE = "Magisterium is busy for this account"
SKILLS = {
    "ask": "catholic_qa",
    "search": "document_search",
    "saints": "saints_of_the_day",
    "readings": "liturgical_readings",
}
# discord.py: "Shard ID 1 has connected to Gateway (Session ID: …)."
CONNECTED = re.compile(r"Shard ID (\d+) has connected to Gateway \(Session ID: (\w+)\)")


class TimedFake(FakeMagisterium):
    """The fake Magisterium, noting when each request arrived (its windows count arrivals)."""

    def __init__(self) -> None:
        super().__init__(rate_limits_enabled=True)  # 15 and 2 a minute per token
        self.arrivals: list[tuple[float, UpstreamRequest]] = []

    def handle(self, body: bytes, authorization: str | None) -> Reply:
        at, before = time.monotonic(), len(self.requests)
        reply = super().handle(body, authorization)
        self.arrivals.extend((at, r) for r in self.requests[before:])
        return reply

    def sends(
        self, token: str, *, skill: str | None = None, carrying: str | None = None
    ) -> list[float]:
        """Arrival times of the message/sends with ``token`` (of ``skill``, and with a part
        carrying the text ``carrying``, if given)."""
        return [
            at
            for at, r in self.arrivals
            if r.method == "message/send"
            and r.token == token
            and skill in (None, r.skill)
            and (carrying is None or carrying in json.dumps(r.parts))
        ]


def most_in_a_window(times: list[float], window: float = WINDOW) -> int:
    """The most of ``times`` within any rolling ``window`` seconds."""
    ordered = sorted(times)
    return max(
        (sum(1 for u in ordered[i:] if u - t < window) for i, t in enumerate(ordered)), default=0
    )


def guild_id_on(shard: int) -> int:
    """A snowflake (a day or more old) whose server lives on ``shard`` of ``SHARDS``."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS - 86_400_000 - secrets.randbelow(10**9)
    ms -= (ms - shard) % SHARDS
    guild_id = (ms << 22) | secrets.randbits(20)  # room for the +1 and +2 of its roles/owner
    assert shard_of(guild_id, SHARDS) == shard
    return guild_id


def add_guilds(standin: StandIn, per_shard: int) -> dict[int, list[Guild]]:
    return {
        shard: [
            standin.world.add_guild(f"Parish {shard}.{n}", guild_id=guild_id_on(shard))
            for n in range(per_shard)
        ]
        for shard in range(SHARDS)
    }


def ready_guilds(session: Session) -> set[int]:
    ready = next(p for p in session.sent if p["t"] == "READY")
    assert ready["d"]["shard"] == [session.shard[0], SHARDS]
    return {int(g["id"]) for g in ready["d"]["guilds"]}


def dispatched_interactions(session: Session) -> set[int]:
    return {int(p["d"]["id"]) for p in session.sent if p["t"] == "INTERACTION_CREATE"}


def connected_sessions(log: str) -> dict[int, str]:
    """Shard id -> the gateway session id a bot logged connecting it."""
    return {int(shard): session for shard, session in CONNECTED.findall(log)}


def check_log(bot: BotProcess, standin: StandIn, token: str) -> str:
    log = bot.log()
    assert "Traceback" not in log, log
    assert standin.token not in log
    assert token not in log
    return log


@pytest.fixture
async def upstream() -> AsyncIterator[tuple[TimedFake, RunningFakeServer]]:
    fake = TimedFake()
    async with running_fake_server(fake) as server:
        yield fake, server


@pytest.fixture
async def standin(tmp_path: Path) -> AsyncIterator[StandIn]:
    commands = await registered_commands(tmp_path)
    async with running_standin(StandIn(recommended_shards=SHARDS)) as standin:
        standin.commands.register(commands)
        yield standin


@pytest.fixture
def token() -> str:
    """A Pro token of this test's own: its Redis limiter keys are nobody else's."""
    return f"pro-{uuid.uuid4().hex}"


async def test_two_shards_in_one_process_each_serve_their_own_servers(
    standin: StandIn,
    upstream: tuple[TimedFake, RunningFakeServer],
    token: str,
    tmp_path: Path,
) -> None:
    fake, server = upstream
    guilds = add_guilds(standin, per_shard=1)
    people = [standin.world.add_person(f"person{n}") for n in range(SHARDS)]
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    env = bot_env(
        standin, server.url, database_url, SHARD_COUNT=str(SHARDS), MAGISTERIUM_TOKEN=token
    )

    async with asyncio.timeout(START_TIMEOUT + 90), running_bot(env, tmp_path) as bot:
        await standin.connected({0, 1}, timeout=START_TIMEOUT)
        identified = [e for e in standin.gateway.events if e.kind == "identify"]
        assert sorted(e.shard for e in identified if e.shard) == [(0, SHARDS), (1, SHARDS)]
        first, second = sorted(identified, key=lambda e: e.at)
        # discord.py waits 5 s before identifying a shard after the first (Discord's
        # max_concurrency 1): the stand-in saw both, in that order, that far apart.
        assert second.at - first.at >= 4.5, [e.shard for e in identified]

        sessions = {shard: standin.gateway.session_of_shard(shard) for shard in range(SHARDS)}
        for shard, session in sessions.items():
            assert ready_guilds(session) == {g.id for g in guilds[shard]}

        asked: dict[int, Delivered] = {}
        for shard in range(SHARDS):
            channel = guilds[shard][0].channels[0]
            question = f"What does shard {shard} say of grace?"
            asked[shard] = await standin.slash(people[shard], channel, "ask", question=question)
        for shard, delivered in asked.items():
            assert delivered.shard_id == shard
            assert delivered.session.interaction_id in dispatched_interactions(sessions[shard])
            assert delivered.session.interaction_id not in dispatched_interactions(
                sessions[1 - shard]
            )
            answer = await standin.answered(delivered, timeout=60)
            assert embed_titles(answer)[:1] == [f"What does shard {shard} say of grace?"], (
                embed_titles(answer)
            )

        assert await bot.terminate(timeout=30) == 0

    log = check_log(bot, standin, token)
    assert connected_sessions(log) == {s: sessions[s].id for s in range(SHARDS)}
    assert "shut down" in log
    assert fake.count(skill="catholic_qa") == SHARDS
    assert [r for r in fake.requests if r.http_status == 429] == []
    assert standin.rest.problems == []
    assert standin.double_acknowledgements() == []


@dataclass(frozen=True)
class Fired:
    """One command of the burst: the shard (and so the process) its server is on."""

    shard: int
    command: str
    options: dict[str, str]
    delivered: Delivered

    @property
    def asked(self) -> str:
        """What its request to Magisterium carries: the question, query or date."""
        return next(iter(self.options.values()))

    def answer_title(self) -> str:
        """The title of its answer (and not of an error)."""
        if self.command == "ask":
            return self.asked
        if self.command == "search":
            return f"Documents for \u201c{self.asked}\u201d"
        day = dt.date.fromisoformat(self.asked)
        heading = "Saints of the day" if self.command == "saints" else "Mass readings"
        return f"{heading} \u2014 {day:%A} {day.day} {day:%B %Y}"


async def fire_burst(standin: StandIn, guilds: dict[int, list[Guild]], tag: str) -> list[Fired]:
    """For each shard's servers, 3 /ask and 10 lookups (6 /search, 2 /saints, 2 /readings),
    all 26 delivered at once, each by someone else. Each needs Magisterium: the cache (in Redis,
    shared by every test and run) cannot hold a question or search carrying ``tag``, and the
    dates are far-off ones, seldom looked up before."""
    plan: list[tuple[int, str, dict[str, str], Person, Channel]] = []
    for shard in range(SHARDS):
        servers = guilds[shard]
        for n in range(13):
            channel = servers[n % len(servers)].channels[0]
            person = standin.world.add_person(f"person{shard}.{n}")
            day = (dt.date(2040, 1, 1) + dt.timedelta(days=secrets.randbelow(20_000))).isoformat()
            if n < 3:
                command, options = "ask", {"question": f"What is grace, {tag} {shard}.{n}?"}
            elif n < 9:
                command, options = "search", {"query": f"eucharist {tag} {shard}.{n}"}
            elif n < 11:
                command, options = "saints", {"date": day}
            else:
                command, options = "readings", {"date": day}
            plan.append((shard, command, options, person, channel))
    delivered = await asyncio.gather(
        *(
            standin.slash(person, channel, command, **options)
            for _, command, options, person, channel in plan
        )
    )
    return [
        Fired(shard, command, options, d)
        for (shard, command, options, _, _), d in zip(plan, delivered, strict=True)
    ]


def busy(messages: list[StoredMessage]) -> bool:
    """Told that Magisterium is busy for the token: come back later (``LimiterBusy``)."""
    return any(BUSY_TITLE in title for title in embed_titles(messages))


def told_busy_in_log(log: str) -> Counter[str]:
    """Commands the process logged as turned away by the limiter (``bot.app.error_reporting``)."""
    return Counter(re.findall(r"/(\w+) failed: LimiterBusy", log))


async def test_two_processes_share_servers_daily_posts_and_the_limiter(
    standin: StandIn,
    upstream: tuple[TimedFake, RunningFakeServer],
    token: str,
    postgres_url: str,
    tmp_path: Path,
) -> None:
    fake, server = upstream
    # Per shard: two servers whose post was due a minute ago (the first tick sends them), and
    # one whose slot is a whole minute at least 30 s ahead (a later tick sends it, with the
    # day's content from the shared cache): each process ticks more than once.
    guilds = add_guilds(standin, per_shard=3)
    seeded = dt.datetime.now(dt.UTC)
    late_slot = (seeded + dt.timedelta(seconds=90)).replace(second=0, microsecond=0)
    slots: dict[int, dt.datetime] = {}
    for shard in range(SHARDS):
        for guild in guilds[shard]:
            slot = late_slot if guild is guilds[shard][-1] else seeded - dt.timedelta(minutes=1)
            slots[guild.id] = slot
            await seed_daily_post(
                postgres_url,
                guild_id=guild.id,
                channel_id=guild.channels[0].id,
                now=slot + dt.timedelta(minutes=1),
            )
    envs = {
        shard: bot_env(
            standin,
            server.url,
            postgres_url,
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=str(shard),
            REDIS_URL=REDIS_URL,
            MAGISTERIUM_TOKEN=token,
        )
        for shard in range(SHARDS)
    }

    async with asyncio.timeout(START_TIMEOUT + 240), AsyncExitStack() as stack:
        bots = {
            shard: await stack.enter_async_context(
                running_bot(envs[shard], tmp_path / f"shard{shard}", f"shard{shard}")
            )
            for shard in range(SHARDS)
        }
        await standin.connected({0, 1}, timeout=START_TIMEOUT)
        identified = [e.shard for e in standin.gateway.events if e.kind == "identify"]
        assert sorted(s for s in identified if s) == [(0, SHARDS), (1, SHARDS)], identified
        sessions = {shard: standin.gateway.session_of_shard(shard) for shard in range(SHARDS)}
        ready = {shard: ready_guilds(sessions[shard]) for shard in range(SHARDS)}
        assert ready[0].isdisjoint(ready[1])
        for shard in range(SHARDS):
            assert ready[shard] == {g.id for g in guilds[shard]}

        # The first tick of each process posts its own servers' due posts.
        for shard in range(SHARDS):
            for guild in guilds[shard][:-1]:
                await standin.replies_in(guild.channels[0], 1, timeout=60)

        burst_started = time.monotonic()
        fired = await fire_burst(standin, guilds, uuid.uuid4().hex[:8])
        # A command queued for its turn waits at most RATE_LIMIT_WAIT_SECONDS (60).
        answers = await asyncio.gather(*(standin.answered(f.delivered, timeout=120) for f in fired))
        burst_took = time.monotonic() - burst_started

        # A later tick of each process posts the late servers' posts.
        for shard in range(SHARDS):
            await standin.replies_in(guilds[shard][-1].channels[0], 1, timeout=150)

        for shard, bot in bots.items():
            assert await bot.terminate(timeout=30) == 0, shard

    # Each process identified only its shard, and got every interaction of its servers (and
    # none of the other's) on the session it logged.
    logs = {shard: check_log(bots[shard], standin, token) for shard in range(SHARDS)}
    for shard in range(SHARDS):
        assert connected_sessions(logs[shard]) == {shard: sessions[shard].id}, logs[shard]
        mine = {f.delivered.session.interaction_id for f in fired if f.shard == shard}
        assert {f.delivered.shard_id for f in fired if f.shard == shard} == {shard}
        assert dispatched_interactions(sessions[shard]) == mine
        # Whoever was turned away was turned away by the process that serves their server.
        expected = Counter(
            f.command for f, a in zip(fired, answers, strict=True) if f.shard == shard and busy(a)
        )
        assert told_busy_in_log(logs[shard]) == expected, logs[shard]
        # Its ticks posted its own three servers' posts, each once: the two due at the start,
        # then the late one (unless the process started after the late slot).
        ticks = re.findall(r"daily tick: (\d+) due, (\d+) posted, (\d+) failed", logs[shard])
        assert ticks in ([("2", "2", "0"), ("1", "1", "0")], [("3", "3", "0")]), logs[shard]

    # One daily post per server and date, recorded in its schedule.
    async with Database(postgres_url) as db:
        store = ScheduleStore(db)
        for guild in [g for shard in range(SHARDS) for g in guilds[shard]]:
            channel, day = guild.channels[0], slots[guild.id].date()
            assert len(channel.messages) == 1, (guild.id, channel.messages)
            schedule = await store.get(guild.id, Feed.SAINTS)
            assert schedule is not None
            assert schedule.last_posted_date == day
            assert schedule.last_message_id == int(channel.messages[0]["id"])
            assert await store.claims(guild.id, Feed.SAINTS) == {day: "posted"}

    # Every command answered once: with its answer, its request sent to Magisterium once; or
    # told politely to come back, nothing sent for it.
    for f, a in zip(fired, answers, strict=True):
        sent = fake.sends(token, skill=SKILLS[f.command], carrying=f.asked)
        if busy(a):
            assert sent == [], (f, sent)
        elif f.command in ("ask", "search"):
            assert len(sent) == 1, (f, embed_titles(a))
        else:  # a far-off date another run looked up may still be in the shared cache
            assert len(sent) <= 1, (f, embed_titles(a))
        if not busy(a):
            assert embed_titles(a)[:1] == [f.answer_title()], (f, embed_titles(a))
    turned_away = [f for f, a in zip(fired, answers, strict=True) if busy(a)]

    # The shared limiter: Magisterium's limits per token held across both processes.
    refused = [r for r in fake.requests if r.http_status == 429 or r.error_code == RATE_LIMITED]
    assert refused == []
    sends, qa = fake.sends(token), fake.sends(token, skill="catholic_qa")
    assert most_in_a_window(qa) <= QA_PER_MINUTE, qa
    assert most_in_a_window(sends) <= PER_MINUTE, sends
    # The pool's two catholic_qa went at once (the others waited their turn or were told to
    # come back), and so did as many lookups as the minute's 15 had room for.
    assert len([t for t in qa if t - min(qa) < 5.0]) == QA_PER_MINUTE, qa
    late = [t for t in sends if t >= min(sends) + WINDOW]
    print(
        f"burst of {len(fired)}: answered in {burst_took:.1f} s; {len(sends)} sends upstream"
        f" ({len(late)} a minute later), {len(qa)} catholic_qa, {len(turned_away)} told busy:"
        f" {dict(Counter(f.command for f in turned_away))}"
    )

    assert standin.rest.problems == []
    assert standin.double_acknowledgements() == []

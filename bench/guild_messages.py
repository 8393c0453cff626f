"""Benchmark: what the ``guild_messages`` intent costs — every message of every server channel
the bot can see, parsed and dispatched, almost all of them ignored — and what discord.py's
message cache (``max_messages``) holds.

Run by hand from the repository root (offline; about a minute and a half with the defaults):

    .venv/bin/python bench/guild_messages.py [--messages 20000] [--mentions 10] [--repeat 3]

The bot is ``create_bot(harness_settings(...))`` on SQLite in a temporary directory, started by
the offline harness (``devtools.discord``), against the fake Magisterium on loopback TCP. Each
scenario runs twice, Message Content withheld (the default intents: Discord empties the text,
embeds and attachments of a message that does not mention the bot) and delivered
(``MESSAGE_CONTENT_INTENT``, for ask channels).

The traffic is made the harness's way (``devtools.discord.wire``), as Discord sends a server's
chat: 300 people who are not in the member cache (the bot has no members intent), their member
objects with 0-4 roles, avatars, nonces; 15% replies (with the replied message inside, as
Discord sends them), and where the text is delivered, texts of typical length (a median of
about 40 characters, one in 50 long), one in 20 with an image attached and one in 25 with a
link's embed. Each message is a gateway frame, JSON in the zlib stream Discord compresses the
gateway with, handed to discord.py's own ``DiscordWebSocket.received_message`` (inflate, JSON,
sequence, the ``MESSAGE_CREATE`` parser, ``dispatch``) with one turn of the event loop after it,
as the socket's read gives. discord.py's users are made as without the members intent (a User
per message, never cached), not as the harness caches them.

Measured (CPU time of the process, ``time.process_time``; the median of ``--repeat`` passes of
``--messages`` each), per ignored message: the frame (inflate and JSON), the Message built by the
parser, and the dispatch (the bot's three ``on_message`` listener tasks, each returning early):
with discord.py's default cache of 1,000 messages and with ``max_messages=None``. Then per
``MESSAGE_UPDATE`` (an edit) and ``MESSAGE_DELETE`` of one of the last 1,000 messages, which
discord.py looks up in that cache one by one. Then the memory the full cache holds (tracemalloc:
traced memory with the 1,000 messages, less without them). Last, ``--mentions`` messages that
mention the bot, spread over more chatter, each of whose authors linked an account: all must be
answered (the reply through discord.py's HTTP client), and no listener may log an error; exits 1
otherwise.

Figures (the development machine: 2 cores shared with other work, CPython 3.11.7, discord.py
2.7.1, the defaults; each pair is max_messages=1000 / None, microseconds of CPU per event):

  content    frame   inflate+JSON  Message    dispatch   total        edit        delete
  withheld   1005 B  17.5          50.6/43.4  42.1/44.7  110.2/105.6  180.6/79.3  112.1/25.3
  delivered  1054 B  18.6          50.2/46.9  51.2/42.0  120.0/107.6  169.8/75.9  100.9/28.4

  discord.py's message cache, full: 1,000 messages hold 2.04 MB content withheld (2.0 kB
  each), 2.21 MB delivered (2.2 kB each); 10/10 mentions answered among the chatter, both ways.

So an ignored message costs about 0.11 ms of CPU (some 9,000 a second per core): a sixth of it
the frame, over 40% the Message, about 40% the bot's three ``on_message`` listener tasks. The
cache adds a few microseconds to that (within the noise), 2 MB per process, and a scan of up to
1,000 messages to every edit (about 100 us more) and delete (about 80 us more). Nothing in the
bot reads the cache, so ``MagisteriumBot`` sets ``max_messages=None``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
import zlib
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord.gateway import DiscordWebSocket  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bot.app import MagisteriumBot, create_bot  # noqa: E402
from devtools.discord import Harness  # noqa: E402
from devtools.discord.fixtures import harness_settings, migrate_sqlite, sqlite_url_of  # noqa: E402
from devtools.discord.tasks import settle  # noqa: E402
from devtools.discord.wire import (  # noqa: E402
    GUILD,
    Place,
    guild_channel_payload,
    member_payload,
    message_payload,
    now_iso,
    snowflake,
    user_payload,
)
from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: E402

DEFAULT_CACHE = 1000  # discord.py's max_messages default
PEOPLE = 300
REPLY_SHARE, IMAGE_SHARE, EMBED_SHARE, LONG_SHARE = 0.15, 0.05, 0.04, 0.02
WARM_UP = DEFAULT_CACHE + 200  # messages before the first measured pass (the cache full)
SETTLE_SECONDS = 60.0
_WORDS = (
    "the of and to a in is it you that he was for on are with as I his they be at one have "
    "this from or had by hot word but what some we can out other were all there when up use "
    "your how said an each she which do their time if will way about many then them write "
    "would like so these her long make thing see him two has look more day could go come did "
    "number sound no most people my over know water than call first who may down side been "
    "lol yeah haha ok thanks anyone tonight game stream meeting pray mass sunday rosary"
)
WORDS = _WORDS.split()
QUESTIONS = (
    "What is grace?",
    "Why do Catholics pray to saints?",
    "What is the Eucharist?",
    "What does the Church teach about mercy?",
    "What is purgatory?",
)


@dataclass(frozen=True)
class Config:
    messages: int = 20000
    mentions: int = 10
    repeat: int = 3
    seed: int = 31
    edits: int = 2000  # MESSAGE_UPDATE events per cache setting (and a quarter as many deletes)


@dataclass
class Scenario:
    name: str
    content: bool  # the Message Content intent
    frame_bytes: list[int] = field(default_factory=list)  # JSON size of each frame
    # Microseconds of CPU per message, by stage and cache setting ("1000" / "None").
    stages: dict[str, float] = field(default_factory=dict)
    cache_bytes: int = 0
    cache_len: int = 0
    answered: int = 0
    asked: int = 0
    errors: int = 0


class Chat:
    """A server's chat as Discord sends it to the bot (MESSAGE_CREATE / UPDATE / DELETE)."""

    def __init__(self, harness: Harness, *, content: bool, seed: int) -> None:
        self.harness = harness
        self.content = content
        self.rng = random.Random(seed)
        channel = harness.channel
        self.place = Place(GUILD, guild_channel_payload(channel), channel.guild)
        self.guild_id = str(channel.guild.id)
        self.roles = [str(snowflake()) for _ in range(8)]
        self.people = [self._person(index) for index in range(PEOPLE)]
        self.recent: deque[dict[str, Any]] = deque(maxlen=DEFAULT_CACHE)

    def _person(self, index: int) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        author = user_payload(snowflake(), f"member{index}", global_name=f"Member {index}")
        author.update(
            avatar=f"{rng.getrandbits(128):032x}" if rng.random() < 0.8 else None,
            avatar_decoration_data=None,
            clan=None,
            primary_guild=None,
            collectibles=None,
        )
        member = member_payload(author, with_user=False)
        member.update(
            roles=rng.sample(self.roles, rng.randint(0, 4)),
            nick=f"nick{index}" if rng.random() < 0.3 else None,
            banner=None,
        )
        return author, member

    def text(self) -> str:
        rng = self.rng
        if rng.random() < LONG_SHARE:
            words = rng.randint(80, 300)
        else:
            words = max(1, round(rng.lognormvariate(1.9, 0.8)))  # median ~7 words
        return " ".join(rng.choice(WORDS) for _ in range(words))[:2000]

    def _attachment(self) -> dict[str, Any]:
        attachment_id = snowflake()
        name = f"IMG_{self.rng.randint(1000, 9999)}.jpg"
        path = f"attachments/{self.place.channel_id}/{attachment_id}/{name}"
        query = "?ex=6812a3f1&is=68115271&hm=" + f"{self.rng.getrandbits(256):064x}&"
        return {
            "id": str(attachment_id),
            "filename": name,
            "size": self.rng.randint(80_000, 4_000_000),
            "url": f"https://cdn.discordapp.com/{path}{query}",
            "proxy_url": f"https://media.discordapp.net/{path}{query}",
            "width": 1280,
            "height": 960,
            "content_type": "image/jpeg",
            "placeholder": "n/cFBQBYeHeIiHd4h4iIeHeAiAh4",
            "placeholder_version": 1,
        }

    def _embed(self) -> dict[str, Any]:
        return {
            "type": "article",
            "url": "https://www.vatican.va/content/francesco/en/homilies.html",
            "title": "Homilies | Francis",
            "description": self.text()[:300],
            "provider": {"name": "vatican.va"},
            "thumbnail": {
                "url": "https://www.vatican.va/etc/designs/vatican/logo.png",
                "proxy_url": "https://images-ext-1.discordapp.net/external/abc/logo.png",
                "width": 400,
                "height": 400,
                "placeholder": "3PcJDwJ4d3iPeHd4h3d3d3eId3cIeHg=",
                "placeholder_version": 1,
            },
        }

    def _message(self, author: dict[str, Any], member: dict[str, Any]) -> dict[str, Any]:
        rng = self.rng
        body: dict[str, Any] = {"content": self.text()}
        if rng.random() < IMAGE_SHARE:
            body["attachments"] = [self._attachment()]
        if rng.random() < EMBED_SHARE:
            body["embeds"] = [self._embed()]
        data = message_payload(message_id=snowflake(), place=self.place, author=author, body=body)
        data.update(member=dict(member), nonce=str(snowflake()), mention_everyone=False)
        if not self.content:  # what Discord withholds without Message Content
            data.update(content="", embeds=[], attachments=[], components=[])
        return data

    def message(self) -> dict[str, Any]:
        """A message of one of the people that does not mention the bot."""
        author, member = self.rng.choice(self.people)
        data = self._message(author, member)
        if self.recent and self.rng.random() < REPLY_SHARE:
            replied = self.rng.choice(list(self.recent)[-50:])
            nested = {k: v for k, v in replied.items() if k not in ("member", "nonce")}
            nested.pop("referenced_message", None)
            nested.pop("message_reference", None)
            data.update(
                type=19,
                message_reference={
                    "type": 0,
                    "message_id": replied["id"],
                    "channel_id": replied["channel_id"],
                    "guild_id": self.guild_id,
                },
                referenced_message=nested,
                mentions=[replied["author"]] if replied["author"] is not author else [],
            )
        self.recent.append(data)
        return data

    def edit(self) -> dict[str, Any]:
        """MESSAGE_UPDATE of one of the last 1,000 messages (an edit of its text)."""
        original = self.rng.choice(self.recent)
        data = dict(original, edited_timestamp=now_iso())
        if self.content:
            data["content"] = self.text()
        return data

    def delete(self) -> dict[str, Any]:
        """MESSAGE_DELETE of one of the last 1,000 messages."""
        index = self.rng.randrange(len(self.recent))
        gone = self.recent[index]
        del self.recent[index]  # deleted once
        return {"id": gone["id"], "channel_id": gone["channel_id"], "guild_id": self.guild_id}


class Gateway:
    """A shard's gateway connection as discord.py reads it, fed frames from a zlib stream."""

    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self.sequence = 0
        self.compressor = zlib.compressobj()
        ws: Any = DiscordWebSocket(socket=None, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
        ws._discord_parsers = bot._connection.parsers
        ws._dispatch = bot.dispatch
        ws.shard_id = 0
        self.ws = ws

    def frame(self, event: str, data: dict[str, Any], sizes: list[int] | None = None) -> bytes:
        self.sequence += 1
        text = json.dumps({"op": 0, "t": event, "s": self.sequence, "d": data})
        if sizes is not None:
            sizes.append(len(text))
        packed = self.compressor.compress(text.encode())
        return packed + self.compressor.flush(zlib.Z_SYNC_FLUSH)


def use_cache(bot: MagisteriumBot, size: int | None) -> None:
    """discord.py's message cache at ``size`` (None: no cache), emptied."""
    state = bot._connection
    state.max_messages = size
    state._messages = deque(maxlen=size) if size is not None else None


@contextlib.contextmanager
def users_as_without_members_intent(bot: MagisteriumBot) -> Iterator[None]:
    """discord.py's users as the bot's intents make them (a User for each mention of one,
    never cached); the harness's state caches them like the members intent would."""
    state: Any = bot._connection
    store_user = state.store_user
    state.store_user = state.store_user_no_intents
    try:
        yield
    finally:
        state.store_user = store_user


class ErrorRecords(logging.Handler):
    """ERROR records (discord.py logs a listener's exception)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def errors_logged() -> Iterator[list[logging.LogRecord]]:
    """ERROR records logged meanwhile."""
    handler = ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


async def feed(gateway: Gateway, frames: list[bytes]) -> None:
    """Hand each frame to discord.py as its socket read would: one turn of the loop after it."""
    received = gateway.ws.received_message
    for frame in frames:
        await received(frame)
        await asyncio.sleep(0)


async def timed(
    gateway: Gateway, frames: list[bytes], *, dispatch: bool = True, parse: bool = True
) -> float:
    """CPU microseconds per frame: inflate + JSON only (``parse=False``), + the parser
    (``dispatch=False``), or the whole path with the listeners run to their end."""
    state: Any = gateway.bot._connection
    before = asyncio.all_tasks()
    if not parse:
        frames_text = zlib.decompressobj()
        started = time.process_time()
        for frame in frames:
            discord.utils._from_json(frames_text.decompress(frame).decode())
            await asyncio.sleep(0)
        return (time.process_time() - started) / len(frames) * 1e6
    if not dispatch:
        state.stop_dispatch()
        gateway.ws._dispatch = lambda *args: None
    try:
        started = time.process_time()
        await feed(gateway, frames)
        await settle(before, guard_seconds=SETTLE_SECONDS)
        return (time.process_time() - started) / len(frames) * 1e6
    finally:
        state.start_dispatch()
        gateway.ws._dispatch = gateway.bot.dispatch


async def measure_creates(harness: Harness, chat: Chat, config: Config, scenario: Scenario) -> None:
    bot: MagisteriumBot = harness.bot  # type: ignore[assignment]
    passes: dict[str, list[float]] = {}

    def frames_of(gateway: Gateway, count: int, sizes: list[int] | None = None) -> list[bytes]:
        return [gateway.frame("MESSAGE_CREATE", chat.message(), sizes) for _ in range(count)]

    for cache in (DEFAULT_CACHE, None):
        use_cache(bot, cache)
        gateway = Gateway(bot)
        await timed(gateway, frames_of(gateway, WARM_UP))
        for _ in range(config.repeat):
            gc.collect()
            stages: list[tuple[str, dict[str, bool]]] = [
                ("Message", {"dispatch": False}),
                ("total", {}),
            ]
            if cache == DEFAULT_CACHE:
                stages.insert(0, ("frame", {"parse": False}))
            for stage, options in stages:
                plain: list[bytes]
                if stage == "frame":  # the same bytes, in a stream of their own
                    stream = Gateway(bot)
                    plain = frames_of(stream, config.messages, scenario.frame_bytes)
                else:
                    plain = frames_of(gateway, config.messages)
                figure = await timed(gateway, plain, **options)
                passes.setdefault(f"{stage} {cache}", []).append(figure)
    scenario.stages = {key: statistics.median(values) for key, values in passes.items()}


async def measure_edits(harness: Harness, chat: Chat, config: Config, scenario: Scenario) -> None:
    bot: MagisteriumBot = harness.bot  # type: ignore[assignment]
    for cache in (DEFAULT_CACHE, None):
        use_cache(bot, cache)
        gateway = Gateway(bot)
        await timed(
            gateway, [gateway.frame("MESSAGE_CREATE", chat.message()) for _ in range(WARM_UP)]
        )
        gc.collect()
        edits = [gateway.frame("MESSAGE_UPDATE", chat.edit()) for _ in range(config.edits)]
        scenario.stages[f"edit {cache}"] = await timed(gateway, edits)
        deletes = [
            gateway.frame("MESSAGE_DELETE", chat.delete()) for _ in range(max(1, config.edits // 4))
        ]
        scenario.stages[f"delete {cache}"] = await timed(gateway, deletes)


async def measure_cache_memory(harness: Harness, chat: Chat, scenario: Scenario) -> None:
    """Traced memory with discord.py's cache full (1,000 messages), less without them."""
    bot: MagisteriumBot = harness.bot  # type: ignore[assignment]
    use_cache(bot, DEFAULT_CACHE)
    gateway = Gateway(bot)
    frames = [gateway.frame("MESSAGE_CREATE", chat.message()) for _ in range(DEFAULT_CACHE + 200)]
    tracemalloc.start()
    try:
        await timed(gateway, frames)
        del frames
        gc.collect()
        full = tracemalloc.get_traced_memory()[0]
        messages = bot._connection._messages
        assert messages is not None
        scenario.cache_len = len(messages)
        messages.clear()
        gc.collect()
        scenario.cache_bytes = full - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


async def ask_among_chatter(
    harness: Harness, chat: Chat, config: Config, scenario: Scenario
) -> None:
    """``--mentions`` questions by mention, spread over chatter, with the message cache the
    bot sets (``max_messages``); each must be answered."""
    bot: MagisteriumBot = harness.bot  # type: ignore[assignment]
    askers = [harness.user(name=f"asker{index}") for index in range(config.mentions)]
    for asker in askers:
        await bot.services.registry.link(asker.id, SecretStr(f"pro-bench-{asker.id}"))
    sent_before = len(harness.channel_messages)
    gateway = Gateway(bot)
    mention_ids: set[str] = set()
    frames: list[bytes] = []
    between = max(1, min(config.messages, 2000) // max(1, config.mentions))
    for index, asker in enumerate(askers):
        text = f"<@{harness.bot_user['id']}> {QUESTIONS[index % len(QUESTIONS)]}"
        data, _place = harness.message_create(asker, text)
        mention_ids.add(data["id"])
        frames.append(gateway.frame("MESSAGE_CREATE", data))
        frames += [gateway.frame("MESSAGE_CREATE", chat.message()) for _ in range(between)]
    scenario.asked = len(mention_ids)

    def answered() -> int:
        replies = harness.channel_messages[sent_before:]
        return sum(
            str(((sent.request or {}).get("message_reference") or {}).get("message_id"))
            in mention_ids
            for sent in replies
        )

    all_answered = asyncio.Event()
    http: Any = bot.http
    send_message = http.send_message

    async def counted(channel_id: int, *, params: Any) -> Any:
        # The harness (and dpytest) read the channel from their caller's local ``channel``.
        channel = sys._getframe(1).f_locals.get("channel")  # noqa: F841
        try:
            return await send_message(channel_id, params=params)
        finally:
            if answered() == len(mention_ids):
                all_answered.set()

    http.send_message = counted
    try:
        await feed(gateway, frames)
        with contextlib.suppress(TimeoutError):
            if mention_ids:
                await asyncio.wait_for(all_answered.wait(), SETTLE_SECONDS)
    finally:
        http.send_message = send_message
    scenario.answered = answered()


async def run_scenario(config: Config, workdir: Path, scenario: Scenario, *, memory: bool) -> None:
    fake = FakeMagisterium(latency=0.02)
    async with running_fake_server(fake) as server:
        database = sqlite_url_of(migrate_sqlite(workdir / f"{scenario.name}.db"))
        settings = harness_settings(server.url, database, message_content_intent=scenario.content)
        bot = create_bot(settings)
        async with Harness.start(bot) as harness:
            harness.managed_role()
            chat = Chat(harness, content=scenario.content, seed=config.seed)
            configured = bot._connection.max_messages  # the bot's own max_messages
            with errors_logged() as errors:
                with users_as_without_members_intent(bot):
                    await measure_creates(harness, chat, config, scenario)
                    await measure_edits(harness, chat, config, scenario)
                    if memory:
                        await measure_cache_memory(harness, chat, scenario)
                use_cache(bot, configured)
                await ask_among_chatter(harness, chat, config, scenario)
            scenario.errors = len(errors)


async def bench(config: Config, workdir: Path, *, memory: bool = True) -> list[Scenario]:
    """Both scenarios; ``memory=False`` leaves out the traced pass (tracemalloc)."""
    scenarios = [Scenario("withheld", content=False), Scenario("delivered", content=True)]
    for scenario in scenarios:
        await run_scenario(config, workdir, scenario, memory=memory)
    return scenarios


def report(config: Config, scenarios: list[Scenario]) -> bool:
    print(
        f"{config.messages} ignored MESSAGE_CREATE per pass, median of {config.repeat} passes; "
        f"CPU microseconds per event (cache = discord.py's max_messages)"
    )
    print(
        f"{'content':10} {'frame B':>8} {'inflate+JSON':>13} {'Message':>16} {'dispatch':>16} "
        f"{'total':>16} {'edit':>16} {'delete':>16}"
    )
    for s in scenarios:
        st = s.stages
        size = statistics.median(s.frame_bytes) if s.frame_bytes else float("nan")

        def pair(name: str, base: float = 0.0, st: dict[str, float] = st) -> str:
            values = [st.get(f"{name} {cache}", float("nan")) - base for cache in (1000, None)]
            return f"{values[0]:.1f} / {values[1]:.1f}"

        frame = st.get("frame 1000", float("nan"))
        message = [st.get(f"Message {c}", float("nan")) - frame for c in (1000, None)]
        dispatch = [
            st.get(f"total {c}", float("nan")) - st.get(f"Message {c}", float("nan"))
            for c in (1000, None)
        ]
        print(
            f"{s.name:10} {size:>8.0f} {frame:>13.1f} "
            f"{f'{message[0]:.1f} / {message[1]:.1f}':>16} "
            f"{f'{dispatch[0]:.1f} / {dispatch[1]:.1f}':>16} "
            f"{pair('total'):>16} {pair('edit'):>16} {pair('delete'):>16}"
        )
    print("(each pair: max_messages=1000 / max_messages=None)")
    for s in scenarios:
        if s.cache_len:
            print(
                f"{s.name:10} discord.py's message cache: {s.cache_len} messages hold "
                f"{s.cache_bytes / 1e6:.2f} MB ({s.cache_bytes / s.cache_len / 1000:.1f} kB each)"
            )
    ok = True
    for s in scenarios:
        print(f"{s.name:10} mentions answered among the chatter: {s.answered}/{s.asked}")
        if s.errors:
            print(f"{s.name:10} {s.errors} ERROR records logged")
        ok = ok and s.answered == s.asked and not s.errors
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--messages", type=int, default=Config.messages)
    parser.add_argument("--mentions", type=int, default=Config.mentions)
    parser.add_argument("--repeat", type=int, default=Config.repeat)
    parser.add_argument("--seed", type=int, default=Config.seed)
    args = parser.parse_args()
    config = Config(args.messages, args.mentions, args.repeat, args.seed)
    with tempfile.TemporaryDirectory() as workdir:
        scenarios = asyncio.run(bench(config, Path(workdir)))
    return 0 if report(config, scenarios) else 1


if __name__ == "__main__":
    sys.exit(main())

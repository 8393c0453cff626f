"""The stand-in on a loopback port: REST under ``/api/v10``, the gateway at ``/gateway``.

Tests point the real bot at it with ``DISCORD_API_BASE_URL=<standin.api_base>`` and a token;
the gateway URL reaches the bot the way Discord's does, from ``GET /gateway/bot``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from devtools.discord.fake_discord import FakeDiscord
from devtools.discord.records import Session, StoredMessage
from devtools.discord.wire import JSON, snowflake
from devtools.discord_standin import interactions
from devtools.discord_standin.gateway import Gateway
from devtools.discord_standin.interactions import Commands
from devtools.discord_standin.ratelimits import RateLimits
from devtools.discord_standin.rest import Rest
from devtools.discord_standin.world import (
    GUILD_FORUM,
    GUILD_TEXT,
    Channel,
    Person,
    World,
    shard_of,
)

T = TypeVar("T")
TOKEN = "MTAx.standin.bot-token-not-a-real-one"


class StandInTimeout(AssertionError):
    """What a test waited for did not happen in time."""


@dataclass
class Delivered:
    """An interaction delivered over the gateway: its session in the fake Discord."""

    session: Session
    shard_id: int
    payload: JSON


class StandIn:
    """Discord, for one bot: its world, REST, gateway, and what tests wait for.

    ``privileged_intents`` are the developer portal's switches for the app: by default none, so
    an IDENTIFY asking for a privileged intent is closed with 4014 (Disallowed intents), as
    Discord does; ``StandIn(privileged_intents=MESSAGE_CONTENT_INTENT)`` (``gateway``'s
    constant, ``1 << 15``) allows Message Content, and a session that identified with it then
    gets every server message with its content. ``world.privileged_intents`` can be changed
    between connections.
    """

    def __init__(
        self,
        *,
        token: str = TOKEN,
        recommended_shards: int = 1,
        heartbeat_interval_ms: int = 41_250,
        limits: dict[str, tuple[int, float]] | None = None,
        privileged_intents: int = 0,
    ) -> None:
        self.world = World(
            token=token, application_id=snowflake(), privileged_intents=privileged_intents
        )
        self.fake = FakeDiscord(
            application_id=self.world.application_id, bot_user=self.world.bot_user
        )
        self.commands = Commands(self.world.application_id)
        self.ratelimits = RateLimits(limits)
        self.base_url = ""
        self._changed = asyncio.Event()
        self.gateway = Gateway(
            self.world,
            heartbeat_interval_ms=heartbeat_interval_ms,
            resume_url=lambda: self.ws_base + "/gateway/resume",
            on_change=self.changed,
        )
        self.rest = Rest(
            self.world,
            self.fake,
            self.commands,
            self.ratelimits,
            gateway_url=lambda: self.ws_base + "/gateway",
            recommended_shards=recommended_shards,
            on_change=self.changed,
            on_thread=self._thread_created,
        )
        self.delivered: list[Delivered] = []

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def api_base(self) -> str:
        return self.base_url + "/api/v10"

    @property
    def ws_base(self) -> str:
        return "ws" + self.base_url.removeprefix("http")

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/resume", self.gateway.handle)
        app.add_routes(self.rest.routes())
        return app

    # --- waiting -----------------------------------------------------------------------------

    def changed(self) -> None:
        self._changed.set()

    # Waits take `timeout` so that their error can say what was awaited, and for how long.
    async def until(self, check: Callable[[], T | None], *, timeout: float, what: str) -> T:
        """Await ``check()`` becoming truthy (re-checked at every request and gateway event)."""
        try:
            async with asyncio.timeout(timeout):
                while not (result := check()):
                    self._changed.clear()
                    await self._changed.wait()
                return result
        except TimeoutError:
            raise StandInTimeout(f"after {timeout} s still waiting for {what}") from None

    async def connected(self, shard_ids: set[int], *, timeout: float = 60.0) -> None:
        """Until each of ``shard_ids`` has identified (and so got READY and its guilds)."""
        await self.until(
            lambda: shard_ids <= set(self.gateway.owner),
            timeout=timeout,
            what=f"shards {sorted(shard_ids)} to identify",
        )

    # --- acting as Discord's users -----------------------------------------------------------

    async def slash(
        self, person: Person, channel: Channel, command: str, **options: Any
    ) -> Delivered:
        data = self.commands.data(command, options)
        return await self._deliver(person, channel, interactions.APPLICATION_COMMAND, data)

    async def click(self, person: Person, message: StoredMessage, custom_id: str) -> Delivered:
        channel = self.world.channels[message.place.channel_id]
        data = interactions.click_data(message.data, custom_id)
        return await self._deliver(
            person, channel, interactions.MESSAGE_COMPONENT, data, message=message.data
        )

    async def _deliver(
        self,
        person: Person,
        channel: Channel,
        kind: int,
        data: JSON,
        *,
        message: JSON | None = None,
    ) -> Delivered:
        payload, session = interactions.interaction(
            self.world, person, channel, kind, data, message=message
        )
        self.fake.open(session)
        shard_id = self.shard_for(channel)
        await self.gateway.to_shard(shard_id, "INTERACTION_CREATE", payload)
        delivered = Delivered(session, shard_id, payload)
        self.delivered.append(delivered)
        return delivered

    async def dm(self, person: Person, content: str) -> Channel:
        """``person`` writes ``content`` to the bot in their DM (MESSAGE_CREATE on shard 0)."""
        channel = self.world.dm_channel(person.payload())
        data = interactions.dm_message(self.world, person, channel, content)
        channel.messages.append(data)
        await self.gateway.to_shard(0, "MESSAGE_CREATE", data)
        return channel

    async def say(
        self,
        person: Person,
        channel: Channel,
        content: str,
        *,
        mention_bot: bool = False,
        mention_role: bool = False,
        reply_to: JSON | None = None,
    ) -> JSON:
        """``person`` writes ``content`` in a server ``channel`` or thread (MESSAGE_CREATE on
        the shard that owns it), as Discord sends it: with ``mention_bot``, ``<@bot> `` before
        the text and the bot in ``mentions``; with ``mention_role``, ``<@&role> `` (the bot's
        managed role in that server, as Discord's mention picker often offers it) and the role
        in ``mention_roles``, the bot not in ``mentions``; with ``reply_to`` (a message), a
        reply to it (``message_reference`` and ``referenced_message``, its author in
        ``mentions``, as Discord's default "@ON" adds). The session reads it as its intents
        allow (see ``gateway.readable``: without the Message Content intent the content is
        withheld unless the bot itself is mentioned). The message as stored (all of it)."""
        data = self._member_message(person, channel, content, mention_bot, mention_role)
        if reply_to is not None:
            data["type"] = 19  # REPLY
            data["message_reference"] = {
                "type": 0,
                "message_id": reply_to["id"],
                "channel_id": str(channel.id),
                "guild_id": str(channel.guild_id),
            }
            data["referenced_message"] = reply_to
            if reply_to["author"] not in data["mentions"]:
                data["mentions"].append(reply_to["author"])
        channel.add(data)
        await self.gateway.to_shard(self.shard_for(channel), "MESSAGE_CREATE", data)
        return data

    def _member_message(
        self,
        person: Person,
        channel: Channel,
        content: str,
        mention_bot: bool,
        mention_role: bool,
        *,
        message_id: int | None = None,
    ) -> JSON:
        if channel.guild_id is None:
            raise ValueError("say() writes in a server; use dm() for a DM")
        bot = self.world.bot_user
        role_id = self.world.guilds[channel.guild_id].bot_role_id
        prefix = (f"<@{bot['id']}> " if mention_bot else "") + (
            f"<@&{role_id}> " if mention_role else ""
        )
        data = interactions.guild_message(self.world, person, channel, prefix + content)
        if message_id is not None:
            data["id"] = str(message_id)
        data["mentions"] = [bot] if mention_bot else []
        data["mention_roles"] = [str(role_id)] if mention_role else []
        return data

    async def post_in_forum(
        self,
        person: Person,
        forum: Channel,
        title: str,
        content: str,
        *,
        mention_bot: bool = False,
        mention_role: bool = False,
    ) -> tuple[Channel, JSON]:
        """``person`` posts in ``forum`` (``world.add_forum``) as Discord's client does: a
        public thread named ``title``, owned by them, whose starter message (``content``) has
        the thread's id as its own id and as its ``channel_id``. THREAD_CREATE (the thread,
        ``newly_created``) then MESSAGE_CREATE (the starter, read as the intents allow), on the
        shard that owns the server. (The post, its starter message as stored.)"""
        if forum.type != GUILD_FORUM:
            raise ValueError(f"channel {forum.id} is not a forum (type {forum.type})")
        thread = self.world.add_thread(forum, title, snowflake(), owner_id=person.id)
        starter = self._member_message(
            person, thread, content, mention_bot, mention_role, message_id=thread.id
        )
        thread.add(starter)
        shard_id = self.shard_for(forum)
        await self.gateway.to_shard(
            shard_id, "THREAD_CREATE", {**thread.payload(), "newly_created": True}
        )
        await self.gateway.to_shard(shard_id, "MESSAGE_CREATE", starter)
        return thread, starter

    async def start_thread(self, person: Person, message: JSON, name: str) -> Channel:
        """``person`` starts a thread on ``message`` (in a text channel), as Discord's client
        does: the thread takes the message's id; THREAD_CREATE, then MESSAGE_UPDATE of the
        message with its ``thread``. The thread, to :meth:`say` in."""
        parent = self.world.channels[int(message["channel_id"])]
        if parent.type != GUILD_TEXT or message.get("thread"):
            raise ValueError(f"no thread can be started on message {message['id']}")
        thread = self.world.add_thread(parent, name, int(message["id"]), owner_id=person.id)
        message["thread"] = thread.payload()
        await self._thread_created(message["thread"], message)
        return thread

    def shard_for(self, channel: Channel) -> int:
        count = self.gateway.shard_count or 1
        return shard_of(channel.guild_id, count)

    async def _thread_created(self, thread: JSON, source: JSON) -> None:
        """A thread started on ``source``: THREAD_CREATE, then MESSAGE_UPDATE of the message
        (now with its ``thread``), as Discord's "Start Thread from Message" fires them."""
        guild_id = int(thread["guild_id"])
        shard_id = shard_of(guild_id, self.gateway.shard_count or 1)
        with contextlib.suppress(LookupError):  # nobody connected: nobody is told
            await self.gateway.to_shard(
                shard_id, "THREAD_CREATE", {**thread, "newly_created": True}
            )
            await self.gateway.to_shard(shard_id, "MESSAGE_UPDATE", source)

    # --- reading answers ---------------------------------------------------------------------

    def answer(self, delivered: Delivered) -> list[StoredMessage] | None:
        """The interaction's visible messages once it is answered (nothing still "thinking")."""
        session = delivered.session
        if not session.acknowledged:
            return None
        shown = [
            self.fake.messages[i]
            for i in session.message_ids
            if i in self.fake.messages and not self.fake.messages[i].deleted
        ]
        if not shown or any(m.loading for m in shown):
            return None
        return shown

    async def answered(self, delivered: Delivered, *, timeout: float = 30.0) -> list[StoredMessage]:
        return await self.until(
            lambda: self.answer(delivered),
            timeout=timeout,
            what=f"an answer to interaction {delivered.session.interaction_id}",
        )

    async def replies_in(
        self, channel: Channel, count: int, *, timeout: float = 30.0
    ) -> list[JSON]:
        """Until the bot has written ``count`` messages in ``channel``; those messages."""
        bot_id = str(self.world.application_id)

        def mine() -> list[JSON] | None:
            sent = [m for m in channel.messages if m["author"]["id"] == bot_id]
            return sent if len(sent) >= count else None

        return await self.until(mine, timeout=timeout, what=f"{count} bot messages in {channel.id}")

    def double_acknowledgements(self) -> list[str]:
        """Interactions the bot tried to acknowledge twice (Discord's 40060)."""
        return [
            r.path
            for r in self.fake.requests
            if r.error is not None and r.error.get("code") == 40060
        ]


@asynccontextmanager
async def running_standin(
    standin: StandIn | None = None, *, host: str = "127.0.0.1", port: int = 0
) -> AsyncIterator[StandIn]:
    """Serve ``standin`` (a new one when None) on host:port (0: a free port)."""
    standin = standin or StandIn()
    runner = web.AppRunner(standin.app(), shutdown_timeout=0.5, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    server = site._server
    assert server is not None
    sockets = getattr(server, "sockets", None) or []
    bound_port = sockets[0].getsockname()[1]
    standin.base_url = f"http://{host}:{bound_port}"
    try:
        yield standin
    finally:
        await runner.cleanup()

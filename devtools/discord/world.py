"""dpytest's fake gateway and state under our AutoShardedBot.

``discord.ext.test.runner.configure`` refuses AutoShardedClient ("Sharded clients not yet
supported"), so this module configures dpytest's *backend* directly and makes the adjustments
a sharded client needs. Each one, and why:

1. Members intent. dpytest caches members through GUILD_MEMBER_ADD, which needs the ``joined``
   member-cache flag, which needs the members intent when the state is built. The intent is
   switched on for the construction only; the fake state then gets the bot's real intents back
   (guilds, guild_messages, dm_messages) and keeps only the ``joined`` cache flag, so
   ``bot.intents`` and intent-guarded calls (``guild.chunk``, ``fetch_members``) still behave
   as in production.
2. Connection-state swap. ``backend.configure`` replaces ``bot._connection`` with a fresh
   ``FakeState`` (a plain ``ConnectionState``, not ``AutoShardedConnectionState``). Rebound or
   carried over from the old state: the command tree (``state._command_tree``, ``tree._state``,
   ``tree._http``), ``application_id`` (= the fake bot user's id, as for real applications),
   ``allowed_mentions`` (AllowedMentions.none() for this bot), the tree's translator, and
   every view and DynamicItem already in the view store (persistent views from setup_hook).
3. Shards. An AutoShardedClient keeps its websockets in ``_AutoShardedClient__shards``, filled
   by ``launch_shards`` on connect; empty, ``bot.shards`` is ``{}``, ``bot.latency`` is NaN
   and ``bot._get_websocket`` raises KeyError. The harness registers one ``discord.shard.Shard``
   per shard id (``shard_count`` defaults to 1, as ``launch_shards`` would set it), each on a
   copy of dpytest's FakeWebSocket, and points the state's ``_get_websocket`` at the bot's own
   (dpytest's replacement only accepts one positional argument).
4. Close. dpytest's FakeWebSocket is built with ``socket=None``, so ``ws.open`` and
   ``ws.close()`` raise AttributeError. Each websocket gets a closed socket stub;
   ``AutoShardedClient.close`` closes every shard and needs the queue that
   ``_async_setup_hook`` creates, so that hook always runs first.
5. Readiness. ``bot._ready`` is set: interactions only ever arrive after READY.
6. Background. The bot's ``tasks.loop``s are cancelled (they tick on the real clock), and the
   old HTTP client's close task, started by ``backend.configure``, is awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import discord
from discord.ext import commands
from discord.ext.test import backend
from discord.shard import Shard
from discord.state import ConnectionState

from devtools.discord.tasks import cancel_loops
from devtools.discord.wire import JSON, member_payload, user_payload_of

AnyBot = commands.Bot | commands.AutoShardedBot
ChannelSendHook = Callable[[Any, JSON, JSON, list[discord.File]], None]


class ClosedSocket:
    """Stands in for the aiohttp websocket dpytest's FakeWebSocket never had."""

    closed = True

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        return False


def _carry_over(old: ConnectionState[Any], new: ConnectionState[Any], bot: AnyBot) -> None:
    new._command_tree = bot.tree
    bot.tree._state = new
    bot.tree._http = bot.http
    new.application_id = old.application_id or (new.user.id if new.user else None)
    new.allowed_mentions = old.allowed_mentions
    new._translator = old._translator
    new.loop = old.loop  # `channel.typing()` and other helpers schedule on the state's loop
    # discord.py's message cache as the bot sets it (dpytest's state would keep 1,000 messages).
    new.max_messages = old.max_messages
    new._messages = None if old.max_messages is None else deque(maxlen=old.max_messages)
    store, fresh = old._view_store, new._view_store
    for message_id, items in store._views.items():
        views = {id(item.view): item.view for item in items.values() if item.view is not None}
        for view in views.values():
            fresh.add_view(view, message_id)
    fresh.add_dynamic_items(*store._dynamic_items.values())
    for modal in store._modals.values():
        fresh.add_view(modal)


def _register_shards(bot: AnyBot, new: ConnectionState[Any]) -> None:
    ws = bot.ws
    ws.socket = ClosedSocket()  # type: ignore[assignment]
    if not isinstance(bot, discord.AutoShardedClient):
        new._get_websocket = lambda guild_id=None, *, shard_id=None: ws
        return
    if bot.shard_count is None:
        bot.shard_count = 1
    new.shard_count = bot.shard_count
    bot._reconnect = False  # read by Shard(); normally set by connect()
    queue = bot._AutoShardedClient__queue  # type: ignore[attr-defined]
    shards: dict[int, Shard] = bot._AutoShardedClient__shards  # type: ignore[attr-defined]
    for shard_id in bot.shard_ids or range(bot.shard_count):
        shard_ws = copy.copy(ws)
        shard_ws.shard_id = shard_id
        shards[shard_id] = Shard(shard_ws, bot, queue.put_nowait)
    new._get_websocket = bot._get_websocket


async def configure(bot: AnyBot) -> ConnectionState[Any]:
    """Swap dpytest's backend in under ``bot`` (any Client, sharded or not); return its state."""
    await bot._async_setup_hook()
    old: ConnectionState[Any] = bot._connection
    real_intents = old._intents.value
    old._intents.members = True
    old.member_cache_flags = discord.MemberCacheFlags.from_intents(old._intents)
    before = asyncio.all_tasks()
    backend.configure(bot)
    await asyncio.gather(*(asyncio.all_tasks() - before))  # the old HTTP client's close()
    new: ConnectionState[Any] = bot._connection
    new._intents = discord.Intents._from_value(real_intents)
    _carry_over(old, new, bot)
    _register_shards(bot, new)
    bot._ready.set()
    return new


@contextlib.contextmanager
def silently() -> Iterator[ConnectionState[Any]]:
    """The fake state with event dispatch paused (dpytest's switch): world-building only."""
    state = backend.get_state()
    state.stop_dispatch()
    try:
        yield state
    finally:
        state.start_dispatch()


def add_member(state: ConnectionState[Any], user: JSON, guild: discord.Guild) -> None:
    """GUILD_MEMBER_ADD for ``user`` (cached thanks to the ``joined`` member-cache flag)."""
    data: Any = {**member_payload(user), "guild_id": str(guild.id)}
    state.parse_guild_member_add(data)


def build_guild(bot: AnyBot, name: str, channel_name: str) -> discord.TextChannel:
    """A guild with the bot as a member and one text channel, built silently (no events)."""
    with silently() as state:
        guild = backend.make_guild(name)
        assert state.user is not None
        add_member(state, user_payload_of(state.user), guild)
        channel: discord.TextChannel = backend.make_text_channel(channel_name, guild)
    return channel


_dpytest_make_message = backend.make_message


def _make_message(
    content: str,
    author: Any,
    channel: Any,
    tts: bool = False,
    embeds: Any = None,
    attachments: Any = None,
    nonce: int | None = None,
    id_num: int = -1,
) -> discord.Message:
    """dpytest's ``make_message`` (a message the bot sends, or dpytest's own) for a bot that
    keeps no message (``max_messages=None``): dpytest reads the message it has just parsed
    back from discord.py's cache, so without one it is rebuilt from what dpytest recorded."""
    message: discord.Message | None = _dpytest_make_message(
        content, author, channel, tts, embeds, attachments, nonce, id_num
    )
    if message is None and backend._cur_config is not None:
        data: Any = backend._cur_config.messages[channel.id][-1]
        message = discord.Message(state=backend.get_state(), channel=channel, data=data)
    assert message is not None, "dpytest made no message"
    return message


backend.make_message = _make_message


def record_channel_sends(
    bot: AnyBot, hook: ChannelSendHook, before: Callable[[int], None] | None = None
) -> None:
    """Call ``hook(channel, request payload, answer, files)`` for every ``channel.send``.

    dpytest keeps only content and embeds of a sent message (components are dropped) and
    finds the channel by reading its caller's ``channel`` local: this wrapper keeps that local
    for it, and hands the full payload (components included) to the hook. ``before(channel
    id)`` runs first and may raise the HTTP error Discord would answer.
    """
    http = bot.http
    original = http.send_message

    async def send_message(channel_id: int, *, params: Any) -> JSON:
        if before is not None:
            before(channel_id)
        channel = sys._getframe(1).f_locals.get("channel")  # dpytest reads this local
        answer: JSON = dict(await original(channel_id, params=params))
        hook(channel, dict(params.payload or {}), answer, list(params.files or []))
        return answer

    http.send_message = send_message  # type: ignore[method-assign,assignment]


async def teardown(bot: AnyBot) -> None:
    """Stop views and modals (their timeout tasks), cancel loops, close the bot."""
    store = bot._connection._view_store
    views: dict[int, Any] = {}
    for items in store._views.values():
        for item in items.values():
            if item.view is not None:
                views[id(item.view)] = item.view
    for view in [*views.values(), *store._modals.values()]:
        view.stop()
    cancel_loops([bot, *bot.cogs.values()])
    await bot.close()

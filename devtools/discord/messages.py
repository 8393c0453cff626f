"""Plain messages: what users write to the bot (DMs, guild channels) and what it sends there.

A user's message goes through discord.py's MESSAGE_CREATE parser; everything the bot sends with
``channel.send``/``user.send`` is recorded (``world.record_channel_sends``) and stored in the
fake Discord, so its components can be clicked like an interaction's.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import discord
from discord.ext.test import backend, factories
from discord.webhook.async_ import async_context

from devtools.discord import world
from devtools.discord.core import UserLike
from devtools.discord.dispatch import Dispatcher
from devtools.discord.fake_discord import read_file
from devtools.discord.records import StoredMessage, http_error
from devtools.discord.results import MessageExchange, SentMessage
from devtools.discord.tasks import cancel_loops, collect_logs, settle
from devtools.discord.wire import (
    BOT_DM,
    GUILD,
    JSON,
    HarnessUser,
    Place,
    dm_channel_payload,
    guild_channel_payload,
    member_payload,
    message_payload,
    snowflake,
)


class MessagesMixin(Dispatcher):
    """Users' messages to the bot, and the messages the bot sent outside interactions."""

    async def dm_message(self, user: UserLike, content: str) -> MessageExchange:
        """``user`` writes ``content`` to the bot in their DM; await the bot's handling."""
        actor = self._as_user(user)
        channel = dm_channel_payload(self._dm_channels[actor.id], [actor.payload()])
        return await self._message_create(actor, content, Place(BOT_DM, channel))

    async def post(
        self, user: UserLike, content: str, *, channel: discord.TextChannel | None = None
    ) -> MessageExchange:
        """``user`` writes ``content`` in a guild text channel (default: :attr:`channel`)."""
        actor = self._as_user(user)
        target = channel or self.channel
        self._ensure_member(actor, target.guild)
        place = Place(GUILD, guild_channel_payload(target), target.guild)
        return await self._message_create(actor, content, place)

    async def _message_create(
        self, user: HarnessUser, content: str, place: Place
    ) -> MessageExchange:
        message_id = snowflake()
        data = message_payload(
            message_id=message_id, place=place, author=user.payload(), body={"content": content}
        )
        if place.guild is not None:
            data["member"] = member_payload(user.payload(), with_user=False)
        dpytest = backend._cur_config  # dpytest's history, for fetch_message/history
        assert dpytest is not None
        dpytest.messages.setdefault(place.channel_id, []).append({**data, "id": message_id})
        self._posted[message_id] = (data, place)
        sent_before = len(self._channel_sent)
        logs: list[Any] = []
        before = asyncio.all_tasks()
        with collect_logs(logs):
            context = async_context.set(self.adapter)
            try:
                self.state.parsers["MESSAGE_CREATE"](copy.deepcopy(data))
            finally:
                async_context.reset(context)
            await settle(before, prefixes=self.task_prefixes, guard_seconds=self.settle_timeout)
        self._check_ignored(logs)
        message = self.state._get_message(message_id)
        if message is None:
            channel = self.bot.get_channel(place.channel_id)
            message = discord.Message(
                state=self.state,
                channel=channel,  # type: ignore[arg-type]
                data=data,  # type: ignore[arg-type]
            )
        return MessageExchange(message, data, self._channel_sent[sent_before:], logs)

    def existing_message(
        self,
        *,
        content: str = "",
        embeds: list[JSON] | None = None,
        components: list[JSON] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> SentMessage:
        """A message the bot sent before this process started (no view is stored for it):
        for persistent views and DynamicItems after a restart."""
        target = channel or self.channel
        place = Place(GUILD, guild_channel_payload(target), target.guild)
        body = {"content": content, "embeds": embeds or [], "components": components or []}
        message_id = snowflake()
        data = message_payload(message_id=message_id, place=place, author=self.bot_user, body=body)
        return SentMessage(self.fake.store(StoredMessage(message_id, data, place)))

    def fail_channel_sends(
        self,
        status: int,
        code: int,
        message: str = "",
        *,
        channel: discord.abc.Snowflake | None = None,
        times: int = 1,
    ) -> None:
        """The next ``times`` ``channel.send`` calls (to ``channel``, or anywhere) get Discord's
        HTTP ``status`` with JSON error ``code`` — 404/10003 Unknown Channel, 403/50013 Missing
        Permissions, 500/0… — as discord.py would raise it (after its own retries)."""
        key = channel.id if channel is not None else None
        self._send_failures.setdefault(key, []).extend([(status, code, message)] * times)

    def _before_channel_send(self, channel_id: int) -> None:
        for key in (channel_id, None):
            queue = self._send_failures.get(key)
            if queue:
                status, code, message = queue.pop(0)
                raise http_error(status, code, message)

    def set_permissions(
        self,
        channel: discord.abc.GuildChannel,
        target: discord.Member | discord.Role,
        **flags: bool | None,
    ) -> None:
        """A CHANNEL_UPDATE giving ``channel`` an overwrite for ``target`` (``embed_links=False``
        denies, ``True`` allows, ``None`` inherits), replacing its previous one.

        Not dpytest's ``update_text_channel``: it writes a member overwrite's type as "member",
        which discord.py 2 ignores (it reads 0 for a role, 1 for a member).
        """
        allow, deny = discord.PermissionOverwrite(**flags).pair()
        data: Any = factories.dict_from_channel(channel)
        kinds = {"role": 0, "member": 1}
        kept = [
            {**o, "type": kinds.get(o["type"], o["type"])}
            for o in data.get("permission_overwrites", [])
            if int(o["id"]) != target.id
        ]
        kept.append(
            {
                "id": str(target.id),
                "type": 1 if isinstance(target, discord.Member) else 0,
                "allow": str(allow.value),
                "deny": str(deny.value),
            }
        )
        data["permission_overwrites"] = kept
        with world.silently() as state:
            state.parse_channel_update(data)

    async def gateway(self, event: str, data: JSON) -> None:
        """A gateway dispatch (``GUILD_DELETE``, ``CHANNEL_DELETE``…) through discord.py's
        parser; awaits the listeners it starts."""
        before = asyncio.all_tasks()
        logs: list[Any] = []
        with collect_logs(logs):
            self.state.parsers[event](copy.deepcopy(data))
            await settle(before, prefixes=self.task_prefixes, guard_seconds=self.settle_timeout)
        self._check_ignored(logs)

    async def reload_extension(self, name: str) -> None:
        """A restart of one extension: a new cog with nothing remembered in memory (its
        ``tasks.loop``s are cancelled again, as at start)."""
        await self.bot.reload_extension(name)
        cancel_loops(list(self.bot.cogs.values()))

    @property
    def channel_messages(self) -> list[SentMessage]:
        """Everything the bot sent with ``channel.send``/``user.send``, oldest first."""
        return list(self._channel_sent)

    def messages_in(self, channel: discord.abc.Snowflake | int) -> list[SentMessage]:
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self._channel_sent if m.place.channel_id == channel_id]

    def dm_messages(self, user: UserLike) -> list[SentMessage]:
        """What the bot sent to ``user``'s DM channel."""
        return self.messages_in(self._dm_channels[self._as_user(user).id])

    def _on_channel_send(
        self, channel: Any, payload: JSON, answer: JSON, files: list[discord.File]
    ) -> None:
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            place = Place(GUILD, guild_channel_payload(channel), channel.guild)
        else:  # a DM: discord.py's DMChannel may not know its recipient, the harness does
            recipients = [
                self._users[user_id].payload()
                for user_id, channel_id in self._dm_channels.items()
                if channel_id == channel.id
            ]
            place = Place(BOT_DM, dm_channel_payload(channel.id, recipients))
        recorded = [read_file(f) for f in files]
        body = {**payload, "attachments": answer.get("attachments") or []}
        data = message_payload(
            message_id=int(answer["id"]), place=place, author=self.bot_user, body=body
        )
        stored = self.fake.store(StoredMessage(int(answer["id"]), data, place))
        self._channel_sent.append(SentMessage(stored, recorded, request=dict(payload)))

"""Plain messages: what users write to the bot (DMs, guild channels) and what it sends there.

A user's message goes through discord.py's MESSAGE_CREATE parser; everything the bot sends with
``channel.send``/``user.send`` is recorded (``world.record_channel_sends``) and stored in the
fake Discord, so its components can be clicked like an interaction's.

Server messages are built as Discord sends them to an app without the Message Content intent
(:meth:`MessagesMixin.message`): ``mentions`` and ``mention_roles`` read from the text, a reply's
``message_reference`` and ``referenced_message`` (and its author's mention, Discord's default
"ping on reply"), and the text, embeds, attachments and components withheld unless the bot is
mentioned (``content_for_role_mentions`` decides for a mention of its role alone).
"""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any

import discord
from discord.ext.test import backend, factories
from discord.webhook.async_ import async_context

from bot.app.invite import BOT_PERMISSIONS as INVITE_PERMISSIONS
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
    thread_payload,
    user_payload,
)

_USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
_ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")
REPLY = 19  # MessageType.reply
MessagePlace = discord.TextChannel | discord.VoiceChannel | discord.Thread
ReplyTarget = SentMessage | MessageExchange | discord.Message | int


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

    async def message(
        self,
        user: UserLike,
        content: str = "",
        *,
        channel: MessagePlace | None = None,
        reply_to: ReplyTarget | None = None,
        ping: bool = True,
        message_id: int | None = None,
        author_is_bot: bool = False,
        webhook_id: int | None = None,
        message_type: int | None = None,
        extra: JSON | None = None,
    ) -> MessageExchange:
        """``user`` writes ``content`` (see :meth:`message_create`); await the bot's handling."""
        data, place = self.message_create(
            user,
            content,
            channel=channel,
            reply_to=reply_to,
            ping=ping,
            message_id=message_id,
            author_is_bot=author_is_bot,
            webhook_id=webhook_id,
            message_type=message_type,
            extra=extra,
        )
        return await self._dispatch_message(data, place)

    def message_create(
        self,
        user: UserLike,
        content: str = "",
        *,
        channel: MessagePlace | None = None,
        reply_to: ReplyTarget | None = None,
        ping: bool = True,
        message_id: int | None = None,
        author_is_bot: bool = False,
        webhook_id: int | None = None,
        message_type: int | None = None,
        extra: JSON | None = None,
    ) -> tuple[JSON, Place]:
        """The MESSAGE_CREATE payload of ``user`` writing ``content`` in a server channel,
        thread, forum post or voice chat (default: :attr:`channel`), and where it is, as
        Discord sends it to the bot (the caller dispatches it): ``mentions`` and
        ``mention_roles`` from the text (``<@id>``, ``<@&id>``), ``mention_everyone`` for
        @everyone/@here; with ``reply_to``, a reply (type 19) carrying ``message_reference``
        and ``referenced_message`` (null for a bare id: a deleted message) that mentions the
        replied author when ``ping``. The text is withheld as Discord withholds it from an app
        without the Message Content intent. ``author_is_bot``/``webhook_id``/``message_type``:
        messages of bots, webhooks and the system. ``extra``: fields set last, as given."""
        actor = self._as_user(user)
        target = channel or self.channel
        place = Place(GUILD, guild_channel_payload(target), target.guild)
        if author_is_bot:  # another app, named after ``user`` (discord.py caches users by id)
            author = user_payload(snowflake(), f"{actor.name}-bot", bot=True)
        else:
            self._ensure_member(actor, target.guild)
            author = user_payload(actor.id, actor.name, global_name=actor.global_name)
        data = message_payload(
            message_id=message_id or snowflake(),
            place=place,
            author=author,
            body={"content": content},
            message_type=message_type if message_type is not None else (REPLY if reply_to else 0),
        )
        mentioned = self._mentioned_users(content)
        if reply_to is not None:
            replied = self._replied(reply_to, target)
            data["message_reference"] = {
                "type": 0,
                "message_id": str(replied[0]),
                "channel_id": str(target.id),
                "guild_id": str(target.guild.id),
            }
            data["referenced_message"] = replied[1]
            replied_author = (replied[1] or {}).get("author")
            if ping and replied_author and replied_author["id"] != author["id"]:
                mentioned.setdefault(int(replied_author["id"]), replied_author)
        data["mentions"] = list(mentioned.values())
        data["mention_roles"] = _ROLE_MENTION.findall(content)
        data["mention_everyone"] = "@everyone" in content or "@here" in content
        if webhook_id is not None:
            data["webhook_id"] = str(webhook_id)
        else:
            data["member"] = member_payload(author, with_user=False)
        if not self._content_delivered(data):
            data.update(content="", embeds=[], attachments=[], components=[])
        data.update(extra or {})
        return data, place

    async def mention(
        self,
        user: UserLike,
        text: str = "",
        *,
        channel: MessagePlace | None = None,
        role: discord.Role | None = None,
        message_id: int | None = None,
    ) -> MessageExchange:
        """``user`` mentions the bot (or ``role``, its managed role) followed by ``text``."""
        me = f"<@&{role.id}>" if role is not None else f"<@{self.bot_user['id']}>"
        return await self.message(
            user, f"{me} {text}".rstrip(), channel=channel, message_id=message_id
        )

    async def reply(
        self,
        user: UserLike,
        target: ReplyTarget,
        text: str,
        *,
        ping: bool = True,
        channel: MessagePlace | None = None,
        message_id: int | None = None,
    ) -> MessageExchange:
        """``user`` replies to ``target`` with ``text``, the way Discord's client does (it
        mentions the replied author unless ``ping`` is turned off)."""
        where = channel or self._channel_of(target)
        return await self.message(
            user, text, channel=where, reply_to=target, ping=ping, message_id=message_id
        )

    def thread(
        self,
        name: str = "thread",
        *,
        parent: discord.TextChannel | discord.ForumChannel | None = None,
        owner: UserLike | None = None,
        thread_id: int | None = None,
    ) -> discord.Thread:
        """A public thread (a forum post in a forum) in the bot's cache, as THREAD_CREATE puts
        it there; made by ``owner`` (default: the bot). A thread started on a message has that
        message's id (``thread_id``)."""
        channel = parent or self.channel
        owner_id = self._as_user(owner).id if owner is not None else int(self.bot_user["id"])
        data: Any = {
            **thread_payload(
                thread_id or snowflake(), parent=channel, name=name, owner_id=owner_id
            ),
            "newly_created": True,
        }
        with world.silently() as state:
            state.parse_thread_create(data)
        thread = channel.guild.get_thread(int(data["id"]))
        assert thread is not None
        return thread

    def make_forum_channel(self, name: str = "forum") -> discord.ForumChannel:
        data: Any = {
            "id": str(snowflake()),
            "type": 15,
            "guild_id": str(self.guild.id),
            "name": name,
            "position": len(self.guild.channels) + 1,
            "permission_overwrites": [],
            "available_tags": [],
            "flags": 0,
        }
        with world.silently() as state:
            state.parse_channel_create(data)
        channel = self.guild.get_channel(int(data["id"]))
        assert isinstance(channel, discord.ForumChannel)
        return channel

    def make_voice_channel(self, name: str = "voice") -> discord.VoiceChannel:
        with world.silently():
            return backend.make_voice_channel(name, self.guild)

    def managed_role(self, name: str | None = None) -> discord.Role:
        """The role Discord makes for the bot when it joins a server through its install link:
        named after it, tagged with its id (``tags.bot_id``), holding the link's permissions
        (``bot.app.invite``; Send Messages in Threads among them) and given to the bot."""
        role_id = snowflake()
        permissions = str(INVITE_PERMISSIONS.value)
        data: Any = {
            "guild_id": str(self.guild.id),
            "role": {
                "id": str(role_id),
                "name": name or str(self.bot_user["username"]),
                "color": 0,
                "hoist": False,
                "position": 1,
                "permissions": permissions,
                "managed": True,
                "mentionable": True,
                "tags": {"bot_id": str(self.bot_user["id"])},
                "flags": 0,
            },
        }
        me = self.guild.me
        roles = [str(r.id) for r in me.roles if not r.is_default()] + [str(role_id)]
        member: Any = {
            **member_payload(self.bot_user),
            "guild_id": str(self.guild.id),
            "roles": roles,
        }
        with world.silently() as state:
            state.parse_guild_role_create(data)
            state.parse_guild_member_update(member)
        role = self.guild.get_role(role_id)
        assert role is not None and role in self.guild.me.roles
        return role

    async def delete_message(self, message_id: int, *, channel: MessagePlace | None = None) -> None:
        """MESSAGE_DELETE for ``message_id`` (its author or a moderator deleted it)."""
        target = channel or self.channel
        data = {
            "id": str(message_id),
            "channel_id": str(target.id),
            "guild_id": str(target.guild.id),
        }
        await self.gateway("MESSAGE_DELETE", data)

    async def edit_message(self, message_id: int, content: str) -> None:
        """MESSAGE_UPDATE: the author edits a message they posted through the harness (Discord
        sends the whole message, marked edited)."""
        data, _place = self._posted[message_id]
        edited = {
            **copy.deepcopy(data),
            "content": content,
            "edited_timestamp": discord.utils.utcnow().isoformat(),
        }
        await self.gateway("MESSAGE_UPDATE", edited)

    def _mentioned_users(self, content: str) -> dict[int, JSON]:
        """The users ``<@id>`` in ``content`` names, as Discord lists them (known users only)."""
        found: dict[int, JSON] = {}
        bot_id = int(self.bot_user["id"])
        for raw in _USER_MENTION.findall(content):
            user_id = int(raw)
            if user_id == bot_id:
                found[user_id] = self.bot_user
            elif user_id in self._users:
                found[user_id] = self._users[user_id].payload()
        return found

    def _content_delivered(self, data: JSON) -> bool:
        """Whether Discord sends this message's text to the bot (Discord's gateway docs, and
        docs/operating/running.md, "Discord application")."""
        if self.bot.intents.message_content:
            return True
        bot_id = self.bot_user["id"]
        if any(str(user["id"]) == str(bot_id) for user in data["mentions"]):
            return True
        own_role = self.guild.self_role
        role_mentioned = own_role is not None and str(own_role.id) in data["mention_roles"]
        return role_mentioned and self.content_for_role_mentions

    def _replied(self, target: ReplyTarget, channel: MessagePlace) -> tuple[int, JSON | None]:
        """The replied message's id and its payload (None: deleted, as Discord sends it)."""
        if isinstance(target, int):
            return target, None
        if isinstance(target, SentMessage):
            return target.id, target.payload
        if isinstance(target, MessageExchange):
            return target.message.id, copy.deepcopy(target.payload)
        stored = self._posted.get(target.id)
        if stored is not None:
            return target.id, copy.deepcopy(stored[0])
        return target.id, None

    def _channel_of(self, target: ReplyTarget) -> MessagePlace | None:
        channel_id = None
        if isinstance(target, SentMessage):
            channel_id = target.place.channel_id
        elif isinstance(target, MessageExchange):
            channel_id = target.message.channel.id
        elif isinstance(target, discord.Message):
            channel_id = target.channel.id
        found = self.guild.get_channel_or_thread(channel_id) if channel_id else None
        return found if isinstance(found, MessagePlace) else None

    def _record_typing(self) -> None:
        """Every "Typing…" the bot shows is recorded in :attr:`typing_in`."""
        http = self.bot.http

        async def send_typing(channel_id: str | int) -> None:
            self.typing_in.append(int(channel_id))

        http.send_typing = send_typing  # type: ignore[method-assign]

    async def _message_create(
        self, user: HarnessUser, content: str, place: Place
    ) -> MessageExchange:
        data = message_payload(
            message_id=snowflake(), place=place, author=user.payload(), body={"content": content}
        )
        if place.guild is not None:
            data["member"] = member_payload(user.payload(), with_user=False)
        return await self._dispatch_message(data, place)

    async def _dispatch_message(self, data: JSON, place: Place) -> MessageExchange:
        """MESSAGE_CREATE with ``data`` through discord.py's parser; await the bot's handling."""
        message_id = int(data["id"])
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

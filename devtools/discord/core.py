"""The harness's state and its world: users, guilds, channels and where an interaction happens.

:class:`HarnessCore` holds everything the parts of :class:`~devtools.discord.harness.Harness`
share (the bot, its connection state, the fake Discord, the users it knows); the other parts
(``dispatch``, ``app_commands``, ``components``, ``messages``) build on it.
"""

from __future__ import annotations

from typing import Any, cast

import discord
from discord.ext.test import backend
from discord.state import ConnectionState

from devtools.discord import world
from devtools.discord.fake_discord import FakeDiscord, RecordingAdapter
from devtools.discord.inputs import Resolver
from devtools.discord.results import InteractionResult, SentMessage
from devtools.discord.wire import (
    BOT_DM,
    GUILD,
    JSON,
    PRIVATE_CHANNEL,
    HarnessUser,
    Place,
    dm_channel_payload,
    guild_channel_payload,
    snowflake,
    user_payload,
    user_payload_of,
)

UserLike = HarnessUser | discord.abc.User | int
Permissions = discord.Permissions | int | None
MessageTarget = InteractionResult | SentMessage | int


class HarnessError(AssertionError):
    """The test asked for something a Discord user could not do (or got no answer)."""


def resolve_permissions(value: Permissions, default: discord.Permissions) -> discord.Permissions:
    """``value`` as :class:`discord.Permissions`; ``default`` when it is ``None``."""
    if value is None:
        return default
    return value if isinstance(value, discord.Permissions) else discord.Permissions(value)


class HarnessCore:
    """The shared state of a harness and the world its users live in."""

    def __init__(
        self,
        bot: world.AnyBot,
        state: ConnectionState[Any],
        channel: discord.TextChannel,
        *,
        settle_timeout: float,
        task_prefixes: tuple[str, ...],
        raise_ignored: bool,
    ) -> None:
        assert state.user is not None
        self.bot = bot
        self.state = state
        self.guild: discord.Guild = channel.guild
        self.channel: discord.TextChannel = channel
        self.bot_user: JSON = user_payload_of(state.user)
        self.application_id: int = int(state.application_id or state.user.id)
        self.fake = FakeDiscord(application_id=self.application_id, bot_user=self.bot_user)
        self.adapter = RecordingAdapter(self.fake)
        self.results: list[InteractionResult] = []
        self.settle_timeout = settle_timeout
        self.task_prefixes = task_prefixes
        self.raise_ignored = raise_ignored
        self._users: dict[int, HarnessUser] = {}
        self._dm_channels: dict[int, int] = {}
        self._private_channels: dict[int, JSON] = {}
        self._channel_sent: list[SentMessage] = []
        self._send_failures: dict[int | None, list[tuple[int, int, str]]] = {}
        self._posted: dict[int, tuple[JSON, Place]] = {}
        self._command_ids: dict[tuple[str, int, int | None], int] = {}
        self._cdn: dict[str, bytes] = {}
        self._resolver = Resolver(self._as_user, self._ensure_member, self._cdn)
        self._expire_next = False
        # Channels the bot showed "Typing…" in, in order (``channel.typing()``).
        self.typing_in: list[int] = []
        # Discord's documentation promises a message's text to an app without the Message
        # Content intent when the app is @mentioned; it says nothing of a mention of the app's
        # role. The harness withholds the text then, unless a test says otherwise.
        self.content_for_role_mentions = False
        self.default_user = self.user(name="tester")

    def user(
        self,
        id: int | None = None,
        *,
        name: str | None = None,
        locale: str = "en-US",
        global_name: str | None = None,
        member: bool = True,
    ) -> HarnessUser:
        """A user (new, or re-registered with new details) with a DM channel to the bot and,
        with ``member``, a member of :attr:`guild` (other guilds are joined on first use)."""
        user_id = id if id is not None else snowflake()
        previous = self._users.get(user_id)
        name = name or (previous.name if previous else f"user{len(self._users) + 1}")
        user = HarnessUser(user_id, name, locale, global_name)
        self._users[user_id] = user
        self.state.store_user(cast(Any, user.payload()))
        if user_id not in self._dm_channels:
            channel_id = snowflake()
            dm_channel: Any = dm_channel_payload(channel_id, [user.payload()])
            self.state.add_dm_channel(dm_channel)
            self._dm_channels[user_id] = channel_id
        if member:
            self._ensure_member(user, self.guild)
        return user

    def make_guild(self, name: str, *, channel_name: str = "general") -> discord.TextChannel:
        """Another guild with the bot in it; returns its first text channel."""
        return world.build_guild(self.bot, name, channel_name)

    def make_text_channel(
        self, name: str, *, guild: discord.Guild | None = None
    ) -> discord.TextChannel:
        return backend.make_text_channel(name, guild or self.guild)

    def dm_channel_id(self, user: HarnessUser) -> int:
        return self._dm_channels[user.id]

    def _as_user(self, value: UserLike) -> HarnessUser:
        if isinstance(value, HarnessUser):
            return value
        user_id = value if isinstance(value, int) else value.id
        if user_id in self._users:
            return self._users[user_id]
        if isinstance(value, int):
            raise LookupError(f"unknown user id {value}; create it with harness.user()")
        return self.user(value.id, name=value.name, global_name=value.global_name)

    def _ensure_member(self, user: HarnessUser, guild: discord.Guild) -> None:
        if guild.get_member(user.id) is not None:
            return
        with world.silently() as state:
            world.add_member(state, user.payload(), guild)

    def _place(
        self,
        user: HarnessUser,
        *,
        guild: discord.Guild | bool | None,
        dm: bool,
        private_channel: bool,
        channel: discord.abc.GuildChannel | None,
        permissions: discord.Permissions,
    ) -> Place:
        if sum((dm, private_channel, bool(guild) or channel is not None)) > 1:
            raise ValueError("choose one of guild/channel, dm, private_channel")
        if dm:
            return Place(BOT_DM, dm_channel_payload(self._dm_channels[user.id], [user.payload()]))
        if private_channel:
            if user.id not in self._private_channels:
                stranger = user_payload(snowflake(), "someone-else")
                self._private_channels[user.id] = dm_channel_payload(
                    snowflake(), [user.payload(), stranger]
                )
            return Place(PRIVATE_CHANNEL, self._private_channels[user.id])
        if channel is None:
            target = guild if isinstance(guild, discord.Guild) else self.guild
            channel = self.channel if target == self.guild else target.text_channels[0]
        self._ensure_member(user, channel.guild)
        return Place(GUILD, guild_channel_payload(channel, permissions=permissions), channel.guild)

    def _place_of_message(
        self, user: HarnessUser, place: Place, permissions: discord.Permissions
    ) -> Place:
        """Where a message is, as ``user`` (made a member of its guild) with ``permissions``
        sees it."""
        if place.guild is None:
            return place
        self._ensure_member(user, place.guild)
        channel_json = {**place.channel, "permissions": str(permissions.value)}
        return Place(place.context, channel_json, place.guild)

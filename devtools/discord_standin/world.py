"""What the stand-in's Discord holds: the application, its servers, channels, DMs and messages.

Everything is Discord's JSON, the way the gateway and REST API send it; no discord.py objects.
A guild's shard is ``(guild_id >> 22) % shard_count`` and DMs belong to shard 0, as on Discord.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import cast

import discord

from devtools.discord.wire import (
    BOT_PERMISSIONS,
    JSON,
    MEMBER_PERMISSIONS,
    Place,
    dm_channel_payload,
    member_payload,
    message_payload,
    now_iso,
    snowflake,
    user_payload,
)

GUILD_TEXT, DM, PUBLIC_THREAD, GUILD_FORUM = 0, 1, 11, 15
# Discord's enforce_nonce looks back "a few minutes".
NONCE_WINDOW_SECONDS = 5 * 60


def shard_of(guild_id: int | None, shard_count: int) -> int:
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    recipient: JSON | None = None  # a DM's other user
    owner_id: int | None = None  # who created a thread
    auto_archive_duration: int = 1440  # a thread's, in minutes
    messages: list[JSON] = field(default_factory=list)
    # nonce -> (message, time.monotonic() of its creation), for enforce_nonce.
    nonces: dict[str, tuple[JSON, float]] = field(default_factory=dict)

    def payload(self) -> JSON:
        if self.type == DM:
            return dm_channel_payload(self.id, [self.recipient] if self.recipient else [])
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": self.messages[-1]["id"] if self.messages else None,
            "flags": 0,
        }
        if self.type == PUBLIC_THREAD:
            # Discord's ThreadResponse (its OpenAPI spec): owner, metadata and counts required.
            data["owner_id"] = str(self.owner_id)
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": now_iso(),
                "locked": False,
            }
            data["message_count"] = len(self.messages)
            data["total_message_sent"] = len(self.messages)
            data["member_count"] = 1
            data["applied_tags"] = []
        elif self.type == GUILD_FORUM:
            # A forum holds only threads (posts); its own fields, as GuildChannelResponse has.
            data.update(
                available_tags=[],
                default_reaction_emoji=None,
                default_sort_order=None,
                default_forum_layout=0,
                default_thread_rate_limit_per_user=0,
                default_auto_archive_duration=1440,
            )
        return data

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def add(self, message: JSON) -> JSON:
        """Store ``message`` here; in a thread it gets its ``position``, as Discord gives it."""
        if self.is_thread:
            message["position"] = len(self.messages)
        self.messages.append(message)
        return message

    def place(self) -> Place:
        guild = None if self.guild_id is None else cast("discord.Guild", GuildRef(self.guild_id))
        return Place(0 if self.guild_id else 1, self.payload(), guild)


@dataclass(frozen=True)
class GuildRef:
    """What a :class:`Place` needs of a guild (its id) for a guild that lives only as JSON."""

    id: int


@dataclass
class Guild:
    id: int
    name: str
    channels: list[Channel]
    bot_permissions: discord.Permissions
    locale: str = "en-US"
    members: list[JSON] = field(default_factory=list)  # member objects, the bot's included
    # What @everyone may do; the bot has this and its own role's permissions.
    everyone_permissions: discord.Permissions = MEMBER_PERMISSIONS

    @property
    def everyone_role(self) -> JSON:
        return _role(self.id, "@everyone", self.everyone_permissions, position=0)

    @property
    def bot_role_id(self) -> int:
        """The role Discord made for the bot when it joined (managed, tagged with its id)."""
        return self.id + 1

    def create_payload(self, bot_user: JSON) -> JSON:
        """GUILD_CREATE's data: the guild with its channels, roles and (some) members. The
        bot's managed role, named as the bot, carries ``tags.bot_id`` (``bot_user``'s id), as
        Discord's does: discord.py's ``Guild.self_role`` finds it by that tag."""
        roles = [
            self.everyone_role,
            _role(
                self.bot_role_id,
                str(bot_user["username"]),
                self.bot_permissions,
                position=1,
                managed=True,
                tags={"bot_id": str(bot_user["id"])},
            ),
        ]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.id + 2),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": list(self.members),
            "channels": [c.payload() for c in self.channels if c.type in (GUILD_TEXT, GUILD_FORUM)],
            "threads": [c.payload() for c in self.channels if c.type == PUBLIC_THREAD],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def _role(
    role_id: int,
    name: str,
    permissions: discord.Permissions,
    *,
    position: int,
    managed: bool = False,
    tags: JSON | None = None,
) -> JSON:
    """A role as Discord's GuildRoleResponse has it (every required field)."""
    data: JSON = {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions.value),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }
    if tags is not None:
        data["tags"] = tags
    return data


@dataclass(frozen=True)
class Person:
    """Someone using the bot: their user object and the locale their client sends."""

    id: int
    name: str
    locale: str = "en-US"

    def payload(self) -> JSON:
        return user_payload(self.id, self.name)


class World:
    """The application, the servers it is in, and every channel and message."""

    def __init__(
        self,
        *,
        token: str,
        application_id: int,
        bot_name: str = "Magisterium",
        privileged_intents: int = 0,
    ) -> None:
        self.token = token
        self.application_id = application_id
        # The privileged intents switched on for the app in the developer portal (e.g. the
        # Message Content intent, 1 << 15); an IDENTIFY asking for any other gets 4014.
        self.privileged_intents = privileged_intents
        self.bot_user = user_payload(application_id, bot_name, bot=True)
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.people: dict[int, Person] = {}
        self.dm_of: dict[int, int] = {}  # user id -> DM channel id

    def add_guild(
        self,
        name: str,
        *,
        guild_id: int | None = None,
        bot_permissions: discord.Permissions = BOT_PERMISSIONS,
        everyone_permissions: discord.Permissions = MEMBER_PERMISSIONS,
        locale: str = "en-US",
    ) -> Guild:
        guild_id = guild_id or snowflake()
        channel = Channel(snowflake(), GUILD_TEXT, name="general", guild_id=guild_id)
        bot_member = member_payload(self.bot_user)
        guild = Guild(
            guild_id, name, [channel], bot_permissions, locale, [bot_member], everyone_permissions
        )
        bot_member["roles"] = [str(guild.bot_role_id)]
        self.guilds[guild_id] = guild
        self.channels[channel.id] = channel
        return guild

    def add_person(self, name: str, *, locale: str = "en-US") -> Person:
        person = Person(snowflake(), name, locale)
        self.people[person.id] = person
        return person

    def dm_channel(self, user: JSON) -> Channel:
        user_id = int(user["id"])
        if user_id not in self.dm_of:
            channel = Channel(snowflake(), DM, recipient=user)
            self.channels[channel.id] = channel
            self.dm_of[user_id] = channel.id
        return self.channels[self.dm_of[user_id]]

    def add_forum(self, guild: Guild, name: str = "questions") -> Channel:
        """A forum channel (type 15) in ``guild``: it holds posts (threads), not messages."""
        forum = Channel(snowflake(), GUILD_FORUM, name=name, guild_id=guild.id)
        guild.channels.append(forum)
        self.channels[forum.id] = forum
        return forum

    def add_thread(
        self,
        parent: Channel,
        name: str,
        thread_id: int,
        *,
        owner_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        """A public thread in ``parent`` (a text channel's, on a message whose id it takes, or a
        forum's post), made by ``owner_id`` (the bot when None)."""
        thread = Channel(
            thread_id,
            PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id or self.application_id,
            auto_archive_duration=auto_archive_duration,
        )
        self.channels[thread.id] = thread
        if parent.guild_id is not None:
            self.guilds[parent.guild_id].channels.append(thread)
        return thread

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[Guild]:
        return [g for g in self.guilds.values() if shard_of(g.id, shard_count) == shard_id]

    def post(self, channel: Channel, author: JSON, body: JSON) -> tuple[JSON, bool]:
        """Store a message in ``channel``; (message, created). With ``enforce_nonce`` and a
        nonce seen there in the last few minutes, the earlier message, not a new one."""
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            earlier = channel.nonces.get(str(nonce))
            if earlier is not None and time.monotonic() - earlier[1] < NONCE_WINDOW_SECONDS:
                return earlier[0], False
        data = message_payload(
            message_id=snowflake(), place=channel.place(), author=author, body=body
        )
        reference = body.get("message_reference")
        if reference is not None:  # a reply: Discord gives it back with the message it answers
            referenced_id = str(reference.get("message_id"))
            data["type"] = 19
            data["message_reference"] = {
                "type": 0,
                "message_id": referenced_id,
                "channel_id": str(channel.id),
                **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
            }
            data["referenced_message"] = next(
                (m for m in channel.messages if m["id"] == referenced_id), None
            )
        if nonce is not None:
            data["nonce"] = nonce
            channel.nonces[str(nonce)] = (data, time.monotonic())
        channel.add(data)
        return data, True

"""Discord's JSON shapes, built the way the gateway and the HTTP API send them.

Pure functions: no state, no discord.py internals beyond reading public attributes.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext.test import factories

JSON = dict[str, Any]

EPHEMERAL = 1 << 6  # MessageFlags.ephemeral
LOADING = 1 << 7  # MessageFlags.loading: the "is thinking…" placeholder of a deferred response
SUPPRESS_EMBEDS = 1 << 2

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
CDN = "https://cdn.discordapp.com"

# Interaction contexts (Discord's InteractionContextType) and types.
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5

# What an ordinary member may do, and what the bot may do where it is installed.
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
)
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
)
# A user-installed app outside its servers: Discord may withhold EMBED_LINKS.
USER_INSTALL_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, attach_files=True, read_message_history=True
)

_tokens = itertools.count(1)


_DISCORD_EPOCH_MS = 1420070400000
_INCREMENT_LIMIT = 1 << 12
_WORKER = 1 << 17  # worker 1, process 0, as dpytest makes them
_last = [0, -1]  # the millisecond and the increment of the latest id


def snowflake() -> int:
    """A fresh, time-ordered snowflake as Discord makes them: milliseconds since its epoch,
    worker and process, and a 12-bit increment. Past 4,096 ids in one millisecond the next
    millisecond is borrowed, so ids never collide and never outgrow 64 bits.

    dpytest's own generator lets its increment run past 12 bits, so after 4,096 ids in one
    process its ids overflow a 64-bit integer (and every database column of one); it is
    replaced by this one below, so dpytest's objects and the harness's share one sequence."""
    now = int(time.time() * 1000) - _DISCORD_EPOCH_MS
    millisecond, increment = _last
    if now > millisecond:
        millisecond, increment = now, 0
    else:
        increment += 1
        if increment == _INCREMENT_LIMIT:
            millisecond, increment = millisecond + 1, 0
    _last[:] = [millisecond, increment]
    return (millisecond << 22) | _WORKER | increment


factories.make_id = snowflake


def new_token() -> str:
    return f"harness-interaction-token-{next(_tokens)}"


def now_iso() -> str:
    return discord.utils.utcnow().isoformat()


def user_payload(
    user_id: int, name: str, *, global_name: str | None = None, bot: bool = False
) -> JSON:
    data: JSON = {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": global_name,
        "avatar": None,
        "public_flags": 0,
    }
    if bot:
        data["bot"] = True
    return data


def user_payload_of(user: discord.abc.User) -> JSON:
    return user_payload(user.id, user.name, global_name=user.global_name, bot=user.bot)


def member_payload(
    user: JSON, *, permissions: discord.Permissions | None = None, with_user: bool = True
) -> JSON:
    """A guild member object; ``permissions`` is what interactions carry (absent elsewhere)."""
    data: JSON = {
        "roles": [],
        "joined_at": now_iso(),
        "deaf": False,
        "mute": False,
        "flags": 0,
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user
    if permissions is not None:
        data["permissions"] = str(permissions.value)
    return data


def guild_channel_payload(
    channel: discord.abc.GuildChannel | discord.Thread,
    *,
    permissions: discord.Permissions | None = None,
) -> JSON:
    parent_id = getattr(channel, "parent_id", None) or getattr(channel, "category_id", None)
    data: JSON = {
        "id": str(channel.id),
        "type": channel.type.value,
        "guild_id": str(channel.guild.id),
        "name": channel.name,
        "position": getattr(channel, "position", 0),
        "parent_id": str(parent_id) if parent_id else None,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }
    if permissions is not None:
        data["permissions"] = str(permissions.value)
    return data


def dm_channel_payload(channel_id: int, recipients: list[JSON]) -> JSON:
    return {"id": str(channel_id), "type": 1, "recipients": recipients, "last_message_id": None}


@dataclass(frozen=True)
class Place:
    """Where an interaction or message happens, as Discord describes it to the bot."""

    context: int  # GUILD, BOT_DM or PRIVATE_CHANNEL
    channel: JSON  # the channel object an interaction carries
    guild: discord.Guild | None = None

    @property
    def channel_id(self) -> int:
        return int(self.channel["id"])

    @property
    def guild_id(self) -> int | None:
        return None if self.guild is None else self.guild.id

    def describe(self) -> str:
        kind = {GUILD: "server", BOT_DM: "DM with the bot", PRIVATE_CHANNEL: "private channel"}
        return kind.get(self.context, str(self.context))


def message_payload(
    *,
    message_id: int,
    place: Place,
    author: JSON,
    body: JSON,
    message_type: int = 0,
    application_id: int | None = None,
    interaction_metadata: JSON | None = None,
) -> JSON:
    """A full message object; ``body`` holds content/embeds/components/attachments/flags."""
    data: JSON = {
        "id": str(message_id),
        "channel_id": str(place.channel_id),
        "author": author,
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": list(body.get("attachments") or []),
        "embeds": list(body.get("embeds") or []),
        "components": list(body.get("components") or []),
        "pinned": False,
        "type": message_type,
        "flags": int(body.get("flags") or 0),
    }
    if place.guild is not None:
        data["guild_id"] = str(place.guild.id)
    if application_id is not None:
        data["webhook_id"] = str(application_id)
        data["application_id"] = str(application_id)
    if interaction_metadata is not None:
        data["interaction_metadata"] = interaction_metadata
    if body.get("poll") is not None:
        data["poll"] = body["poll"]
    return data


def thread_payload(
    thread_id: int,
    *,
    parent: discord.abc.GuildChannel,
    name: str,
    owner_id: int,
    kind: int = 11,
) -> JSON:
    """A thread as THREAD_CREATE and the thread endpoints describe it (type 11: public)."""
    return {
        "id": str(thread_id),
        "type": kind,
        "guild_id": str(parent.guild.id),
        "parent_id": str(parent.id),
        "owner_id": str(owner_id),
        "name": name,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "locked": False,
            "archive_timestamp": now_iso(),
        },
        "message_count": 0,
        "member_count": 1,
        "rate_limit_per_user": 0,
        "flags": 0,
        "last_message_id": None,
    }


def attachment_payload(
    attachment_id: int, channel_id: int, filename: str, size: int, content_type: str | None
) -> JSON:
    url = f"{CDN}/attachments/{channel_id}/{attachment_id}/{filename}"
    return {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    }


def walk_components(components: list[JSON]) -> list[JSON]:
    """Every component, depth first, through action rows, sections, containers and labels."""
    found: list[JSON] = []
    for component in components:
        found.append(component)
        found.extend(walk_components(component.get("components") or []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                found.extend(walk_components([component[key]]))
    return found


@dataclass(frozen=True)
class HarnessUser:
    """A Discord user the harness acts as; ``locale`` is sent with their interactions."""

    id: int
    name: str
    locale: str = "en-US"
    global_name: str | None = None

    def payload(self) -> JSON:
        return user_payload(self.id, self.name, global_name=self.global_name)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

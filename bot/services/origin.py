"""Who is asking and where: an :class:`Origin`, made where a request enters the bot.

Each interaction, DM and daily post makes one (:meth:`Origin.of` reads an interaction or a
message) and passes it down to :class:`bot.services.magisterium.MagisteriumService`, which
decides from it whose token serves the request: a server's account only ever serves a request
made in that server, never a DM, another server or a daily post.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.i18n.locales import DEFAULT_LOCALE, catalogue_locale


class _User(Protocol):
    @property
    def id(self) -> int: ...


class _Interaction(Protocol):
    """What an origin reads from a ``discord.Interaction`` (this layer knows no Discord)."""

    @property
    def user(self) -> _User: ...

    @property
    def guild_id(self) -> int | None: ...

    @property
    def channel_id(self) -> int | None: ...

    @property
    def locale(self) -> object: ...


@dataclass(frozen=True)
class Origin:
    user_id: int  # who asks: whose own token, allowance and quota are spent
    guild_id: int | None = None  # the server it was asked in; None in DMs and daily posts
    channel_id: int | None = None
    locale: str = DEFAULT_LOCALE  # the catalogue the answer is written in

    @classmethod
    def of(cls, interaction: _Interaction) -> Origin:
        """A slash command, a button, a menu, a form: asked by its user, where it was used."""
        return cls(
            user_id=interaction.user.id,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            locale=catalogue_locale(interaction.locale),
        )

    @classmethod
    def direct_message(cls, user_id: int, channel_id: int | None, locale: str) -> Origin:
        """A message in the person's DMs with the bot: no server's account serves it."""
        return cls(user_id=user_id, channel_id=channel_id, locale=catalogue_locale(locale))

    @classmethod
    def server_message(
        cls, user_id: int, guild_id: int, channel_id: int | None, locale: str
    ) -> Origin:
        """A message in a server that asks the bot (a mention, a reply to an answer): asked by
        its author in that server, so the server's account may serve it, as for a command."""
        return cls(
            user_id=user_id,
            guild_id=guild_id,
            channel_id=channel_id,
            locale=catalogue_locale(locale),
        )

    @classmethod
    def schedule(cls, user_id: int) -> Origin:
        """A daily post, on behalf of the person who set it: its token is the schedule's,
        never the account of the server it posts in."""
        return cls(user_id=user_id)

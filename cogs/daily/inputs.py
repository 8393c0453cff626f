"""/daily set's options checked one by one: each refusal says, in the admin's language, what
to type or fix instead."""

from __future__ import annotations

import datetime as dt

import discord

from bot.daily import parse_time
from bot.i18n import _
from bot.services.user_errors import UserFacingError
from cogs.daily.checks import VIEW_CHANNEL, describe_missing, missing_permissions, role_problem


def post_time(typed: str) -> dt.time:
    parsed = parse_time(typed)
    if parsed is None:
        raise UserFacingError(
            _("That time is not HH:MM"),
            # Translators: {time} is what the admin typed; keep `07:00` and `18:30` as they are.
            _(
                "`{time}` is not a time I can read. Use the 24-hour clock, for example `07:00` "
                "or `18:30`."
            ).format(time=discord.utils.escape_markdown(typed)),
        )
    return parsed


def postable_channel(guild: discord.Guild, channel_id: int) -> discord.TextChannel | discord.Thread:
    """The channel or thread, when the bot can see it and post its embed there."""
    target = guild.get_channel_or_thread(channel_id)
    if not isinstance(target, discord.TextChannel | discord.Thread):
        raise UserFacingError(
            _("I cannot see that channel"),
            # Translators: {permission} is a Discord permission's name, {channel} a channel
            # mention.
            _("Give me **{permission}** in {channel}, or pick another channel.").format(
                permission=_(VIEW_CHANNEL), channel=f"<#{channel_id}>"
            ),
        )
    missing = missing_permissions(target, guild.me)
    if missing:
        raise UserFacingError(
            _("I cannot post there yet"),
            # Translators: {problem} says which permissions the bot is missing, and where.
            _("{problem} Then run this again.").format(problem=describe_missing(target, missing)),
        )
    return target


def check_role(role: discord.Role | None, me: discord.Member) -> None:
    """Refuse a role the bot's ping would not reach."""
    if role is not None and (problem := role_problem(role, me)) is not None:
        raise UserFacingError(_("That role cannot be pinged"), problem)

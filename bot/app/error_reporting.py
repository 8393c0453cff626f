"""One path from any error in an interaction to one clear, private message.

Used by the command tree and by every view and modal: known errors get their explanation,
anything else a generic message with an error id, and the traceback goes only to the log (and,
when SENTRY_DSN is set, to Sentry, scrubbed: bot.observability.error_tracking).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Iterator
from typing import Any

import discord
from discord import app_commands

from bot.app.respond import send_private
from bot.i18n import N_, _, ngettext, use_interaction_locale
from bot.observability.error_tracking import report_unexpected_error
from bot.observability.metrics import Metrics, Outcome
from bot.render.upstream import error_with_quote, magisterium_reply
from bot.services.user_errors import UserMessage, message_for

log = logging.getLogger(__name__)

GENERIC_TITLE = N_("Something went wrong")
GENERIC_TEXT = N_(
    "That did not work, and it is not your fault. Try again in a moment; if it keeps "
    "happening, give the error id below to the bot's operator."
)


def generic_message() -> UserMessage:
    """The message for an unexpected error, in the current locale."""
    return UserMessage(_(GENERIC_TITLE), _(GENERIC_TEXT))


def _missing_permissions(
    error: app_commands.MissingPermissions | app_commands.BotMissingPermissions,
) -> UserMessage:
    # Discord's permission names, as the API spells them ("Manage Channels").
    missing = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
    if isinstance(error, app_commands.BotMissingPermissions):
        # Translators: {permissions} is a comma-separated list of Discord permission names.
        text = _("I need: {permissions}.").format(permissions=missing)
    else:
        # Translators: {permissions} is a comma-separated list of Discord permission names.
        text = _("You need: {permissions}.").format(permissions=missing)
    return UserMessage(_("Missing permission"), text)


def _message_for_check(error: BaseException) -> UserMessage | None:
    if isinstance(error, app_commands.NoPrivateMessage):
        return UserMessage(_("Servers only"), _("This command works in servers, not in DMs."))
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        return _missing_permissions(error)
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = round(error.retry_after)
        text = ngettext(
            "Try again in {seconds} second.", "Try again in {seconds} seconds.", seconds
        ).format(seconds=seconds)
        return UserMessage(_("Slow down"), text)
    if isinstance(error, app_commands.TransformerError):
        return UserMessage(_("That value did not work"), _("Check what you typed and try again."))
    if isinstance(error, app_commands.CheckFailure):
        return UserMessage(_("Not available here"), _("You cannot use this command here."))
    return None


def _known_message(error: BaseException) -> UserMessage | None:
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return message_for(error) or _message_for_check(error)


def outcome_of(error: BaseException) -> Outcome:
    """``user_error`` for a failure the person is told how to handle, else ``error``."""
    return "error" if _known_message(error) is None else "user_error"


def error_embed_for(
    error: BaseException, *, where: str, typed: Iterable[str] = ()
) -> discord.Embed:
    """The embed a person sees for ``error``; logs it (unexpected ones with the traceback) and
    reports an unexpected one with ``typed``, what the person typed, cut out of the report."""
    message = _known_message(error)
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    error_id = None
    if message is None:
        error_id = secrets.token_hex(4)
        message = generic_message()
        log.error("unexpected error %s in %s", error_id, where, exc_info=error)
        report_unexpected_error(error, error_id=error_id, where=where, typed=typed)
    elif message.operator_alert:
        log.error("%s failed: %s: %s", where, type(error).__name__, error)
    else:
        log.info("%s failed: %s", where, type(error).__name__)
    return embed_of(message, error_id=error_id)


def embed_of(message: UserMessage, *, error_id: str | None = None) -> discord.Embed:
    """``message`` as an embed: Magisterium's reply as its answer, anything else as an error."""
    if message.tone == "reply":
        return magisterium_reply(message.title, message.quote, message.text)
    return error_with_quote(message.title, message.text, message.quote, error_id=error_id)


async def report_interaction_error(
    interaction: discord.Interaction[Any], error: BaseException, *, where: str
) -> None:
    """Tell the user what went wrong (privately, in their language) and log it; never raises."""
    use_interaction_locale(interaction)
    _count_failed_command(interaction, error)
    embed = error_embed_for(error, where=where, typed=typed_in(interaction.data))
    await send_private(interaction, embed=embed)


def typed_in(data: object) -> Iterator[str]:
    """The text values in an interaction's data: its options, modal fields, chosen values."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "value" and isinstance(value, str):
                yield value
            elif key == "values" and isinstance(value, list):
                yield from (item for item in value if isinstance(item, str))
            else:
                yield from typed_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from typed_in(item)


def _count_failed_command(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Application commands only: a button or modal of a command is not a command run."""
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command or command is None:
        return
    metrics = getattr(interaction.client, "metrics", None)
    if isinstance(metrics, Metrics):
        metrics.command_finished(command.qualified_name, outcome_of(error))

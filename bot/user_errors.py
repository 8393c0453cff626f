"""What a user is told for each failure: one clear sentence that says what to do next.

Knows the A2A error classes, not Discord; the command tree decides how to send it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.a2a import errors
from bot.accounts.errors import EncryptionKeyError, QuotaExceeded, TokenDecryptionError
from bot.limits import LimiterBusy
from bot.storage import StorageUnavailable

LINK_HINT = "Link your own Magisterium account with `/account link`."


@dataclass(frozen=True)
class UserMessage:
    title: str
    text: str
    # The operator must act (a setting is wrong): logged as an error, not as routine.
    operator_alert: bool = False


class UserFacingError(Exception):
    """Raised by command code for a failure whose explanation is already known."""

    def __init__(self, title: str, text: str) -> None:
        super().__init__(text)
        self.user_message = UserMessage(title, text)


def _seconds(value: float | None) -> str:
    if value is None:
        return "a minute"
    seconds = max(1, math.ceil(value))
    return "1 second" if seconds == 1 else f"{seconds} seconds"


def message_for(error: BaseException) -> UserMessage | None:
    """The message for a known error, or None for an unexpected one (the caller logs it)."""
    if isinstance(error, UserFacingError):
        return error.user_message
    if isinstance(error, LimiterBusy):
        return UserMessage(
            "Magisterium is busy for this account",
            "Too many requests are waiting their turn. "
            f"Try again in {_seconds(error.retry_after)}.",
        )
    if isinstance(error, QuotaExceeded):
        what = "questions" if error.pool == "qa" else "requests"
        return UserMessage(
            "Shared allowance used up",
            f"You have used this hour's {what} on the bot's shared account. Try again in "
            f"{_seconds(error.retry_after_seconds)}, or link your own account with "
            "`/account link`.",
        )
    if isinstance(error, StorageUnavailable):
        return UserMessage(
            "Try again shortly",
            "The bot's database is not answering right now; nothing you saved is lost.",
        )
    if isinstance(error, EncryptionKeyError | TokenDecryptionError):
        return UserMessage(
            "Account storage is not set up",
            "The bot cannot read or store tokens right now; its operator has been told.",
            operator_alert=True,
        )
    if isinstance(error, errors.Unauthorized):
        return UserMessage(
            "Your Magisterium token was refused",
            f"It may have expired or been revoked. {LINK_HINT}",
        )
    if isinstance(error, errors.PlanRequired):
        return UserMessage(
            "A paid Magisterium plan is needed",
            "Magisterium's API needs a Pro, Organization or Enterprise plan. "
            "Upgrade at https://www.magisterium.com, then try again.",
        )
    if isinstance(error, errors.RateLimited):
        return UserMessage(
            "Slow down a little",
            f"Magisterium's rate limit was reached. Try again in {_seconds(error.retry_after)}.",
        )
    if isinstance(error, errors.TaskFailed):
        return UserMessage(
            "Magisterium could not answer",
            "The request reached Magisterium but it failed there. Try again, "
            "perhaps with different wording.",
        )
    if isinstance(error, errors.InvalidParams | errors.SkillNotFound):
        return UserMessage(
            "Magisterium did not accept that request",
            "Check what you typed and try again.",
        )
    if isinstance(error, errors.TransportError | errors.DeadlineExceeded):
        return UserMessage(
            "Magisterium is not answering",
            "It did not answer in time. Try again in a few minutes.",
        )
    if isinstance(error, errors.A2AError):
        return UserMessage(
            "Magisterium is having trouble",
            "Its service answered with an error. Try again in a few minutes.",
        )
    return None

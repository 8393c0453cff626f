"""What a user is told for each failure: one clear sentence that says what to do next.

Knows the A2A error classes, not Discord; the command tree decides how to send it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from bot.a2a import errors
from bot.accounts.errors import (
    EncryptionKeyError,
    QuotaExceeded,
    ServerQuotaExceeded,
    TokenDecryptionError,
)
from bot.i18n import N_, _, ngettext
from bot.limits import LimiterBusy
from bot.storage import StorageUnavailable

# Translators: a sentence added after an explanation of a refused or missing token.
LINK_HINT = N_("Link your own Magisterium account with `/account link`.")


# "error": something went wrong; "reply": Magisterium itself answered this way (a declined
# request), which is not a failure of the bot and is shown as Magisterium's answer.
Tone = Literal["error", "reply"]


@dataclass(frozen=True)
class UserMessage:
    title: str
    text: str  # the bot's own sentence: always a whole catalogue message (daily posts record it)
    # The operator must act (a setting is wrong): logged as an error, not as routine.
    operator_alert: bool = False
    # Magisterium's own words (a task's status message): upstream text, shown as it came, clipped.
    quote: str = ""
    tone: Tone = "error"


class UserFacingError(Exception):
    """Raised by command code for a failure whose explanation is already known."""

    def __init__(self, title: str, text: str) -> None:
        super().__init__(text)
        self.user_message = UserMessage(title, text)


class QuestionDeclined(UserFacingError):
    """Magisterium declined a question (task ``rejected``): its words, titled with the question
    so the person sees it as Magisterium's answer to what they asked."""

    def __init__(self, question: str, rejected: errors.TaskRejected) -> None:
        declined = _declined(rejected)
        super().__init__(question, declined.text)
        self.user_message = replace(declined, title=question)


def _whole_seconds(value: float) -> int:
    return max(1, math.ceil(value))


def try_again_in(value: float | None) -> str:
    """The sentence "Try again in 45 seconds." (in a minute when the wait is unknown)."""
    if value is None:
        return _("Try again in a minute.")
    seconds = _whole_seconds(value)
    return ngettext(
        "Try again in {seconds} second.", "Try again in {seconds} seconds.", seconds
    ).format(seconds=seconds)


def _server_quota_message(error: ServerQuotaExceeded) -> UserMessage:
    """The server's allowance is used up and the shared token could not serve instead: when
    it refills, and how to need no allowance at all."""
    if error.shared_too:
        if error.pool == "qa":
            used = _(
                "You have used this hour's questions on this server's account and on the "
                "bot's shared account."
            )
        else:
            used = _(
                "You have used this hour's requests on this server's account and on the "
                "bot's shared account."
            )
    elif error.pool == "qa":
        used = _("You have used this hour's questions on this server's account.")
    else:
        used = _("You have used this hour's requests on this server's account.")
    minutes = max(1, math.ceil(error.retry_after_seconds / 60))
    # Translators: {link_hint} is the sentence "Link your own Magisterium account with
    # `/account link`."
    refills = ngettext(
        "It refills in {minutes} minute. {link_hint}",
        "It refills in {minutes} minutes. {link_hint}",
        minutes,
    ).format(minutes=minutes, link_hint=_(LINK_HINT))
    return UserMessage(_("Server allowance used up"), f"{used} {refills}")


def _quota_message(error: QuotaExceeded) -> UserMessage:
    if isinstance(error, ServerQuotaExceeded):
        return _server_quota_message(error)
    if error.pool == "qa":
        used = _("You have used this hour's questions on the bot's shared account.")
    else:
        used = _("You have used this hour's requests on the bot's shared account.")
    seconds = _whole_seconds(error.retry_after_seconds)
    retry = ngettext(
        "Try again in {seconds} second, or link your own account with `/account link`.",
        "Try again in {seconds} seconds, or link your own account with `/account link`.",
        seconds,
    ).format(seconds=seconds)
    return UserMessage(_("Shared allowance used up"), f"{used} {retry}")


def message_for(error: BaseException) -> UserMessage | None:
    """The message for a known error, in the current locale, or None for an unexpected one
    (the caller logs it)."""
    if isinstance(error, UserFacingError):
        return error.user_message
    if isinstance(error, LimiterBusy):
        waiting = _("Too many requests are waiting their turn.")
        return UserMessage(
            _("Magisterium is busy for this account"),
            f"{waiting} {try_again_in(error.retry_after)}",
        )
    if isinstance(error, QuotaExceeded):
        return _quota_message(error)
    return _upstream_message(error)


def _upstream_message(error: BaseException) -> UserMessage | None:
    if isinstance(error, StorageUnavailable):
        return UserMessage(
            _("Try again shortly"),
            _("The bot's database is not answering right now; nothing you saved is lost."),
        )
    if isinstance(error, EncryptionKeyError | TokenDecryptionError):
        return UserMessage(
            _("Account storage is not set up"),
            _("The bot cannot read or store tokens right now; its operator has been told."),
            operator_alert=True,
        )
    if isinstance(error, errors.TaskNotCompleted):
        return task_message(error)
    return _account_message(error) or _request_message(error)


def _account_message(error: BaseException) -> UserMessage | None:
    # AuthRequired (a task ended ``auth-required``) is an Unauthorized: the same relink path.
    if isinstance(error, errors.Unauthorized):
        return UserMessage(
            _("Your Magisterium token was refused"),
            # Translators: {link_hint} is the sentence "Link your own Magisterium account
            # with `/account link`."
            _("It may have expired or been revoked. {link_hint}").format(link_hint=_(LINK_HINT)),
        )
    if isinstance(error, errors.PlanRequired):
        return UserMessage(
            _("A paid Magisterium plan is needed"),
            # Translators: Pro, Organization and Enterprise are names of Magisterium's plans.
            _(
                "Magisterium's API needs a Pro, Organization or Enterprise plan. "
                "Upgrade at https://www.magisterium.com, then try again."
            ),
        )
    if isinstance(error, errors.RateLimited):
        reached = _("Magisterium's rate limit was reached.")
        return UserMessage(_("Slow down a little"), f"{reached} {try_again_in(error.retry_after)}")
    return None


def _request_message(error: BaseException) -> UserMessage | None:
    if isinstance(error, errors.InvalidParams | errors.SkillNotFound):
        return UserMessage(
            _("Magisterium did not accept that request"),
            _("Check what you typed and try again."),
        )
    if isinstance(error, errors.TransportError | errors.DeadlineExceeded):
        return UserMessage(
            _("Magisterium is not answering"),
            _("It did not answer in time. Try again in a few minutes."),
        )
    if isinstance(error, errors.GatewayThrottled):  # not this token's pool: the whole address
        away = _("It is turning requests away for a moment.")
        return UserMessage(
            _("Magisterium is busy right now"), f"{away} {try_again_in(error.retry_after)}"
        )
    if isinstance(error, errors.A2AError):
        return UserMessage(
            _("Magisterium is having trouble"),
            _("Its service answered with an error. Try again in a few minutes."),
        )
    return None


# --- tasks that ended in a state other than ``completed`` -------------------------------------


def task_message(error: errors.TaskNotCompleted) -> UserMessage:
    """What a person is told for a task's state; Magisterium's own words go in ``quote``."""
    if isinstance(error, errors.TaskRejected):
        return _declined(error)
    if isinstance(error, errors.InputRequired):
        return UserMessage(
            _("Magisterium needs more detail"),
            _("Run the command again with the detail Magisterium asks for."),
            quote=error.reason,
        )
    if isinstance(error, errors.TaskCanceled):
        return UserMessage(
            _("The request was canceled"),
            _("Magisterium canceled it before it was finished. Try again."),
            quote=error.reason,
        )
    if isinstance(error, errors.TaskFailed):
        return UserMessage(
            _("Magisterium could not answer"),
            _(
                "The request reached Magisterium but it failed there. Try again, "
                "perhaps with different wording."
            ),
            quote=error.reason,
        )
    # TaskNotFinished (submitted, working, unknown), or a state this bot does not know.
    return UserMessage(
        _("Magisterium did not finish in time"),
        _("It was still working on this when the bot stopped waiting. Try again in a moment."),
        quote=error.reason,
    )


def _declined(error: errors.TaskRejected) -> UserMessage:
    return UserMessage(
        _("Magisterium declined this request"),
        _("You can ask something else, or word it differently."),
        quote=error.reason,
        tone="reply",
    )

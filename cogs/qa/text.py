"""Cleaning questions and fitting them into Discord's small fields."""

from __future__ import annotations

from bot.app.user_input import strip_invisible
from bot.i18n import _
from bot.render.discord_limits import BUTTON_LABEL
from bot.render.split import truncate
from bot.services.user_errors import UserFacingError

MAX_QUESTION = 2000
THREAD_NAME = 100
ELLIPSIS = "…"


def clean_question(text: str) -> str:
    """``text`` without invisible characters and surrounding whitespace ("" when empty)."""
    return strip_invisible(text)


def button_label(question: str) -> str:
    """A button label (≤ 80 characters, ellipsis when cut) on one line."""
    return truncate(" ".join(question.split()), BUTTON_LABEL, ELLIPSIS)


def full_question_from_label(label: str | None) -> str | None:
    """The whole question when a label holds it uncut, else None."""
    if not label or label.endswith(ELLIPSIS):
        return None
    return label


def thread_name(question: str) -> str:
    """The question itself (the person's words, untranslated); a fallback name when empty."""
    # Translators: the name of a Discord thread holding a follow-up answer.
    return truncate(" ".join(question.split()), THREAD_NAME, ELLIPSIS) or _("Follow-up")


def empty_question() -> UserFacingError:
    return UserFacingError(
        _("Your question is empty"), _("Type a question with some words in it, then try again.")
    )

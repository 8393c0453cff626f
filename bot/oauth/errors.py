"""What can go wrong in a sign-in, each with what the person is told."""

from __future__ import annotations

from typing import Literal

# "other_browser": the callback came to a browser without the cookie of the one that started it.
StateReason = Literal["unknown", "replayed", "expired", "other_browser"]


class OAuthUnavailable(Exception):
    """The authorization server could not be reached or answered nonsense (metadata,
    registration): nothing the person did."""


class StateProblem(Exception):
    """The link's one-time state is unknown, was used already, expired, or belongs to the
    sign-in another browser started."""

    def __init__(self, reason: StateReason) -> None:
        super().__init__(f"sign-in state {reason}")
        self.reason: StateReason = reason


class SignInFailed(Exception):
    """The authorization server refused the code (or the person declined); ``error`` is the
    OAuth error code, never a token."""

    def __init__(self, error: str, user_id: int | None = None, locale: str | None = None) -> None:
        super().__init__(f"sign-in failed: {error}")
        self.error = error
        self.user_id = user_id
        self.locale = locale

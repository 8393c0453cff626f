"""What a pasted token's one check call says about it.

``tasks/get`` does not count toward Magisterium's limits; for a good token an unknown task id
answers "Task not found", for a bad one 401, without a paid plan 403. The call is made by
:meth:`bot.services.magisterium.MagisteriumService.check_token`, for ``/account link`` and
``/server link``.
"""

from __future__ import annotations

import enum

from bot.a2a import errors

VALIDATION_BUDGET = 10.0  # seconds: the person is waiting on a modal


class TokenVerdict(enum.Enum):
    VALID = "valid"
    RATE_LIMITED = "rate_limited"  # good enough to store; Magisterium is only busy
    INVALID = "invalid"
    NO_PLAN = "no_plan"
    UNVERIFIED = "unverified"  # Magisterium could not be reached


def verdict(error: errors.A2AError) -> TokenVerdict:
    """The check call failed with ``error``: what that says about the token."""
    if isinstance(error, errors.TaskNotFound):
        return TokenVerdict.VALID
    if isinstance(error, errors.Unauthorized):
        return TokenVerdict.INVALID
    if isinstance(error, errors.PlanRequired):
        return TokenVerdict.NO_PLAN
    if isinstance(error, errors.RateLimited):
        return TokenVerdict.RATE_LIMITED
    return TokenVerdict.UNVERIFIED

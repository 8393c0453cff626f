"""Checking a pasted token with one call that spends none of its quota.

``tasks/get`` does not count toward Magisterium's limits; for a good token an unknown task id
answers "Task not found", for a bad one 401, without a paid plan 403. Used by ``/account link``
and ``/server link``.
"""

from __future__ import annotations

import enum
import uuid

from pydantic import SecretStr

from bot.a2a import A2AClient, errors

VALIDATION_BUDGET = 10.0  # seconds: the person is waiting on a modal


class TokenVerdict(enum.Enum):
    VALID = "valid"
    RATE_LIMITED = "rate_limited"  # good enough to store; Magisterium is only busy
    INVALID = "invalid"
    NO_PLAN = "no_plan"
    UNVERIFIED = "unverified"  # Magisterium could not be reached


async def check_token(client: A2AClient, token: SecretStr) -> TokenVerdict:
    try:
        await client.get_task(token, f"link-check-{uuid.uuid4()}", budget=VALIDATION_BUDGET)
    except errors.TaskNotFound:
        return TokenVerdict.VALID
    except errors.Unauthorized:
        return TokenVerdict.INVALID
    except errors.PlanRequired:
        return TokenVerdict.NO_PLAN
    except errors.RateLimited:
        return TokenVerdict.RATE_LIMITED
    except errors.A2AError:
        return TokenVerdict.UNVERIFIED
    return TokenVerdict.VALID  # a task with that id exists: the token can read it

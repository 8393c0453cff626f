"""The caller's say in the attempts of one ``message/send``: an :class:`AttemptGate`.

The client owns the request (one body, so one ``messageId`` across retries), its deadline and
the backoff arithmetic; a gate decides what only the caller knows: each attempt waits for a
turn (the service's rate limiter admits every attempt like any other request), how many
attempts the call may make, and what a failure means for everyone else (a rate limit pauses
the token). The service sets its gate around a call with :func:`gated`; without one the
client runs :data:`UNGATED`, its own policy alone.

A context variable carries the gate because the call passes through the typed skill methods
(``MagisteriumSkills.ask`` …), which have no business knowing about admission.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from typing import Protocol

from bot.a2a.errors import A2AError


class AttemptGate(Protocol):
    def admit(self, budget: float) -> contextlib.AbstractAsyncContextManager[None]:
        """Wait for this attempt's turn (at most ``budget`` seconds); held while it is sent."""
        ...

    async def after_failure(
        self, error: A2AError, attempt: int, delay: float | None
    ) -> float | None:
        """Attempt ``attempt`` (0-based) failed with ``error``; ``delay`` is the client's
        policy (None: do not retry). Returns the seconds to wait before the next attempt, or
        None to give up and raise ``error``."""
        ...


class _Ungated:
    """The client's policy alone: no admission, retries as the policy says."""

    @contextlib.asynccontextmanager
    async def admit(self, budget: float) -> AsyncIterator[None]:
        yield

    async def after_failure(
        self, error: A2AError, attempt: int, delay: float | None
    ) -> float | None:
        return delay


class _SingleAttempt(_Ungated):
    """One attempt, never repeated: for ``tasks/get`` polls, where the poll loop retries."""

    async def after_failure(
        self, error: A2AError, attempt: int, delay: float | None
    ) -> float | None:
        return None


UNGATED: AttemptGate = _Ungated()
SINGLE_ATTEMPT: AttemptGate = _SingleAttempt()

_current: ContextVar[AttemptGate | None] = ContextVar("a2a_attempt_gate", default=None)


@contextlib.contextmanager
def gated(gate: AttemptGate) -> Iterator[None]:
    """Every ``message/send`` the client makes inside the block runs its attempts by ``gate``."""
    reset = _current.set(gate)
    try:
        yield
    finally:
        _current.reset(reset)


def current_gate() -> AttemptGate:
    """The gate set by :func:`gated` around this call, else :data:`UNGATED`."""
    return _current.get() or UNGATED

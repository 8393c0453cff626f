"""Round-robin queue of waiting requests across the users sharing one token."""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Hashable
from dataclasses import dataclass, field

from bot.limits.forecast import Plan


@dataclass(frozen=True)
class Grant:
    """What an admitted request learns: its ticket and when (loop time) it was admitted."""

    ticket: str
    admitted_at: float


@dataclass(eq=False)
class Waiter:
    user: Hashable
    expensive: bool
    enqueued_at: float
    future: asyncio.Future[Grant] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class FairQueue:
    """Each user's requests in FIFO order; users take turns, a served user goes to the back."""

    def __init__(self) -> None:
        self._users: OrderedDict[Hashable, deque[Waiter]] = OrderedDict()
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def push(self, waiter: Waiter) -> None:
        self._users.setdefault(waiter.user, deque()).append(waiter)
        self._count += 1

    def remove(self, waiter: Waiter) -> bool:
        """Take out a request that gave up; False when it is not queued (already served)."""
        line = self._users.get(waiter.user)
        if line is None or waiter not in line:
            return False
        line.remove(waiter)
        self._count -= 1
        if not line:
            del self._users[waiter.user]
        return True

    def heads(self) -> list[Waiter]:
        """Each user's oldest request, in turn order."""
        return [line[0] for line in self._users.values()]

    def served(self, waiter: Waiter) -> None:
        """`waiter`, the head of its user's line, was admitted: that user goes to the back."""
        line = self._users[waiter.user]
        if line.popleft() is not waiter:
            raise RuntimeError("only a user's oldest request can be served")
        self._count -= 1
        if line:
            self._users.move_to_end(waiter.user)
        else:
            del self._users[waiter.user]

    def plan(self, extra: tuple[Hashable, bool] | None = None) -> Plan:
        """The queue as the forecast reads it, optionally with one more request appended."""
        plan = [(user, [w.expensive for w in line]) for user, line in self._users.items()]
        if extra is not None:
            user, expensive = extra
            for queued_user, flags in plan:
                if queued_user == user:
                    flags.append(expensive)
                    break
            else:
                plan.append((user, [expensive]))
        return plan

    def drain(self) -> list[Waiter]:
        waiters = [w for line in self._users.values() for w in line]
        self._users.clear()
        self._count = 0
        return waiters

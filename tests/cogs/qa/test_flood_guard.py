"""The ask channels' flood bound, on a fake clock: one question at a time per member, one note
while they wait, silence after a used-up allowance until it is back, and a bounded memory."""

from __future__ import annotations

from cogs.qa import ask_channels
from cogs.qa.ask_channels import FloodGuard, Turn


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_one_at_a_time_one_note_then_silence_until_answered() -> None:
    guard = FloodGuard(Clock())
    assert [guard.turn(7) for _ in range(4)] == [Turn.ASK, Turn.SAY_BUSY, Turn.SKIP, Turn.SKIP]
    assert guard.turn(8) is Turn.ASK  # another member
    guard.done(7)
    assert guard.turn(7) is Turn.ASK


def test_quiet_until_the_allowance_is_back() -> None:
    clock = Clock()
    guard = FloodGuard(clock)
    guard.quiet(7, 60)
    assert guard.turn(7) is Turn.SKIP
    clock.now += 59.9
    assert guard.turn(7) is Turn.SKIP
    clock.now += 0.1
    assert guard.turn(7) is Turn.ASK


def test_the_quiet_memory_is_bounded() -> None:
    clock = Clock()
    guard = FloodGuard(clock)
    limit = ask_channels.MAX_QUIET_MEMBERS
    for member in range(limit):
        guard.quiet(member, 10 if member < 5 else 3600)
    clock.now += 11  # five of them are back
    guard.quiet(limit, 3600)
    assert guard.turn(limit) is Turn.SKIP
    assert guard.turn(5) is Turn.SKIP  # still quiet: only the expired ones went
    guard.quiet(limit + 1, 3600)  # full of the still quiet: the oldest goes
    assert len(guard._quiet_until) <= limit

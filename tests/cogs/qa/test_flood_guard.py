"""The ask channels' flood bound, on a fake clock: one question at a time per member, one note
while they wait, silence after a used-up allowance until it is back, and a bounded memory."""

from __future__ import annotations

from cogs.qa import ask_channels
from cogs.qa.ask_channels import FloodGuard, Turn
from tests.support.fakes import FakeClock


def test_one_at_a_time_one_note_then_silence_until_answered() -> None:
    guard = FloodGuard(FakeClock().monotonic)
    assert [guard.turn(7) for _ in range(4)] == [Turn.ASK, Turn.SAY_BUSY, Turn.SKIP, Turn.SKIP]
    assert guard.turn(8) is Turn.ASK  # another member
    guard.done(7)
    assert guard.turn(7) is Turn.ASK


def test_quiet_until_the_allowance_is_back() -> None:
    clock = FakeClock()
    guard = FloodGuard(clock.monotonic)
    guard.quiet(7, 60)
    assert guard.turn(7) is Turn.SKIP
    clock.advance(59.9)
    assert guard.turn(7) is Turn.SKIP
    clock.advance(0.1)
    assert guard.turn(7) is Turn.ASK


def test_the_quiet_memory_is_bounded() -> None:
    clock = FakeClock()
    guard = FloodGuard(clock.monotonic)
    limit = ask_channels.MAX_QUIET_MEMBERS
    for member in range(limit):
        guard.quiet(member, 10 if member < 5 else 3600)
    clock.advance(11)  # five of them are back
    guard.quiet(limit, 3600)
    assert guard.turn(limit) is Turn.SKIP
    assert guard.turn(5) is Turn.SKIP  # still quiet: only the expired ones went
    for member in range(limit + 1, limit + 5):  # full again, of the still quiet only
        guard.quiet(member, 3600)
    guard.quiet(limit + 5, 3600)  # the oldest still quiet (5) goes, and only it
    assert guard.turn(5) is Turn.ASK
    assert guard.turn(6) is Turn.SKIP and guard.turn(limit + 5) is Turn.SKIP

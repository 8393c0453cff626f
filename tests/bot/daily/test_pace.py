"""The daily posts' pace (``bot.daily.pace``): evenly spaced starts under Discord's global limit,
each process at its shards' share. A fake clock that only the pace's own waits move: nothing
here sleeps."""

from __future__ import annotations

import asyncio

import pytest

from bot.daily.pace import DEFAULT_POSTS_PER_SECOND, Pace, process_share
from bot.daily.planner import SchedulerConfig


class FakeTime:
    """A clock moved by the waits it is asked for (and by the test)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.waits: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)  # others run meanwhile, as in a real wait


def paced(per_second: float) -> tuple[Pace, FakeTime]:
    time = FakeTime()
    return Pace(per_second, clock=time.clock, sleep=time.sleep), time


async def test_turns_are_spaced_by_the_rate_from_the_first_one_on() -> None:
    pace, time = paced(40)
    starts = []
    for _ in range(5):
        await pace.turn()
        starts.append(time.now)
    assert starts == pytest.approx([100.0, 100.025, 100.05, 100.075, 100.1])
    assert len(time.waits) == 4


async def test_concurrent_callers_get_successive_instants_in_arrival_order() -> None:
    pace, time = paced(10)
    started: list[tuple[int, float]] = []

    async def post(n: int) -> None:
        await pace.turn()
        started.append((n, time.now))

    await asyncio.gather(*(post(n) for n in range(4)))
    assert [n for n, _ in started] == [0, 1, 2, 3]
    assert [at for _, at in started] == pytest.approx([100.0, 100.1, 100.2, 100.3])


async def test_a_late_start_does_not_let_the_callers_behind_it_catch_up() -> None:
    time = FakeTime()

    async def oversleep(seconds: float) -> None:
        time.waits.append(seconds)
        time.now += seconds + 0.5  # the event loop was busy: the wait ends half a second late

    pace = Pace(10, clock=time.clock, sleep=oversleep)
    starts = []
    for _ in range(3):
        await pace.turn()
        starts.append(time.now)
    # Each start a tenth of a second after the previous one actually started: no two at once.
    assert time.waits == pytest.approx([0.1, 0.1])
    assert starts == pytest.approx([100.0, 100.6, 101.2])


async def test_an_idle_spell_gives_no_burst_afterwards() -> None:
    pace, time = paced(20)
    await pace.turn()
    time.now += 60.0  # a minute with nothing to post
    await pace.turn()  # at once: its instant is long past
    await pace.turn()  # but the one after it waits its 50 ms, as always
    assert time.waits == pytest.approx([0.05])


async def test_zero_is_no_pacing_and_a_negative_rate_is_refused() -> None:
    pace, time = paced(0)
    for _ in range(100):
        await pace.turn()
    assert time.waits == []
    with pytest.raises(ValueError, match="per_second"):
        Pace(-1)


async def test_the_rate_may_change_between_ticks() -> None:
    pace, time = paced(10)
    await pace.turn()
    await pace.turn()
    pace.per_second = 50
    await pace.turn()
    await pace.turn()
    assert time.waits == pytest.approx([0.1, 0.1, 0.02])


async def test_without_a_clock_it_paces_on_the_running_loop() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    pace = Pace(1000, sleep=sleep)
    await pace.turn()
    await pace.turn()
    assert len(waits) == 1 and 0 < waits[0] <= 0.001


@pytest.mark.parametrize(
    ("shard_ids", "shard_count", "share"),
    [
        (None, None, 1.0),  # not sharded, or not known yet
        (None, 4, 1.0),  # one process runs every shard
        ([0], 1, 1.0),
        ([0], 2, 0.5),
        ([3], 4, 0.25),
        ([0, 1], 4, 0.5),
        ([0, 0, 1], 4, 0.5),  # a shard named twice is still one shard
        ([0], None, 1.0),
        ([], 4, 1.0),
    ],
)
def test_a_process_takes_its_shards_share_of_the_bot_wide_rate(
    shard_ids: list[int] | None, shard_count: int | None, share: float
) -> None:
    assert process_share(shard_ids, shard_count) == share


def test_the_default_rate_stays_under_discords_global_limit() -> None:
    # Discord: 50 requests a second per bot, every process together; the posts leave room.
    assert SchedulerConfig().posts_per_second == DEFAULT_POSTS_PER_SECOND
    assert 0 < DEFAULT_POSTS_PER_SECOND <= 0.9 * 50

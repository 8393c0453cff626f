"""The startup heap is frozen once per process (bot/app/heap.py)."""

from __future__ import annotations

import subprocess
import sys


def test_the_heap_is_frozen_once_and_then_left_alone() -> None:
    # In a process of its own: the suite's own process has long been frozen by a harness bot.
    program = (
        "import gc; from bot.app.heap import freeze_startup_heap as freeze; "
        "first = freeze(); frozen = gc.get_freeze_count(); second = freeze(); "
        "print(first, frozen > 0, second, gc.get_freeze_count() == frozen)"
    )
    done = subprocess.run(  # noqa: S603 (this interpreter, a fixed program)
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["True", "True", "False", "True"]

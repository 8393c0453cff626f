"""Where a bench's bot processes spend their CPU: py-spy sampling them while a scenario runs,
and a summary of the samples.

py-spy (``pip install py-spy``; not a dependency of the project) reads a running process's
stacks from outside, so the bot runs unchanged and unslowed by a profiler of its own, and only
the scenario is sampled (not the interpreter's start-up, the imports or the warm-up).

API:

- :func:`sampling` – ``async with`` py-spy recording each pid (``--gil``: only stacks holding
  the GIL, which is the CPU a Python process can spend) into ``<name>-<pid>.txt`` (py-spy's
  ``raw`` format: one collapsed stack and its sample count per line); stopped at the end;
- :func:`hot_spots` – the summary of such files: the share of samples spent in each area of
  the code (the innermost frame that names one), and the functions with the most samples
  including what they call.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path

RATE = 250  # samples per second
# Innermost match wins: a stack is charged to the deepest frame whose file is in one of these.
AREAS: tuple[tuple[str, str], ...] = (
    ("bot/", "bot (ours)"),
    ("cogs/", "cogs (ours)"),
    ("discord/gateway", "discord.py gateway"),
    ("discord/state", "discord.py state/parsing"),
    ("discord/http", "discord.py http"),
    ("discord/app_commands", "discord.py app_commands"),
    ("discord/", "discord.py other"),
    ("aiohttp/", "aiohttp"),
    ("httpx/", "httpx"),
    ("httpcore/", "httpcore"),
    ("h11/", "h11"),
    ("anyio/", "anyio"),
    ("sqlalchemy/", "SQLAlchemy"),
    ("asyncpg/", "asyncpg"),
    ("redis/", "redis-py"),
    ("pydantic", "pydantic"),
    ("json/", "json"),
    ("logging/", "logging"),
    ("zlib", "zlib"),
    ("ssl", "ssl"),
    ("asyncio/", "asyncio"),
)


def _command(pid: int, output: Path) -> list[str]:
    return [
        "record",
        "--pid",
        str(pid),
        "--output",
        str(output),
        "--format",
        "raw",
        "--rate",
        str(RATE),
        "--gil",
        "--function",
    ]


@contextlib.asynccontextmanager
async def sampling(pids: Sequence[int], directory: Path, name: str) -> AsyncIterator[list[Path]]:
    """py-spy recording every pid while the block runs: the files it writes (complete after
    the block)."""
    spy = shutil.which("py-spy")
    if spy is None:
        raise RuntimeError("--profile needs py-spy on PATH: pip install py-spy")
    await asyncio.to_thread(directory.mkdir, parents=True, exist_ok=True)
    outputs = [directory / f"{name}-{pid}.txt" for pid in pids]
    recorders = []
    for pid, output in zip(pids, outputs, strict=True):
        with output.with_suffix(".log").open("wb") as log:
            recorders.append(
                await asyncio.create_subprocess_exec(
                    spy,
                    *_command(pid, output),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=log,
                    stderr=asyncio.subprocess.STDOUT,
                )
            )
    try:
        yield outputs
    finally:
        for recorder in recorders:
            if recorder.returncode is None:
                recorder.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        for recorder in recorders:
            await recorder.wait()


def _stacks(paths: Iterable[Path]) -> Iterable[tuple[list[str], int]]:
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                yield stack.split(";"), int(count)


def _area_of(stack: list[str]) -> str:
    for frame in reversed(stack):
        for marker, area in AREAS:
            if marker in frame:
                return area
    return "other"


def hot_spots(paths: Iterable[Path], *, top: int = 30) -> str:
    """A text summary of py-spy raw files: samples by area, then the functions with the most
    samples inclusive of their callees (each counted once per stack)."""
    areas: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    total = 0
    for stack, count in _stacks(paths):
        total += count
        areas[_area_of(stack)] += count
        leaves[stack[-1]] += count
        for frame in set(stack):
            inclusive[frame] += count
    if not total:
        return "no samples: see py-spy's .log beside the samples (it needs ptrace)"
    lines = [f"{total} samples at {RATE}/s holding the GIL ({total / RATE:.1f} s of CPU)"]
    lines.append("by area (the innermost frame in a known package):")
    lines += [f"  {100 * n / total:5.1f}%  {area}" for area, n in areas.most_common()]
    lines.append(f"top {top} functions, including what they call:")
    lines += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in inclusive.most_common(top)]
    lines.append(f"top {top} functions by their own samples:")
    lines += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in leaves.most_common(top)]
    return "\n".join(lines)

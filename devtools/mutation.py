"""Mutation testing of the core modules: ``python -m devtools.mutation [GROUP ...]``.

Each group is a few source modules and the test files that are meant to pin their behaviour
down. For every group named (all of them when none is), the command copies the tree to a
temporary directory, writes a ``[tool.mutmut]`` table for that group into the copy's
``pyproject.toml``, runs mutmut 3 there (at most ``--max-children`` workers, 2 by default),
and prints, per module, the mutants, how many were killed, survived and timed out, the score
and the name of every mutant that was not killed (``mutmut show NAME`` in the copy, kept with
``--keep``, shows its diff). It exits non-zero when a group scores below ``--min-score``
(90 by default) or mutmut itself fails.

Why the groups are a typed constant here (:data:`GROUPS`) and not a table in pyproject.toml:
the table is the whole configuration, so it is checked by mypy like the code that reads it and
needs no validation at run time; and the repository's own pyproject.toml deliberately has no
``[tool.mutmut]`` table, so a bare ``mutmut run`` in the working tree stops at once instead of
writing ``mutants/`` into it and testing code the suite does not import. The ``[tool.mutmut]``
table exists only in the copy, where it is generated from :data:`GROUPS` and :data:`SHARED`.

How mutmut 3.8 reads that table (``mutmut/configuration.py``): from ``pyproject.toml`` in the
directory it runs in, key by key (unknown keys are ignored). ``source_paths`` is copied into
``mutants/`` and put first on ``sys.path`` (the checkout itself is removed from it), so it is
the whole ``bot`` package: the mutated modules must import their unmutated neighbours from the
copy, never the editable install's ``bot``. ``only_mutate`` (globs matched against paths such
as ``bot/a2a/retry.py``) picks the group's modules; ``also_copy`` brings ``cogs``, ``devtools``,
``tests`` and the rest beside it, because the tests import them from the root (pytest runs in
``mutants/`` with ``--rootdir=.``). ``pytest_add_cli_args_test_selection`` is the group's test
files: the stats run, the clean run and every mutant run use only those. mutmut's own forced
failure check (every trampoline raising) stops the run when the tests do not reach the copy.

The score is mutmut's own (its ``badge`` command): killed and timed-out mutants over all but
the skipped ones, so a mutant no selected test reaches ("no tests") counts against the score.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MIN_SCORE = 90.0
DEFAULT_MAX_CHILDREN = 2


@dataclass(frozen=True)
class Group:
    """Source modules (globs relative to the root) and the test files that score them."""

    sources: tuple[str, ...]
    tests: tuple[str, ...]


GROUPS: dict[str, Group] = {
    "a2a": Group(
        sources=("bot/a2a/errors.py", "bot/a2a/retry.py"),
        tests=("tests/bot/a2a/test_errors.py", "tests/bot/a2a/test_retry.py"),
    ),
    "client": Group(
        sources=("bot/a2a/client.py", "bot/a2a/call_policy.py"),
        tests=(
            "tests/bot/a2a/test_client_against_fake.py",
            "tests/bot/a2a/test_client_task_states.py",
            "tests/bot/a2a/test_client_faults.py",
            "tests/bot/a2a/test_errors.py",
            "tests/bot/a2a/test_retry.py",
        ),
    ),
    "split": Group(
        sources=("bot/render/split.py",),
        tests=("tests/bot/render/test_split.py",),
    ),
    "daily": Group(
        sources=("bot/daily/post_times.py", "bot/daily/schedule.py"),
        tests=("tests/bot/daily/test_post_times.py",),
    ),
    "planner": Group(
        sources=("bot/daily/planner.py",),
        tests=("tests/bot/daily/test_planner.py",),
    ),
    "window": Group(
        sources=("bot/limits/window.py",),
        tests=("tests/bot/limits/test_window.py",),
    ),
    "services": Group(
        sources=("bot/services/*.py",),
        tests=(
            "tests/bot/services/test_magisterium_service.py",
            "tests/bot/services/test_user_errors.py",
            "tests/e2e/test_upstream_retry_budget.py",
            "tests/bot/cache/test_single_flight.py",
        ),
    ),
    "accounts": Group(
        sources=("bot/accounts/*.py",),
        tests=(
            "tests/bot/accounts/test_accounts.py",
            "tests/bot/accounts/test_crypto.py",
            "tests/bot/accounts/test_quota.py",
            "tests/bot/accounts/test_registry.py",
            "tests/bot/cli/test_accounts_cli.py",
            "tests/bot/accounts/test_key_rotation.py",
        ),
    ),
}

# The mutated package: copied whole into mutants/ so that it is what the tests import.
MUTATED_PACKAGE = "bot"

# The [tool.mutmut] settings every group shares.
SHARED: dict[str, bool | float | list[str]] = {
    # No cache directory written into the copy's mutants/ tree by every worker.
    "pytest_add_cli_args": ["-p", "no:cacheprovider"],
    # The copy has no .git: mutmut would only warn about it.
    "use_git_change_detection": False,
}

# Not copied: the environment, caches, build output, and an earlier run's mutants.
_NOT_COPIED_AT_ROOT = frozenset(
    {".venv", ".git", "mutants", "build", "dist", "data", ".mypy_cache", ".ruff_cache"}
)
_NOT_COPIED_ANYWHERE = frozenset({"__pycache__", ".pytest_cache", ".hypothesis"})

# mutmut's exit codes of a mutant run (mutmut/stats.py), by what they mean for the score.
_KILLED = frozenset({1, 3})
_SURVIVED = frozenset({0})
_NO_TESTS = frozenset({5, 33})
_SKIPPED = frozenset({34})
_TIMEOUT = frozenset({36, -24, 24, 152, 255})


@dataclass
class ModuleScore:
    """What became of one module's mutants."""

    module: str
    killed: int = 0
    survived: int = 0
    timeouts: int = 0
    no_tests: int = 0
    skipped: int = 0
    other: int = 0
    not_killed: list[str] = field(default_factory=list)

    @property
    def mutants(self) -> int:
        return (
            self.killed + self.survived + self.timeouts + self.no_tests + self.skipped + self.other
        )

    @property
    def score(self) -> float:
        tested = self.mutants - self.skipped
        return 100.0 if tested == 0 else 100.0 * (self.killed + self.timeouts) / tested

    def add(self, name: str, exit_code: int | None) -> None:
        if exit_code in _KILLED:
            self.killed += 1
            return
        if exit_code in _TIMEOUT:
            self.timeouts += 1
            return
        if exit_code in _SKIPPED:
            self.skipped += 1
            return
        if exit_code in _SURVIVED:
            self.survived += 1
        elif exit_code in _NO_TESTS:
            self.no_tests += 1
        else:  # not checked, suspicious, segfault, interrupted
            self.other += 1
        self.not_killed.append(name)


def combined(name: str, scores: Iterable[ModuleScore]) -> ModuleScore:
    total = ModuleScore(name)
    for score in scores:
        total.killed += score.killed
        total.survived += score.survived
        total.timeouts += score.timeouts
        total.no_tests += score.no_tests
        total.skipped += score.skipped
        total.other += score.other
        total.not_killed += score.not_killed
    return total


def toml_value(value: bool | float | str | Sequence[str]) -> str:
    """The TOML spelling of the few kinds of value a mutmut setting takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: JSON's escapes are TOML's
    return "[" + ", ".join(json.dumps(item) for item in value) + "]"


def mutmut_settings(group: Group, top_level: Iterable[str]) -> dict[str, bool | float | list[str]]:
    """The ``[tool.mutmut]`` table of one group; ``top_level`` names the copy's root entries."""
    also_copy = sorted(name for name in top_level if name not in {MUTATED_PACKAGE, "mutants"})
    return {
        "source_paths": [MUTATED_PACKAGE],
        "only_mutate": list(group.sources),
        "also_copy": also_copy,
        "pytest_add_cli_args_test_selection": list(group.tests),
        **SHARED,
    }


def mutmut_table(settings: dict[str, bool | float | list[str]]) -> str:
    lines = ["", "[tool.mutmut]", "# Written by devtools/mutation.py into this copy only."]
    lines += [f"{key} = {toml_value(value)}" for key, value in settings.items()]
    return "\n".join(lines) + "\n"


def _ignore(directory: str, names: list[str]) -> set[str]:
    at_root = Path(directory).resolve() == ROOT
    return {
        name
        for name in names
        if name in _NOT_COPIED_ANYWHERE
        or (at_root and (name in _NOT_COPIED_AT_ROOT or name.endswith(".egg-info")))
    }


def prepare_copy(name: str, group: Group) -> Path:
    """A copy of the tree for one group, its ``[tool.mutmut]`` table written in."""
    copy = Path(tempfile.mkdtemp(prefix=f"mut-{name}-"))
    shutil.copytree(ROOT, copy, ignore=_ignore, dirs_exist_ok=True)
    pyproject = copy / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    if "[tool.mutmut]" in text:
        raise SystemExit("pyproject.toml has a [tool.mutmut] table: the groups live in GROUPS")
    settings = mutmut_settings(group, (entry.name for entry in copy.iterdir()))
    pyproject.write_text(text + mutmut_table(settings), encoding="utf-8")
    return copy


def module_files(copy: Path, group: Group) -> list[str]:
    """The group's source files, as mutmut names them (relative to the copy)."""
    found = (path.relative_to(copy).as_posix() for path in (copy / MUTATED_PACKAGE).rglob("*.py"))
    return sorted(path for path in found if any(fnmatch(path, glob) for glob in group.sources))


def read_scores(copy: Path, group: Group) -> list[ModuleScore]:
    """Each module's results from the ``.meta`` files mutmut leaves beside its mutants."""
    scores = []
    for path in module_files(copy, group):
        score = ModuleScore(path)
        meta = copy / "mutants" / f"{path}.meta"
        if meta.exists():
            exit_codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))[
                "exit_code_by_key"
            ]
            for mutant, exit_code in sorted(exit_codes.items()):
                score.add(mutant, exit_code)
        scores.append(score)
    return scores


def run_mutmut(copy: Path, max_children: int) -> tuple[int, Path]:
    """Run ``mutmut run`` in the copy with this interpreter; its output goes to a log file."""
    log = copy / "mutmut.log"
    # mutmut.__main__ must be imported as itself (python -m would run it twice).
    launcher = "import sys; from mutmut.__main__ import cli; sys.argv[0] = 'mutmut'; cli()"
    command = [sys.executable, "-c", launcher, "run", "--max-children", str(max_children)]
    with log.open("w", encoding="utf-8") as out:
        finished = subprocess.run(  # noqa: S603 (this interpreter, fixed arguments)
            command, cwd=copy, stdout=out, stderr=subprocess.STDOUT, check=False
        )
    return finished.returncode, log


def report(name: str, scores: list[ModuleScore], out: list[str]) -> ModuleScore:
    header = f"{'module':<32} {'mutants':>7} {'killed':>6} {'survived':>8} "
    header += f"{'timeouts':>8} {'no tests':>8} {'score':>7}"
    out += [f"== {name}", header]
    for score in [*scores, combined(f"{name} (all)", scores)]:
        out.append(
            f"{score.module:<32} {score.mutants:>7} {score.killed:>6} {score.survived:>8} "
            f"{score.timeouts:>8} {score.no_tests:>8} {score.score:>6.1f}%"
        )
    for score in scores:
        for mutant in score.not_killed:
            out.append(f"  not killed: {mutant}")
    return combined(name, scores)


def run_group(name: str, max_children: int, keep: bool) -> tuple[ModuleScore | None, list[str]]:
    """Score one group; None when mutmut failed (its log's tail is in the lines)."""
    group = GROUPS[name]
    started = time.monotonic()
    copy = prepare_copy(name, group)
    try:
        exit_code, log = run_mutmut(copy, max_children)
        lines: list[str] = []
        if exit_code != 0:
            tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-40:]
            lines += [f"== {name}: mutmut exited with {exit_code}", *tail]
            return None, lines
        total = report(name, read_scores(copy, group), lines)
        lines.append(f"  ({time.monotonic() - started:.0f} s in {copy})")
        return total, lines
    finally:
        if keep:
            print(f"kept {copy}", file=sys.stderr)
        else:
            shutil.rmtree(copy, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    summary = (__doc__ or "").split("\n\n", 2)[1]  # what the command does, not why
    parser = argparse.ArgumentParser(prog="python -m devtools.mutation", description=summary)
    parser.add_argument("groups", nargs="*", metavar="GROUP", help=", ".join(GROUPS))
    parser.add_argument("--min-score", type=float, default=DEFAULT_MIN_SCORE)
    parser.add_argument("--max-children", type=int, default=DEFAULT_MAX_CHILDREN)
    parser.add_argument("--keep", action="store_true", help="keep each group's copy")
    args = parser.parse_args(argv)
    names: list[str] = args.groups or list(GROUPS)
    unknown = [name for name in names if name not in GROUPS]
    if unknown:
        parser.error(f"unknown group {', '.join(unknown)}: choose from {', '.join(GROUPS)}")
    missing = [test for name in names for test in GROUPS[name].tests if not (ROOT / test).exists()]
    if missing:
        parser.error(f"no such test file: {', '.join(missing)}")
    failed = []
    for name in names:
        total, lines = run_group(name, args.max_children, args.keep)
        print("\n".join(lines), flush=True)
        if total is None or total.score < args.min_score:
            failed.append(name)
    if failed:
        print(f"below {args.min_score:g}% (or failed): {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

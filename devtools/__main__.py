"""`python -m devtools test [--quick] [PYTEST ARGS]`: provide what the suite needs, then run it.

The README's test command and what CI runs. It runs pytest on a worker per core
(pytest-xdist), with Python's bytecode cache on; `--quick` leaves out the slow tier (the
tests marked `slow`) and the browser's installation. Plain `python -m pytest` stays valid
where the browser, PostgreSQL and Redis are already there (one process unless given `-n`).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

from devtools.provision import Report, provision

# Options with which the caller already chose how pytest runs: the command adds no workers.
_WORKER_OPTIONS = ("-n", "--numprocesses", "--dist", "--pdb", "--trace")


def _caller_chose_workers(pytest_args: Sequence[str]) -> bool:
    words = " ".join(pytest_args)
    return "no:xdist" in words or any(
        arg.startswith(option) for arg in pytest_args for option in _WORKER_OPTIONS
    )


def pytest_command(pytest_args: Sequence[str], *, quick: bool) -> list[str]:
    """pytest's command line: a worker per core, each handed tests as it finishes the last ones
    (the slow tier first: tests/conftest.py) unless the caller chose otherwise, then their
    arguments."""
    command = [sys.executable, "-m", "pytest"]
    if not _caller_chose_workers(pytest_args):
        command += ["-n", "auto", "--dist", "load"]
    if quick:
        command += ["-m", "not slow"]
    return [*command, *pytest_args]


def pytest_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The caller's environment with Python's bytecode cache allowed: without it every worker
    (and every `python -m bot run` a test starts) compiles the whole tree and pytest rewrites
    every test module's asserts again, on every run."""
    return {name: value for name, value in environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run_tests(pytest_args: Sequence[str], *, provide: bool = True, quick: bool = False) -> int:
    report = provision(browser=not quick) if provide else Report()
    for line in report.lines():
        print(f"[devtools test] {line}", flush=True)
    tests = subprocess.run(  # noqa: S603
        pytest_command(pytest_args, quick=quick), env=pytest_environment(os.environ), check=False
    )
    if report.missing:
        print("[devtools test] not provided, so their tests failed:", flush=True)
        for what in report.missing:
            print(f"[devtools test]   {what}", flush=True)
    return tests.returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    test = commands.add_parser(
        "test", help="provide what the tests need (Chromium, PostgreSQL, Redis), then run pytest"
    )
    test.add_argument(
        "--no-provision", action="store_true", help="install and start nothing; only run pytest"
    )
    test.add_argument(
        "--quick",
        action="store_true",
        help="the edit loop: everything but the slow tier (soak, bench smokes, real runs, browser)",
    )
    # Everything else on the line is pytest's (options included).
    args, pytest_args = parser.parse_known_args(argv)
    return run_tests(pytest_args, provide=not args.no_provision, quick=args.quick)


if __name__ == "__main__":
    sys.exit(main())

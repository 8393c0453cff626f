"""`python -m devtools test [PYTEST ARGS]`: provide what the suite needs, then run it.

The README's test command and what CI runs. Plain `python -m pytest` stays valid where the
browser, PostgreSQL and Redis are already there.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence

from devtools.provision import Report, provision


def run_tests(pytest_args: Sequence[str], *, provide: bool = True) -> int:
    report = provision() if provide else Report()
    for line in report.lines():
        print(f"[devtools test] {line}", flush=True)
    tests = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], check=False)  # noqa: S603
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
    # Everything else on the line is pytest's (options included).
    args, pytest_args = parser.parse_known_args(argv)
    return run_tests(pytest_args, provide=not args.no_provision)


if __name__ == "__main__":
    sys.exit(main())

"""`python -m devtools test [--quick] [PYTEST ARGS]`: provide what the suite needs, then run it.
(`python -m devtools image` builds and checks the Docker image: :mod:`devtools.image`.)

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
from pathlib import Path

from devtools.image import DEFAULT_TAG, DEFAULT_WORKDIR
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
        "test",
        help="provide what the tests need (Chromium, promtool, docker-compose, PostgreSQL, "
        "Redis), then run pytest",
    )
    test.add_argument(
        "--no-provision", action="store_true", help="install and start nothing; only run pytest"
    )
    test.add_argument(
        "--quick",
        action="store_true",
        help="the edit loop: everything but the slow tier (soak, bench smokes, real runs, browser)",
    )
    add_image_parser(commands)
    # Everything else on the line is pytest's (options included).
    args, pytest_args = parser.parse_known_args(argv)
    if args.command == "image":
        if pytest_args:
            parser.error(f"unrecognized arguments: {' '.join(pytest_args)}")
        from devtools.image.command import run as build_and_check_image

        return build_and_check_image(args.tag, args.base, args.workdir, no_cache=args.no_cache)
    return run_tests(pytest_args, provide=not args.no_provision, quick=args.quick)


def add_image_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    image = commands.add_parser(
        "image",
        help="build the Docker image without Docker (buildah) and check it runs and is healthy",
        description="Build the Dockerfile with buildah (no Docker daemon), on python:3.11-slim "
        "from the registry or, when none answers, a Debian bookworm stand-in made with "
        "debootstrap; then run the image as docker-compose.yml does against the Discord "
        "stand-in and the fake Magisterium, run its HEALTHCHECK, and print its size, build "
        "time, start time and memory. Needs root; installs buildah and debootstrap with "
        "apt-get when missing. Not part of CI.",
    )
    image.add_argument("--tag", default=DEFAULT_TAG, help="the image's name")
    image.add_argument(
        "--base",
        metavar="IMAGE",
        help="build on this image (local or pulled) instead of the registry's python:3.11-slim",
    )
    image.add_argument(
        "--no-cache", action="store_true", help="rebuild every layer (a cold build's time)"
    )
    image.add_argument(
        "--workdir",
        type=Path,
        default=DEFAULT_WORKDIR,
        help="the build's and the bot's logs, the volume's files, the stand-in's scratch space",
    )


if __name__ == "__main__":
    sys.exit(main())

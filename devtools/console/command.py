"""`python -m bot console [-c "/ask question:…"] [-v]`: the bot offline, without Discord."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys

from bot.accounts import EncryptionKeyError
from bot.cli.common import CLIError, fail, load_settings
from bot.cli.quiet_logs import logs_to_stderr
from bot.i18n.locales import SUPPORTED_LOCALES
from bot.storage import StorageUnavailable
from devtools.console.session import ConsoleSession
from devtools.console.startup import HarnessUnavailable, load_harness, open_session

log = logging.getLogger(__name__)


def run(args: argparse.Namespace) -> int:
    logs_to_stderr(verbose=args.verbose)
    if not args.verbose:
        # Offline, discord.py's warnings (no voice libraries, gateway hiccups) are only noise.
        logging.getLogger("discord").setLevel(logging.ERROR)
    if args.locale is not None and args.locale not in SUPPORTED_LOCALES:
        spoken = ", ".join(SUPPORTED_LOCALES)
        return fail(CLIError(f"--locale {args.locale!r}: the bot speaks {spoken}"))
    try:
        env = load_settings()
        harness_module = load_harness()
    except CLIError as error:
        return fail(error)
    except HarnessUnavailable as error:
        return fail(CLIError(str(error)))
    with asyncio.Runner() as runner:
        stack = contextlib.AsyncExitStack()
        try:
            session = runner.run(
                open_session(
                    env,
                    harness_module,
                    stack,
                    limits=args.limits,
                    locale=args.locale,
                    files_dir=args.files,
                )
            )
        except (EncryptionKeyError, StorageUnavailable, ValueError) as error:
            runner.run(stack.aclose())
            return fail(CLIError(f"the bot did not start: {error}"))
        except Exception as error:
            log.debug("the console did not start", exc_info=True)
            runner.run(stack.aclose())
            hint = "" if args.verbose else " (run with -v for details)"
            return fail(CLIError(f"the bot did not start: {type(error).__name__}{hint}"))
        try:
            print(session.description, flush=True)
            if args.line is not None:
                return _run_one(runner, session, args.line)
            return _interactive(runner, session)
        except KeyboardInterrupt:
            return 130
        finally:
            runner.run(stack.aclose())


def _run_one(runner: asyncio.Runner, session: ConsoleSession, line: str) -> int:
    reply = runner.run(session.run_line(line))
    print(reply.text)
    return 1 if reply.failed else 0


def _interactive(runner: asyncio.Runner, session: ConsoleSession) -> int:
    prompt = ""
    if sys.stdin.isatty():
        prompt = "> "
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history for input()
        print("Type /help for the bot's commands, help for the console's, quit to leave.")
    while True:
        try:
            line = input(prompt)
        except (EOFError, KeyboardInterrupt):
            if prompt:
                print()
            return 0
        if line.strip() in ("quit", "exit"):
            return 0
        try:
            reply = runner.run(session.run_line(line))
        except KeyboardInterrupt:
            print("(interrupted)")
            continue
        if reply.text:
            print(reply.text, flush=True)

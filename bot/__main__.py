"""Command line: `python -m bot <command>`; each command lives with the code it runs."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

from bot.cli.common import CLIError, fail
from bot.cli.dev_commands import (
    DEV_COMMANDS,
    NOT_HERE,
    add_dev_parsers,
    dev_tools_available,
    requested_command,
    wants_dev_commands,
)
from bot.cli.parsers import add_production_commands


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The CLI's parser; the development commands only if ``argv`` may need them (or is None)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Magisterium AI for Discord."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_production_commands(commands)
    if wants_dev_commands(argv, tuple(commands.choices)):
        add_dev_parsers(commands)
    return parser


def setup_logging(verbose: bool) -> None:
    """Logging from LOG_LEVEL and LOG_FORMAT (``-v``: DEBUG), with every secret redacted.

    Settings that do not load leave the defaults: commands that need no settings (genkey,
    fake-server) still run, and those that do report the problem themselves.
    """
    # Imported here, once a command runs: `--help` needs none of them.
    from bot.cli.common import load_settings  # noqa: PLC0415
    from bot.observability import (  # noqa: PLC0415
        configure_logging,
        log_level,
        register_settings_secrets,
    )

    try:
        settings = load_settings()
    except CLIError:
        settings = None
    if settings is not None:
        register_settings_secrets(settings)
    level = log_level(settings.log_level if settings else "INFO")
    if verbose:
        level = logging.DEBUG
    if logging.getLogger().handlers:
        return  # whoever runs main() (a test runner) configured logging already: keep theirs
    configure_logging(level, settings.log_format if settings else "text")


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    command = requested_command(argv)
    if command in DEV_COMMANDS and not dev_tools_available():
        return fail(CLIError(NOT_HERE.format(command=command)))
    args = parser.parse_args(argv)
    try:
        setup_logging(args.verbose)
    except ValueError as error:
        return fail(CLIError(f"LOG_LEVEL: {error}"))
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())

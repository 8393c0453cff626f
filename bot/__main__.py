"""Command line: `python -m bot <command>`; each command lives with the code it runs."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

from bot.cli import accounts_cli, bot_commands
from bot.fake_server import cli as fake_server_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Magisterium AI for Discord."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bot_commands.add_parsers(commands)
    accounts_cli.add_parsers(commands)
    fake_server_cli.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())

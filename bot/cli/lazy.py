"""A command's handler, imported only when that command runs: building the parser (and so
``python -m bot --help``) imports none of the bot."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable

Handler = Callable[[argparse.Namespace], int]


def handler(target: str) -> Handler:
    """The function ``target`` names (``"bot.cli.bot_commands:run"``), imported on first call."""
    module_name, _, name = target.partition(":")

    def run(args: argparse.Namespace) -> int:
        function: Handler = getattr(importlib.import_module(module_name), name)
        return function(args)

    run.__qualname__ = run.__name__ = name
    return run

"""Run a program's command line only as far as its argument parser: ``python parse_only.py -m
bot sync --guild 1`` or ``python parse_only.py bench/daily.py --breakdown``.

The program is started as ``python`` would start it (``runpy``, as ``__main__``), but the first
complete ``argparse`` parse ends it: exit 0 with ``parsed`` on stdout if argparse accepted the
line, argparse's own exit 2 and message if not. So a documented command is checked against the
real parser (subcommands, option names, value types) without connecting to anything.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from pathlib import Path
from typing import Any

PARSED = "parsed"
_parsing = [0]  # how deep in argparse's own calls (a subparser's parse runs inside its parent's)
_parse_args = argparse.ArgumentParser.parse_args
_parse_known_args = argparse.ArgumentParser.parse_known_args


def _outermost(parse: Any) -> Any:
    """``parse``, ending the program once the outermost parse (not a subparser's) succeeds."""

    def parse_then_stop(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        _parsing[0] += 1
        try:
            result = parse(self, *args, **kwargs)
        finally:
            _parsing[0] -= 1
        if _parsing[0] == 0:
            print(PARSED)
            raise SystemExit(0)
        return result

    return parse_then_stop


def main(argv: list[str]) -> None:
    argparse.ArgumentParser.parse_args = _outermost(_parse_args)  # type: ignore[method-assign]
    argparse.ArgumentParser.parse_known_args = _outermost(_parse_known_args)  # type: ignore[method-assign]
    # sys.path[0] is this file's folder; python puts the working directory there for -m, and
    # the script's folder for a script.
    if argv[0] == "-m":
        sys.path[0] = os.getcwd()
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = str(Path(argv[0]).resolve().parent)
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")
    raise SystemExit("the program ended without parsing its command line")


if __name__ == "__main__":
    main(sys.argv[1:])

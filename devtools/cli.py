"""The development commands `python -m bot` offers from a source checkout."""

from __future__ import annotations

import argparse

from devtools.console import command as console
from devtools.fake_magisterium import cli as fake_magisterium


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    console.add_parser(commands)
    fake_magisterium.add_parser(commands)

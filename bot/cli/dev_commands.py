"""The development commands (`console`, `fake-server`), offered only where they can run.

They live in the ``devtools`` package of a source checkout, which the wheel and the image do not
ship. Nothing here imports it unless one of its commands (or the command list) is asked for, so
``python -m bot run`` loads no test double.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

DEV_PACKAGE = "devtools"
DEV_COMMANDS = ("console", "fake-server")
NOT_HERE = (
    "`{command}` comes with a source checkout: clone the repository, "
    "`pip install -e '.[console]'` there and run it from the checkout"
)


def _checkout_root() -> Path | None:
    """The source checkout this ``bot`` package was imported from, if it is one."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / DEV_PACKAGE / "__init__.py").is_file():
        return root
    return None


def dev_tools_available() -> bool:
    """Whether ``devtools`` can be imported, making the checkout importable if it must be.

    An editable install maps only ``bot`` and ``cogs``; run from outside the checkout, its
    ``devtools`` is found beside them.
    """
    if importlib.util.find_spec(DEV_PACKAGE) is not None:
        return True
    root = _checkout_root()
    if root is None:
        return False
    sys.path.append(str(root))
    return importlib.util.find_spec(DEV_PACKAGE) is not None


def requested_command(argv: Sequence[str]) -> str | None:
    """The command word of a command line (the first argument that is not an option)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def wants_dev_commands(argv: Sequence[str] | None, production: Sequence[str]) -> bool:
    """Whether this command line may need a development command (or lists them all)."""
    if argv is None:
        return True
    command = requested_command(argv)
    return command is None or command not in production


def add_dev_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> bool:
    """Add the development commands when ``devtools`` is here; whether they were added."""
    if not dev_tools_available():
        return False
    importlib.import_module(f"{DEV_PACKAGE}.cli").add_parsers(commands)
    return True

"""Keeping logs out of the way of commands whose output is the point (`check`, `console`)."""

from __future__ import annotations

import logging
import sys


def logs_to_stderr(*, verbose: bool) -> None:
    """Root logging at WARNING (DEBUG with ``verbose``), and on stderr, never on stdout."""
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)
    for handler in root.handlers:
        if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stdout:
            handler.setStream(sys.stderr)

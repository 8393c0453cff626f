"""Keeping logs out of the way: of commands whose output is the point (`check`, `console`), and
of a failure that is reported as a line of its own (`run`'s start)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def logs_to_stderr(*, verbose: bool) -> None:
    """Root logging at WARNING (DEBUG with ``verbose``), and on stderr, never on stdout."""
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)
    for handler in root.handlers:
        if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stdout:
            handler.setStream(sys.stderr)


@contextmanager
def held_back(logger_name: str) -> Iterator[None]:
    """In the block, what the logger ``logger_name`` itself logs below ERROR is dropped, unless
    it logs at DEBUG: for a step whose failure its caller reports in a line of its own."""
    logger = logging.getLogger(logger_name)
    if logger.isEnabledFor(logging.DEBUG):
        yield
        return
    below_error = _AtLeast(logging.ERROR)
    logger.addFilter(below_error)
    try:
        yield
    finally:
        logger.removeFilter(below_error)


class _AtLeast(logging.Filter):
    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.level

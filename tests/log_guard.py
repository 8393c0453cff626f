"""A whole-run check that no token the suite used ever reached a log line.

Every log record of the run (any logger, any level, tracebacks included) is kept in memory;
every token the fake Magisterium received is remembered; when the run ends, a token found in
any record fails the run.
"""

from __future__ import annotations

import logging

import pytest

_records: list[str] = []
_tokens: set[str] = set()


class _KeepEverything(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        _records.append(text)


def remember_tokens(tokens: set[str | None]) -> None:
    _tokens.update(t for t in tokens if t and len(t) >= 8)


def pytest_configure(config: pytest.Config) -> None:
    root = logging.getLogger()
    root.addHandler(_KeepEverything(level=logging.DEBUG))
    root.setLevel(logging.DEBUG)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    leaked = sorted(t for t in _tokens if any(t in record for record in _records))
    if leaked:
        print(f"\n{len(leaked)} token(s) used by the suite appear in its logs", flush=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif _tokens:
        print(f"\nlog guard: {len(_tokens)} tokens, {len(_records)} log records, no leak")

"""A whole-run check that no secret and no question the suite used ever reached a log line.

Every log record of the run (any logger, any level, tracebacks included) is kept in memory.
When the run ends, the run fails if any record holds:

* a token the fake Magisterium received, or any secret a bot of the run registered for
  redaction (tokens, encryption keys), at any level;
* anything shaped like a Fernet key, at any level;
* a question the fake received for ``catholic_qa`` (a /ask, a DM), at INFO or above.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import pytest

from bot.observability.redaction import FERNET_KEY_SHAPE, REDACTOR

# Shorter strings would match ordinary log text by coincidence.
_MIN_LENGTH = 8
# Records are joined with this, so that a secret is never found across two records.
_SEPARATOR = "\0"

_records: list[tuple[int, str]] = []
_tokens: set[str] = set()
_questions: set[str] = set()


class _KeepEverything(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        if record.stack_info:
            text += record.stack_info
        _records.append((record.levelno, text))


def remember_tokens(tokens: set[str | None]) -> None:
    _tokens.update(t for t in tokens if t and len(t) >= _MIN_LENGTH)


def remember_questions(requests: Iterable[Any]) -> None:
    """The texts of the ``catholic_qa`` requests the fake recorded (``fake.requests``)."""
    for request in requests:
        if request.skill != "catholic_qa":
            continue
        for part in request.parts:
            text = part.get("text") if part.get("kind") == "text" else None
            if isinstance(text, str) and len(text.strip()) >= _MIN_LENGTH:
                _questions.add(text.strip())


_guard = _KeepEverything(level=logging.DEBUG)


def _listen_to_everything() -> None:
    root = logging.getLogger()
    if _guard not in root.handlers:
        root.addHandler(_guard)
    root.setLevel(logging.DEBUG)


def pytest_configure(config: pytest.Config) -> None:
    _listen_to_everything()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Again before each test: code under test may have raised the root level (a CLI command
    quietening its logs), which would hide every later test's records from the guard."""
    _listen_to_everything()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    everything = _SEPARATOR.join(text for _, text in _records)
    from_info = _SEPARATOR.join(text for level, text in _records if level >= logging.INFO)
    secrets = _tokens | {s for s in REDACTOR.values if len(s) >= _MIN_LENGTH}
    keys = {s for s in secrets if FERNET_KEY_SHAPE.fullmatch(s)}
    leaks = [
        f"{len([s for s in secrets if s in everything])} secret(s) used by the suite",
        f"{len(FERNET_KEY_SHAPE.findall(everything))} Fernet-key-shaped string(s)",
        f"{len([q for q in _questions if q in from_info])} question text(s) at INFO or above",
    ]
    leaks = [leak for leak in leaks if not leak.startswith("0 ")]
    if leaks:
        print(f"\nlog guard: {'; '.join(leaks)} appear in the logs", flush=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif _tokens:
        print(
            f"\nlog guard: {len(secrets - keys)} tokens, {len(keys)} keys, "
            f"{len(_questions)} questions, {len(_records)} records, no leak"
        )

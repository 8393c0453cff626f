"""Logging to stdout, as text or one JSON object per line, with secrets redacted."""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from typing import Any, Literal, TextIO

from bot.observability.redaction import REDACTOR, Redactor

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LogFormat = Literal["text", "json"]

# Every character that could end a line (str.splitlines() splits at all of them, and so do some
# log viewers) or drive a terminal: C0 and C1 controls, DEL, and the Unicode line and paragraph
# separators. A request's text that reaches a log message could otherwise forge whole records.
_LINE_BREAKING = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029]
_NAMED_ESCAPES = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_TEXT_ESCAPES = {
    code: _NAMED_ESCAPES.get(code, f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    for code in _LINE_BREAKING
}
# json.dumps escapes C0 controls itself, but with ensure_ascii=False not these.
_JSON_ESCAPES = {code: f"\\u{code:04x}" for code in _LINE_BREAKING if code >= 0x7F}


def escape_controls(text: str) -> str:
    """``text`` with every control character and line separator escaped (``\\n``, ``\\x1b``…)."""
    return text.translate(_TEXT_ESCAPES)


class RedactingFormatter(logging.Formatter):
    """The text format: one line per record (the message's control characters escaped; a
    traceback follows on lines of its own); the whole of it goes through the redactor."""

    def __init__(self, redactor: Redactor = REDACTOR) -> None:
        super().__init__(TEXT_FORMAT)
        self._redactor = redactor

    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape_controls(super().formatMessage(record))

    def format(self, record: logging.LogRecord) -> str:
        return self._redactor.redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and, when present, exc_info."""

    def __init__(self, redactor: Redactor = REDACTOR) -> None:
        super().__init__()
        self._redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc_info"] = record.exc_text
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        # Each field is redacted before encoding: JSON escaping could hide a secret's text.
        redacted = {
            key: self._redactor.redact(value) if isinstance(value, str) else value
            for key, value in line.items()
        }
        return json.dumps(redacted, ensure_ascii=False).translate(_JSON_ESCAPES)


class _StdoutHandler(logging.StreamHandler[TextIO]):
    """The one handler ``configure_logging`` owns (so configuring again replaces it)."""


# discord.py warns at every start that voice is unsupported: the bot has no voice.
_NO_VOICE = "voice will NOT be supported"


class _LibraryChatter(logging.Filter):
    """Drops what libraries log at every start and an operator never acts on: alembic's lines
    below WARNING (``bot.storage.migrate`` logs one line a migration instead) and discord.py's
    warnings that voice is unsupported. Not installed at DEBUG, where all is shown."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.partition(".")[0] == "alembic" and record.levelno < logging.WARNING:
            return False
        return not (record.name == "discord.client" and str(record.msg).endswith(_NO_VOICE))


def log_level(name: str | int) -> int:
    """The level for a name such as ``"info"``; ValueError names the valid ones."""
    if isinstance(name, int):
        return name
    level = logging.getLevelNamesMapping().get(name.strip().upper())
    if level is None:
        raise ValueError(
            f"unknown log level {name!r} (use DEBUG, INFO, WARNING, ERROR or CRITICAL)"
        )
    return level


def configure_logging(
    level: str | int = logging.INFO, fmt: LogFormat = "text", *, stream: TextIO | None = None
) -> logging.Handler:
    """Install one stdout handler on the root logger (replacing one installed before)."""
    root = logging.getLogger()
    root.setLevel(log_level(level))
    for handler in [h for h in root.handlers if isinstance(h, _StdoutHandler)]:
        root.removeHandler(handler)
        handler.close()
    handler = _StdoutHandler(stream if stream is not None else sys.stdout)
    handler.setFormatter(JsonFormatter() if fmt == "json" else RedactingFormatter())
    if root.level > logging.DEBUG:
        handler.addFilter(_LibraryChatter())
    root.addHandler(handler)
    return handler

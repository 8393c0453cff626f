"""Logs: secrets redacted from whole lines in both formats, JSON lines, no question at INFO.

Records holding secrets are handed to the formatter or the handler directly, never through a
logger: the whole-run log guard (tests/support/log_guard.py) would rightly see them.
"""

from __future__ import annotations

import io
import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.__main__ import main
from bot.accounts import Purpose, TokenCipher, generate_key
from bot.app import create_bot
from bot.observability import REDACTED, configure_logging
from bot.observability.logs import JsonFormatter, RedactingFormatter
from bot.observability.redaction import Redactor
from devtools.discord import Harness
from devtools.discord.fixtures import harness_settings
from devtools.fake_magisterium import FakeMagisterium, Fault

FERNET_KEY = generate_key()
_cipher = TokenCipher.from_setting(FERNET_KEY)
assert _cipher is not None
CIPHERTEXT = _cipher.encrypt(42, SecretStr("a-linked-magisterium-token"), Purpose.ACCESS_TOKEN)
DISCORD_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
BEARER = "mgm_live_0123456789abcdef"

SECRETS_IN_TEXT = {
    f"Authorization: Bearer {BEARER}": BEARER,
    f"TOKEN_ENCRYPTION_KEY={FERNET_KEY}": FERNET_KEY,
    f"stored {CIPHERTEXT} for user 42": CIPHERTEXT,
    f"login with {DISCORD_TOKEN} failed": DISCORD_TOKEN,
    "connect to postgresql+asyncpg://bot:hunter2-db@db:5432/bot": "hunter2-db",
}
FORMATTERS = {"text": RedactingFormatter, "json": JsonFormatter}


def record(
    message: str, *args: Any, level: int = logging.ERROR, exc_info: Any = None
) -> logging.LogRecord:
    return logging.LogRecord("bot.test", level, __file__, 1, message, args, exc_info)


def raised(message: str) -> Any:
    try:
        raise RuntimeError(message)
    except RuntimeError:
        return sys.exc_info()


@pytest.mark.parametrize("fmt", FORMATTERS)
# Named ids: the key and the ciphertext are new each run, and xdist's workers must collect alike.
@pytest.mark.parametrize(
    ("text", "secret"),
    list(SECRETS_IN_TEXT.items()),
    ids=["bearer", "encryption-key", "ciphertext", "discord-token", "database-password"],
)
def test_secrets_are_redacted_from_message_and_args(fmt: str, text: str, secret: str) -> None:
    formatter = FORMATTERS[fmt]()
    for line in (formatter.format(record(text)), formatter.format(record("said: %s", text))):
        assert secret not in line
        assert REDACTED in line


@pytest.mark.parametrize("fmt", FORMATTERS)
def test_secrets_are_redacted_from_tracebacks(fmt: str) -> None:
    everything = " ".join(SECRETS_IN_TEXT)
    line = FORMATTERS[fmt]().format(record("it broke", exc_info=raised(everything)))
    assert "RuntimeError" in line and "Traceback" in line
    for secret in SECRETS_IN_TEXT.values():
        assert secret not in line


def test_ordinary_text_is_left_alone() -> None:
    text = (
        "the bearer token is missing; GET http://127.0.0.1:8080/readyz; "
        "bot.services.magisterium took 0.25s; sqlite+aiosqlite:///data/bot.db"
    )
    assert Redactor().redact(text) == text


def test_json_lines_parse_with_every_field() -> None:
    formatter = JsonFormatter()
    plain = json.loads(formatter.format(record("hello %s", "world", level=logging.INFO)))
    assert plain["message"] == "hello world"
    assert plain["level"] == "INFO" and plain["logger"] == "bot.test"
    assert plain["time"].endswith("+00:00")
    assert "exc_info" not in plain
    failed_line = formatter.format(record("failed", exc_info=raised(f"key {FERNET_KEY}")))
    assert "\n" not in failed_line  # one record, one line
    failed = json.loads(failed_line)
    assert failed["exc_info"].startswith("Traceback")
    assert "RuntimeError: key " + REDACTED in failed["exc_info"]


def test_secrets_registered_at_startup_are_redacted(tmp_path: Path) -> None:
    discord_token = "plain-discord-token-without-a-shape"
    operator_token = "operator-token-without-a-shape"
    password = "pg-password-2718"
    create_bot(
        harness_settings(
            "http://127.0.0.1:9/api/v1/a2a",
            f"postgresql+asyncpg://bot:{password}@127.0.0.1:9/bot",
            discord_token=discord_token,
            magisterium_token=operator_token,
            token_encryption_key=f"{generate_key()},{FERNET_KEY}",
        )
    )
    for fmt, formatter in FORMATTERS.items():
        for secret in (discord_token, operator_token, password):
            line = formatter().format(record("sent %r", {"token": secret}))
            assert secret not in line, fmt
            assert REDACTED in line


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_configure_logging_installs_one_redacting_handler(
    root_logging: logging.Logger, fmt: str
) -> None:
    first = io.StringIO()
    configure_logging("debug", "text", stream=first)
    out = io.StringIO()
    handler = configure_logging("warning", fmt, stream=out)  # type: ignore[arg-type]
    ours = [h for h in root_logging.handlers if type(h) is type(handler)]
    assert ours == [handler]
    assert root_logging.level == logging.WARNING
    logging.getLogger("bot.test").warning("configured %s", fmt)
    handler.handle(record("token %s", f"Bearer {BEARER}"))
    lines = out.getvalue().splitlines()
    assert first.getvalue() == ""
    assert len(lines) == 2
    assert BEARER not in out.getvalue()
    if fmt == "json":
        assert [json.loads(line)["message"] for line in lines] == [
            "configured json",
            f"token Bearer {REDACTED}",
        ]
    else:
        assert lines[0].endswith(" WARNING bot.test: configured text")


# -- one record, one line: text from outside cannot forge records


FORGERIES = {
    "LF": "x\n2026-01-01 00:00:00,000 CRITICAL bot: FORGED",
    "CR LF": "x\r\nCRITICAL bot: FORGED",
    "line separators": "x\u2028CRITICAL\u2029bot: FORGED",
    "C1 next line": "x\x85CRITICAL bot: FORGED",
    "vertical tab, form feed, file separator": "x\x0b\x0c\x1cCRITICAL bot: FORGED",
    "terminal escape": "x\x1b[2K\rCRITICAL bot: FORGED",
}


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("forged", list(FORGERIES.values()), ids=list(FORGERIES))
def test_control_characters_in_a_message_never_start_a_new_line(
    root_logging: logging.Logger, fmt: str, forged: str
) -> None:
    out = io.StringIO()
    configure_logging("info", fmt, stream=out)  # type: ignore[arg-type]
    logging.getLogger("bot.test").info("a sign-in came back with %s", forged)
    logging.getLogger("bot.test\nCRITICAL").info(forged)  # even in a logger's name
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert not any(c in out.getvalue() for c in "\r\x0b\x0c\x1c\x1b\x85\u2028\u2029")
    if fmt == "json":
        assert [json.loads(line)["message"] for line in lines] == [
            f"a sign-in came back with {forged}",
            forged,
        ]
    else:
        assert " INFO bot.test: a sign-in came back with x\\" in lines[0]  # escaped in place
        assert all(line.endswith("FORGED") for line in lines)


def test_the_text_format_escapes_readably_and_keeps_a_traceback_on_its_own_lines() -> None:
    line = RedactingFormatter().format(
        record("said %r then %s", "a\tb", "c\r\nd\x1b\u2028", exc_info=raised("boom"))
    )
    head, *traceback = line.splitlines()
    assert head.endswith(" ERROR bot.test: said 'a\\tb' then c\\r\\nd\\x1b\\u2028")
    assert traceback[0] == "Traceback (most recent call last):"
    assert traceback[-1] == "RuntimeError: boom"


def test_configure_logging_refuses_an_unknown_level(root_logging: logging.Logger) -> None:
    with pytest.raises(ValueError, match="LOUD"):
        configure_logging("LOUD", "text", stream=io.StringIO())


def test_an_unknown_log_level_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("LOG_LEVEL", "loud")
    assert main(["genkey"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: LOG_LEVEL: unknown log level 'loud'")


# -- privacy: what people ask is not logged at INFO


QUESTION = "Why is the Paschal candle lit at the Easter Vigil?"


def logged_at_info(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(
        r.getMessage() + (logging.Formatter().formatException(r.exc_info) if r.exc_info else "")
        for r in caplog.records
        if r.levelno >= logging.INFO
    )


@pytest.mark.parametrize("fault", [None, Fault.HTTP_500, Fault.FAILED_TASK, Fault.GARBAGE_BODY])
async def test_ask_does_not_log_the_question_at_info(
    harness: Harness,
    fake: FakeMagisterium,
    caplog: pytest.LogCaptureFixture,
    fault: Fault | None,
) -> None:
    caplog.set_level(logging.DEBUG)
    if fault is not None:
        fake.faults.add(fault, times=None)
    result = await harness.slash("ask", question=QUESTION)
    assert result.embeds
    assert [p["text"] for p in fake.requests[-1].parts] == [QUESTION]
    assert caplog.records  # the run did log
    assert QUESTION not in logged_at_info(caplog)


async def test_a_dm_question_is_not_logged_at_info(
    harness: Harness, fake: FakeMagisterium, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake.faults.add(Fault.HTTP_500, times=None)
    exchange = await harness.dm_message(harness.user(), QUESTION)
    assert exchange.reply_embeds
    assert fake.count(skill="catholic_qa") >= 1
    assert QUESTION not in logged_at_info(caplog)

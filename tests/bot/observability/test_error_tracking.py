"""Error reports to Sentry: off without SENTRY_DSN; on, every envelope scrubbed.

The SDK sends to a Sentry endpoint on loopback (tests/support/sentry_envelopes.py), and every
envelope it receives is read. The exceptions holding secrets here are reported directly, never
logged: the whole-run log guard (tests/support/log_guard.py) would rightly see them.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import pytest
import sentry_sdk
from pydantic import Field, SecretStr, TypeAdapter, ValidationError

from bot.accounts import Purpose, TokenCipher, generate_key
from bot.cli import bot_commands
from bot.cli.start_failures import StartFailure
from bot.observability import REDACTED, register_secrets
from bot.observability.error_tracking import (
    DISTRIBUTION,
    init_error_tracking,
    report_unexpected_error,
)
from bot.observability.event_scrubbing import (
    DISCORD_ID,
    USER_TEXT,
    UserTextCutter,
    scrub_text,
    scrubbed,
    without_user_text,
)
from bot.settings import Settings
from tests.support.sentry_envelopes import SentryEndpoint, sentry_fixture  # noqa: F401

USER_ID = 283749823749823749
GUILD_ID = 1098765432109876543
DISCORD_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)


def raised_with(question: str, message: str) -> RuntimeError:
    """A RuntimeError with ``message``, raised from pydantic's error about ``question`` (which
    quotes the question, cut short)."""
    try:
        try:
            TypeAdapter(Annotated[str, Field(max_length=10)]).validate_python(question)
        except ValidationError as invalid:
            raise RuntimeError(message) from invalid
    except RuntimeError as error:
        return error
    raise AssertionError("the question validated")


def test_without_a_dsn_nothing_is_initialised(sentry: SentryEndpoint) -> None:
    assert init_error_tracking(settings()) is False
    assert not sentry_sdk.is_initialized()
    report_unexpected_error(RuntimeError("boom"), error_id="0badc0de", where="/ask")
    sentry_sdk.flush()
    assert sentry.envelopes == []


def test_run_turns_reporting_on_before_the_bot_starts(
    sentry: SentryEndpoint, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """`python -m bot run` with SENTRY_DSN set: the SDK reports to it by the time storage is
    checked (the first thing run does), so every error of the bot's life can be reported."""
    monkeypatch.chdir(tmp_path)  # no .env read
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD_TOKEN)
    monkeypatch.setenv("SENTRY_DSN", sentry.dsn)
    seen: list[str | None] = []

    async def storage_checked(checked: Settings) -> None:
        seen.append(sentry_sdk.get_client().dsn)
        raise StartFailure("stopped here by the test")

    monkeypatch.setattr(bot_commands, "check_storage", storage_checked)
    assert bot_commands.run(argparse.Namespace()) == 2
    assert seen == [sentry.dsn]


def test_a_dsn_without_the_sdk_says_so_once_and_starts_nothing(
    sentry: SentryEndpoint, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with monkeypatch.context() as patch, caplog.at_level(logging.WARNING):
        patch.setitem(sys.modules, "sentry_sdk", None)  # as if the extra were not installed
        assert init_error_tracking(settings(sentry_dsn=sentry.dsn)) is False
    [warning] = [r for r in caplog.records if r.name == "bot.observability.error_tracking"]
    assert warning.levelno == logging.WARNING
    assert "[sentry]" in warning.getMessage() and sentry.dsn not in warning.getMessage()
    assert not sentry_sdk.is_initialized()  # (the module imported before the test)


def test_a_report_carries_the_error_id_command_type_and_stack(sentry: SentryEndpoint) -> None:
    assert init_error_tracking(settings(sentry_dsn=sentry.dsn, sentry_environment="staging"))
    error = raised_with("short question?", "the index was gone")

    report_unexpected_error(error, error_id="1a2b3c4d", where="/search")
    sentry_sdk.flush()

    [event] = sentry.events()
    assert event["tags"]["error_id"] == "1a2b3c4d" and event["tags"]["command"] == "/search"
    assert event["environment"] == "staging"
    assert event["release"].startswith(f"{DISTRIBUTION}@")
    types = [value["type"] for value in event["exception"]["values"]]
    assert types == ["ValidationError", "RuntimeError"]  # the cause, then the error
    assert event["exception"]["values"][-1]["value"] == "the index was gone"
    frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
    assert [f["function"] for f in frames] == ["raised_with"]
    assert frames[0]["lineno"] > 0 and frames[0]["filename"].endswith("test_error_tracking.py")
    assert not [f for f in frames if "vars" in f]  # no local variables
    assert "user" not in event and "request" not in event


@dataclass(frozen=True)
class Leaky:
    """An error whose message holds every kind of secret, Discord ids and a question."""

    question: str
    error: RuntimeError
    secrets: tuple[str, ...]
    marker: str


def leaky_error() -> Leaky:
    key = generate_key()
    cipher = TokenCipher.from_setting(key)
    assert cipher is not None
    ciphertext = cipher.encrypt(USER_ID, SecretStr("a-linked-token"), Purpose.ACCESS_TOKEN)
    operator_token = f"operator-{secrets.token_hex(8)}"
    register_secrets(operator_token)  # as the bot registers its settings' secrets
    user_token = f"mgm_live_{secrets.token_hex(12)}"
    marker = f"marker-{secrets.token_hex(8)}"
    question = f"What does the Catechism say about {marker}? My id is {USER_ID}."
    message = (
        f"asked {question!r} in {GUILD_ID} with Bearer {user_token}; key {key}; "
        f"stored {ciphertext}; bot {DISCORD_TOKEN}; operator {operator_token}; "
        "db postgresql+asyncpg://bot:hunter2-db@db:5432/bot"
    )
    kept_out = (key, ciphertext, user_token, operator_token, DISCORD_TOKEN, "hunter2-db")
    return Leaky(question, raised_with(question, message), kept_out, marker)


def test_no_secret_discord_id_or_typed_text_leaves_in_any_envelope(
    sentry: SentryEndpoint,
) -> None:
    leaky = leaky_error()
    assert init_error_tracking(settings(sentry_dsn=sentry.dsn))

    with sentry_sdk.isolation_scope() as scope:  # whatever else some code attached to it
        scope.set_extra("said", leaky.question)
        scope.set_context("place", {"guild": GUILD_ID, "channel": str(GUILD_ID + 1)})
        sentry_sdk.add_breadcrumb(message=f"user {USER_ID} said {leaky.question}")
        report_unexpected_error(
            leaky.error, error_id="5e5e5e5e", where="/ask", typed=[leaky.question]
        )
    sentry_sdk.flush()

    [event] = sentry.events()
    assert event["tags"]["error_id"] == "5e5e5e5e"
    sent = sentry.everything_sent()
    for secret in leaky.secrets:
        assert secret not in sent
    for typed in (leaky.marker, "Catechism", str(USER_ID), str(GUILD_ID), str(GUILD_ID + 1)):
        assert typed not in sent
    value = event["exception"]["values"][-1]["value"]
    assert REDACTED in value and USER_TEXT in value and DISCORD_ID in value
    assert value.startswith("asked ")  # what is not secret stays readable


def test_any_event_is_scrubbed_even_with_nothing_typed_known(sentry: SentryEndpoint) -> None:
    """before_send: what the SDK sends of itself (an uncaught exception through its excepthook)."""
    leaky = leaky_error()
    assert init_error_tracking(settings(sentry_dsn=sentry.dsn))

    sentry_sdk.capture_exception(leaky.error)
    sentry_sdk.flush()

    [event] = sentry.events()
    sent = sentry.everything_sent()
    for kept_out in (*leaky.secrets, str(USER_ID), str(GUILD_ID)):
        assert kept_out not in sent
    assert REDACTED in event["exception"]["values"][-1]["value"]


def test_typed_text_is_cut_wherever_a_run_of_it_appears() -> None:
    question = "Is the Sabbath on Saturday or on Sunday?\nAnd why?"
    cut = UserTextCutter([question])
    assert cut(f"got {question!r} back") == f"got '{USER_TEXT}' back"
    # pydantic's cut-short quote of it: both ends are runs of the question.
    shown = "input_value='Is the Sabbath on Sa...day?\\nAnd why?'"
    assert cut(shown) == f"input_value='{USER_TEXT}...{USER_TEXT}'"
    assert cut("KeyError: 'catholic_qa'") == "KeyError: 'catholic_qa'"
    assert not UserTextCutter(["why?"])  # too short to cut without mangling ordinary words


def test_an_event_keeps_its_fields_when_the_question_shares_their_names() -> None:
    question = "Is there an exception for the environment?"
    event = {"exception": {"values": [{"value": question}]}, "environment": "production"}
    processed = without_user_text([question])(event, {})
    assert processed == {
        "exception": {"values": [{"value": USER_TEXT}]},
        "environment": "production",
    }


def test_discord_ids_are_replaced_as_text_and_as_numbers() -> None:
    assert scrub_text(f"guild {GUILD_ID}, line 1234567") == f"guild {DISCORD_ID}, line 1234567"
    event = {"contexts": {"ids": [USER_ID, 42, True]}, "lineno": 12}
    assert scrubbed(event) == {"contexts": {"ids": [DISCORD_ID, 42, True]}, "lineno": 12}

"""Every skill command against bad input and against every fault of the fake Magisterium:
one clear answer, nothing crashes, no traceback reaches anyone, and the next command works."""

from __future__ import annotations

from typing import Any

import pytest

from bot.fake_server import FakeMagisterium, Fault
from tests.harness import Harness, InteractionResult

EPHEMERAL = 64
TRACEBACK_MARKERS = ("Traceback", 'File "', "Error:", "Exception")

COMMANDS: dict[str, dict[str, str]] = {
    "ask": {"question": "What is grace?"},
    "search": {"query": "Lumen Gentium church"},
    "document": {"id": "12345"},
    "readings": {"date": "2026-12-01"},
    "saints": {"date": "2026-12-01"},
}
TEXT_OPTION = {"ask": "question", "search": "query", "document": "id"}

BAD_TEXT = [
    "   ",
    "\u200b\u200d\u2060",
    "\u202e\u202dreversed\u202c",
    "@everyone <@&123> <@456> **bold** `code` [x](javascript:alert(1))",
    "ض" * 300,
]


def _no_traceback(result: InteractionResult) -> None:
    shown = str([request.payload for request in result.requests])
    assert not any(marker in shown for marker in TRACEBACK_MARKERS), shown


@pytest.mark.parametrize("command", sorted(TEXT_OPTION))
@pytest.mark.parametrize("text", BAD_TEXT, ids=["spaces", "zero-width", "rtl", "injection", "long"])
async def test_bad_text_gets_one_clear_answer(harness: Harness, command: str, text: str) -> None:
    option = TEXT_OPTION[command]
    limit = {"ask": 2000, "search": 300, "document": 100}[command]
    result = await harness.slash(command, **{option: text[:limit]})
    assert result.callback_type in (4, 5)
    assert result.embeds or result.contents
    assert all(m == {"parse": []} for m in result.allowed_mentions_all if m is not None)
    _no_traceback(result)


@pytest.mark.parametrize("command", ["readings", "saints"])
@pytest.mark.parametrize("date", ["tomorrow-ish nonsense", "2026-02-30", "\u200b", "9999-01-01"])
async def test_nonsense_dates_get_a_clear_answer(
    harness: Harness, fake: FakeMagisterium, command: str, date: str
) -> None:
    result = await harness.slash(command, date=date)
    # Unreadable dates are refused privately; a real but uncovered date is a friendly "none".
    assert result.embeds and (result.ephemeral or " no " in str(result.embeds).lower())
    _no_traceback(result)


FAULTS: list[tuple[Fault, dict[str, Any]]] = [
    (Fault.UNAUTHORIZED, {}),
    (Fault.PLAN_REQUIRED, {}),
    (Fault.RATE_LIMITED, {"retry_after": 45}),
    (Fault.INVALID_PARAMS, {}),
    (Fault.SKILL_NOT_FOUND, {}),
    (Fault.TASK_NOT_FOUND, {}),
    (Fault.FAILED_TASK, {}),
    (Fault.GARBAGE_BODY, {}),
    (Fault.TRUNCATED_JSON, {}),
    (Fault.NOT_A_TASK, {}),
    (Fault.HTTP_404, {}),
    (Fault.UNKNOWN_CODE, {}),
    # Transient: retried by the client, so the person simply gets the answer.
    (Fault.INTERNAL_ERROR, {}),
    (Fault.HTML_502, {}),
    (Fault.DROP_CONNECTION, {}),
]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("fault", "params"), FAULTS, ids=[str(f) for f, _ in FAULTS])
async def test_every_fault_is_one_clear_message_and_the_next_command_works(
    harness: Harness,
    fake: FakeMagisterium,
    command: str,
    fault: Fault,
    params: dict[str, Any],
) -> None:
    fake.faults.add(fault, method="message/send", **params)
    result = await harness.slash(command, **COMMANDS[command])
    assert result.callback_type == 5  # deferred at once, whatever happens upstream
    assert result.embeds, result.transcript
    _no_traceback(result)
    user_left_with = result.visible_messages
    assert user_left_with, "the person must be left with an answer or an explanation"
    assert not result.left_thinking
    fake.faults.clear()
    if fault is not Fault.RATE_LIMITED:  # a 429 pauses the token for everyone, rightly
        after = await harness.slash(command, **COMMANDS[command], user=harness.user())
        assert after.embeds and not after.left_thinking

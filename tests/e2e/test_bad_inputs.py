"""Every skill command against bad input: one clear answer, nothing crashes, no traceback
reaches anyone. Upstream faults are in tests/e2e/test_fault_matrix.py."""

from __future__ import annotations

import pytest

from devtools.discord import Harness, InteractionResult
from devtools.fake_magisterium import FakeMagisterium
from tests.support.embed_parts import shown

EPHEMERAL = 64
TRACEBACK_MARKERS = ("Traceback", 'File "', "Error:", "Exception")

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
    descriptions = shown(result.embeds, "description")
    assert result.embeds
    assert result.ephemeral or any(" no " in text.lower() for text in descriptions), descriptions
    _no_traceback(result)

"""What an error report may carry off the operator's machine: every string scrubbed.

Secrets go by the logs' rules (bot.observability.redaction: shapes and the registered values).
Discord ids, which a log line keeps for the operator, are replaced too: a report leaves their
hands. And the text a person typed is cut out wherever a run of it appears, even when cut short
or escaped inside an exception's message (pydantic quotes its input, for one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from bot.observability.redaction import REDACTOR, Redactor

if TYPE_CHECKING:
    from sentry_sdk.types import Breadcrumb, BreadcrumbHint, Event, Hint

DISCORD_ID = "[discord id]"
USER_TEXT = "[user text]"
# A snowflake made since Discord began (2015) has 17 to 20 digits.
SNOWFLAKE = re.compile(r"(?<!\d)\d{17,20}(?!\d)")
_SMALLEST_SNOWFLAKE = 10**16
_LARGEST_SNOWFLAKE = 2**64 - 1
# Characters in a row shared with what the person typed that make a run of it: long enough that
# code and ordinary messages rarely share one with a question by chance.
USER_TEXT_RUN = 8


def scrub_text(text: str, redactor: Redactor = REDACTOR) -> str:
    """``text`` without secrets and Discord ids."""
    return SNOWFLAKE.sub(DISCORD_ID, redactor.redact(text))


def _scrub_number(number: int) -> int | str:
    if not isinstance(number, bool) and _SMALLEST_SNOWFLAKE <= number <= _LARGEST_SNOWFLAKE:
        return DISCORD_ID
    return number


def map_strings(
    value: Any,
    text: Callable[[str], str],
    number: Callable[[int], Any] = lambda n: n,
    key: Callable[[str], str] | None = None,
) -> Any:
    """``value`` (JSON-like: dicts, lists, tuples) with every string and every int replaced by
    ``text`` and ``number``, and every string key by ``key`` (``text`` unless given); anything
    else is kept as it is."""
    key = key or text
    if isinstance(value, str):
        return text(value)
    if isinstance(value, int):
        return number(value)
    if isinstance(value, dict):
        return {
            key(name) if isinstance(name, str) else name: map_strings(item, text, number, key)
            for name, item in value.items()
        }
    if isinstance(value, list | tuple):
        return type(value)(map_strings(item, text, number, key) for item in value)
    return value


def scrubbed(value: Any) -> Any:
    """``value`` with every string passed through :func:`scrub_text` and every snowflake-sized
    int replaced."""
    return map_strings(value, scrub_text, _scrub_number)


def before_send(event: Event, hint: Hint) -> Event:
    result: Event = scrubbed(event)
    return result


def before_breadcrumb(crumb: Breadcrumb, hint: BreadcrumbHint) -> Breadcrumb:
    result: Breadcrumb = scrubbed(crumb)
    return result


class UserTextCutter:
    """Cuts every run of :data:`USER_TEXT_RUN` or more characters that also occurs in what the
    person typed (as typed, or escaped as ``repr`` and JSON write it) out of a text.

    Shorter inputs (a word, a number) are left alone: cut everywhere, they would mangle ordinary
    text and say little about anyone.
    """

    def __init__(self, typed: Iterable[str], run: int = USER_TEXT_RUN) -> None:
        self._run = run
        self._pieces = {
            form[start : start + run]
            for text in typed
            for form in _written_forms(text)
            for start in range(len(form) - run + 1)
        }

    def __bool__(self) -> bool:
        return bool(self._pieces)

    def __call__(self, text: str) -> str:
        run = self._run
        covered = bytearray(len(text))
        for start in range(len(text) - run + 1):
            if text[start : start + run] in self._pieces:
                covered[start : start + run] = b"\1" * run
        if not any(covered):
            return text
        kept: list[str] = []
        for index, char in enumerate(text):
            if not covered[index]:
                kept.append(char)
            elif index == 0 or not covered[index - 1]:
                kept.append(USER_TEXT)
        return "".join(kept)


def _written_forms(text: str) -> set[str]:
    return {
        text,
        repr(text)[1:-1],
        json.dumps(text)[1:-1],
        json.dumps(text, ensure_ascii=False)[1:-1],
    }


def without_user_text(typed: Iterable[str]) -> Callable[[Event, Hint], Event | None]:
    """An event processor cutting what the person typed out of every value of an event, once
    scrubbed (so that a Discord id sharing digits with one they typed goes whole). Keys are only
    scrubbed: they name the event's fields ("exception", "environment"), which a question may
    share a run with."""
    cut = UserTextCutter(typed)

    def process(event: Event, hint: Hint) -> Event | None:
        if not cut:
            return event
        try:
            result: Event = map_strings(
                event, lambda text: cut(scrub_text(text)), _scrub_number, key=scrub_text
            )
        except Exception:
            # Sentry would send the event uncut past a processor that raised: drop it instead.
            return None
        return result

    return process

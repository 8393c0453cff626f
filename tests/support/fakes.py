"""Small test doubles shared by the test modules."""

from __future__ import annotations

import asyncio
import gettext
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from bot.a2a.models import Task
from bot.accounts import TokenCipher
from bot.i18n import compiled_catalogues
from devtools.discord.records import http_error

if TYPE_CHECKING:
    from devtools.fake_magisterium import FakeMagisterium


class FakeClock:
    """A monotonic clock that only moves when something sleeps on it (or a test advances it)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Wrapping(gettext.NullTranslations):
    """A catalogue that "translates" by wrapping: ⟦message⟧ (the form ``n`` picks)."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def wrap_locales(monkeypatch: pytest.MonkeyPatch, wraps: Callable[[str], bool]) -> None:
    """Locales for which ``wraps(locale)`` is true "translate" by wrapping; the others are the
    English source. The real catalogues stand aside (translators fill those in)."""
    source, wrapping = gettext.NullTranslations(), Wrapping()

    def translations(locale: str) -> gettext.NullTranslations:
        return wrapping if wraps(locale) else source

    # gettext/ngettext look the function up in their own module at each call.
    monkeypatch.setattr(compiled_catalogues, "translations", translations)


class FakeWallClock:
    """An aware UTC wall clock that moves only when a test moves it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def refuse_thread(*args: Any, **kwargs: Any) -> Any:
    """``bot.http.start_thread_with_message`` where the bot may not start threads: Discord's
    403 Missing Permissions (50013). The bot then answers in place."""
    raise http_error(403, 50013, "Missing Permissions")


def a2a_request(method: str = "message/send") -> dict[str, Any]:
    """A JSON-RPC request as the bot sends it: a ``message/send`` question to catholic_qa, or
    ``method`` (``tasks/get``, ``tasks/cancel``) for task ``t-1``; request id 3."""
    if method != "message/send":
        return {"jsonrpc": "2.0", "id": 3, "method": method, "params": {"id": "t-1"}}
    message = {
        "kind": "message",
        "role": "user",
        "messageId": "m-1",
        "parts": [{"kind": "text", "text": "What is grace?"}],
        "metadata": {"skillId": "catholic_qa"},
    }
    return {"jsonrpc": "2.0", "id": 3, "method": method, "params": {"message": message}}


def wire_bytes(value: Any) -> bytes:
    """``value`` as the JSON bytes on the wire."""
    return json.dumps(value).encode()


def cipher_for(*keys: str) -> TokenCipher:
    """The token cipher the setting ``TOKEN_ENCRYPTION_KEY=key1,key2…`` makes (newest first)."""
    cipher = TokenCipher.from_setting(",".join(keys))
    assert cipher is not None
    return cipher


def upstream_received(
    fake: FakeMagisterium, monkeypatch: pytest.MonkeyPatch, skill: str = "catholic_qa"
) -> asyncio.Event:
    """Set once the fake has received a question for ``skill`` (before any latency it adds):
    the moment a test interrupts a command that is waiting on Magisterium."""
    received = asyncio.Event()
    record = fake.record

    def record_and_signal(facts: Any, *args: Any, **kwargs: Any) -> None:
        record(facts, *args, **kwargs)
        if facts.skill == skill:
            received.set()

    monkeypatch.setattr(fake, "record", record_and_signal)
    return received


def task_of(*parts: dict[str, Any]) -> Task:
    """A completed task whose one artifact holds ``parts`` (A2A part objects), as parsed."""
    return Task.model_validate(
        {
            "id": "t-1",
            "contextId": "c-1",
            "status": {"state": "completed"},
            "artifacts": [{"artifactId": "a", "parts": list(parts)}],
        }
    )

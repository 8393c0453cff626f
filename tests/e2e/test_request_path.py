"""The path of one /ask, from the cog to the HTTP call, kept short and explicit.

A real INTERACTION_CREATE for /ask goes through discord.py's CommandTree; at the moment the
A2A client hands the request to httpx, the stack is read. The project's own frames on it, from
``QACog.ask`` down, are the path docs/contributing/architecture.md lists; the request it sends
is decided by what was passed down (no context variable decides whose token pays).
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import httpx
import pytest

from devtools.discord import Harness
from devtools.fake_magisterium import FakeMagisterium
from tests.support.paths import REPO

# "The path of one /ask" in docs/contributing/architecture.md, frame by frame.
ASK_PATH = [
    "cogs/qa/cog.py:QACog.ask",
    "cogs/qa/followups.py:ask_and_send",
    "cogs/qa/followups.py:ask_as_invoker",
    "bot/services/magisterium.py:MagisteriumService.call",
    "bot/a2a/client.py:A2AClient.send_message",
    "bot/a2a/client.py:A2AClient._rpc",
]


class StackAtPost:
    """An httpx client stand-in that notes the project's frames at each POST, then sends it."""

    def __init__(self, real: httpx.AsyncClient) -> None:
        self._real = real
        self.paths: list[list[str]] = []

    async def post(self, url: str, **kwargs: Any) -> httpx.Response:
        self.paths.append(own_frames(sys._getframe(1)))
        return await self._real.post(url, **kwargs)


def own_frames(frame: FrameType | None) -> list[str]:
    """``file:qualified name`` of every frame of bot/ and cogs/ on the stack, outermost first."""
    frames = []
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(REPO) and path.relative_to(REPO).parts[0] in ("bot", "cogs"):
            frames.append(f"{path.relative_to(REPO).as_posix()}:{frame.f_code.co_qualname}")
        frame = frame.f_back
    return frames[::-1]


@pytest.fixture
def stack_at_post(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> StackAtPost:
    client = harness.bot.services.a2a
    spy = StackAtPost(client._http)
    monkeypatch.setattr(client, "_http", spy)
    return spy


async def test_ask_reaches_httpx_in_six_frames_of_the_projects_own_code(
    harness: Harness, fake: FakeMagisterium, stack_at_post: StackAtPost
) -> None:
    result = await harness.slash("ask", question="What is grace?")
    assert result.embeds and fake.count(skill="catholic_qa") == 1
    (path,) = stack_at_post.paths
    assert path == ASK_PATH

"""What a person sees is the same whether Magisterium is the fake or a2a-sdk's real server.

The whole bot runs twice through the harness, built by ``create_bot`` with its production
HTTP client: once with ``magisterium_api_url`` at the fake, once at a2a-sdk 1.3's server on
loopback TCP answering with the fake's content (``tests/support/sdk_skills.py``), whose protobuf
Structs reorder every object's members and turn every JSON integer into a float. For each
input of each of the ten skills, what discord.py sent Discord (embeds, components, content,
files) must be identical, the ids the two servers mint aside.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.app import create_bot
from devtools.discord import Harness, InteractionResult
from devtools.discord.fixtures import harness_settings
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer
from devtools.fake_magisterium.answers import TOPICS
from devtools.fake_magisterium.corpus import DOCUMENTS
from devtools.fake_magisterium.lookup_clergy import PEOPLE
from devtools.fake_magisterium.lookup_dioceses import DIOCESES
from devtools.fake_magisterium.lookup_popes import POPES
from devtools.fake_magisterium.lookup_saints import SAINTS
from devtools.sdk_peer import running_sdk_server
from tests.cogs.qa.recent import recent_answers_of
from tests.support.fakes import refuse_thread
from tests.support.sdk_skills import MagisteriumExecutor
from tests.support.skill_inputs import (
    JSON,
    NOWHERE,
    UNLIMITED_SETTINGS,
    Action,
    profiles,
    slash,
    statistics,
)

# Task and context ids (UUIDs), the custom_ids discord.py makes up for a view's buttons, and
# snowflakes (the bot keys a candidates menu by its interaction).
MINTED_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b|\b\d{17,20}\b"
)


DATES = ("2026-03-19", "2026-04-05", "2026-12-25", "2026-07-14", "2026-11-30")
INPUTS: dict[str, list[Action]] = {
    "catholic_qa": [slash("ask", question=f"What about {t.keywords[0]}?") for t in TOPICS]
    + [slash("ask", question="Tell me something.")],
    "document_search": [
        slash("search", query=q) for q in ("human dignity", "social justice", NOWHERE)
    ],
    "document_fetch": [slash("document", id=doc_id) for doc_id in [*DOCUMENTS, "99999"]],
    "liturgical_readings": [slash("readings", date=day) for day in DATES],
    "saints_of_the_day": [slash("saints", date=day) for day in DATES],
    "saint_lookup": profiles("saint", "saint", SAINTS, ["Teresa", "Korean Martyrs"]),
    "pope_lookup": profiles("pope", "pope", POPES, ["Pius", "John Paul"]),
    "person_lookup": profiles("person", "clergy", PEOPLE, ["Seoul", "Cardinal"]),
    "diocese_lookup": profiles("diocese", "diocese", DIOCESES, ["Seoul"]),
    "diocese_statistics_lookup": [statistics(d["id"]) for d in DIOCESES]
    + [statistics("diocese-nowhere")],
}


def _without_ids(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every minted id named by its order of appearance."""
    if isinstance(value, str):
        return MINTED_ID.sub(lambda m: names.setdefault(m.group(), f"<id-{len(names) + 1}>"), value)
    if isinstance(value, dict):
        return {key: _without_ids(inner, names) for key, inner in value.items()}
    if isinstance(value, list):
        return [_without_ids(inner, names) for inner in value]
    return value


def shown(result: InteractionResult) -> list[JSON]:
    """Every request discord.py made for the interaction: its kind, body and files."""
    names: dict[str, str] = {}
    return [
        {
            "kind": request.kind,
            "method": request.method,
            "payload": _without_ids(request.payload, names),
            "files": [(f.filename, hashlib.sha256(f.data).hexdigest()) for f in request.files],
        }
        for request in result.requests
    ]


@dataclass
class Rendered:
    """What the bot showed for each action, and the A2A methods it called to show it."""

    shown: list[list[JSON]] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)


async def render_all(api_url: str, database: Path, actions: list[Action]) -> Rendered:
    """Each action through a fresh bot whose Magisterium is at ``api_url``."""
    settings = harness_settings(api_url, f"sqlite+aiosqlite:///{database}", **UNLIMITED_SETTINGS)
    rendered = Rendered()

    async def note_method(request: httpx.Request) -> None:
        rendered.methods.append(json.loads(request.content)["method"])

    bot = create_bot(settings)
    async with Harness.start(bot) as harness:
        bot.services.http.event_hooks["request"].append(note_method)
        for action in actions:
            result = await action(harness)
            assert result.requests and not result.rejected, result.transcript
            rendered.shown.append(shown(result))
    return rendered


async def _fake_then_sdk(
    fake: FakeMagisterium, fake_url: str, tmp_path: Path, actions: list[Action]
) -> tuple[Rendered, Rendered, MagisteriumExecutor]:
    fake.rate_limits_enabled = False
    executor = MagisteriumExecutor(today=fake.today)
    from_fake = await render_all(fake_url, tmp_path / "fake.db", actions)
    async with running_sdk_server(executor) as sdk_server:
        from_sdk = await render_all(sdk_server.url, tmp_path / "sdk.db", actions)
    return from_fake, from_sdk, executor


@pytest.mark.parametrize("skill", list(INPUTS))
async def test_every_input_renders_the_same_from_the_sdk_server(
    fake: FakeMagisterium, fake_server: RunningFakeServer, tmp_path: Path, skill: str
) -> None:
    actions = INPUTS[skill]

    from_fake, from_sdk, executor = await _fake_then_sdk(fake, fake_server.url, tmp_path, actions)

    assert [r.skill for r in fake.requests] == [skill] * len(actions)
    assert {s.message_metadata["skillId"] for s in executor.seen} == {skill}
    assert from_sdk.methods == from_fake.methods == ["message/send"] * len(actions)
    _assert_same(from_fake.shown, from_sdk.shown)


async def _related_question_after_a_restart(harness: Harness) -> InteractionResult:
    """/ask, forget the related questions (as a restart does), click one whose label is cut:
    the bot reads the question back from the task with tasks/get, then asks it."""
    first = await harness.slash("ask", question="What about baptism?")
    assert first.message is not None
    [related, *_] = [c for c in first.message.custom_ids if c.startswith("qa:rel:")]
    recent_answers_of(harness.bot).related.clear()
    button = {"type": 2, "style": 1, "label": "z" * 79 + "…", "custom_id": related}
    message = harness.existing_message(
        embeds=first.message.embeds, components=[{"type": 1, "components": [button]}]
    )
    # dpytest cannot open a thread on a message it did not make: the bot answers in place.
    harness.bot.http.start_thread_with_message = refuse_thread  # type: ignore[method-assign]
    return await harness.click(message, related, user=first.user_id)


async def test_a_task_read_back_with_tasks_get_renders_the_same_from_the_sdk_server(
    fake: FakeMagisterium, fake_server: RunningFakeServer, tmp_path: Path
) -> None:
    actions: list[Action] = [_related_question_after_a_restart]

    from_fake, from_sdk, executor = await _fake_then_sdk(fake, fake_server.url, tmp_path, actions)

    expected = ["message/send", "tasks/get", "message/send"]
    assert from_sdk.methods == from_fake.methods == expected
    assert fake.count(method="tasks/get") == 1
    first, second = executor.seen
    assert second.context_id == first.context_id  # the related question continues the talk
    _assert_same(from_fake.shown, from_sdk.shown)


def _assert_same(from_fake: list[list[JSON]], from_sdk: list[list[JSON]]) -> None:
    differing = [
        index
        for index, pair in enumerate(zip(from_fake, from_sdk, strict=True))
        if pair[0] != pair[1]
    ]
    assert not differing, _first_difference(from_fake, from_sdk, differing)


def _first_difference(
    from_fake: list[list[JSON]], from_sdk: list[list[JSON]], differing: list[int]
) -> str:
    index = differing[0]
    return f"{len(differing)} input(s) differ: {differing}; input {index}:\n" + "\n".join(
        f"fake: {a}\nsdk:  {b}"
        for a, b in zip(from_fake[index], from_sdk[index], strict=False)
        if a != b
    )

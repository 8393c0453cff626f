"""What the bot shows never depends on the order of JSON object members (RFC 8259).

Every skill is asked the same thing twice through the real harness: once as the fake answers,
once with the members of every object in the reply shuffled (a hypothesis-drawn permutation,
see :mod:`tests.support.member_order`). What discord.py sent Discord (embeds, components, content,
files) must be the same, aside from the ids minted per run (tasks, contexts, view items).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.a2a.results import parse_citation
from bot.app import MagisteriumBot
from bot.cache import LocalCache
from bot.render.citations import format_citation
from devtools.discord import Harness, InteractionResult
from devtools.fake_magisterium import FakeMagisterium, RunningFakeServer
from devtools.fake_magisterium.answers import TOPICS
from devtools.fake_magisterium.corpus import DOCUMENTS
from devtools.fake_magisterium.lookup_clergy import PEOPLE
from devtools.fake_magisterium.lookup_dioceses import DIOCESES
from devtools.fake_magisterium.lookup_popes import POPES
from devtools.fake_magisterium.lookup_saints import SAINTS
from tests.support.member_order import MemberShuffler, running_shuffling_fake_server
from tests.support.skill_inputs import (
    JSON,
    NOWHERE,
    UNLIMITED_SETTINGS,
    Action,
    profiles,
    slash,
    statistics,
)

GENERATED_ID = re.compile(r"[0-9a-f]{32}")  # discord.py's os.urandom(16).hex()


@pytest.fixture
def shuffler() -> MemberShuffler:
    return MemberShuffler()


@pytest.fixture
async def fake_server(
    fake: FakeMagisterium, shuffler: MemberShuffler
) -> AsyncIterator[RunningFakeServer]:
    fake.rate_limits_enabled = False  # the same questions, many times over
    async with running_shuffling_fake_server(fake, shuffler) as server:
        yield server


@pytest.fixture
def harness_overrides() -> dict[str, Any]:
    return dict(UNLIMITED_SETTINGS)


# --- the inputs of each skill ---------------------------------------------------------------


INPUTS: dict[str, list[Action]] = {
    "catholic_qa": [slash("ask", question=f"What about {t.keywords[0]}?") for t in TOPICS]
    + [slash("ask", question="Tell me something.")],
    "document_search": [
        slash("search", query=q) for q in ("grace", "social justice", "Mary", NOWHERE)
    ],
    "document_fetch": [slash("document", id=doc_id) for doc_id in [*DOCUMENTS, "99999"]],
    "liturgical_readings": [
        slash("readings", date=day)
        for day in ("2026-03-19", "2026-04-04", "2026-04-05", "2026-12-25", "2026-07-14")
    ],
    "saints_of_the_day": [
        slash("saints", date=day)
        for day in ("2026-11-30", "2026-12-02", "2026-09-20", "2026-03-19", "2026-01-28")
    ],
    "saint_lookup": profiles("saint", "saint", SAINTS, ["Teresa", "Korean Martyrs", "Thérèse"]),
    "pope_lookup": profiles("pope", "pope", POPES, ["Pius", "John Paul", "Leo"]),
    "person_lookup": profiles("person", "clergy", PEOPLE, ["Seoul", "Kraków", "Andrew"]),
    "diocese_lookup": profiles("diocese", "diocese", DIOCESES, ["Archdiocese", "Seoul"]),
    "diocese_statistics_lookup": [statistics(d["id"]) for d in DIOCESES]
    + [statistics("diocese-nowhere")],
}


# --- what was shown -------------------------------------------------------------------------


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        for served, name in names.items():
            value = value.replace(served, name)
        return value
    if isinstance(value, dict):
        return {key: _renamed(inner, names) for key, inner in value.items()}
    if isinstance(value, list):
        return [_renamed(inner, names) for inner in value]
    return value


def _generated_ids(value: Any) -> list[str]:
    """The custom ids discord.py made up for the items of a non-persistent view."""
    if isinstance(value, dict):
        own = value.get("custom_id")
        found = [own] if isinstance(own, str) and GENERATED_ID.fullmatch(own) else []
        return found + [i for inner in value.values() for i in _generated_ids(inner)]
    if isinstance(value, list):
        return [i for inner in value for i in _generated_ids(inner)]
    return []


def _shown(result: InteractionResult, names: dict[str, str]) -> list[JSON]:
    """Every request discord.py made for the interaction: its kind, body and files; the ids
    that change from run to run (tasks, contexts, view items) named by order of appearance."""
    payloads = [request.payload for request in result.requests]
    generated = dict.fromkeys(_generated_ids(payloads))
    names = {**names, **{made: f"<item-{n}>" for n, made in enumerate(generated, start=1)}}
    return [
        {
            "kind": request.kind,
            "method": request.method,
            "payload": _renamed(request.payload, names),
            "files": [(f.filename, hashlib.sha256(f.data).hexdigest()) for f in request.files],
        }
        for request in result.requests
    ]


def _difference(shown: Any, expected: Any, path: str = "") -> str:
    """Where two renderings first differ, for a readable failure."""
    if isinstance(shown, dict) and isinstance(expected, dict):
        for key in sorted(set(shown) | set(expected), key=str):
            if shown.get(key) != expected.get(key):
                return _difference(shown.get(key), expected.get(key), f"{path}.{key}")
    if isinstance(shown, list) and isinstance(expected, list) and len(shown) == len(expected):
        for i, (one, other) in enumerate(zip(shown, expected, strict=True)):
            if one != other:
                return _difference(one, other, f"{path}[{i}]")
    return f"{path}: {shown!r} != {expected!r}"


def _cache(harness: Harness) -> LocalCache:
    bot = harness.bot
    assert isinstance(bot, MagisteriumBot) and isinstance(bot.services.cache, LocalCache)
    return bot.services.cache


async def _render(
    harness: Harness, shuffler: MemberShuffler, action: Action, rng: random.Random | None
) -> list[JSON]:
    await _cache(harness).close()  # empties it: every run asks the fake, none reads the cache
    shuffler.forget()
    shuffler.rng = rng
    try:
        result = await action(harness)
    finally:
        shuffler.rng = None
    assert result.requests and not result.rejected, result.transcript
    return _shown(result, shuffler.placeholders())


@pytest.fixture
def unshuffled() -> dict[tuple[str, int], list[JSON]]:
    """What each input showed from the fake as it is; kept across hypothesis examples."""
    return {}


async def _check(
    harness: Harness,
    shuffler: MemberShuffler,
    fake: FakeMagisterium,
    unshuffled: dict[tuple[str, int], list[JSON]],
    skill: str,
    seed: int,
) -> None:
    """Every input of ``skill``, each reply shuffled anew, shown as the unshuffled reply was."""
    rng = random.Random(seed)
    for index, action in enumerate(INPUTS[skill]):
        key = (skill, index)
        if key not in unshuffled:
            unshuffled[key] = await _render(harness, shuffler, action, None)
        shown = await _render(harness, shuffler, action, rng)
        assert fake.requests[-1].skill == skill and shuffler.task_ids  # asked, not cached
        assert shown == unshuffled[key], (index, _difference(shown, unshuffled[key]))


def _examples(count: int) -> settings:
    # One harness for every example (a bot per example would cost seconds). No shrinking: a
    # smaller seed is no simpler permutation, and a failure already names the input and the
    # first difference.
    return settings(
        max_examples=count,
        phases=(Phase.explicit, Phase.reuse, Phase.generate),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )


SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@pytest.mark.parametrize("skill", [s for s in INPUTS if s != "diocese_statistics_lookup"])
@_examples(3)
@given(seed=SEEDS)
async def test_shuffled_members_render_the_same(
    harness: Harness,
    shuffler: MemberShuffler,
    fake: FakeMagisterium,
    unshuffled: dict[tuple[str, int], list[JSON]],
    skill: str,
    seed: int,
) -> None:
    await _check(harness, shuffler, fake, unshuffled, skill, seed)


@_examples(1)  # each answer draws a chart (a third of a second); six dioceses, six shuffles
@given(seed=SEEDS)
async def test_shuffled_statistics_render_the_same_chart_table_and_file(
    harness: Harness,
    shuffler: MemberShuffler,
    fake: FakeMagisterium,
    unshuffled: dict[tuple[str, int], list[JSON]],
    seed: int,
) -> None:
    await _check(harness, shuffler, fake, unshuffled, "diocese_statistics_lookup", seed)


# --- what the end-to-end runs cannot reach: the fake's citations have no unknown fields ------


def test_a_citations_unknown_fields_are_shown_by_name_whatever_their_order() -> None:
    served = {"canon": "c. 915", "document_index": 2, "article": "3", "paragraph": "§2"}
    lines = set()
    for members in (list(served.items()), list(reversed(served.items()))):
        citation = parse_citation(dict(members), 0)
        assert list(citation.extra) == ["article", "canon", "paragraph"]
        lines.add(format_citation(citation, position=0))
    assert lines == {"[3] article: 3; canon: c. 915; paragraph: §2"}

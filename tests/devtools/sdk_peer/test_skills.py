"""All ten skills, tasks/get and tasks/cancel through a2a-sdk's real server, against the fake.

The same questions go to the fake Magisterium and to a2a-sdk 1.3's server answering with the
fake's content (``tests/support/sdk_skills.py``), both on loopback TCP, both read by the bot's
production client. What the bot makes of each answer, its typed result, must be the same;
only the ids the servers mint differ. Lookups carry numbers that the SDK's protobuf Structs
turn into floats and members it reorders: what they show is compared through the whole bot in
``tests/devtools/sdk_peer/test_renders.py``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from bot.a2a import errors
from bot.a2a.lookups import LookupKind, Profile
from bot.a2a.results import Result
from devtools.fake_magisterium import FakeMagisterium, running_fake_server
from devtools.fake_magisterium.answers import TOPICS
from devtools.fake_magisterium.corpus import DOCUMENTS
from devtools.fake_magisterium.lookup_clergy import PEOPLE
from devtools.fake_magisterium.lookup_dioceses import DIOCESES
from devtools.fake_magisterium.lookup_popes import POPES
from devtools.fake_magisterium.lookup_saints import SAINTS
from devtools.sdk_peer import running_sdk_server
from tests.support.sdk_skills import MagisteriumExecutor, production_client
from tests.support.skill_calls import SkillCalls

TOKEN = "pro-token"
TODAY = dt.date(2026, 3, 19)
NOWHERE = "Xyzzy Quux"

Call = Callable[[SkillCalls], Awaitable[Result]]


@dataclass
class Upstreams:
    """The fake and the SDK server, each with the bot's own client pointed at it."""

    fake: SkillCalls
    sdk: SkillCalls
    executor: MagisteriumExecutor
    fake_http: httpx.AsyncClient


@contextlib.asynccontextmanager
async def open_upstreams() -> AsyncIterator[Upstreams]:
    fake = FakeMagisterium(today=lambda: TODAY, rate_limits_enabled=False)
    executor = MagisteriumExecutor(today=lambda: TODAY)
    async with (
        running_fake_server(fake) as fake_server,
        running_sdk_server(executor) as sdk_server,
        production_client(fake_server.url) as (fake_http, fake_client, _),
        production_client(sdk_server.url) as (_, sdk_client, _),
    ):
        yield Upstreams(SkillCalls(fake_client), SkillCalls(sdk_client), executor, fake_http)


@pytest.fixture
async def upstreams() -> AsyncIterator[Upstreams]:
    async with open_upstreams() as opened:
        yield opened


def _ask(question: str) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.ask(TOKEN, question)

    return call


def _follow_up(first: str, second: str) -> Call:
    """A second question in the first one's contextId (the answer knows what came before)."""

    async def call(skills: SkillCalls) -> Result:
        earlier = await skills.ask(TOKEN, first)
        return await skills.ask(TOKEN, second, context_id=earlier.context_id)

    return call


def _search(query: str) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.search(TOKEN, query)

    return call


def _fetch(doc_id: str) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.fetch_document(TOKEN, doc_id)

    return call


def _readings(query: str) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.readings(TOKEN, query)

    return call


def _saints(day: dt.date | str) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.saints(TOKEN, day)

    return call


def _lookup(kind: LookupKind, *, name: str | None = None, canonical_id: str | None = None) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.lookup(TOKEN, kind, name=name, canonical_id=canonical_id)

    return call


def _statistics(*, name: str | None = None, canonical_id: str | None = None) -> Call:
    async def call(skills: SkillCalls) -> Result:
        return await skills.diocese_statistics(TOKEN, name=name, canonical_id=canonical_id)

    return call


def _profiles(kind: LookupKind, records: list[dict[str, Any]], names: list[str]) -> list[Call]:
    by_id = [_lookup(kind, canonical_id=record["id"]) for record in records]
    return by_id + [_lookup(kind, name=name) for name in [*names, NOWHERE]]


QUERIES = ("grace", "human dignity", "social justice", "Mary", NOWHERE)
DATES = ("2026-03-19", "2026-04-05", "2026-12-25", "2026-07-14", "next Sunday", "1 February 1900")
SKILL_CALLS: dict[str, list[Call]] = {
    "catholic_qa": [_ask(f"What about {topic.keywords[0]}?") for topic in TOPICS]
    + [_ask("Tell me something."), _follow_up("What is baptism?", "And confirmation?")],
    "document_search": [_search(query) for query in QUERIES],
    "document_fetch": [_fetch(doc_id) for doc_id in [*DOCUMENTS, "99999"]],
    "liturgical_readings": [_readings(day) for day in DATES],
    "saints_of_the_day": [_saints(dt.date.fromisoformat(d)) for d in DATES[:4]]
    + [_saints(d) for d in DATES[4:]],
    "saint_lookup": _profiles(LookupKind.SAINT, SAINTS, ["Teresa", "Korean Martyrs"]),
    "pope_lookup": _profiles(LookupKind.POPE, POPES, ["Pius", "John Paul", "Leo"]),
    "person_lookup": _profiles(LookupKind.PERSON, PEOPLE, ["Seoul", "Cardinal"]),
    "diocese_lookup": _profiles(LookupKind.DIOCESE, DIOCESES, ["Diocese", "Seoul"]),
    "diocese_statistics_lookup": [_statistics(canonical_id=d["id"]) for d in DIOCESES]
    + [_statistics(name="Seoul"), _statistics(canonical_id="diocese-nowhere")],
}
# Their data carries numbers (years, counts): through protobuf every one becomes a float, and
# their members come back reordered. What the person sees is compared in the render tests.
NUMERIC_SKILLS = frozenset(
    {"saint_lookup", "pope_lookup", "person_lookup", "diocese_lookup", "diocese_statistics_lookup"}
)


def _comparable(result: Result) -> dict[str, Any]:
    """The typed result without the ids each server mints."""
    return {"type": type(result).__name__, **result.model_dump(exclude={"task_id", "context_id"})}


async def _both(upstreams: Upstreams, call: Call) -> tuple[Result, Result]:
    return await call(upstreams.fake), await call(upstreams.sdk)


@pytest.mark.parametrize("skill", sorted(set(SKILL_CALLS) - NUMERIC_SKILLS))
async def test_the_typed_result_is_the_same_from_the_sdk_server(
    upstreams: Upstreams, skill: str
) -> None:
    for index, call in enumerate(SKILL_CALLS[skill]):
        from_fake, from_sdk = await _both(upstreams, call)
        assert _comparable(from_sdk) == _comparable(from_fake), (skill, index)
        assert from_sdk.task_id == upstreams.executor.seen[-1].task_id
        assert from_sdk.context_id == upstreams.executor.seen[-1].context_id
    skills_seen = {seen.message_metadata["skillId"] for seen in upstreams.executor.seen}
    assert skills_seen == {skill}


@pytest.mark.parametrize("skill", sorted(NUMERIC_SKILLS))
async def test_lookups_answer_every_input_with_the_same_kind_of_result(
    upstreams: Upstreams, skill: str
) -> None:
    """The same profile, candidates or not-found, for the same id or title, from both."""
    for index, call in enumerate(SKILL_CALLS[skill]):
        from_fake, from_sdk = await _both(upstreams, call)
        assert type(from_sdk) is type(from_fake), (skill, index)
        for key in ("id", "title", "query", "diocese_id", "message"):
            assert getattr(from_sdk, key, None) == getattr(from_fake, key, None), (index, key)
    assert len(upstreams.executor.seen) == len(SKILL_CALLS[skill])


# --- tasks/get and tasks/cancel, answered by the SDK's own handler and task store ----------


async def test_tasks_get_returns_the_stored_task_of_any_skill(upstreams: Upstreams) -> None:
    profile = await upstreams.sdk.lookup(TOKEN, LookupKind.POPE, canonical_id="pope-john-xxiii")
    assert isinstance(profile, Profile) and profile.task_id is not None
    client = upstreams.sdk.client  # the same production client the skills use

    fetched = await client.get_task(profile.task_id, client.policy(TOKEN))

    assert (fetched.id, fetched.context_id) == (profile.task_id, profile.context_id)
    assert fetched.status.state == "completed"
    [artifact] = fetched.artifacts
    assert artifact.name == "pope_profile"
    assert fetched.text_parts()[0].startswith(profile.text[:40])
    assert len(upstreams.executor.seen) == 1  # tasks/get did not run the skill again


async def test_tasks_cancel_of_a_finished_task_is_refused_without_touching_the_token(
    upstreams: Upstreams,
) -> None:
    """The SDK refuses with A2A's TaskNotCancelableError (-32002, HTTP 200); Magisterium with
    -32602. Either way: an RPC error that carries the server's words, is not retried and is
    none of the errors that change a token's standing."""
    answer = await upstreams.sdk.readings(TOKEN, "2026-03-19")
    assert answer.task_id is not None
    client = upstreams.sdk.client

    with pytest.raises(errors.RPCError) as caught:
        await client.cancel_task(answer.task_id, client.policy(TOKEN))

    refused = caught.value
    assert (refused.code, refused.http_status, refused.message) == (
        -32002,
        200,
        "Task cannot be canceled",
    )
    assert not refused.retryable
    assert not isinstance(refused, errors.Unauthorized | errors.PlanRequired | errors.RateLimited)
    still = await client.get_task(answer.task_id, client.policy(TOKEN))
    assert still.status.state == "completed"

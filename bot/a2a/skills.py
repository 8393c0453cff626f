"""The one table of Magisterium's skills: how each is asked, read, cached and rate-limited.

A row says everything the service needs to call a skill: its id, how the query becomes the
message's part, how the completed task becomes a typed result, whether the result is public
content (kept and shared by ``bot.cache.public``) and which rate class it spends. Adding a
skill is one row here plus the cog that shows it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import TypeAdapter

from bot.a2a.lookup_parse import parse_lookup, parse_statistics
from bot.a2a.lookups import Candidates, DioceseStatistics, LookupKind, Profile
from bot.a2a.models import DataPart, Part, Task, TextPart
from bot.a2a.results import (
    Answer,
    Document,
    Martyrology,
    NotFound,
    Readings,
    SearchResults,
    parse_answer,
    parse_document,
    parse_martyrology,
    parse_readings,
    parse_search_results,
)

Q = TypeVar("Q")
R = TypeVar("R")


@dataclass(frozen=True)
class RateClass:
    """Which of Magisterium's pools a skill spends, and how many sends one call may make."""

    name: str
    expensive: bool  # also counts against the stricter "expensive" pool (2 a minute)
    attempts: int  # sends per call at most, a refreshed token's retry included


# catholic_qa runs the LLM pipeline and may have spent one of the person's 2 a minute even when
# it answered -32603: one retry at most.
EXPENSIVE = RateClass("expensive", expensive=True, attempts=2)
BASIC = RateClass("basic", expensive=False, attempts=3)


@dataclass(frozen=True)
class Cached(Generic[Q, R]):
    """Public content, the same for everyone: kept, shared, and spending nobody's quota when
    served from the cache. ``key`` is the query's cache key; ``result`` reads a kept value."""

    key: Callable[[Q], str]
    result: TypeAdapter[R]


@dataclass(frozen=True, eq=False)
class Skill(Generic[Q, R]):
    """One row of the table."""

    id: str
    part: Callable[[Q], Part]  # the message's one part, built from the query
    parse: Callable[[Task, Q], R]  # the completed task, read
    rate: RateClass
    cache: Cached[Q, R] | None = None  # None: personal, never kept (an answer)

    @property
    def expensive(self) -> bool:
        return self.rate.expensive

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return f"Skill({self.id!r})"


@dataclass(frozen=True)
class ByNameOrId:
    """A lookup's query: a canonical id (sent as a data part ``{id}``) or a name (as text).
    A name and an id never share a cache entry, even when they are spelled alike."""

    name: str | None = None
    canonical_id: str | None = None

    def __post_init__(self) -> None:
        if (self.name is None) == (self.canonical_id is None):
            raise ValueError("a lookup needs exactly one of a name or a canonical id")

    @property
    def text(self) -> str:
        return self.canonical_id if self.canonical_id is not None else str(self.name)

    def part(self) -> Part:
        if self.canonical_id is not None:
            return DataPart(data={"id": self.canonical_id})
        return TextPart(text=str(self.name))

    def cache_key(self) -> str:
        return f"id:{self.canonical_id}" if self.canonical_id is not None else f"name:{self.name}"


def _text(query: str) -> Part:
    return TextPart(text=query)


def _same(query: str) -> str:
    return query


def _day_as_text(day: dt.date) -> Part:
    # An absolute ISO date: the upstream never has to guess "today".
    return TextPart(text=day.isoformat())


def _day_as_data(day: dt.date) -> Part:
    return DataPart(data={"date": day.isoformat()})


def _iso(day: dt.date) -> str:
    return day.isoformat()


def _public(adapter: TypeAdapter[R], key: Callable[[Q], str]) -> Cached[Q, R]:
    return Cached(key=key, result=adapter)


LookupResult = Profile | Candidates | NotFound
_LOOKUP: TypeAdapter[LookupResult] = TypeAdapter(LookupResult)


def _lookup(kind: LookupKind) -> Skill[ByNameOrId, LookupResult]:
    def parse(task: Task, query: ByNameOrId) -> LookupResult:
        return parse_lookup(task, kind, query.text)

    return Skill(
        kind.skill,
        ByNameOrId.part,
        parse,
        BASIC,
        _public(_LOOKUP, ByNameOrId.cache_key),
    )


CATHOLIC_QA: Skill[str, Answer] = Skill(
    "catholic_qa", _text, lambda task, _question: parse_answer(task), EXPENSIVE
)
DOCUMENT_SEARCH: Skill[str, SearchResults] = Skill(
    "document_search",
    _text,
    parse_search_results,
    BASIC,
    _public(TypeAdapter(SearchResults), _same),
)
DOCUMENT_FETCH: Skill[str, Document | NotFound] = Skill(
    "document_fetch",
    lambda doc_id: DataPart(data={"id": doc_id}),  # an id is never sent as free text
    parse_document,
    BASIC,
    _public(TypeAdapter(Document | NotFound), _same),
)
LITURGICAL_READINGS: Skill[dt.date, Readings | NotFound] = Skill(
    "liturgical_readings",
    _day_as_text,
    lambda task, day: parse_readings(task, day.isoformat()),
    BASIC,
    _public(TypeAdapter(Readings | NotFound), _iso),
)
SAINTS_OF_THE_DAY: Skill[dt.date, Martyrology | NotFound] = Skill(
    "saints_of_the_day",
    _day_as_data,
    lambda task, day: parse_martyrology(task, day.isoformat()),
    BASIC,
    _public(TypeAdapter(Martyrology | NotFound), _iso),
)
SAINT_LOOKUP = _lookup(LookupKind.SAINT)
POPE_LOOKUP = _lookup(LookupKind.POPE)
PERSON_LOOKUP = _lookup(LookupKind.PERSON)
DIOCESE_LOOKUP = _lookup(LookupKind.DIOCESE)
DIOCESE_STATISTICS_LOOKUP: Skill[ByNameOrId, DioceseStatistics | NotFound] = Skill(
    "diocese_statistics_lookup",
    ByNameOrId.part,
    lambda task, query: parse_statistics(task, query.text),
    BASIC,
    _public(TypeAdapter(DioceseStatistics | NotFound), ByNameOrId.cache_key),
)

LOOKUPS: dict[LookupKind, Skill[ByNameOrId, LookupResult]] = {
    LookupKind.SAINT: SAINT_LOOKUP,
    LookupKind.POPE: POPE_LOOKUP,
    LookupKind.PERSON: PERSON_LOOKUP,
    LookupKind.DIOCESE: DIOCESE_LOOKUP,
}

SKILLS: tuple[Skill[object, object], ...] = (  # type: ignore[assignment]
    CATHOLIC_QA,
    DOCUMENT_SEARCH,
    DOCUMENT_FETCH,
    LITURGICAL_READINGS,
    SAINTS_OF_THE_DAY,
    SAINT_LOOKUP,
    POPE_LOOKUP,
    PERSON_LOOKUP,
    DIOCESE_LOOKUP,
    DIOCESE_STATISTICS_LOOKUP,
)
SKILL_IDS: tuple[str, ...] = tuple(skill.id for skill in SKILLS)


def lookup_skill(kind: LookupKind) -> Skill[ByNameOrId, LookupResult]:
    return LOOKUPS[kind]

"""The Magisterium skills as typed calls: what cogs and services use."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from bot.a2a.client import A2AClient, Token
from bot.a2a.lookup_parse import parse_lookup, parse_statistics
from bot.a2a.lookups import Candidates, DioceseStatistics, LookupKind, Profile
from bot.a2a.models import DataPart, Message, Part, Task, TextPart
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


class Skill(StrEnum):
    CATHOLIC_QA = "catholic_qa"
    DOCUMENT_SEARCH = "document_search"
    DOCUMENT_FETCH = "document_fetch"
    LITURGICAL_READINGS = "liturgical_readings"
    SAINTS_OF_THE_DAY = "saints_of_the_day"
    SAINT_LOOKUP = "saint_lookup"
    POPE_LOOKUP = "pope_lookup"
    PERSON_LOOKUP = "person_lookup"
    DIOCESE_LOOKUP = "diocese_lookup"
    DIOCESE_STATISTICS_LOOKUP = "diocese_statistics_lookup"

    @property
    def expensive(self) -> bool:
        """catholic_qa counts against Magisterium's stricter "expensive" pool as well."""
        return self is Skill.CATHOLIC_QA


class MagisteriumSkills:
    """One method per skill over an :class:`A2AClient`; each returns a typed result."""

    def __init__(self, client: A2AClient) -> None:
        self._client = client

    async def _send(
        self,
        token: Token,
        skill: Skill,
        part: Part,
        *,
        context_id: str | None = None,
        budget: float | None = None,
    ) -> Task:
        message = Message.from_user([part], skill_id=skill.value, context_id=context_id)
        return await self._client.send_message(token, message, budget=budget)

    async def ask(
        self,
        token: Token,
        question: str,
        *,
        context_id: str | None = None,
        budget: float | None = None,
    ) -> Answer:
        """catholic_qa; pass the previous answer's ``context_id`` to continue a conversation."""
        part = TextPart(text=question)
        task = await self._send(
            token, Skill.CATHOLIC_QA, part, context_id=context_id, budget=budget
        )
        return parse_answer(task)

    async def search(
        self, token: Token, query: str, *, budget: float | None = None
    ) -> SearchResults:
        part = TextPart(text=query)
        task = await self._send(token, Skill.DOCUMENT_SEARCH, part, budget=budget)
        return parse_search_results(task, query)

    async def fetch_document(
        self, token: Token, doc_id: str, *, budget: float | None = None
    ) -> Document | NotFound:
        """A document id always goes as a data part ``{id}``, never as free text."""
        part = DataPart(data={"id": doc_id})
        task = await self._send(token, Skill.DOCUMENT_FETCH, part, budget=budget)
        return parse_document(task, doc_id)

    async def readings(
        self, token: Token, date_query: str, *, budget: float | None = None
    ) -> Readings | NotFound:
        part = TextPart(text=date_query)
        task = await self._send(token, Skill.LITURGICAL_READINGS, part, budget=budget)
        return parse_readings(task, date_query)

    async def saints(
        self, token: Token, date: dt.date | str, *, budget: float | None = None
    ) -> Martyrology | NotFound:
        """An absolute date goes as a data part ``{date}``; anything else as a text query."""
        part: Part = (
            DataPart(data={"date": date.isoformat()})
            if isinstance(date, dt.date)
            else TextPart(text=date)
        )
        query = date.isoformat() if isinstance(date, dt.date) else date
        task = await self._send(token, Skill.SAINTS_OF_THE_DAY, part, budget=budget)
        return parse_martyrology(task, query)

    async def lookup(
        self,
        token: Token,
        kind: LookupKind,
        *,
        name: str | None = None,
        canonical_id: str | None = None,
        budget: float | None = None,
    ) -> Profile | Candidates | NotFound:
        """A profile by canonical id (a data part ``{id}``) or by name (a text part)."""
        part, query = _name_or_id(name, canonical_id)
        task = await self._send(token, Skill(kind.skill), part, budget=budget)
        return parse_lookup(task, kind, query)

    async def diocese_statistics(
        self,
        token: Token,
        *,
        name: str | None = None,
        canonical_id: str | None = None,
        budget: float | None = None,
    ) -> DioceseStatistics | NotFound:
        part, query = _name_or_id(name, canonical_id)
        task = await self._send(token, Skill.DIOCESE_STATISTICS_LOOKUP, part, budget=budget)
        return parse_statistics(task, query)


def _name_or_id(name: str | None, canonical_id: str | None) -> tuple[Part, str]:
    if canonical_id is not None:
        return DataPart(data={"id": canonical_id}), canonical_id
    if name is None:
        raise ValueError("a lookup needs a name or a canonical id")
    return TextPart(text=name), name

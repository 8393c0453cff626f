"""The skills as typed calls with a bare token, over the real client and the skill table.

For tests of the A2A layer (the client against the fake, the a2a-sdk peer, hostile replies):
each method builds the row's message, sends it with the client's own :class:`CallPolicy` and
parses the task with the row's parser, exactly as the service does minus tokens, limiter and
cache.
"""

from __future__ import annotations

import datetime as dt
from typing import TypeVar

from bot.a2a import A2AClient, Token
from bot.a2a.lookups import Candidates, DioceseStatistics, LookupKind, Profile
from bot.a2a.models import Message, TextPart
from bot.a2a.results import (
    Answer,
    Document,
    Martyrology,
    NotFound,
    Readings,
    SearchResults,
    parse_martyrology,
    parse_readings,
)
from bot.a2a.skills import (
    CATHOLIC_QA,
    DIOCESE_STATISTICS_LOOKUP,
    DOCUMENT_FETCH,
    DOCUMENT_SEARCH,
    LITURGICAL_READINGS,
    SAINTS_OF_THE_DAY,
    ByNameOrId,
    Skill,
    lookup_skill,
)

Q = TypeVar("Q")
R = TypeVar("R")


async def run_skill(
    client: A2AClient,
    token: Token,
    skill: Skill[Q, R],
    query: Q,
    *,
    context_id: str | None = None,
    budget: float | None = None,
) -> R:
    message = Message.from_user([skill.part(query)], skill_id=skill.id, context_id=context_id)
    task = await client.send_message(message, client.policy(token, budget=budget))
    return skill.parse(task, query)


class SkillCalls:
    """One method per skill, as the bot's callers used to have them."""

    def __init__(self, client: A2AClient) -> None:
        self.client = client

    async def ask(
        self,
        token: Token,
        question: str,
        *,
        context_id: str | None = None,
        budget: float | None = None,
    ) -> Answer:
        return await run_skill(
            self.client, token, CATHOLIC_QA, question, context_id=context_id, budget=budget
        )

    async def search(
        self, token: Token, query: str, *, budget: float | None = None
    ) -> SearchResults:
        return await run_skill(self.client, token, DOCUMENT_SEARCH, query, budget=budget)

    async def fetch_document(
        self, token: Token, doc_id: str, *, budget: float | None = None
    ) -> Document | NotFound:
        return await run_skill(self.client, token, DOCUMENT_FETCH, doc_id, budget=budget)

    async def readings(
        self, token: Token, day: dt.date | str, *, budget: float | None = None
    ) -> Readings | NotFound:
        if isinstance(day, dt.date):
            return await run_skill(self.client, token, LITURGICAL_READINGS, day, budget=budget)
        # A natural-language day ("next Sunday") as the text part, as Magisterium accepts it.
        message = Message.from_user([TextPart(text=day)], skill_id=LITURGICAL_READINGS.id)
        task = await self.client.send_message(message, self.client.policy(token, budget=budget))
        return parse_readings(task, day)

    async def saints(
        self, token: Token, day: dt.date | str, *, budget: float | None = None
    ) -> Martyrology | NotFound:
        if isinstance(day, dt.date):
            return await run_skill(self.client, token, SAINTS_OF_THE_DAY, day, budget=budget)
        # A free-text day ("today") goes as text: what a peer does with it is the peer's.
        message = Message.from_user([TextPart(text=day)], skill_id=SAINTS_OF_THE_DAY.id)
        task = await self.client.send_message(message, self.client.policy(token, budget=budget))
        return parse_martyrology(task, day)

    async def lookup(
        self,
        token: Token,
        kind: LookupKind,
        *,
        name: str | None = None,
        canonical_id: str | None = None,
        budget: float | None = None,
    ) -> Profile | Candidates | NotFound:
        query = ByNameOrId(name=name, canonical_id=canonical_id)
        return await run_skill(self.client, token, lookup_skill(kind), query, budget=budget)

    async def diocese_statistics(
        self,
        token: Token,
        *,
        name: str | None = None,
        canonical_id: str | None = None,
        budget: float | None = None,
    ) -> DioceseStatistics | NotFound:
        query = ByNameOrId(name=name, canonical_id=canonical_id)
        return await run_skill(self.client, token, DIOCESE_STATISTICS_LOOKUP, query, budget=budget)

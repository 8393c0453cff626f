"""The ten skills: their catalogue entries and what each returns for a message's parts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import NamedTuple

from devtools.fake_magisterium import answers, corpus, lookups
from devtools.fake_magisterium.dates import parse_supported
from devtools.fake_magisterium.martyrology import NOT_FOUND as NO_MARTYROLOGY
from devtools.fake_magisterium.martyrology import format_martyrology
from devtools.fake_magisterium.messages import data_of, text_of
from devtools.fake_magisterium.readings import NOT_FOUND as NO_READINGS
from devtools.fake_magisterium.readings import format_readings
from devtools.fake_magisterium.rpc import JsonDict, invalid_params
from devtools.fake_magisterium.tasks import artifact, data_part, text_part

DOCUMENT_NOT_FOUND = "Document not found."


class Request(NamedTuple):
    parts: list[JsonDict]
    previous_query: str | None  # the last query of this contextId, if any
    today: date
    labelled: bool = False  # answers first say they are offline samples


class SkillHandler(NamedTuple):
    id: str
    name: str
    description: str
    examples: tuple[str, ...]
    run: Callable[[Request], JsonDict]


def _require_text(request: Request, skill: str) -> str:
    text = text_of(request.parts)
    if not text:
        raise invalid_params(f"{skill} needs a text part")
    return text


def catholic_qa(request: Request) -> JsonDict:
    question = _require_text(request, "catholic_qa")
    parts = answers.answer_parts(question, request.previous_query, labelled=request.labelled)
    return artifact(answers.ARTIFACT_NAME, parts)


def document_search(request: Request) -> JsonDict:
    hits = corpus.search(_require_text(request, "document_search"))
    results = [{"id": d.id, "url": d.url, "title": d.title} for d in hits]
    return artifact("search_results", [data_part({"results": results})])


def document_fetch(request: Request) -> JsonDict:
    doc_id = data_of(request.parts).get("id")
    if isinstance(doc_id, int) and not isinstance(doc_id, bool):
        doc_id = str(doc_id)
    if not isinstance(doc_id, str) or not doc_id.strip():
        doc_id = text_of(request.parts)
    if not doc_id:
        raise invalid_params('document_fetch needs a data part {"id": ...} or a text part')
    doc = corpus.DOCUMENTS.get(doc_id.strip())
    if doc is None:
        return artifact("document", [text_part(DOCUMENT_NOT_FOUND)])
    meta = {"id": doc.id, "title": doc.title, "author": doc.author, "ref": doc.ref}
    body = f"# {doc.title}\n\n{doc.body}"
    return artifact("document", [text_part(body), data_part(meta)])


def _date_query(request: Request, skill: str) -> str:
    given = data_of(request.parts).get("date")
    if isinstance(given, str) and given.strip():
        return given
    return _require_text(request, skill)


def liturgical_readings(request: Request) -> JsonDict:
    day = parse_supported(_date_query(request, "liturgical_readings"), request.today)
    text = NO_READINGS if day is None else format_readings(day)
    return artifact("mass_readings", [text_part(text)])


def saints_of_the_day(request: Request) -> JsonDict:
    day = parse_supported(_date_query(request, "saints_of_the_day"), request.today)
    text = NO_MARTYROLOGY if day is None else format_martyrology(day)
    return artifact("martyrology", [text_part(text)])


SKILLS: dict[str, SkillHandler] = {
    s.id: s
    for s in (
        SkillHandler(
            "catholic_qa",
            "Catholic Q&A",
            "Ask a question in natural language; get a long-form answer with citations.",
            ("What does the Church teach about the Eucharist?",),
            catholic_qa,
        ),
        SkillHandler(
            "document_search",
            "Document search",
            "Find Church documents matching a query; use a result id with document_fetch.",
            ("human dignity",),
            document_search,
        ),
        SkillHandler(
            "document_fetch",
            "Document fetch",
            "Full text and metadata of a document by id.",
            ('{"id": "12345"}',),
            document_fetch,
        ),
        SkillHandler(
            "liturgical_readings",
            "Liturgical readings",
            "Catholic Mass readings for a date given in natural language.",
            ("today", "next Sunday", "Easter Sunday 2026"),
            liturgical_readings,
        ),
        SkillHandler(
            "saints_of_the_day",
            "Saints of the day",
            "Saints commemorated on a date, from the Roman Martyrology.",
            ('{"date": "2026-03-19"}', "tomorrow"),
            saints_of_the_day,
        ),
        SkillHandler(
            "saint_lookup",
            "Saint lookup",
            "A saint, blessed, venerable or servant of God by name or canonical id: status, "
            "feast day, life, canonization, patronage, biography and image.",
            ("Thérèse of Lisieux", '{"id": "saint-francis-xavier"}'),
            lookups.saint_lookup,
        ),
        SkillHandler(
            "person_lookup",
            "Clergy lookup",
            "A bishop, archbishop or cardinal by name or canonical id: offices, ordinations, "
            "consecrators and dioceses served.",
            ("Cardinal Andrew Yeom Soo-jung", '{"id": "person-peter-chung-soon-taick"}'),
            lookups.person_lookup,
        ),
        SkillHandler(
            "pope_lookup",
            "Pope lookup",
            "A pope by name or canonical id: pontificate, predecessor and successor, life and "
            "notable acts.",
            ("John Paul II", '{"id": "pope-john-xxiii"}'),
            lookups.pope_lookup,
        ),
        SkillHandler(
            "diocese_lookup",
            "Diocese lookup",
            "A diocese, archdiocese or eparchy by name or canonical id: directory data, five "
            "years of headline statistics and the latest financials.",
            ("Archdiocese of Seoul", '{"id": "diocese-paris"}'),
            lookups.diocese_lookup,
        ),
        SkillHandler(
            "diocese_statistics_lookup",
            "Diocese statistics",
            "A diocese's yearly statistics (Catholics, clergy, religious, sacraments, schools) "
            "as a time series, by name or canonical id.",
            ("Seoul", '{"id": "diocese-krakow"}'),
            lookups.diocese_statistics_lookup,
        ),
    )
}

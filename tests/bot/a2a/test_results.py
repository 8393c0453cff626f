"""Typed skill results: citations of any shape, not-found texts, defensive parsing."""

from __future__ import annotations

from typing import Any

from bot.a2a.results import (
    Document,
    Martyrology,
    NotFound,
    Readings,
    parse_answer,
    parse_citation,
    parse_document,
    parse_martyrology,
    parse_readings,
    parse_search_results,
)
from tests.support.fakes import task_of


def _text(text: str) -> dict[str, Any]:
    return {"kind": "text", "text": text}


def _data(data: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "data", "data": data}


def test_documented_citation_shape() -> None:
    citation = parse_citation(
        {
            "cited_text": "The Eucharist is the source and summit",
            "cited_text_heading": "Article 11",
            "document_title": "Lumen Gentium",
            "document_index": 0,
            "document_author": "Second Vatican Council",
            "document_year": 1964,
            "document_reference": "LG 11",
            "source_url": "https://www.vatican.va/lg.html",
        },
        position=5,
    )
    assert citation.number == 1  # zero-based index -> one-based marker
    assert citation.title == "Lumen Gentium"
    assert citation.url == "https://www.vatican.va/lg.html"
    assert citation.excerpt == "The Eucharist is the source and summit"
    assert citation.heading == "Article 11"
    assert citation.year == "1964"
    assert citation.reference == "LG 11"
    assert citation.extra == {}


def test_other_citation_shapes_keep_what_is_present() -> None:
    odd = parse_citation({"name": "CCC", "link": "https://x.org", "pages": "12-14"}, position=2)
    assert (odd.number, odd.title, odd.url, odd.extra) == (
        3,
        "CCC",
        "https://x.org",
        {"pages": "12-14"},
    )
    numbered = parse_citation({"number": "4", "title": "DV"}, position=0)
    assert numbered.number == 4
    assert parse_citation("Summa Theologiae", position=1).title == "Summa Theologiae"
    empty = parse_citation({}, position=0)
    assert empty.number == 1 and empty.title is None and empty.url is None


def test_answer_with_citations_and_related_questions() -> None:
    task = task_of(
        _text("Answer [1]."),
        _data({"citations": [{"document_title": "A", "document_index": 0}, "junk", 3]}),
        _data({"related_questions": ["Why?", "", 7, " How? "]}),
    )
    answer = parse_answer(task)
    assert answer.text == "Answer [1]."
    assert [c.title for c in answer.citations] == ["A", "junk", "3"]
    assert answer.related_questions == ["Why?", "How?"]
    assert (answer.task_id, answer.context_id) == ("t-1", "c-1")


def test_answer_without_data_parts() -> None:
    answer = parse_answer(task_of(_text("Just text.")))
    assert answer.citations == [] and answer.related_questions == []


def test_search_results_skip_malformed_hits() -> None:
    task = task_of(
        _data(
            {
                "results": [
                    {"id": "1", "url": "https://a", "title": "Lumen Gentium"},
                    {"id": 2},
                    {"title": "no id"},
                    "nonsense",
                ]
            }
        )
    )
    results = parse_search_results(task, "church")
    assert [(h.id, h.title, h.url) for h in results.hits] == [
        ("1", "Lumen Gentium", "https://a"),
        ("2", "Document 2", None),
    ]


def test_document_and_not_found() -> None:
    doc = parse_document(
        task_of(
            _text("Body."), _data({"id": "9", "title": "DV", "author": "Vatican II", "ref": "DV"})
        ),
        "9",
    )
    assert isinstance(doc, Document)
    assert (doc.title, doc.author, doc.ref, doc.text) == ("DV", "Vatican II", "DV", "Body.")
    missing = parse_document(task_of(_text("Document not found.")), "404")
    assert isinstance(missing, NotFound) and missing.query == "404"


def test_readings_and_martyrology_not_found_texts() -> None:
    assert isinstance(parse_readings(task_of(_text("No mass readings found.")), "x"), NotFound)
    assert isinstance(parse_readings(task_of(_text("**Gospel** Jn 1")), "today"), Readings)
    none_found = task_of(_text("No martyrology data found."))
    assert isinstance(parse_martyrology(none_found, "x"), NotFound)
    assert isinstance(parse_martyrology(task_of(), "x"), NotFound)
    assert isinstance(parse_martyrology(task_of(_text("1. Saint Andrew")), "x"), Martyrology)

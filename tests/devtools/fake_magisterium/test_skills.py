"""The fake server's five skills: artifact names, shapes and contents, over loopback."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.fake_server import Api, open_api

CITATION_FIELDS = {"cited_text", "cited_text_heading", "document_title", "document_index"}
CITATION_FIELDS |= {"document_author", "document_year", "document_reference", "source_url"}


@pytest.fixture
async def api() -> AsyncIterator[Api]:
    async with open_api() as api:
        yield api


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("Is Jesus really present in the Eucharist?", "transubstantiation"),
        ("Explain the Holy Trinity", "three divine Persons"),
        ("Why honour Mary, the Mother of God?", "Theotokos"),
        ("How should I pray?", "Lord's Prayer"),
        ("How does confession work?", "seal of confession"),
        ("Why baptize infants?", "Infant Baptism"),
        ("Why ask the saints to intercede?", "communion of saints"),
        ("Why is the sky blue?", "Why is the sky blue?"),
    ],
)
async def test_catholic_qa(api: Api, question: str, phrase: str) -> None:
    artifact = await api.artifact(text=question)
    assert artifact["name"] == "catholic_qa_response"
    text, citations, related = artifact["parts"]
    assert phrase in text["text"] and "\n\n" in text["text"]
    cited = citations["data"]["citations"]
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", text["text"])}
    assert markers == set(range(1, len(cited) + 1))
    for index, citation in enumerate(cited):
        assert citation["document_index"] == index
        assert citation["source_url"].startswith("https://www.vatican.va/")
        assert set(citation) == CITATION_FIELDS
    assert len(related["data"]["related_questions"]) == 3


async def test_document_search(api: Api) -> None:
    artifact = await api.artifact(text="Lumen Gentium", skill="document_search")
    assert artifact["name"] == "search_results"
    [part] = artifact["parts"]
    results = part["data"]["results"]
    assert (results[0]["id"], results[0]["title"]) == ("12345", "Lumen Gentium")
    assert results[0]["url"].startswith("https://www.vatican.va/")
    broad = await api.artifact(text="marriage family love life faith", skill="document_search")
    assert 1 <= len(broad["parts"][0]["data"]["results"]) <= 10
    empty = await api.artifact(text="xyzzy quux", skill="document_search")
    assert empty["parts"][0]["data"] == {"results": []}


@pytest.mark.parametrize(
    ("text", "data"),
    [(None, {"id": "12360"}), ("12360", None), (None, {"id": 12360}), (None, {"id": "9"})],
)
async def test_document_fetch(api: Api, text: str | None, data: Any) -> None:
    artifact = await api.artifact(text=text, data=data, skill="document_fetch")
    assert artifact["name"] == "document"
    if data == {"id": "9"}:
        assert artifact["parts"] == [{"kind": "text", "text": "Document not found."}]
        return
    body, meta = artifact["parts"]
    assert "integral ecology" in body["text"]
    assert set(meta["data"]) == {"id", "title", "author", "ref"}
    assert (meta["data"]["id"], meta["data"]["title"]) == ("12360", "Laudato Si'")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("today", ["Thursday, March 19, 2026", "Saint Joseph", "**Second Reading**"]),
        ("tomorrow", ["Friday, March 20, 2026", "**First Reading**", "**Gospel**"]),
        ("next Sunday", ["Sunday, March 22, 2026", "Fifth Sunday of Lent", "**Second Reading**"]),
        ("Easter Sunday 2026", ["Sunday, April 5, 2026", "John 20:1-9"]),
        ("Christmas 2026", ["Friday, December 25, 2026", "John 1:1-18"]),
        ("2026-06-29", ["Peter and Paul", "Matthew 16:13-19"]),
        ("monday", ["Monday, March 23, 2026", "**Responsorial Psalm**"]),
        ("Holy Saturday 2026", ["No mass readings found."]),
        ("the day after never", ["No mass readings found."]),
    ],
)
async def test_liturgical_readings(api: Api, query: str, expected: list[str]) -> None:
    artifact = await api.artifact(text=query, skill="liturgical_readings")
    assert artifact["name"] == "mass_readings"
    [part] = artifact["parts"]
    for fragment in expected:
        assert fragment in part["text"]
    if query == "tomorrow":
        assert "**Second Reading**" not in part["text"]


@pytest.mark.parametrize(
    ("text", "data", "expected"),
    [
        (None, {"date": "2026-03-19"}, "1. At Nazareth, the commemoration of Saint Joseph"),
        (None, {"date": "2026-11-30"}, "Saint Andrew"),
        ("Christmas", None, "Friday, December 25, 2026"),
        ("tomorrow", None, "1. "),
        (None, {"date": "1850-03-19"}, "No martyrology data found."),
        (None, {"date": "2101-01-01"}, "No martyrology data found."),
        ("whenever", None, "No martyrology data found."),
    ],
)
async def test_saints_of_the_day(api: Api, text: str | None, data: Any, expected: str) -> None:
    artifact = await api.artifact(text=text, data=data, skill="saints_of_the_day")
    assert artifact["name"] == "martyrology"
    assert expected in artifact["parts"][0]["text"]

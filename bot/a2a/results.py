"""Typed results per skill, parsed out of a Task so no caller ever digs through parts."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bot.a2a.models import Task

NOT_FOUND_TEXTS = {
    "document_fetch": "Document not found.",
    "liturgical_readings": "No mass readings found.",
    "saints_of_the_day": "No martyrology data found.",
}


class Result(BaseModel):
    model_config = ConfigDict(frozen=True)

    task_id: str | None = None
    context_id: str | None = None


class NotFound(Result):
    """The skill ran and found nothing (the upstream's "not found" texts)."""

    skill: str
    query: str
    message: str


class Citation(BaseModel):
    """One source of an answer. Every field is optional: the upstream shape is not fixed."""

    model_config = ConfigDict(frozen=True)

    number: int | None = None  # one-based, as the inline [n] markers in the answer
    title: str | None = None
    url: str | None = None
    excerpt: str | None = None
    heading: str | None = None
    author: str | None = None
    year: str | None = None
    reference: str | None = None
    extra: dict[str, str] = Field(default_factory=dict)  # unknown fields, by name


class Answer(Result):
    text: str
    citations: list[Citation] = Field(default_factory=list)
    related_questions: list[str] = Field(default_factory=list)


class SearchHit(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    url: str | None = None


class SearchResults(Result):
    query: str
    hits: list[SearchHit] = Field(default_factory=list)


class Document(Result):
    id: str
    title: str | None = None
    author: str | None = None
    ref: str | None = None
    text: str


class Readings(Result):
    query: str
    text: str


class Martyrology(Result):
    query: str
    text: str


# --- parsing ------------------------------------------------------------------------------------


def _ids(task: Task) -> dict[str, Any]:
    return {"task_id": task.id, "context_id": task.context_id}


def _text(task: Task) -> str:
    return "\n\n".join(t for t in task.text_parts() if t).strip()


def _data_value(task: Task, key: str) -> Any:
    for data in task.data_parts():
        if key in data:
            return data[key]
    return None


def _not_found(task: Task, skill: str, query: str) -> NotFound | None:
    text = _text(task)
    expected = NOT_FOUND_TEXTS.get(skill)
    if expected and (not text or text.casefold() == expected.casefold()):
        return NotFound(skill=skill, query=query, message=text or expected, **_ids(task))
    return None


def _str(value: Any) -> str | None:
    if value is None or isinstance(value, dict | list):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # protobuf-based peers turn every integer into a float
    text = str(value).strip()
    return text or None


def _first(raw: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = _str(raw.get(key))
        if value:
            return value
    return None


_CITATION_KEYS = {
    "title": ("document_title", "title", "name", "source"),
    "url": ("source_url", "url", "link", "href", "uri"),
    "excerpt": ("cited_text", "excerpt", "text", "quote", "snippet"),
    "heading": ("cited_text_heading", "heading", "section"),
    "author": ("document_author", "author"),
    "year": ("document_year", "year", "date"),
    "reference": ("document_reference", "reference", "ref"),
}
_KNOWN_CITATION_KEYS = {k for keys in _CITATION_KEYS.values() for k in keys} | {
    "document_index",
    "index",
    "number",
    "id",
}


def parse_citation(raw: Any, position: int) -> Citation:
    """A citation of any shape; ``position`` (zero-based) numbers it when nothing else does."""
    if not isinstance(raw, dict):
        return Citation(number=position + 1, title=_str(raw))
    number = _citation_number(raw, position)
    fields = {name: _first(raw, *keys) for name, keys in _CITATION_KEYS.items()}
    extra = {  # by name: members arrive in any order (RFC 8259), the fields must not
        str(k): text
        for k, v in sorted(raw.items(), key=lambda item: str(item[0]))
        if k not in _KNOWN_CITATION_KEYS and (text := _str(v)) is not None
    }
    return Citation(number=number, extra=extra, **fields)


def _citation_number(raw: dict[str, Any], position: int) -> int:
    index = raw.get("document_index")
    if isinstance(index, int | float) and not isinstance(index, bool):
        return int(index) + 1  # document_index is zero-based, inline [n] markers one-based
    for key in ("number", "index"):
        value = raw.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and value.strip().isdigit():
            return int(value.strip())
    return position + 1


def parse_answer(task: Task) -> Answer:
    raw_citations = _data_value(task, "citations")
    raw_related = _data_value(task, "related_questions")
    citations = (
        [parse_citation(c, i) for i, c in enumerate(raw_citations)]
        if isinstance(raw_citations, list)
        else []
    )
    related = (
        [q.strip() for q in raw_related if isinstance(q, str) and q.strip()]
        if isinstance(raw_related, list)
        else []
    )
    return Answer(text=_text(task), citations=citations, related_questions=related, **_ids(task))


def parse_search_results(task: Task, query: str) -> SearchResults:
    raw = _data_value(task, "results")
    hits: list[SearchHit] = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict):
            continue
        doc_id = _str(item.get("id"))
        if doc_id is None:
            continue
        title = _first(item, "title", "name") or f"Document {doc_id}"
        hits.append(SearchHit(id=doc_id, title=title, url=_first(item, "url", "link")))
    return SearchResults(query=query, hits=hits, **_ids(task))


def parse_document(task: Task, doc_id: str) -> Document | NotFound:
    if (missing := _not_found(task, "document_fetch", doc_id)) is not None:
        return missing
    meta = next((d for d in task.data_parts() if "title" in d or "id" in d), {})
    return Document(
        id=_str(meta.get("id")) or doc_id,
        title=_str(meta.get("title")),
        author=_str(meta.get("author")),
        ref=_str(meta.get("ref")),
        text=_text(task),
        **_ids(task),
    )


def parse_readings(task: Task, query: str) -> Readings | NotFound:
    if (missing := _not_found(task, "liturgical_readings", query)) is not None:
        return missing
    return Readings(query=query, text=_text(task), **_ids(task))


def parse_martyrology(task: Task, query: str) -> Martyrology | NotFound:
    if (missing := _not_found(task, "saints_of_the_day", query)) is not None:
        return missing
    return Martyrology(query=query, text=_text(task), **_ids(task))

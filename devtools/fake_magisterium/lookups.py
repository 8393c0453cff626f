"""The five lookup skills: saints, popes, clergy, dioceses and diocese statistics.

A data part ``{"id": ...}`` looks up a canonical id; a text part looks up a name. Replies
vary in shape on purpose (see the data modules' ``shape``) so a client's parser is exercised.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from devtools.fake_magisterium.lookup_clergy import PEOPLE
from devtools.fake_magisterium.lookup_dioceses import DIOCESES
from devtools.fake_magisterium.lookup_popes import POPES
from devtools.fake_magisterium.lookup_saints import SAINTS
from devtools.fake_magisterium.lookup_statistics import METRICS, series, summary_line
from devtools.fake_magisterium.messages import data_of, text_of
from devtools.fake_magisterium.rpc import JsonDict, invalid_params
from devtools.fake_magisterium.tasks import artifact, data_part, text_part

if TYPE_CHECKING:
    from devtools.fake_magisterium.skills import Request

MAX_CANDIDATES = 30
_HONORIFICS: tuple[tuple[str, ...], ...] = tuple(
    tuple(h.split())
    for h in (
        "servant of god",
        "archdiocese of",
        "diocese of",
        "eparchy of",
        "saint",
        "st",
        "blessed",
        "bl",
        "venerable",
        "pope",
        "cardinal",
        "archbishop",
        "bishop",
    )
)
# Letters NFKD leaves whole (no combining mark to strip).
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D"})


def normalise(text: str) -> str:
    """Lower case, no accents, punctuation as spaces, single-spaced."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[\W_]+", " ", plain.casefold()).split())


def name_key(text: str) -> str:
    """The normalised name without leading honorifics ("St. Thérèse" → "therese")."""
    words = normalise(text).split()
    stripped = True
    while stripped:
        stripped = False
        for honorific in _HONORIFICS:
            if tuple(words[: len(honorific)]) == honorific:
                words = words[len(honorific) :]
                stripped = True
                break
    return " ".join(words)


@dataclass(frozen=True)
class Entry:
    """One profile: what is matched (names) and what is sent (text and data)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    summary: str
    text: str
    data: JsonDict

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word.capitalize() for word in rest)


def _reshape(value: Any, camel: bool, floats: bool, key: str = "") -> Any:
    if isinstance(value, dict):
        return {
            (_camel(k) if camel else k): _reshape(v, camel, floats, k) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_reshape(v, camel, floats, key) for v in value]
    if floats and isinstance(value, int) and not isinstance(value, bool) and key != "year":
        return float(value)
    return value


def shaped(record: JsonDict) -> JsonDict:
    """A record's data part as sent: id and name first, then its `shape` applied."""
    shape: list[str] = record.get("shape", [])
    data: JsonDict = {"id": record["id"], "name": record["name"], **record["profile"]}
    data = _reshape(data, camel="camel" in shape, floats="floats" in shape)
    for option in shape:
        if option.startswith("nest:"):
            data = {option.removeprefix("nest:"): data}
    return data


def _entry(record: JsonDict) -> Entry:
    return Entry(
        id=record["id"],
        name=record["name"],
        aliases=tuple(record.get("aliases", ())),
        summary=record["summary"],
        text=record["text"],
        data=shaped(record),
    )


class _Matcher:
    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = tuple(entries)
        self.by_id = {e.id: e for e in self.entries}
        self._keys = {e.id: {name_key(n) for n in e.names} for e in self.entries}
        self._words = {e.id: [normalise(n).split() for n in e.names] for e in self.entries}

    def find(self, query: str) -> list[Entry]:
        """Exact name/alias matches if any, else entries whose one name holds every word."""
        wanted = name_key(query)
        if not wanted:
            return []
        exact = [e for e in self.entries if wanted in self._keys[e.id]]
        if exact:
            return exact
        words = wanted.split()
        return [e for e in self.entries if any(_holds(name, words) for name in self._words[e.id])]


def _holds(name: list[str], words: list[str]) -> bool:
    return all(any(part.startswith(word) for part in name) for word in words)


@dataclass(frozen=True)
class Kind:
    skill: str
    noun: str  # plural, for "Several saints match …"
    artifact: str
    not_found: str
    matcher: _Matcher


SAINT = Kind(
    "saint_lookup", "saints", "saint_profile", "No saint found.", _Matcher(map(_entry, SAINTS))
)
POPE = Kind("pope_lookup", "popes", "pope_profile", "No pope found.", _Matcher(map(_entry, POPES)))
PERSON = Kind(
    "person_lookup", "people", "person_profile", "No person found.", _Matcher(map(_entry, PEOPLE))
)
DIOCESE = Kind(
    "diocese_lookup",
    "dioceses",
    "diocese_profile",
    "No diocese found.",
    _Matcher(map(_entry, DIOCESES)),
)
STATISTICS = Kind(
    "diocese_statistics_lookup",
    "dioceses",
    "diocese_statistics",
    "No diocese statistics found.",
    DIOCESE.matcher,
)


def _found(kind: Kind, request: Request) -> tuple[str, list[Entry]]:
    """The query as the person wrote it and the entries it matches."""
    given = data_of(request.parts).get("id")
    if isinstance(given, int) and not isinstance(given, bool):
        given = str(given)
    if isinstance(given, str) and given.strip():
        entry = kind.matcher.by_id.get(given.strip())
        return given.strip(), [] if entry is None else [entry]
    text = text_of(request.parts)
    if not text:
        raise invalid_params(f'{kind.skill} needs a data part {{"id": ...}} or a text part')
    return text, kind.matcher.find(text)


def _candidates(kind: Kind, query: str, entries: list[Entry]) -> JsonDict:
    listed = [{"id": e.id, "name": e.name, "summary": e.summary} for e in entries]
    text = f"Several {kind.noun} match “{query}”; choose one."
    return artifact(
        kind.artifact, [text_part(text), data_part({"candidates": listed[:MAX_CANDIDATES]})]
    )


def _answer(kind: Kind, request: Request, reply: Callable[[Entry], JsonDict]) -> JsonDict:
    query, found = _found(kind, request)
    if not found:
        return artifact(kind.artifact, [text_part(kind.not_found)])
    if len(found) > 1:
        return _candidates(kind, query, found)
    return reply(found[0])


def _profile(kind: Kind) -> Callable[[Request], JsonDict]:
    def run(request: Request) -> JsonDict:
        def reply(entry: Entry) -> JsonDict:
            parts = [text_part(entry.text), data_part(copy.deepcopy(entry.data))]
            return artifact(kind.artifact, parts)

        return _answer(kind, request, reply)

    return run


saint_lookup = _profile(SAINT)
pope_lookup = _profile(POPE)
person_lookup = _profile(PERSON)
diocese_lookup = _profile(DIOCESE)


def diocese_statistics_lookup(request: Request) -> JsonDict:
    def reply(entry: Entry) -> JsonDict:
        rows = series(entry.id)
        if not rows:
            return artifact(STATISTICS.artifact, [text_part(STATISTICS.not_found)])
        data = {
            "diocese": {"id": entry.id, "name": entry.name},
            "metrics": list(METRICS),
            "series": rows,
        }
        text = summary_line(entry.name, rows)
        return artifact(STATISTICS.artifact, [text_part(text), data_part(data)])

    return _answer(STATISTICS, request, reply)

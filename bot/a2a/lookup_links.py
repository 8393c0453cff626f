"""Which lookup opens an object named inside a profile (a pope, a bishop, a diocese…)."""

from __future__ import annotations

import re

from bot.a2a.lookup_values import ID_KEYS, Json, first_text, snake
from bot.a2a.lookups import LookupKind, ProfileLink

_KIND_WORDS: tuple[tuple[LookupKind, tuple[str, ...]], ...] = (
    (LookupKind.POPE, ("pope", "pontiff")),
    (LookupKind.SAINT, ("saint", "blessed", "venerable", "servant_of_god")),
    (
        LookupKind.DIOCESE,
        (
            "diocese",
            "archdiocese",
            "eparchy",
            "archeparchy",
            "see",
            "prelature",
            "vicariate",
            "ordinariate",
        ),
    ),
    (
        LookupKind.PERSON,
        (
            "bishop",
            "archbishop",
            "cardinal",
            "priest",
            "person",
            "clergy",
            "patriarch",
            "prelate",
            "ordinary",
            "consecrator",
            "co_consecrators",
            "consecrators",
            "auxiliary",
            "coadjutor",
            "deacon",
        ),
    ),
)
_POPE_KEYS = (
    "canonized_by",
    "canonised_by",
    "beatified_by",
    "created_cardinal_by",
    "appointed_by",
    "elevated_by",
    "predecessor",
    "successor",
    "pope",
)
_NAME_PREFIXES: tuple[tuple[LookupKind, tuple[str, ...]], ...] = (
    (LookupKind.POPE, ("pope ",)),
    (LookupKind.SAINT, ("saint ", "st. ", "st ", "blessed ", "venerable ", "servant of god ")),
    (LookupKind.DIOCESE, ("diocese ", "archdiocese ", "eparchy ", "archeparchy ")),
    (
        LookupKind.PERSON,
        ("cardinal ", "archbishop ", "bishop ", "patriarch ", "mgr ", "monsignor ", "msgr "),
    ),
)


def _kind_of_word(word: str) -> LookupKind | None:
    joined = snake(word)
    tokens = set(joined.split("_"))
    tokens |= {t.removesuffix("s") for t in tokens}  # "dioceses", "bishops"
    for kind, words in _KIND_WORDS:
        if joined in words or tokens & set(words):
            return kind
    return None


_PLACES = re.compile(r"\b(cathedral|basilica|church|chapel|parish|shrine|abbey|seminary)\b")


def link_kind(key: str, raw: Json, name: str) -> LookupKind | None:
    """Which lookup opens this object: its own type, its name, its id, the field it is in.

    Not its ``role``: that is the holder's (a bishop's role in a diocese), not the object's.
    The id comes before the field: a bishop's ``predecessor`` is a bishop, not a pope.
    """
    explicit = first_text(raw, ("type", "kind", "category", "entity_type"))
    if explicit and (kind := _kind_of_word(explicit)) is not None:
        return kind
    folded = name.casefold()
    if _PLACES.search(folded) or (_kind_of_word(key) is None and _PLACES.search(snake(key))):
        return None  # "St. Mary's Cathedral" is a building, not a saint to look up
    for kind, prefixes in _NAME_PREFIXES:
        if folded.startswith(prefixes):
            return kind
    ident = first_text(raw, ID_KEYS)
    if ident and (kind := _kind_of_word(re.split(r"[-_:/]", ident, maxsplit=1)[0])) is not None:
        return kind
    if snake(key) in _POPE_KEYS or "pope" in snake(key):
        return LookupKind.POPE
    return _kind_of_word(key)


def link_of(key: str, raw: Json, role: str) -> ProfileLink | None:
    name = first_text(raw, ("name", "full_name", "display_name", "label"))
    if name is None:
        return None
    kind = link_kind(key, raw, name)
    if kind is None:
        return None
    return ProfileLink(kind=kind, name=name, id=first_text(raw, ID_KEYS), role=role)

"""Typed text made comparable: folded (case, accents) and cut into numbers, words, separators.

Both what a person types and the vocabulary it is compared with go through :func:`fold` and
:func:`tokenize`, so "Miércoles", "miercoles" and "MIÉRCOLES" are the same word.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

# Letters NFKD does not decompose that people type without their marks; apostrophes vanish
# ("aujourd'hui" = "aujourdhui"); the degree sign is a common stand-in for º ("1°").
_PLAIN = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "°": "o", "'": "", "’": "", "ʼ": ""})
_TOKEN = re.compile(r"(?P<num>[0-9]+)|(?P<word>[^\W\d_]+)|(?P<sep>[./,-])|(?P<space>\s+)")

Kind = Literal["num", "word", "sep"]


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str
    glued: bool  # no space between this token and the previous one ("19th", "3월")


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lowercase, without accents: NFKD, drop the combining marks, then NFC again so that
    Hangul syllables (which NFKD splits into jamo, not marks) come back whole."""
    decomposed = unicodedata.normalize("NFKD", text.casefold()).translate(_PLAIN)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)


def tokenize(text: str) -> list[Token] | None:
    """The tokens of already folded ``text``; None if it holds anything a date never does."""
    tokens: list[Token] = []
    position = 0
    glued = False
    for match in _TOKEN.finditer(text):
        if match.start() != position:
            return None
        position = match.end()
        kind = match.lastgroup
        if kind == "space":
            glued = False
            continue
        tokens.append(Token(kind, match.group(), glued and bool(tokens)))  # type: ignore[arg-type]
        glued = True
    return tokens if position == len(text) else None


def words_of(text: str) -> tuple[str, ...]:
    """The words of ``text`` (folded here), separators dropped: "Après-demain" → (apres,
    demain)."""
    tokens = tokenize(fold(text)) or []
    return tuple(t.text for t in tokens if t.kind != "sep")

"""The fake knowledge base: documents by id, and a word-overlap search over them."""

from __future__ import annotations

import re

from devtools.fake_magisterium.corpus_council import COUNCIL, Document
from devtools.fake_magisterium.corpus_papal import PAPAL

DOCUMENTS: dict[str, Document] = {doc.id: doc for doc in (*COUNCIL, *PAPAL)}
MAX_RESULTS = 10
_GRAMMAR = frozenset(
    "a an and are about as at be by does do for from how in is it of on or say says the to "  # noqa: SIM905
    "what when where which who why with".split()
)
# Too common here to tell documents apart, unless the query has nothing else.
_COMMON = frozenset({"church", "catholic", "teach", "teaching", "pope", "document"})


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower().replace("'", "")) if w}


def _same(a: str, b: str) -> bool:
    # A shared six-letter stem joins "liturgy"/"liturgical", "dignity"/"dignitas".
    return a == b or (len(a) >= 6 and len(b) >= 6 and a[:6] == b[:6])


def _score(query: set[str], doc: Document) -> int:
    title, keywords = _words(doc.title), _words(" ".join(doc.keywords))
    score = 0
    for word in query:
        if any(_same(word, t) for t in title):
            score += 3
        elif any(_same(word, k) for k in keywords):
            score += 2
        elif any(_same(word, a) for a in _words(doc.author)):
            score += 1
    return score


def search(query: str) -> list[Document]:
    """Best matches first (ties by id), at most MAX_RESULTS; none for an unrelated query."""
    words = _words(query) - _GRAMMAR
    words = (words - _COMMON) or words
    scored = [(_score(words, doc), doc) for doc in DOCUMENTS.values()]
    ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1].id))
    return [doc for _, doc in ranked[:MAX_RESULTS]]

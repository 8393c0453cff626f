"""The catholic_qa skill: canned answers with citations, plus the oversized and hostile ones."""

from __future__ import annotations

import re

from devtools.fake_magisterium.answers_data import GENERIC, Cite, Topic
from devtools.fake_magisterium.corpus import DOCUMENTS
from devtools.fake_magisterium.rpc import JsonDict
from devtools.fake_magisterium.tasks import data_part, text_part
from devtools.fake_magisterium.topics_doctrine import DOCTRINE
from devtools.fake_magisterium.topics_grace import GRACE
from devtools.fake_magisterium.topics_sacraments import SACRAMENTS

ARTIFACT_NAME = "catholic_qa_response"
HUGE_LENGTH = 30_000
HUGE_CITATIONS = 40
TOPICS = (*SACRAMENTS, *DOCTRINE, *GRACE)
# The line an answer starts with when the fake says what it is (the console, fake-server).
SAMPLE_NOTE = (
    "*An offline sample answer from the project's stand-in for Magisterium, not Magisterium "
    "AI: set MAGISTERIUM_TOKEN for real answers.*"
)


def citation(index: int, cite: Cite) -> JsonDict:
    doc = DOCUMENTS[cite.doc_id]
    return {
        "cited_text": cite.text,
        "cited_text_heading": cite.heading,
        "document_title": doc.title,
        "document_index": index,
        "document_author": doc.author,
        "document_year": re.findall(r"\d{4}", doc.ref)[-1],
        "document_reference": cite.reference,
        "source_url": doc.url,
    }


def pick_topic(question: str) -> Topic:
    """The canned topic whose keywords the question mentions most; GENERIC when none."""
    text = question.lower()

    def hits(topic: Topic) -> int:
        return sum(1 for k in topic.keywords if re.search(rf"\b{re.escape(k)}\b", text))

    best = max(TOPICS, key=hits)
    return best if hits(best) > 0 else GENERIC


def _parts(answer: str, citations: list[JsonDict], related: list[str]) -> list[JsonDict]:
    return [
        text_part(answer),
        data_part({"citations": citations}),
        data_part({"related_questions": related}),
    ]


def answer_parts(question: str, previous: str | None, *, labelled: bool = False) -> list[JsonDict]:
    """The artifact parts answering `question`; `previous` is the conversation's last query;
    `labelled`: the answer first says it is an offline sample."""
    topic = pick_topic(question)
    answer = topic.answer.replace("{question}", question)
    if previous is not None:
        answer = f'Continuing our conversation about "{previous}"...\n\n{answer}'
    if labelled:
        answer = f"{SAMPLE_NOTE}\n\n{answer}"
    citations = [citation(i, cite) for i, cite in enumerate(topic.cites)]
    return _parts(answer, citations, list(topic.related))


def huge_parts(question: str) -> list[JsonDict]:
    """An answer of about HUGE_LENGTH characters citing HUGE_CITATIONS sources."""
    docs = list(DOCUMENTS.values())
    citations = []
    for i in range(HUGE_CITATIONS):
        doc = docs[i % len(docs)]
        cite = Cite(doc.id, f"{doc.title} {i + 1}", f"Section {i + 1}", doc.body.split("\n")[0])
        citations.append(citation(i, cite))
    paragraphs = [f"A very long answer to: *{question}*"]
    length, n = 0, 0
    while length < HUGE_LENGTH or n < HUGE_CITATIONS:
        doc = docs[n % len(docs)]
        body = doc.body.replace("\n\n", " ")
        paragraphs.append(f"**Point {n + 1}.** {body} [{n % HUGE_CITATIONS + 1}]")
        length += len(paragraphs[-1]) + 2
        n += 1
    related = [f"Follow-up question {i} about {docs[i].title}?" for i in range(3)]
    return _parts("\n\n".join(paragraphs), citations, related)

"""Canned catholic_qa answers: short, accurate summaries written for the fake.

`[n]` markers are one-based and point at `cites[n - 1]`.
"""

from __future__ import annotations

from typing import NamedTuple


class Cite(NamedTuple):
    doc_id: str  # a corpus document id
    reference: str
    heading: str
    text: str


class Topic(NamedTuple):
    name: str
    keywords: tuple[str, ...]
    answer: str
    cites: tuple[Cite, ...]
    related: tuple[str, str, str]


CCC = "12349"

GENERIC = Topic(
    "your question",
    (),
    "Thank you for your question: *{question}*\n\nCatholic teaching draws on one deposit of "
    "faith, handed on in Sacred Scripture and Sacred Tradition and authentically interpreted by "
    "the Magisterium, the teaching office of the Pope and the bishops in communion with him "
    "[1].\n\nA reliable place to start is the Catechism of the Catholic Church, which sets out "
    "the faith in four parts: the Creed, the sacraments, the life in Christ and prayer [2]. "
    "Its index and cross-references lead to the Scripture passages and documents behind each "
    "teaching.\n\nIf your question touches a personal situation, it is also wise to speak "
    "with a priest, who can accompany you in the light of all your circumstances.",
    (
        Cite(
            "12346",
            "Dei Verbum 10",
            "Chapter II: The transmission of divine revelation",
            "Tradition and Scripture form one sacred deposit of the word of God, which the "
            "Magisterium serves.",
        ),
        Cite(
            CCC,
            "CCC 13-17",
            "Structure of this Catechism",
            "The plan of the Catechism follows the Creed, the sacraments, the commandments "
            "and the Lord's Prayer.",
        ),
    ),
    (
        "What is the Magisterium?",
        "How does the Church interpret Scripture?",
        "What are the four parts of the Catechism?",
    ),
)

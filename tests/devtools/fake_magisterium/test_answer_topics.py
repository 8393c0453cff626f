"""The fake's catholic_qa answers: a topic of its own for the README's examples, the generic
answer for the rest, and the note saying it is an offline sample only where people read it."""

from __future__ import annotations

import pytest

from devtools.fake_magisterium.answers import SAMPLE_NOTE, answer_parts, pick_topic
from devtools.fake_magisterium.answers_data import GENERIC


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("What is grace?", "grace"),
        ("And sanctifying grace?", "grace"),
        ("And mercy?", "mercy"),
        ("What is hope?", "hope"),
        ("How do I pray?", "prayer"),
    ],
)
def test_the_readmes_examples_have_their_own_answer(question: str, topic: str) -> None:
    assert pick_topic(question).name == topic


def test_anything_else_gets_the_generic_answer() -> None:
    assert pick_topic("Where should I begin?") is GENERIC


def test_the_sample_note_comes_first_only_when_asked_for() -> None:
    labelled = answer_parts("What is grace?", None, labelled=True)[0]["text"]
    assert labelled.startswith(SAMPLE_NOTE + "\n\nGrace is favour")
    plain = answer_parts("What is grace?", "What is hope?")[0]["text"]
    assert SAMPLE_NOTE not in plain
    assert plain.startswith('Continuing our conversation about "What is hope?"')

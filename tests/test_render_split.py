"""split_text / split_pieces / truncate: limits, no text lost, markup and clusters kept whole."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.graphemes import grapheme_boundaries
from bot.render.markdown import find_fences, inline_spans
from bot.render.split import Piece, split_pieces, split_text, truncate
from tests.test_render_strategies import (
    E_ACUTE,
    FAMILY,
    FLAGS,
    RAINBOW,
    THUMB,
    any_text,
    check_pieces,
    markdown_text,
)

FAST = settings(max_examples=200, deadline=None)


def _cuts(pieces: list[Piece]) -> set[int]:
    """Positions of the original text where a piece ends or begins (other than 0 and the end)."""
    return {p.end for p in pieces[:-1]} | {p.start for p in pieces[1:]}


# --- the invariant, for any input --------------------------------------------------------------


@FAST
@given(text=any_text, limit=st.integers(-3, 300))
def test_any_text_keeps_the_invariant(text: str, limit: int) -> None:
    pieces = split_pieces(text, limit)
    check_pieces(text, pieces, limit)
    assert split_text(text, limit) == [p.text for p in pieces]


@FAST
@given(text=markdown_text, limit=st.integers(40, 400))
def test_clusters_links_and_fences_stay_whole(text: str, limit: int) -> None:
    pieces = split_pieces(text, limit)
    check_pieces(text, pieces, limit)
    cuts = _cuts(pieces)
    boundary = grapheme_boundaries(text)
    assert all(boundary[c] for c in cuts), "a grapheme cluster was split"
    for start, end in inline_spans(text, find_fences(text)):
        if end - start <= limit - 12:
            assert not any(start < c < end for c in cuts), text[start:end]
    for piece in pieces:
        assert piece.text.count("```") % 2 == 0, piece.text


@FAST
@given(text=markdown_text, limit=st.integers(60, 400))
def test_reopened_fence_keeps_its_language(text: str, limit: int) -> None:
    fences = find_fences(text)
    for piece in split_pieces(text, limit):
        if piece.reopen:
            inside = [f for f in fences if f.content_start <= piece.start <= f.close_start]
            assert inside
            assert piece.reopen == inside[0].opener + "\n"


# --- preferences --------------------------------------------------------------------------------


def test_short_text_is_returned_unchanged() -> None:
    assert split_text("  hello  ", 100) == ["  hello  "]
    assert split_text("", 100) == []


def test_prefers_paragraphs_then_sentences_then_words() -> None:
    first = "One sentence here. " * 3 + "Another one."
    second = "Second paragraph. " * 3
    pieces = split_text(f"{first}\n\n{second}", 80)
    assert pieces[0] == first
    sentences = split_text("Aaaa bbbb cccc. Dddd eeee ffff gggg hhhh iiii", 30)
    assert sentences[0] == "Aaaa bbbb cccc."
    words = split_text("alpha beta gamma delta epsilon", 12)
    assert all(" " not in w or w.count(" ") <= 1 for w in words)
    assert " ".join(words) == "alpha beta gamma delta epsilon"


def test_hard_cut_only_without_whitespace() -> None:
    chunks = split_text("x" * 1000, 100)
    assert chunks == ["x" * 100] * 10


def test_code_fence_is_closed_and_reopened_with_its_language() -> None:
    lines = [f"line_{i} = {i}" for i in range(60)]
    code = "```python\n" + "\n".join(lines) + "\n```"
    chunks = split_text(f"Intro.\n\n{code}\n\nOutro.", 200)
    assert len(chunks) > 3
    for chunk in chunks:
        assert len(chunk) <= 200
        assert chunk.count("```") % 2 == 0
    assert all(c.endswith("\n```") for c in chunks[:-1])
    assert all(c.startswith("```python\n") for c in chunks[1:])
    inner = [c.removeprefix("```python\n").removesuffix("\n```") for c in chunks[1:-1]]
    first = chunks[0].removeprefix("Intro.\n\n```python\n").removesuffix("\n```")
    last = chunks[-1].removeprefix("```python\n").removesuffix("\n```\n\nOutro.")
    assert "\n".join([first, *inner, last]).split("\n") == lines


def test_a_code_block_that_fits_is_moved_whole_to_the_next_chunk() -> None:
    intro = "An introduction of a few words. " * 2
    code = "```py\n" + "\n".join(f"x{i} = {i}" for i in range(20)) + "\n```"
    assert len(code) < 200 < len(intro) + len(code)
    assert split_text(f"{intro}\n\n{code}", 200) == [intro.rstrip(), code]


def test_links_are_not_broken() -> None:
    link = "[Lumen Gentium, chapter II](https://www.vatican.va/archive/lg_(en).html)"
    text = " ".join([link] * 40)
    for limit in (len(link) + 1, 100, 333, 1000):
        for chunk in split_text(text, limit):
            assert re.fullmatch(rf"(?:{re.escape(link)} ?)+", chunk), chunk


def test_link_longer_than_limit_is_hard_cut() -> None:
    link = "[label](https://example.org/" + "a" * 200 + ")"
    chunks = split_text(link, 50)
    assert "".join(chunks) == link
    assert all(len(c) <= 50 for c in chunks)


@pytest.mark.parametrize(
    "cluster", [FAMILY, RAINBOW, "🇫🇷", THUMB, E_ACUTE, "\r\n", "\u1100\u1161\u11a8"]
)
def test_grapheme_clusters_survive_every_limit(cluster: str) -> None:
    text = cluster * 300
    for limit in range(len(cluster), len(cluster) * 4 + 3):
        for chunk in split_text(text, limit):
            assert chunk.replace(cluster, "") == "", (cluster, limit, chunk)


def test_grapheme_boundaries() -> None:
    def clusters(text: str) -> int:
        return sum(grapheme_boundaries(text)) - 1

    assert clusters(FAMILY) == 1
    assert clusters(RAINBOW) == 1
    assert clusters(FLAGS) == 2
    assert clusters("🇫🇷🇩") == 2
    assert clusters(THUMB) == 1
    assert clusters(E_ACUTE + "a") == 2
    assert clusters("\r\n") == 1
    assert clusters("한\u1100\u1161\u11a8") == 2
    assert clusters("abc") == 3


def test_cluster_longer_than_limit_is_cut_rather_than_overflowing() -> None:
    zalgo = "a" + "\u0301" * 50
    chunks = split_text(zalgo, 10)
    assert "".join(chunks) == zalgo
    assert all(len(c) <= 10 for c in chunks)


def test_tiny_limits_never_raise_or_overflow() -> None:
    text = "```py\nprint(1)\n```\n" * 5
    for limit in range(-1, 30):
        pieces = split_pieces(text, limit)
        check_pieces(text, pieces, limit)


# --- truncate -----------------------------------------------------------------------------------


@FAST
@given(text=any_text, limit=st.integers(-2, 200), ellipsis=st.sampled_from(["…", "...", ""]))
def test_truncate_within_limit_and_cluster_safe(text: str, limit: int, ellipsis: str) -> None:
    out = truncate(text, limit, ellipsis)
    assert len(out) <= max(0, limit)
    if len(text) <= limit:
        assert out == text
    elif len(ellipsis) < limit:
        assert out.endswith(ellipsis)
        head = out[: len(out) - len(ellipsis)]
        assert text.startswith(head)
        assert grapheme_boundaries(text)[len(head)] or not head


def test_truncate_examples() -> None:
    assert truncate("short", 10) == "short"
    assert truncate("hello world", 8) == "hello w…"
    assert truncate(FAMILY * 3, 9) == FAMILY + "…"
    assert truncate("see [the link](https://example.org/x) now", 20) == "see…"
    assert truncate("anything", 0) == ""
    assert truncate("anything", 2, ellipsis="...") == ".."

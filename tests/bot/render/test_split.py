"""split_text / split_pieces / truncate: limits, no text lost, markup and clusters kept whole."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.graphemes import grapheme_boundaries
from bot.render.markdown import find_fences, inline_spans
from bot.render.split import Piece, one_line, split_pieces, split_text, truncate
from tests.support.render_strategies import (
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


# --- where a cut falls, case by case: what a reader of the chunks would notice --------------


def test_a_paragraph_break_beats_a_later_line_break() -> None:
    text = (
        "First paragraph, long enough to pass half.\n\n"
        "Second starts\nand goes on past the limit of this chunk"
    )
    assert split_text(text, 60) == [
        "First paragraph, long enough to pass half.",
        "Second starts\nand goes on past the limit of this chunk",
    ]


def test_a_line_break_beats_later_spaces() -> None:
    text = "A line long enough to pass half way\nthen words go on and on past it"
    assert split_text(text, 50) == [
        "A line long enough to pass half way",
        "then words go on and on past it",
    ]


def test_a_sentence_ending_in_a_quote_is_a_sentence_end() -> None:
    text = 'He said "Stop." Then he left the room at once'
    assert split_text(text, 30) == ['He said "Stop."', "Then he left the room at once"]


def test_a_sentence_end_at_the_very_start_still_counts() -> None:
    assert split_text("! a b c", 3) == ["!", "a b", "c"]


def test_a_paragraph_break_beyond_the_chunk_does_not_promote_its_spaces() -> None:
    text = "Aaaa bbbb cccc. Dddd eeee ffff gggg hhhh\n\nNext paragraph."
    assert split_text(text, 30) == [
        "Aaaa bbbb cccc.",
        "Dddd eeee ffff gggg hhhh",
        "Next paragraph.",
    ]


def test_a_preferred_cut_wins_from_exactly_half_the_chunk() -> None:
    # Limit 9: the paragraph break at 4 leaves the chunk half full (9 // 2), so it wins.
    assert split_text("aaaa\n\nbb cc dd", 9) == ["aaaa", "bb cc dd"]


def test_a_preferred_cut_short_of_half_the_chunk_loses_to_a_later_one() -> None:
    assert split_text("aaa\n\nbbb cc dd", 9) == ["aaa\n\nbbb", "cc dd"]
    # Half full is measured by the text kept, not by where the next piece starts.
    assert split_text("aaa\n\n\n\nb cc dd", 9) == ["aaa\n\n\n\nb", "cc dd"]


def test_a_chunk_may_end_right_before_a_space_at_the_limit() -> None:
    assert split_text("alpha beta gamma", 10) == ["alpha beta", "gamma"]


def test_a_one_letter_word_is_cut_after_rather_than_broken_with_the_next() -> None:
    assert split_text("a bbbbbbbbbb", 5) == ["a", "bbbbb", "bbbbb"]


def test_a_whitespace_run_across_the_limit_is_dropped_whole() -> None:
    assert split_text("aaaa    bbbb", 5) == ["aaaa", "bbbb"]


def test_the_last_piece_may_fill_the_limit_exactly() -> None:
    assert split_text("aaaa bb c", 4) == ["aaaa", "bb c"]


def test_a_code_block_exactly_the_limit_long_is_moved_whole_to_the_next_chunk() -> None:
    intro = "An introduction of a few words. " * 2
    code = "```py\n" + "\n".join(f"x{i} = {i}" for i in range(20)) + "\n```"
    assert split_text(f"{intro}\n\n{code}", len(code)) == [intro.rstrip(), code]


def test_a_code_block_is_cut_between_lines_never_inside_one() -> None:
    line = "a b c d e"
    code = "```\n" + "\n".join([line] * 20) + "\n```"
    chunks = split_text(code, 50)
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.startswith("```\n") and chunk.endswith("\n```")
        assert set(chunk.removeprefix("```\n").removesuffix("\n```").split("\n")) == {line}


def test_a_code_block_is_never_split_into_an_empty_block() -> None:
    # The last line break of a block is where it closes: cutting there would leave an empty
    # reopened block ("```\n```") at the start of the next chunk.
    assert split_text("```\na\nb\n```xxxxxxxxxx", 11) == [
        "```\na\n```",
        "```\nb\n```xx",
        "xxxxxxxx",
    ]


def test_a_code_line_too_long_for_a_chunk_is_cut_mid_word_keeping_its_fences() -> None:
    text = "\n```py\nline one\nline two two\n```\n"
    assert split_text(text, 21) == [
        "\n```py\nline one\n```",
        "```py\nline two tw\n```",
        "```py\no\n```\n",
    ]


def test_a_long_code_line_keeps_its_spaces_across_the_cut() -> None:
    text = "```\n" + "w " * 15 + "\n```\n. . `code span`"
    assert split_text(text, 28) == [
        "```\nw w w w w w w w w w \n```",
        "```\nw w w w w \n```",
        ". . `code span`",
    ]


def test_a_cluster_too_long_for_a_chunk_inside_a_code_block_keeps_the_fences() -> None:
    zalgo = "a" + "\u0301" * 30
    chunks = split_text("```\n" + zalgo + "\n```", 20)
    assert all(c.startswith("```\n") and c.endswith("\n```") for c in chunks)
    assert "".join(c.removeprefix("```\n").removesuffix("\n```") for c in chunks) == zalgo
    assert all(len(c) <= 20 for c in chunks)


def test_a_code_span_longer_than_the_limit_is_cut_as_late_as_fits() -> None:
    assert split_text("`code span`", 9) == ["`code spa", "n`"]


@pytest.mark.parametrize("markup", ["`{}`", "[{}](http://x)"])
def test_accented_markup_longer_than_the_limit_is_cut_between_letters(markup: str) -> None:
    text = markup.format(E_ACUTE * 20)
    chunks = split_text(text, 10)
    assert "".join(chunks) == text
    assert all(len(c) <= 10 for c in chunks)
    boundary = grapheme_boundaries(text)
    assert all(boundary[c] for c in _cuts(split_pieces(text, 10))), "an accent was cut off"
    assert chunks[0] == markup.format(E_ACUTE * 20)[:9]  # "`" or "[" and four letters


def test_one_line_joins_every_whitespace_run_with_one_space() -> None:
    assert one_line("  Lumen\n\nGentium\t chapter  II \n") == "Lumen Gentium chapter II"
    assert one_line("") == ""


# --- truncate, case by case ----------------------------------------------------------------------


def test_truncate_keeps_a_text_exactly_at_the_limit_whole() -> None:
    assert truncate("hello", 5) == "hello"
    assert truncate("bb ", 3) == "bb "
    assert truncate("hello!", 5) == "hell…"


def test_truncate_to_one_character_is_the_ellipsis() -> None:
    assert truncate("hello", 1) == "…"
    assert truncate("h", 1) == "h"
    assert truncate("hello", 3, ellipsis="...") == "..."


def test_truncate_drops_a_cluster_too_long_for_the_room_whole() -> None:
    assert truncate(FAMILY * 3, 3) == "…"
    assert truncate("a" + "\u0301" * 30, 5) == "…"


def test_truncate_stops_before_a_code_span_it_would_cut() -> None:
    assert truncate("a`code span` more", 6) == "a…"


def test_truncate_cuts_inside_markup_that_opens_the_text_rather_than_to_nothing() -> None:
    assert truncate("`code span`", 9) == "`code sp…"


def test_truncate_keeps_a_link_that_ends_exactly_where_the_cut_falls() -> None:
    text = "see [the link](https://example.org/x) now"
    link_end = text.index(")") + 1
    assert truncate(text, link_end + 1) == text[:link_end] + "…"

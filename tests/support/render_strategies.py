"""Hypothesis strategies and invariant checks shared by the render tests.

(Its own tests, which check the checkers, are in tests/support/test_render_strategies.py.)
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from bot.a2a.results import Answer, Citation
from bot.render.markdown import find_fences
from bot.render.split import CLOSE_FENCE, Piece

FAMILY = "👨\u200d👩\u200d👧\u200d👦"
RAINBOW = "🏳\ufe0f\u200d🌈"
FLAGS = "🇫🇷🇩🇪"
THUMB = "👍🏽"
E_ACUTE = "e\u0301"
CLUSTERS = [FAMILY, RAINBOW, FLAGS, THUMB, E_ACUTE, "\r\n", "한국어", "\u1100\u1161\u11a8"]

LINK_TARGET = re.compile(r"\]\((<[^<>]*>|(?:[^()\s]|\([^()\s]*\))*)\)")

_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzÀé", min_size=1, max_size=12)
_links = st.builds(
    lambda label, path: f"[{label}](https://example.org/{path})",
    st.text(alphabet="abc XYZ", min_size=1, max_size=20),
    st.text(alphabet="abc_-(", min_size=0, max_size=15).map(lambda p: p.replace("(", "(x)")),
)
_fences = st.builds(
    lambda lang, lines: f"```{lang}\n" + "\n".join(lines) + "\n```",
    st.sampled_from(["", "py", "c++", "text"]),
    st.lists(st.text(alphabet="xy =()  ", max_size=30), min_size=1, max_size=8),
)
_tokens = st.one_of(
    _words,
    _words,
    st.sampled_from([" ", " ", "\n", "\n\n", ". ", "! ", "  ", "\t", "; "]),
    _links,
    _fences,
    st.sampled_from(CLUSTERS),
    st.sampled_from([" `inline code` ", " [1]", "[2]", " [40] ", "@everyone", "**bold**"]),
)

markdown_text = st.lists(_tokens, max_size=120).map("".join)
any_text = st.one_of(markdown_text, st.text(max_size=400))


def long_text(repeats: tuple[int, ...] = (1, 4, 12, 30)) -> st.SearchStrategy[str]:
    """Texts of up to tens of thousands of characters, cheaply (a block repeated)."""
    block = st.lists(_tokens, min_size=20, max_size=120).map("".join)
    return st.builds(lambda t, k: t * k, block, st.sampled_from(repeats))


_urls = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "https://www.vatican.va/content/lumen-gentium.html",
            "http://example.org/a_(b)",
            "HTTPS://EXAMPLE.ORG/x",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,<script>",
            "ftp://example.org/f",
            "//example.org/x",
            "/relative/path",
            "http:/broken",
            "https://exa mple.org",
            "https://example.org/" + "x" * 600,
            "https://example.org/a](javascript:alert(1))",
        ]
    ),
    st.text(max_size=40),
)
_field = st.one_of(st.none(), st.text(max_size=40), st.text(max_size=400))
citations = st.builds(
    Citation,
    number=st.one_of(st.none(), st.integers(-2, 60)),
    title=_field,
    url=_urls,
    excerpt=_field,
    heading=_field,
    author=_field,
    year=st.one_of(st.none(), st.text(max_size=6)),
    reference=_field,
    extra=st.dictionaries(st.text(max_size=10), st.text(max_size=30), max_size=3),
)
answers = st.builds(
    Answer,
    text=st.one_of(long_text(), any_text),
    citations=st.lists(citations, max_size=45),
    task_id=st.one_of(st.none(), st.text(max_size=300)),
)


def check_pieces(text: str, pieces: list[Piece], limit: int) -> None:
    """Assert the no-text-lost invariant documented in bot.render.split."""
    if not text:
        assert pieces == []
        return
    assert pieces, "non-empty text gave no pieces"
    assert pieces[0].start == 0
    openers = {f.opener + "\n" for f in find_fences(text)}
    for i, piece in enumerate(pieces):
        assert piece.text, f"piece {i} is empty"
        assert len(piece.text) <= max(1, limit), f"piece {i} has {len(piece.text)} > {limit}"
        assert piece.text == piece.reopen + text[piece.start : piece.end] + piece.close
        assert piece.reopen in openers | {""}
        assert piece.close in ("", CLOSE_FENCE)
        tail = pieces[i + 1].start if i + 1 < len(pieces) else len(text)
        assert piece.start < piece.end or piece.reopen
        assert text[piece.end : tail].strip() == "", f"text lost after piece {i}"


def link_targets(markdown: str) -> list[str]:
    return LINK_TARGET.findall(markdown)

"""The render tests' invariant checkers (tests/support/render_strategies.py) catch what they
claim to."""

from __future__ import annotations

from bot.render.split import Piece
from tests.support.render_strategies import check_pieces, link_targets


def test_check_pieces_rejects_lost_text() -> None:
    text = "alpha beta"
    good = [Piece("alpha", 0, 5), Piece("beta", 6, 10)]
    check_pieces(text, good, 5)
    lost = [Piece("alpha", 0, 5), Piece("eta", 7, 10)]
    try:
        check_pieces(text, lost, 5)
    except AssertionError:
        return
    raise AssertionError("lost text went unnoticed")


def test_link_targets() -> None:
    assert link_targets("see [a](https://x.org/a_(b)) and [c](<http://y>)") == [
        "https://x.org/a_(b)",
        "<http://y>",
    ]

"""Splitting and truncating text for Discord without breaking what the reader sees.

The no-text-lost invariant of :func:`split_pieces` (and so of :func:`split_text`), for non-empty
``text`` and ``pieces = split_pieces(text, limit)`` (a limit below 1 counts as 1):

* ``pieces`` is non-empty, every ``piece.text`` is non-empty and ``len(piece.text) <= limit``;
  a text that fits is returned whole and unchanged;
* ``piece.text == piece.reopen + text[piece.start:piece.end] + piece.close``. ``reopen`` is
  ``""`` or the opening line of the code block the piece starts inside (three backticks, the
  block's language tag, a newline); ``close`` is ``""`` or :data:`CLOSE_FENCE`. These fence
  markers are the only characters ever added;
* ``pieces[0].start == 0``, and the gaps ``text[a.end:b.start]`` between consecutive pieces and
  the tail ``text[pieces[-1].end:]`` are whitespace only. Those gaps are the only characters
  ever dropped: the whitespace run at a cut between words, sentences or paragraphs, or inside a
  code block exactly the one newline where the block is closed and reopened.

Cut points, best first: paragraph break, line break, sentence end, any whitespace, a line break
inside a code block too long for one chunk, then a line break inside a code block that would
have fit whole in the next chunk, then mid-word. A cut never falls inside a markdown link, an
inline code span, a fence marker or a grapheme cluster -- unless one of these alone is longer
than the limit, when a hard cut is the only way to honour it. Below about 20 characters of limit
a code block's markers no longer fit, and cuts inside it are made without them.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from bot.render.graphemes import grapheme_boundaries
from bot.render.markdown import Fence, find_fences, inline_spans

CLOSE_FENCE = "\n```"

_WS = re.compile(r"\s+")
_SENTENCE_END = ".!?…;:"
_CLOSERS = "\"'”’»)]*_"


@dataclass(frozen=True)
class Piece:
    text: str
    start: int
    end: int
    reopen: str = ""
    close: str = ""


# Cut levels, best first. A level wins when it leaves the chunk at least half full; failing
# that, the rightmost cut of any of them; a code block that would fit whole in a chunk is split
# only when nothing else is left (SPARE_CODE_LINE).
PARAGRAPH, LINE, SENTENCE, WORD, CODE_LINE, SPARE_CODE_LINE = range(6)
_Cut = tuple[int, int, str, str]  # end, next start, reopen, close


def _mark(flags: bytearray, start: int, end: int) -> None:
    if end - start > 1:
        flags[start + 1 : end] = b"\x01" * (end - start - 1)


class _Layout:
    """Everything about ``text`` a cut needs to know, computed once."""

    def __init__(self, text: str, limit: int) -> None:
        self.text = text
        self.limit = limit
        self.fences = find_fences(text)
        self._content_starts = [f.content_start for f in self.fences]
        self.boundary = grapheme_boundaries(text)
        self.hard = bytearray(len(text) + 1)  # inside a fence marker
        self.soft = bytearray(len(text) + 1)  # inside a link or inline code
        for f in self.fences:
            _mark(self.hard, f.start, f.content_start)
            _mark(self.hard, f.close_start, f.end)
        for start, end in inline_spans(text, self.fences):
            _mark(self.soft, start, end)

    def fence_at(self, i: int) -> Fence | None:
        """The code block whose content (its ends included) holds position ``i``."""
        k = bisect.bisect_right(self._content_starts, i) - 1
        if k >= 0 and i <= self.fences[k].close_start:
            return self.fences[k]
        return None

    def fits(self, pos: int, end: int, reopen: str) -> bool:
        close = len(CLOSE_FENCE) if self.fence_at(end) else 0
        return len(reopen) + (end - pos) + close <= self.limit

    def clean(self, i: int) -> bool:
        return bool(self.boundary[i]) and not self.hard[i] and not self.soft[i]

    def whitespace_cuts(self, pos: int, hi: int) -> Iterator[tuple[int, int, int]]:
        """``(level, end, next_start)`` for whitespace in ``(pos, hi]``, left to right."""
        text = self.text
        for m in _WS.finditer(text, pos + 1, hi + 1):
            a = m.start()
            fence = self.fence_at(a)
            if fence is None:
                whole = _WS.match(text, a)  # the run may go on past ``hi``
                b = whole.end() if whole else m.end()
                yield self._level(a, b), a, b
                continue
            level = CODE_LINE if fence.end - fence.start > self.limit else SPARE_CODE_LINE
            for j in range(a, m.end()):
                if text[j] == "\n" and j + 1 != fence.close_start:
                    yield level, j, j + 1

    def _level(self, a: int, b: int) -> int:
        gap = self.text[a:b]
        if gap.count("\n") >= 2:
            return PARAGRAPH
        if "\n" in gap:
            return LINE
        i = a - 1
        while i >= 0 and self.text[i] in _CLOSERS:
            i -= 1
        return SENTENCE if i >= 0 and self.text[i] in _SENTENCE_END else WORD

    def cut(self, pos: int, reopen: str) -> _Cut:
        hi = min(len(self.text), pos + self.limit - len(reopen))
        best: dict[int, tuple[int, int]] = {}
        for level, end, nxt in self.whitespace_cuts(pos, hi):
            if self.clean(end) and self.clean(nxt) and self.fits(pos, end, reopen):
                best[level] = (end, nxt)
        half = pos + (self.limit - len(reopen)) // 2
        for level in sorted(best):
            if best[level][0] >= half and level != SPARE_CODE_LINE:
                return self._with_markers(*best[level], reopen)
        usual = [cut for level, cut in best.items() if level != SPARE_CODE_LINE]
        if best:
            return self._with_markers(*max(usual or best.values()), reopen)
        return self._hard_cut(pos, hi, reopen)

    def _hard_cut(self, pos: int, hi: int, reopen: str) -> _Cut:
        """The rightmost mid-word cut: whole clusters outside links if at all possible."""
        whole_cluster: int | None = None
        anywhere: int | None = None
        for c in range(hi, pos, -1):
            if not self.fits(pos, c, reopen):
                continue
            if self.clean(c):
                return self._with_markers(c, c, reopen)
            if whole_cluster is None and self.boundary[c] and not self.hard[c]:
                whole_cluster = c
            if anywhere is None:
                anywhere = c
        chosen = whole_cluster or anywhere
        if chosen is not None:
            return self._with_markers(chosen, chosen, reopen)
        # A limit too small for the fence markers themselves: plain cuts, markers dropped.
        end = min(pos + self.limit, len(self.text))
        return end, end, "", ""

    def _with_markers(self, end: int, nxt: int, reopen: str) -> _Cut:
        return end, nxt, reopen, CLOSE_FENCE if self.fence_at(end) else ""


def split_pieces(text: str, limit: int) -> list[Piece]:
    """Split ``text`` into pieces of at most ``limit`` characters; see the module docstring."""
    limit = max(1, limit)
    if not text:
        return []
    if len(text) <= limit:
        return [Piece(text, 0, len(text))]
    layout = _Layout(text, limit)
    pieces: list[Piece] = []
    pos = 0
    while pos < len(text):
        fence = layout.fence_at(pos) if pos else None
        reopen = fence.opener + "\n" if fence else ""
        if len(reopen) + len(text) - pos <= limit:
            pieces.append(Piece(reopen + text[pos:], pos, len(text), reopen))
            break
        end, nxt, reopen, close = layout.cut(pos, reopen)
        pieces.append(Piece(reopen + text[pos:end] + close, pos, end, reopen, close))
        pos = nxt
    return pieces


def split_text(text: str, limit: int) -> list[str]:
    """Chunks of at most ``limit`` characters; ``[]`` only for ``""``. Never raises."""
    return [piece.text for piece in split_pieces(text, limit)]


def one_line(text: str) -> str:
    """``text`` with every run of whitespace, line breaks included, as one space."""
    return " ".join(text.split())


def truncate(text: str, limit: int, ellipsis: str = "…") -> str:
    """``text`` cut to ``limit`` characters (ellipsis included) between grapheme clusters,
    before a link or inline code span rather than inside it."""
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    if len(ellipsis) >= limit:
        return ellipsis[:limit]
    room = limit - len(ellipsis)
    boundary = grapheme_boundaries(text[: room + 1])
    cut = room
    while cut > 0 and not boundary[cut]:
        cut -= 1
    for start, end in inline_spans(text, find_fences(text)):
        if 0 < start < cut < end:
            cut = start
    return text[:cut].rstrip() + ellipsis

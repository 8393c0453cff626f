"""Markdown structure Discord renders: code blocks, inline code spans and links.

Found as positions in the text, so that cutting (:mod:`bot.render.split`) and rewriting
(:mod:`bot.render.citations`) can keep clear of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = "```"
_LANG = re.compile(r"[A-Za-z0-9_+\-.#]*\n")
_INLINE = re.compile(
    r"``[^`\n]+?``"  # inline code (double backticks)
    r"|`[^`\n]+`"  # inline code
    r"|\[(?:[^\[\]\\\n]|\\.|\[[^\[\]\n]*\])*\]"  # a link's label, one level of nested brackets
    r"\((?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))+)\)"  # ...and its target
)


@dataclass(frozen=True)
class Fence:
    """A closed code block: ``text[start:content_start]`` opens it, ``text[close_start:end]``
    closes it. An unclosed ````` is plain text to Discord, and so here."""

    start: int
    content_start: int
    close_start: int
    end: int
    opener: str  # ``` plus the language tag


def find_fences(text: str) -> list[Fence]:
    """The closed code blocks of ``text``, in order."""
    fences: list[Fence] = []
    i = 0
    while (start := text.find(_FENCE, i)) >= 0:
        lang = _LANG.match(text, start + 3)
        content_start = lang.end() if lang else start + 3
        close = text.find(_FENCE, content_start)
        if close < 0:
            break
        opener = text[start : lang.end() - 1] if lang else _FENCE
        fences.append(Fence(start, content_start, close, close + 3, opener))
        i = close + 3
    return fences


def inline_spans(text: str, fences: list[Fence]) -> list[tuple[int, int]]:
    """Markdown links and inline code spans outside code blocks, as ``(start, end)``."""
    spans: list[tuple[int, int]] = []
    gap_start = 0
    for gap_end, next_start in [*((f.start, f.end) for f in fences), (len(text), len(text))]:
        spans.extend(m.span() for m in _INLINE.finditer(text, gap_start, gap_end))
        gap_start = next_start
    return spans


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Code blocks, inline code and links: where inline markup must not be rewritten."""
    fences = find_fences(text)
    return sorted([(f.start, f.end) for f in fences] + inline_spans(text, fences))

"""Grapheme-cluster boundaries: where text may be cut without splitting what the reader sees.

A subset of UAX #29 that errs on the side of *not* breaking: combining marks, ZWJ sequences,
variation selectors, skin tones, emoji tags, flags (regional indicator pairs), Hangul and CRLF.
"""

from __future__ import annotations

import unicodedata


def _is_extend(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or cp in (0x200C, 0x200D, 0xFF9E, 0xFF9F)
        or 0xFE00 <= cp <= 0xFE0F
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or 0xE0100 <= cp <= 0xE01EF
    )


def _is_ri(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _hangul(ch: str) -> str:
    cp = ord(ch)
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if 0xAC00 <= cp <= 0xD7A3:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    return ""


# Hangul syllables: L x (L|V|LV|LVT), (LV|V) x (V|T), (LVT|T) x T
_HANGUL_JOINS = (
    {("L", x) for x in ("L", "V", "LV", "LVT")}
    | {(a, b) for a in ("LV", "V") for b in ("V", "T")}
    | {("LVT", "T"), ("T", "T")}
)


def _pair_is_boundary(prev: str, cur: str, ri_run: int) -> bool:
    """Whether a cluster may end between ``prev`` and ``cur``; ``ri_run`` counts the regional
    indicators ending with ``prev``."""
    if prev == "\r":
        return cur != "\n"
    if prev == "\n" or cur in "\r\n":
        return True
    if _is_extend(cur) or prev == "\u200d":
        return False
    if _is_ri(prev) and _is_ri(cur):
        return ri_run % 2 == 0
    return (_hangul(prev), _hangul(cur)) not in _HANGUL_JOINS


def grapheme_boundaries(text: str) -> bytearray:
    """``out[i]`` is 1 when cutting ``text`` before index ``i`` keeps every cluster whole."""
    out = bytearray(len(text) + 1)
    out[0] = out[len(text)] = 1
    ri_run = 0
    for i in range(1, len(text)):
        prev = text[i - 1]
        ri_run = ri_run + 1 if _is_ri(prev) else 0
        out[i] = _pair_is_boundary(prev, text[i], ri_run)
    return out

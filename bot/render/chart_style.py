"""How the statistics charts look: size, type, colours, and which text the bundled font can draw.

An opaque dark card, so neither of Discord's themes shows through: text contrast against it is
above 12 (WCAG asks 7 for AAA) and every series colour above 4 (3 for graphics). The series
colours are Okabe–Ito's, told apart with colour-blindness too, and every panel is titled.
"""

from __future__ import annotations

from functools import cache

# 6 × 4 in at 200 dpi is 1200 × 800 px; at 200 dpi an 11 pt glyph is 30 px tall, still about
# 12 px where Discord scales the image down to 400–550 px wide.
DPI = 200
FIGSIZE = (6.0, 4.0)

FAMILY = "DejaVu Sans"  # bundled with matplotlib, so every machine draws the same
TICK_SIZE = 11.0
PANEL_TITLE_SIZE = 12.0
TITLE_SIZE = 13.0
TITLE_MAX = 48  # characters of a title that fit one line at TITLE_SIZE

BACKGROUND = "#1E1F22"
TEXT = "#F2F3F5"
GRID = "#3A3D44"
SPINE = "#6D717A"

SERIES_COLOURS = {
    "catholics": "#56B4E9",  # sky blue
    "priests": "#E69F00",  # orange
    "parishes": "#009E73",  # bluish green
    "baptisms": "#CC79A7",  # reddish purple
}
OTHER_COLOURS = ("#F0E442", "#D55E00")  # yellow, vermillion: any further series
MARKERS = {"catholics": "o", "priests": "s", "parishes": "^", "baptisms": "D"}
LINE_WIDTH = 1.6
MARKER_SIZE = 2.6
LONE_MARKER_SIZE = 5.0  # a year with no neighbour: no line shows it, so a bigger mark


@cache
def _coverage() -> frozenset[int]:
    """Code points that both the regular and the bold face of FAMILY have a glyph for.

    Read once from the fonts' character maps, with FT2Font objects of our own: matplotlib's
    cached ones are per thread, and this set is safe to share.
    """
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    maps = []
    for weight in ("normal", "bold"):
        path = font_manager.findfont(font_manager.FontProperties(family=FAMILY, weight=weight))
        maps.append(set(FT2Font(path).get_charmap()))
    return frozenset(maps[0] & maps[1])


def drawable(text: str) -> bool:
    """Whether FAMILY has a glyph for every character (no tofu, no "Glyph missing" warning)."""
    cover = _coverage()
    return all(ord(ch) in cover for ch in text)


def drawable_part(text: str) -> str:
    """``text`` without the characters FAMILY cannot draw, spaces tidied."""
    cover = _coverage()
    kept = "".join(ch if ord(ch) in cover else " " for ch in text)
    kept = " ".join(kept.split())
    for empty in ("()", "[]", "( )", "[ ]"):
        kept = kept.replace(empty, "")
    kept = " ".join(kept.split()).strip(" -–—·,;:/")
    if kept[:1] == "(" and kept[-1:] == ")" and kept.count("(") == 1:
        kept = kept[1:-1].strip()
    return kept

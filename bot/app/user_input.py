"""Cleaning what people type before it is judged empty, sent upstream or echoed."""

from __future__ import annotations

import unicodedata


def strip_invisible(text: str) -> str:
    """``text`` without invisible format characters (Unicode category Cf: zero-width spaces
    and joiners, direction marks and overrides, soft hyphens, BOM) and surrounding whitespace.

    A question of nothing but these looks empty to a person, so it is empty to the bot too.
    """
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf").strip()

"""Text as a Discord attachment (the pager's "Send as file")."""

from __future__ import annotations

import io
import re

import discord

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SUFFIXES = (".md", ".txt")
_STEM_MAX = 80


def safe_filename(name: str, default: str = "answer") -> str:
    """``name`` reduced to a short, portable file name ending in .md (or .txt)."""
    suffix = next((s for s in _SUFFIXES if name.lower().endswith(s)), ".md")
    stem = name[: -len(suffix)] if name.lower().endswith(suffix) else name
    stem = _UNSAFE.sub("-", stem).strip(".-_")[:_STEM_MAX].strip(".-_")
    return f"{stem or default}{suffix}"


def text_file(name: str, text: str) -> discord.File:
    """``text`` as a UTF-8 attachment named after ``name``."""
    data = io.BytesIO(text.encode("utf-8", errors="replace"))
    return discord.File(data, filename=safe_filename(name))

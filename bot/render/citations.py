"""Numbered sources as markdown, and the inline ``[n]`` markers of an answer linked to them.

Only http(s) URLs ever become links: anything else (``javascript:``, ``data:``, a relative path)
is shown as inert inline code. Titles are escaped so a bracket or parenthesis cannot break the
link around them, and every line stays short enough for a field.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from urllib.parse import urlsplit

from bot.a2a.results import Citation
from bot.i18n import N_, _, ngettext
from bot.render.discord_limits import FIELD_VALUE, LINK_URL
from bot.render.markdown import protected_spans
from bot.render.split import truncate

# Translators: the heading of the list of documents an answer cites.
SOURCES = N_("Sources")
# Translators: the heading of the rest of an answer's sources, in a second field.
SOURCES_CONTINUED = N_("Sources (continued)")
LINE_MAX = 900  # one source's line, well inside a field value

_MARKDOWN = re.compile(r"([\\*_~`|\[\]()<>#])")
# Characters that would end or confuse a markdown link target, percent-encoded.
_URL_ESCAPES = str.maketrans({c: f"%{ord(c):02X}" for c in '()[]<>\\`"^{}|'})
_MARKER = re.compile(r"(?<!\\)\[(\d{1,4})\](?!\()")


def _more_template(count: int) -> str:
    # Translators: ends a list cut short; {count} is how many of its lines are not shown.
    return ngettext("+{count} more", "+{count} more", count)


def more_lines(count: int) -> str:
    """``+3 more``: the lines of a list left out for want of room."""
    return _more_template(count).format(count=count)


def _more_reserve() -> int:
    """Room for a newline and the longest "+k more" (any plural form, k up to 10000)."""
    return 1 + max(len(_more_template(n).format(count=10000)) for n in (1, 2, 5, 22, 10000))


def escape(text: str) -> str:
    """``text`` on one line with every markdown character escaped."""
    return _MARKDOWN.sub(r"\\\1", " ".join(text.split()))


def safe_url(url: str | None) -> str | None:
    """``url`` ready for a markdown link target, or None when it must not be a link."""
    if not url:
        return None
    url = url.strip()
    if not _without_space_or_controls(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    url = url.translate(_URL_ESCAPES)
    return url if len(url) <= LINK_URL else None


def _without_space_or_controls(url: str) -> bool:
    """No whitespace, control or format character (Cc, Cf) in ``url``. ASCII, the usual case,
    is checked in C: its only such characters are the space and the unprintable ones."""
    if url.isascii():
        return url.isprintable() and " " not in url
    return not any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") for ch in url)


def citation_number(citation: Citation, position: int) -> int:
    """The citation's one-based number; its position in the list when it has none."""
    if citation.number is not None and citation.number > 0:
        return citation.number
    return position + 1


def _label(citation: Citation) -> tuple[str | None, str | None]:
    """The name to show and which field it came from."""
    for field in ("title", "heading", "reference", "excerpt"):
        value = getattr(citation, field)
        if value and value.strip():
            return value, field
    if citation.extra:
        return "; ".join(f"{k}: {v}" for k, v in citation.extra.items()), "extra"
    return None, None


def _meta(citation: Citation, used: str | None) -> list[str]:
    values = [getattr(citation, f) for f in ("heading", "author", "year", "reference") if f != used]
    return [v.strip() for v in values if v and v.strip()]


def _line(
    number: int, label: str, meta: list[str], *, url: str | None, raw_url: str | None, room: int
) -> str:
    name = escape(truncate(label, room))
    head = f"[{number}] " + (f"[{name}]({url})" if url else name)
    if meta:
        head += " — " + escape(truncate(", ".join(meta), room))
    if raw_url and not url:
        shown = truncate(" ".join(raw_url.replace("`", "").split()), 100)
        head += f" · `{shown}`" if shown else ""
    return head


def format_citation(citation: Citation, *, position: int) -> str:
    """One source as ``[n] [Title](url) — author, year, reference``, at most LINE_MAX long."""
    number = citation_number(citation, position)
    label, used = _label(citation)
    url = safe_url(citation.url)
    if label is None:
        # Translators: the name of a cited source that has no title.
        label = _("Source")
    meta = _meta(citation, used)
    line = _line(number, label, meta, url=url, raw_url=citation.url, room=200)
    if len(line) > LINE_MAX:
        line = _line(number, label, meta, url=url, raw_url=citation.url, room=80)
    return line if len(line) <= LINE_MAX else truncate(line, LINE_MAX)


def source_lines(citations: Sequence[Citation]) -> list[str]:
    return [format_citation(c, position=i) for i, c in enumerate(citations)]


def sources_markdown(citations: Sequence[Citation]) -> str:
    """Every source, one per line: for the full-text file, where nothing is cut."""
    return "\n".join(source_lines(citations))


def _field_name(index: int) -> str:
    return _(SOURCES) if index == 0 else _(SOURCES_CONTINUED)


def _fits(groups: list[list[str]], reserve: int, budget: int) -> bool:
    values = ["\n".join(group) for group in groups]
    if len(values[-1]) + reserve > FIELD_VALUE:
        return False
    spent = sum(len(_field_name(i)) + len(v) for i, v in enumerate(values))
    return spent + reserve <= budget


def sources_fields(
    citations: Sequence[Citation], *, budget: int | None = None, max_fields: int = 3
) -> list[tuple[str, str]]:
    """``(name, value)`` fields listing the sources: each value within a field's limit, names
    and values together within ``budget`` characters (one full field by default), and
    "+k more" when not all fit."""
    if budget is None:
        budget = FIELD_VALUE + len(_field_name(0))
    lines = source_lines(citations)
    more_reserve = _more_reserve()
    groups: list[list[str]] = [[]]
    for i, line in enumerate(lines):
        reserve = 0 if i == len(lines) - 1 else more_reserve
        if _fits([*groups[:-1], [*groups[-1], line]], reserve, budget):
            groups[-1].append(line)
        elif groups[-1] and len(groups) < max_fields and _fits([*groups, [line]], reserve, budget):
            groups.append([line])
        else:
            groups[-1].append(more_lines(len(lines) - i))
            break
    fields = [(_field_name(i), "\n".join(g)) for i, g in enumerate(groups) if g]
    if sum(len(n) + len(v) for n, v in fields) > budget:
        return []  # a budget too small for even "+k more"
    return fields


def link_inline_markers(text: str, citations: Sequence[Citation]) -> str:
    """Turn inline ``[n]`` markers into links to citation n's URL.

    Markers without a citation, or whose citation has no http(s) URL, stay as they are; so do
    markers in code, in links, or escaped.
    """
    urls: dict[int, str] = {}
    for position, citation in enumerate(citations):
        url = safe_url(citation.url)
        if url:
            urls.setdefault(citation_number(citation, position), url)
    if not urls or "[" not in text:
        return text
    spans = protected_spans(text)
    starts = [start for start, _end in spans]

    def link(match: re.Match[str]) -> str:
        k = bisect.bisect_right(starts, match.start()) - 1
        if k >= 0 and match.start() < spans[k][1]:
            return match.group(0)
        url = urls.get(int(match.group(1)))
        return f"[\\[{match.group(1)}\\]]({url})" if url else match.group(0)

    return _MARKER.sub(link, text)

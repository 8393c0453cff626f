"""An answer's cited documents: the "Read a source…" menu and the passage one of them gives.

Citations are grouped by document (same title, else same URL), so a document cited three
times is one menu entry, and choosing it shows every passage the answer took from it.
Passages are upstream text shown as written (mentions are made harmless by the client's
``AllowedMentions.none()``); headings and metadata are escaped onto one line.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.a2a.results import Citation
from bot.i18n import N_, _
from bot.render.citations import citation_number, escape, safe_url
from bot.render.discord_limits import (
    EMBED_DESCRIPTION,
    SELECT_OPTION_DESCRIPTION,
    SELECT_OPTION_LABEL,
    SELECT_OPTIONS,
)
from bot.render.embeds import QA_SKILL, fit_embed, footer
from bot.render.look import BRAND
from bot.render.split import split_text, truncate

# Translators: the placeholder of a menu under an answer listing the documents it cites
# (at most 150 characters).
READ_A_SOURCE = N_("Read a source…")
# Translators: a passage cited without its text (the answer names the document only).
NO_PASSAGE = N_("The answer cites this document without quoting a passage.")
_FIELD_ROOM = 200  # author, year and reference: short, and well inside a field value


def _normalised(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def document_key(citation: Citation, position: int) -> str:
    """What tells two citations of the same document apart from others."""
    if title := _normalised(citation.title):
        return f"title:{title}"
    if url := (citation.url or "").strip():
        return f"url:{url}"
    return f"position:{position}"


def cited_documents(citations: Sequence[Citation]) -> list[list[int]]:
    """The positions of ``citations`` grouped by document, in order of first citation."""
    groups: dict[str, list[int]] = {}
    for position, citation in enumerate(citations):
        groups.setdefault(document_key(citation, position), []).append(position)
    return list(groups.values())


def same_document(citations: Sequence[Citation], position: int) -> list[Citation]:
    """Every citation of the document cited at ``position`` (empty when out of range)."""
    if not 0 <= position < len(citations):
        return []
    key = document_key(citations[position], position)
    return [c for i, c in enumerate(citations) if document_key(c, i) == key]


def _title(citation: Citation) -> str:
    return " ".join((citation.title or citation.reference or "").split()) or _("Source")


def _about(citation: Citation) -> str:
    parts = (citation.author, citation.year)
    return " · ".join(" ".join(p.split()) for p in parts if p and p.strip())


def source_options(citations: Sequence[Citation]) -> list[discord.SelectOption]:
    """One option per cited document (at most 25), valued by its first citation's position."""
    options = []
    for positions in cited_documents(citations)[:SELECT_OPTIONS]:
        first = citations[positions[0]]
        label = f"[{citation_number(first, positions[0])}] {_title(first)}"
        about = _about(first)
        options.append(
            discord.SelectOption(
                label=truncate(label, SELECT_OPTION_LABEL),
                value=str(positions[0]),
                description=truncate(about, SELECT_OPTION_DESCRIPTION) if about else None,
            )
        )
    return options


def _passage(citation: Citation, position: int) -> str:
    heading = escape(truncate(citation.heading, 300)) if citation.heading else ""
    head = f"**[{citation_number(citation, position)}]** " + (f"**{heading}**" if heading else "")
    text = (citation.excerpt or "").strip()
    if not text:
        return f"{head}\n*{_(NO_PASSAGE)}*"
    return (
        head + "\n" + "\n".join(f"> {line}" if line.strip() else ">" for line in text.split("\n"))
    )


def passages_text(citations: Sequence[Citation], positions: Sequence[int]) -> str:
    """Each passage under its heading, quoted."""
    return "\n\n".join(_passage(c, p) for c, p in zip(citations, positions, strict=True))


def _add_metadata(embed: discord.Embed, citation: Citation, note: str | None) -> None:
    fields = (
        # Translators: a field name: who wrote a cited document.
        (_("Author"), citation.author),
        # Translators: a field name: the year of a cited document.
        (_("Year"), citation.year),
        # Translators: a field name: where in the document the passage is (a paragraph number).
        (_("Reference"), citation.reference),
    )
    for name, value in fields:
        if value and value.strip():
            embed.add_field(name=name, value=escape(truncate(value, _FIELD_ROOM)), inline=True)
    url = safe_url(citation.url)
    if url:
        # Translators: a field name: the web address of a cited document.
        embed.add_field(name=_("Link"), value=url, inline=False)
    if note:
        # Translators: a field name: whether the cited document's whole text can be read here.
        embed.add_field(name=_("Full text"), value=note, inline=False)


def passage_pages(
    citations: Sequence[Citation],
    positions: Sequence[int],
    *,
    task_id: str | None,
    note: str | None = None,
) -> list[discord.Embed]:
    """The passages one document gives (``citations``, cited at ``positions``): titled and
    linked like the document, its author, year and reference on the first page."""
    first = citations[0]
    title = _title(first)
    chunks = split_text(passages_text(citations, positions), EMBED_DESCRIPTION - 200)
    pages = []
    for number, chunk in enumerate(chunks, start=1):
        embed = discord.Embed(title=title, url=safe_url(first.url), description=chunk, colour=BRAND)
        if number == 1:
            _add_metadata(embed, first, note)
        embed.set_footer(text=footer(QA_SKILL, task_id, number, len(chunks)))
        pages.append(fit_embed(embed))
    return pages


def passages_markdown(citations: Sequence[Citation], positions: Sequence[int]) -> str:
    """The passages for the "Send as file" copy, above the document's text."""
    first = citations[0]
    lines = [f"# {_title(first)}"]
    meta = ", ".join(
        " ".join(v.split()) for v in (first.author, first.year, first.reference) if v and v.strip()
    )
    if meta:
        lines.append(f"*{meta}*")
    if first.url and first.url.strip():
        lines.append(first.url.strip())
    lines.append(passages_text(citations, positions))
    return "\n\n".join(lines) + "\n"

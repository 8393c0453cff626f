"""Embeds for every skill's result: pages that each fit in one message, whatever the input.

Texts are paged with :func:`~bot.render.split.split_text`, never cut; titles, names and footers
are truncated. :func:`fit_embed` is the last line of defence every builder passes through.
Mentions are left as written: the client's ``AllowedMentions.none()`` makes them harmless, and
theology text is not to be rewritten.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.a2a.results import Answer, Citation, Document, SearchResults
from bot.i18n import N_, _
from bot.render.citations import (
    SOURCES,
    escape,
    link_inline_markers,
    more_lines,
    safe_url,
    sources_fields,
    sources_markdown,
)
from bot.render.discord_limits import (
    EMBED_AUTHOR,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_FOOTER,
    EMBED_TITLE,
    EMBEDS_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    embed_size,
)
from bot.render.look import BRAND, NOTICE, footer_text
from bot.render.split import split_text, truncate

QA_SKILL = "catholic_qa"
SEARCH_SKILL = "document_search"
FETCH_SKILL = "document_fetch"

EMPTY_ANSWER = N_("The answer came back empty.")
EMPTY_DOCUMENT = N_("This document has no text.")
NO_RESULTS = N_("No documents matched.")
BLANK = "\u200b"  # Discord refuses empty field names and values

_ID_ROOM = 100  # task ids and skill names are short; cap them so footers stay small


def footer(skill: str | None, task_id: str | None, page: int = 1, pages: int = 1) -> str:
    text = footer_text(
        truncate(skill, _ID_ROOM) if skill else None,
        truncate(task_id, _ID_ROOM) if task_id else None,
    )
    if pages > 1:
        # Translators: the last part of an embed footer ("Magisterium AI · skill · page 2/5").
        text += " · " + _("page {page}/{pages}").format(page=page, pages=pages)
    return truncate(text, EMBED_FOOTER)


def _fit_fields(embed: discord.Embed) -> None:
    fields = [(f.name or "", f.value or "", bool(f.inline)) for f in embed.fields]
    embed.clear_fields()
    for name, value, inline in fields[:EMBED_FIELDS]:
        embed.add_field(
            name=truncate(name, FIELD_NAME) if name.strip() else BLANK,
            value=truncate(value, FIELD_VALUE) if value.strip() else BLANK,
            inline=inline,
        )


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` with every limit enforced (in place): lengths, 25 fields, 6000 in total."""
    if embed.title is not None:
        embed.title = truncate(embed.title, EMBED_TITLE) if embed.title.strip() else None
    if embed.description is not None:
        text = embed.description
        embed.description = truncate(text, EMBED_DESCRIPTION) if text.strip() else None
    if embed.footer.text:
        embed.set_footer(
            text=truncate(embed.footer.text, EMBED_FOOTER), icon_url=embed.footer.icon_url
        )
    if embed.author.name:
        a = embed.author
        embed.set_author(name=truncate(a.name or "", EMBED_AUTHOR), url=a.url, icon_url=a.icon_url)
    _fit_fields(embed)
    while embed_size(embed) > EMBEDS_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    excess = embed_size(embed) - EMBEDS_TOTAL
    if excess > 0 and embed.description:
        embed.description = truncate(embed.description, len(embed.description) - excess)
    if embed_size(embed) == 0 and not embed.image.url and not embed.thumbnail.url:
        embed.description = BLANK  # Discord refuses an empty embed
    return embed


def _pages(
    title: str | None,
    text: str,
    *,
    skill: str,
    task_id: str | None,
    author: str | None = None,
) -> list[discord.Embed]:
    chunks = split_text(text, EMBED_DESCRIPTION) or [BLANK]
    pages = []
    for number, chunk in enumerate(chunks, start=1):
        embed = discord.Embed(title=title or None, description=chunk, colour=BRAND)
        if author and author.strip():
            embed.set_author(name=author)
        embed.set_footer(text=footer(skill, task_id, number, len(chunks)))
        pages.append(fit_embed(embed))
    return pages


def _add_sources(page: discord.Embed, citations: Sequence[Citation]) -> None:
    room = EMBED_FIELDS - len(page.fields)
    budget = EMBEDS_TOTAL - embed_size(page)
    for name, value in sources_fields(citations, budget=budget, max_fields=min(3, room)):
        page.add_field(name=name, value=value, inline=False)
    fit_embed(page)


def answer_pages(answer: Answer, *, title: str | None = None) -> list[discord.Embed]:
    """The answer in pages of one embed each; its sources listed on the last page."""
    text = answer.text if answer.text.strip() else _(EMPTY_ANSWER)
    text = link_inline_markers(text, answer.citations)
    pages = _pages(title, text, skill=QA_SKILL, task_id=answer.task_id)
    if answer.citations:
        _add_sources(pages[-1], answer.citations)
    return pages


def answer_markdown(answer: Answer, *, title: str | None = None) -> str:
    """The whole answer with every source, for the "Send as file" attachment."""
    parts = [f"# {' '.join(title.split())}"] if title and title.strip() else []
    parts.append(link_inline_markers(answer.text, answer.citations).strip() or _(EMPTY_ANSWER))
    if answer.citations:
        parts.append(f"## {_(SOURCES)}\n\n{sources_markdown(answer.citations)}")
    return "\n\n".join(parts) + "\n"


def untitled_document(doc_id: str) -> str:
    """The title of a document that has none."""
    # Translators: the title of a Church document that has none; {doc_id} is its id.
    return _("Document {doc_id}").format(doc_id=doc_id)


def document_pages(doc: Document) -> list[discord.Embed]:
    title = doc.title if doc.title and doc.title.strip() else untitled_document(doc.id)
    byline = " · ".join(p for p in (doc.author, doc.ref) if p and p.strip())
    text = doc.text if doc.text.strip() else _(EMPTY_DOCUMENT)
    return _pages(title, text, skill=FETCH_SKILL, task_id=doc.task_id, author=byline)


def text_pages(
    title: str | None, text: str, skill: str, *, task_id: str | None = None
) -> list[discord.Embed]:
    """Plain text results (readings, martyrology) in pages."""
    return _pages(title, text if text.strip() else BLANK, skill=skill, task_id=task_id)


def _within(lines: list[str], limit: int) -> str:
    """As many whole lines as fit in ``limit``, then "+k more"."""
    kept: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        more = more_lines(len(lines) - i - 1) if i < len(lines) - 1 else ""
        if size + len(line) + 1 + len(more) + 1 > limit:
            kept.append(more_lines(len(lines) - i))
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def search_results_embed(results: SearchResults) -> discord.Embed:
    """A numbered list of the documents found, linked when they have an http(s) URL."""
    lines = []
    for number, hit in enumerate(results.hits, start=1):
        name = escape(truncate(hit.title, 200)) or BLANK
        url = safe_url(hit.url)
        shown = f"[{name}]({url})" if url else name
        doc_id = truncate(" ".join(hit.id.replace("`", "").split()), 60)
        # Translators: after a search result's title; {doc_id} is the id to give /document.
        about = _("id `{doc_id}`").format(doc_id=doc_id)
        lines.append(f"{number}. {shown} · {about}" if doc_id else f"{number}. {shown}")
    query = " ".join(results.query.split())
    # Translators: the title of /search's results; {query} is what the person searched for.
    title = _("Documents for “{query}”").format(query=query) if query else _("Documents")
    embed = discord.Embed(
        title=title,
        description=_within(lines, EMBED_DESCRIPTION) if lines else _(NO_RESULTS),
        colour=BRAND,
    )
    embed.set_footer(text=footer(SEARCH_SKILL, results.task_id))
    return fit_embed(embed)


def notice_embed(title: str, text: str, *, colour: discord.Colour = NOTICE) -> discord.Embed:
    """A short message to the user (nothing found, try again later, ...)."""
    embed = discord.Embed(title=title or None, description=text or None, colour=colour)
    return fit_embed(embed)

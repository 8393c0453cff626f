"""Showing one Magisterium document: used by ``/document`` and by the ``/search`` select.

Input from people (queries, ids) is cleaned here, and anything echoed back is made inert.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import discord

from bot.a2a.results import Document, NotFound
from bot.a2a.skills import DOCUMENT_FETCH
from bot.app.respond import send_private
from bot.app.user_input import strip_invisible
from bot.i18n import N_, _
from bot.render.embeds import EMPTY_DOCUMENT, document_pages, notice_embed, untitled_document
from bot.render.pager import Paginator
from bot.render.split import truncate
from bot.services.origin import Origin

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

ECHO_MAX = 60
NOT_FOUND_TITLE = N_("Document not found")


def clean_input(text: str) -> str:
    """``text`` without invisible format characters or surrounding whitespace; control
    characters become spaces (a query or an id is one line)."""
    return strip_invisible("".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text))


def echo(text: str, limit: int = ECHO_MAX) -> str:
    """``text`` made safe to show inside inline code: one line, no backticks, short."""
    flat = " ".join(clean_input(text).replace("`", "'").split())
    return truncate(flat, limit) if flat else "?"


def not_found_embed(doc_id: str) -> discord.Embed:
    return notice_embed(
        _(NOT_FOUND_TITLE),
        # Translators: {doc_id} is the id the person gave; `/search` is a slash command.
        _("No document with id `{doc_id}` exists; find ids with `/search`.").format(
            doc_id=echo(doc_id)
        ),
    )


def document_markdown(doc: Document) -> str:
    """The whole document for the pager's "Send as file": title, byline, then the text."""
    title = " ".join((doc.title or "").split()) or untitled_document(doc.id)
    byline = " · ".join(" ".join(p.split()) for p in (doc.author, doc.ref) if p and p.strip())
    parts = [f"# {title}"]
    if byline:
        parts.append(f"*{byline}*")
    parts.append(doc.text.strip() or _(EMPTY_DOCUMENT))
    return "\n\n".join(parts) + "\n"


async def show_document(
    interaction: discord.Interaction[MagisteriumBot], doc_id: str, *, ephemeral: bool
) -> None:
    """Fetch ``doc_id`` as the interaction's user and send it paged (after a defer).

    Not found is told privately; upstream errors propagate to the caller's error path.
    """
    service = interaction.client.services.magisterium
    result = await service.call(Origin.of(interaction), DOCUMENT_FETCH, doc_id)
    if isinstance(result, NotFound):
        await send_private(interaction, embed=not_found_embed(doc_id))
        return
    pager = Paginator(
        document_pages(result),
        author_id=interaction.user.id,
        full_text=document_markdown(result),
        filename=f"document-{result.id}.md",
    )
    await pager.send(interaction, ephemeral=ephemeral)

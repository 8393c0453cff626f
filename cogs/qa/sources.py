"""The "Read a source…" menu under an answer: shows, privately, what the answer cites.

Anyone who sees the answer may use it (a public answer's readers too); each person is answered
privately and fetches as themselves. The menu's custom_id carries the answer's task id and each
option's value the position of the document's first citation, so it works after a restart:
the citations come from the QA cog's memory of recent answers, else from the answer read back
with ``tasks/get`` as the person who chose (tasks are kept 24 hours, per token: when that
fails, a friendly "ask again").

The full text is fetched with ``document_fetch`` when the citation carries a document id, else
when ``document_search`` on the cited title finds a document of exactly that title (or URL).
Otherwise, or when Magisterium cannot be reached, the passage is shown alone with a note.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.a2a import errors
from bot.a2a.results import Answer, Citation, Document, NotFound
from bot.a2a.skills import DOCUMENT_FETCH, DOCUMENT_SEARCH
from bot.app.respond import defer
from bot.i18n import N_, _
from bot.render.discord_limits import CUSTOM_ID
from bot.render.embeds import document_pages
from bot.render.pager import Paginator
from bot.render.passages import (
    READ_A_SOURCE,
    cited_documents,
    passage_pages,
    passages_markdown,
    source_options,
)
from bot.render.views import ReportedDynamicItem
from bot.services.origin import Origin
from bot.services.user_errors import UserFacingError, message_for
from cogs._shared.document_view import document_markdown
from cogs.qa.answers import SOURCE_ROW, VIEW_TIMEOUT
from cogs.qa.memory import CitationMemory, recent_answers

if TYPE_CHECKING:
    from typing import Self

    from bot.app import MagisteriumBot
    from bot.services.magisterium import MagisteriumService

log = logging.getLogger(__name__)

SOURCE_PREFIX = "qa:src"
SOURCE_TEMPLATE = rf"{SOURCE_PREFIX}:(?P<task>[A-Za-z0-9_.\-]{{1,90}})"
# A citation field naming the document, if Magisterium sends one (unknown keys land in
# ``Citation.extra``); the documented citation fields have none.
DOCUMENT_ID_KEYS = ("document_id", "doc_id")
EXPIRED_TITLE = N_("This answer has expired")
EXPIRED_TEXT = N_("Its sources can no longer be read here; ask the question again with `/ask`.")
NOT_FETCHABLE = N_(
    "Magisterium cannot show this document's full text here; the link opens it on the web."
)
NOT_FETCHED = N_("The full text could not be loaded just now. {reason}")

_Select = discord.ui.Select[discord.ui.View]


def source_custom_id(task_id: str | None) -> str | None:
    """The menu's custom_id, or None when there is no task id (or it does not fit)."""
    if not task_id:
        return None
    custom_id = f"{SOURCE_PREFIX}:{task_id}"
    if len(custom_id) > CUSTOM_ID or re.fullmatch(SOURCE_TEMPLATE, custom_id) is None:
        return None
    return custom_id


class SourceSelect(ReportedDynamicItem[_Select], template=SOURCE_TEMPLATE):
    def __init__(
        self, task_id: str, options: list[discord.SelectOption], *, row: int | None = SOURCE_ROW
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{SOURCE_PREFIX}:{task_id}",
                placeholder=_(READ_A_SOURCE),
                options=options,
                row=row,
            )
        )
        self.task_id = task_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        options = list(item.options) if isinstance(item, discord.ui.Select) else []
        return cls(match["task"], options or [discord.SelectOption(label="?", value="0")])

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        await read_source(interaction, self.task_id, self.item.values)


class ShownSourceSelect(discord.ui.Select[discord.ui.View]):
    """The menu as it appears on a plain message (a shared answer); the registered
    :class:`SourceSelect` answers it. Not dispatchable, so discord.py stores no view for the
    message, and none that could drop the DynamicItem class when it stops."""

    def is_dispatchable(self) -> bool:
        return False


def source_select(answer: Answer, citations: CitationMemory) -> SourceSelect | None:
    """The menu for ``answer`` (its citations remembered in ``citations``), or None when it
    cites nothing."""
    if not answer.citations or (custom_id := source_custom_id(answer.task_id)) is None:
        return None
    task_id = custom_id.removeprefix(f"{SOURCE_PREFIX}:")
    citations.remember(task_id, answer.citations)
    return SourceSelect(task_id, source_options(answer.citations))


def shown_source_view(select: SourceSelect) -> discord.ui.View:
    """A view holding a non-dispatchable copy of ``select``, for a plain message."""
    view = discord.ui.View(timeout=None)
    shown = ShownSourceSelect(
        custom_id=select.item.custom_id,
        placeholder=select.item.placeholder,
        options=list(select.item.options),
    )
    view.add_item(shown)
    return view


# --- answering a choice ---------------------------------------------------------------------


async def _citations(
    interaction: discord.Interaction[MagisteriumBot], task_id: str
) -> list[Citation]:
    memory = recent_answers(interaction.client).citations
    known = memory.get(task_id)
    if known is not None:
        return known
    service = interaction.client.services.magisterium
    try:
        answer = await service.earlier_answer(Origin.of(interaction), task_id)
    except errors.TaskNotFound:
        raise UserFacingError(_(EXPIRED_TITLE), _(EXPIRED_TEXT)) from None
    citations = answer.citations
    memory.remember(task_id, citations)
    return citations


def _chosen_document(citations: list[Citation], values: list[str]) -> list[int]:
    """The positions of every citation of the chosen document; UserFacingError when the choice
    matches nothing (an answer that changed since, or a forged value)."""
    value = values[0] if values else ""
    position = int(value) if value.isdigit() else -1
    for positions in cited_documents(citations):
        if position in positions:
            return positions
    raise UserFacingError(_(EXPIRED_TITLE), _(EXPIRED_TEXT))


def _same(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


async def _find_document(
    service: MagisteriumService, origin: Origin, citation: Citation
) -> Document | None:
    """The cited document's full text, or None when Magisterium has none that matches."""
    doc_id = next((citation.extra[k] for k in DOCUMENT_ID_KEYS if citation.extra.get(k)), None)
    if doc_id is None and citation.title:
        found = await service.call(origin, DOCUMENT_SEARCH, citation.title)
        hit = next(
            (h for h in found.hits if _same(h.title, citation.title) or _same(h.url, citation.url)),
            None,
        )
        doc_id = hit.id if hit is not None else None
    if doc_id is None:
        return None
    fetched = await service.call(origin, DOCUMENT_FETCH, doc_id)
    return None if isinstance(fetched, NotFound) else fetched


async def _document_or_note(
    interaction: discord.Interaction[MagisteriumBot], citation: Citation
) -> tuple[Document | None, str | None]:
    """The document, or None and the note saying why only the passage is shown."""
    try:
        service = interaction.client.services.magisterium
        doc = await _find_document(service, Origin.of(interaction), citation)
    except Exception as error:  # a known failure costs the full text, never the passage
        message = message_for(error)
        if message is None:
            raise
        log.log(
            logging.ERROR if message.operator_alert else logging.INFO,
            "source text not fetched: %s",
            type(error).__name__,
        )
        return None, _(NOT_FETCHED).format(reason=message.text)
    return (doc, None) if doc is not None else (None, _(NOT_FETCHABLE))


async def read_source(
    interaction: discord.Interaction[MagisteriumBot], task_id: str, values: list[str]
) -> None:
    """Show the chosen document's passages privately, then its full text paged if fetchable."""
    await defer(interaction, ephemeral=True)  # within 3 s, before any upstream call
    citations = await _citations(interaction, task_id)
    positions = _chosen_document(citations, values)
    cited = [citations[p] for p in positions]
    doc, note = await _document_or_note(interaction, cited[0])
    pages = passage_pages(cited, positions, task_id=task_id, note=note)
    full_text = passages_markdown(cited, positions)
    filename = "source.md"
    if doc is not None:
        pages += document_pages(doc)
        full_text += "\n" + document_markdown(doc)
        filename = f"document-{doc.id}.md"
    pager = Paginator(
        pages,
        author_id=interaction.user.id,
        full_text=full_text,
        filename=filename,
        timeout=VIEW_TIMEOUT,
    )
    await pager.send(interaction, ephemeral=True)

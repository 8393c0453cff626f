"""The select under search results: choosing one opens it privately for whoever chose.

A DynamicItem: its custom_id is fixed and the document id travels as the option's value, so a
select on a message sent before a restart still works.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

import discord

from bot.a2a.results import SearchHit
from bot.app.respond import defer
from bot.i18n import N_, _
from bot.render.discord_limits import SELECT_OPTION_DESCRIPTION, SELECT_OPTION_LABEL, SELECT_OPTIONS
from bot.render.discord_limits import SELECT_OPTION_VALUE as VALUE_MAX
from bot.render.split import truncate
from bot.render.views import BaseView, ReportedDynamicItem
from cogs._shared.document_view import clean_input, show_document

if TYPE_CHECKING:
    import re

    from bot.app import MagisteriumBot


CUSTOM_ID = "search:open"
# Translators: the placeholder of the menu under /search's results.
PLACEHOLDER = N_("Open a result…")

_Select = discord.ui.Select[Any]


def _one_line(text: str) -> str:
    return " ".join(clean_input(text).split())


def source_name(url: str | None) -> str | None:
    """The site an http(s) ``url`` is on, as a person reads it (``vatican.va``), or None when
    there is none that fits an option's description whole."""
    try:
        parts = urlsplit((url or "").strip())
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not host:
        return None
    with contextlib.suppress(UnicodeError):
        host = host.encode("ascii").decode("idna")  # xn--… as its letters
    host = host.removeprefix("www.")
    readable = host.isprintable() and not any(ch.isspace() for ch in host)
    return host if readable and 0 < len(host) <= SELECT_OPTION_DESCRIPTION else None


def result_options(hits: Sequence[SearchHit]) -> list[discord.SelectOption]:
    """One option per hit with a usable id (at most 25), numbered like the results list."""
    options: list[discord.SelectOption] = []
    seen: set[str] = set()
    for number, hit in enumerate(hits, start=1):
        doc_id = clean_input(hit.id)
        if not doc_id or len(doc_id) > VALUE_MAX or doc_id in seen:
            continue
        seen.add(doc_id)
        label = truncate(f"{number}. {_one_line(hit.title) or doc_id}", SELECT_OPTION_LABEL)
        # Translators: a search result's description in a menu; {doc_id} is the document's id.
        about = source_name(hit.url) or _("id {doc_id}").format(doc_id=doc_id)
        options.append(
            discord.SelectOption(
                label=label, value=doc_id, description=truncate(about, SELECT_OPTION_DESCRIPTION)
            )
        )
        if len(options) == SELECT_OPTIONS:
            break
    return options


class OpenResultSelect(ReportedDynamicItem[_Select], template=CUSTOM_ID):
    def __init__(self, options: list[discord.SelectOption]) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=CUSTOM_ID, placeholder=_(PLACEHOLDER), options=options, max_values=1
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(list(item.options) if isinstance(item, discord.ui.Select) else [])

    async def respond(self, interaction: discord.Interaction[MagisteriumBot]) -> None:
        values = [clean_input(v) for v in self.item.values]
        await defer(interaction, ephemeral=True)
        if values and values[0]:
            await show_document(interaction, values[0], ephemeral=True)


def results_view(hits: Sequence[SearchHit]) -> BaseView | None:
    """A view holding the result select, or None when no hit can be opened."""
    options = result_options(hits)
    if not options:
        return None
    view = BaseView(timeout=None)
    view.add_item(OpenResultSelect(options))
    return view

"""The lookup components as shown: menus that open profiles, the "Statistics" button.

They are plain items that no view dispatches; the DynamicItems of :mod:`cogs._lookups.items`
answer them from the custom id and the chosen value alone. So they work on any message — a
daily post, one sent before a restart — and a view timing out never unregisters them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.a2a.lookups import Candidate, LookupKind, Profile, ProfileLink
from bot.i18n import N_, _
from bot.render.discord_limits import SELECT_OPTION_DESCRIPTION, SELECT_OPTION_LABEL, SELECT_OPTIONS
from bot.render.profile_labels import SEPARATOR, field_name
from bot.render.profiles import KIND_WORDS, LINK_ROLES
from bot.render.split import one_line, truncate
from cogs._lookups.refs import LookupRef

OPEN_ID = "lookup:open"
PICK_PREFIX = "lookup:pick:"  # + the id of the person who ran the command
STATS_PREFIX = "lookup:stats:"  # + an encoded diocese ref
ROLE = "{role}"  # where a link's fact goes in its description (LINK_ROLES)
# Translators: the placeholder of a menu of the people and dioceses a profile names.
OPEN_RELATED = N_("Open a related profile…")
# Translators: the placeholder of a menu of the saints of the day (Roman Martyrology).
OPEN_SAINT = N_("Open a saint's profile…")
# Translators: the placeholder of a menu of the profiles matching a name.
CHOOSE = N_("Choose one…")
# Translators: a button label under a diocese's profile: its yearly numbers as a chart.
STATISTICS = N_("Statistics")


class ShownSelect(discord.ui.Select[Any]):
    """A select as it appears on a message; :class:`LookupSelect` answers it."""

    def is_dispatchable(self) -> bool:
        return False


class ShownButton(discord.ui.Button[Any]):
    def is_dispatchable(self) -> bool:
        return False


def _option(ref: LookupRef, label: str, description: str | None) -> discord.SelectOption | None:
    value = ref.encode()
    if value is None or not one_line(label):
        return None
    about = truncate(one_line(description), SELECT_OPTION_DESCRIPTION) if description else None
    return discord.SelectOption(
        label=truncate(one_line(label), SELECT_OPTION_LABEL), value=value, description=about
    )


def _unique(options: Sequence[discord.SelectOption | None]) -> list[discord.SelectOption]:
    seen: set[str] = set()
    kept = []
    for option in options:
        if option is not None and option.value not in seen:
            seen.add(option.value)
            kept.append(option)
    return kept[:SELECT_OPTIONS]


def _says(text: str, piece: str) -> bool:
    """``text`` has a word starting with ``piece`` (``Dioceses`` says ``diocese``, ``Maronite``
    does not say ``rite``), whatever the case."""
    pattern = r"(?<!\w)" + re.escape(piece.strip().casefold())
    return bool(piece.strip()) and re.search(pattern, text.casefold()) is not None


def _description_pieces(link: ProfileLink) -> list[str]:
    """The fact the link came from, part by part, and the word for what it opens, in the
    order the catalogue's message puts them."""
    if not link.role:
        return [_(KIND_WORDS[link.kind])]
    template = _(LINK_ROLES[link.kind])
    role = field_name(link.role)
    template_parts = template.split(SEPARATOR)
    if ROLE not in template_parts:  # a translation that does not list the parts
        return [template.format(role=role)]
    pieces: list[str] = []
    for part in template_parts:
        pieces.extend(role.split(SEPARATOR) if part == ROLE else [part])
    return pieces


def link_description(link: ProfileLink) -> str | None:
    """Where a related profile came from and what it is, each piece said once: none the link's
    name already says (``Pope Gregory XV`` needs no ``pope``), none twice."""
    kept: list[str] = []
    for piece in _description_pieces(link):
        if not any(_says(said, piece) for said in (link.name, *kept)):
            kept.append(piece)
    return SEPARATOR.join(kept) or None


def _link_option(link: ProfileLink) -> discord.SelectOption | None:
    return _option(LookupRef(link.kind, link.id, link.name), link.name, link_description(link))


def related_select(profile: Profile, *, row: int) -> ShownSelect | None:
    """Every other profile this one names, or None when it names none."""
    links = [
        link
        for link in profile.links
        if not (link.id and link.id == profile.id and link.kind is profile.kind)
    ]
    options = _unique([_link_option(link) for link in links])
    if not options:
        return None
    return ShownSelect(custom_id=OPEN_ID, placeholder=_(OPEN_RELATED), options=options, row=row)


def saints_select(names: Sequence[str], *, row: int) -> ShownSelect | None:
    """A martyrology's saints, each opening a ``saint_lookup`` by name."""
    # Translators: a menu option opening a saint's profile; {name} is the saint's name.
    template = _("Saint {name}")
    options = _unique(
        [
            _option(LookupRef(LookupKind.SAINT, name=name), template.format(name=name), None)
            for name in names
        ]
    )
    if not options:
        return None
    return ShownSelect(custom_id=OPEN_ID, placeholder=_(OPEN_SAINT), options=options, row=row)


def candidates_select(
    kind: LookupKind, candidates: Sequence[Candidate], *, invoker_id: int
) -> ShownSelect | None:
    options = _unique(
        [
            _option(LookupRef(kind, c.id, None if c.id else c.name), c.name, c.summary)
            for c in candidates
        ]
    )
    if not options:
        return None
    custom_id = f"{PICK_PREFIX}{invoker_id}"
    return ShownSelect(custom_id=custom_id, placeholder=_(CHOOSE), options=options)


def statistics_button(profile: Profile, *, row: int) -> ShownButton | None:
    if profile.kind is not LookupKind.DIOCESE:
        return None
    ref = LookupRef(LookupKind.DIOCESE, profile.id, None if profile.id else profile.title)
    encoded = ref.encode()
    if encoded is None:
        return None
    return ShownButton(
        label=_(STATISTICS),
        emoji="📊",
        style=discord.ButtonStyle.primary,
        custom_id=STATS_PREFIX + encoded,
        row=row,
    )

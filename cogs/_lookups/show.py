"""Looking a profile up and showing it: for a slash command, a menu choice or a link."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import discord

from bot.a2a.lookups import Candidates, LookupKind, Profile
from bot.a2a.results import NotFound
from bot.a2a.skills import ByNameOrId, lookup_skill
from bot.app.respond import defer, send_private
from bot.i18n import N_, _
from bot.render.embeds import notice_embed
from bot.render.pager import Paginator
from bot.render.profiles import candidates_embed, profile_markdown, profile_pages
from bot.services.origin import Origin
from cogs._lookups.components import candidates_select, related_select, statistics_button
from cogs._lookups.refs import LookupRef
from cogs._shared.document_view import clean_input, echo

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

Found = Profile | Candidates | NotFound

NO_NAME_TITLE = N_("No name given")
# Translators: {example} is a name to look up, such as `John XXIII`, shown as inline code.
NO_NAME_TEXT = N_("Give a name, or part of one, such as `{example}`.")


def slug(text: str) -> str:
    """A file-name-safe form of a name: ``Thérèse of Lisieux`` → ``therese-of-lisieux``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.casefold()).strip("-")[:60] or "profile"


# One title and one text per kind: gender, case and word order change with it.
NOT_FOUND: Mapping[LookupKind, tuple[str, str]] = MappingProxyType(
    {
        LookupKind.SAINT: (
            N_("No saint found"),
            # Translators: Magisterium is a proper name; {query} is the name looked up.
            N_(
                "Magisterium has no saint matching `{query}`. "
                "Check the spelling, or try part of the name."
            ),
        ),
        LookupKind.POPE: (
            N_("No pope found"),
            # Translators: Magisterium is a proper name; {query} is the name looked up.
            N_(
                "Magisterium has no pope matching `{query}`. "
                "Check the spelling, or try part of the name."
            ),
        ),
        LookupKind.PERSON: (
            # Translators: no bishop, archbishop or cardinal of that name was found.
            N_("No member of the clergy found"),
            # Translators: Magisterium is a proper name; {query} is the name looked up.
            N_(
                "Magisterium has no member of the clergy matching `{query}`. "
                "Check the spelling, or try part of the name."
            ),
        ),
        LookupKind.DIOCESE: (
            N_("No diocese found"),
            # Translators: Magisterium is a proper name; {query} is the name looked up.
            N_(
                "Magisterium has no diocese matching `{query}`. "
                "Check the spelling, or try part of the name."
            ),
        ),
    }
)


def not_found_embed(kind: LookupKind, query: str) -> discord.Embed:
    title, text = NOT_FOUND[kind]
    return notice_embed(_(title), _(text).format(query=echo(query)))


def profile_pager(profile: Profile, *, author_id: int) -> Paginator:
    """The profile's pages, with its "Statistics" button and its menu of related profiles."""
    pager = Paginator(
        profile_pages(profile),
        author_id=author_id,
        full_text=profile_markdown(profile),
        filename=f"{profile.kind.value}-{slug(profile.title)}.md",
    )
    if (button := statistics_button(profile, row=1)) is not None:
        pager.add_item(button)
    if (select := related_select(profile, row=2)) is not None:
        pager.add_item(select)
    return pager


def candidates_view(found: Candidates, *, invoker_id: int) -> tuple[discord.Embed, discord.ui.View]:
    select = candidates_select(found.kind, found.candidates, invoker_id=invoker_id)
    shown = len(select.options) if select is not None else 0
    embed = candidates_embed(found, shown=max(shown, 1))
    if select is None:
        return embed, discord.utils.MISSING
    view = discord.ui.View(timeout=None)
    view.add_item(select)
    return embed, view


async def fetch(interaction: discord.Interaction[MagisteriumBot], ref: LookupRef) -> Found:
    """The lookup as whoever used ``interaction``; a single candidate with an id is opened
    straight away."""
    magisterium = interaction.client.services.magisterium
    origin, skill = Origin.of(interaction), lookup_skill(ref.kind)
    query = ByNameOrId(name=ref.name, canonical_id=ref.canonical_id)
    result = await magisterium.call(origin, skill, query)
    if isinstance(result, Candidates) and len(result.candidates) == 1:
        only = result.candidates[0]
        if only.id:
            result = await magisterium.call(origin, skill, ByNameOrId(canonical_id=only.id))
    return result


async def _send(
    interaction: discord.Interaction[MagisteriumBot], result: Found, *, ephemeral: bool
) -> None:
    """Answer a deferred interaction with ``result``."""
    if isinstance(result, NotFound):
        await send_private(interaction, embed=not_found_embed(_kind(result), result.query))
    elif isinstance(result, Candidates):
        embed, view = candidates_view(result, invoker_id=interaction.user.id)
        await interaction.followup.send(embed=embed, view=view, ephemeral=ephemeral)
    else:
        pager = profile_pager(result, author_id=interaction.user.id)
        await pager.send(interaction, ephemeral=ephemeral)


def _kind(missing: NotFound) -> LookupKind:
    return next((k for k in LookupKind if k.skill == missing.skill), LookupKind.SAINT)


async def lookup_command(
    interaction: discord.Interaction[MagisteriumBot], kind: LookupKind, name: str, *, example: str
) -> None:
    """The slash commands: clean the name (nothing is sent for a blank one, whose notice shows
    ``example``), defer, answer."""
    cleaned = clean_input(name)
    if not cleaned:
        text = _(NO_NAME_TEXT).format(example=example)
        await interaction.response.send_message(
            embed=notice_embed(_(NO_NAME_TITLE), text), ephemeral=True
        )
        return
    private = interaction.guild_id is None
    await defer(interaction, ephemeral=private)
    result = await fetch(interaction, LookupRef(kind, name=cleaned))
    await _send(interaction, result, ephemeral=private)


async def open_privately(
    bot: MagisteriumBot, interaction: discord.Interaction[MagisteriumBot], ref: LookupRef
) -> None:
    """A menu choice or link: the profile, just for whoever chose it."""
    await defer(interaction, ephemeral=True)
    await _send(interaction, await fetch(interaction, ref), ephemeral=True)


async def replace_with_profile(
    bot: MagisteriumBot, interaction: discord.Interaction[MagisteriumBot], ref: LookupRef
) -> None:
    """The command's author chose a candidate: their answer becomes that profile."""
    await interaction.response.defer()
    result = await fetch(interaction, ref)
    if isinstance(result, NotFound):
        embed = not_found_embed(ref.kind, result.query)
        await interaction.followup.send(embed=embed, ephemeral=True)
    elif isinstance(result, Candidates):
        embed, view = candidates_view(result, invoker_id=interaction.user.id)
        await interaction.edit_original_response(embed=embed, view=view)
    else:
        await profile_pager(result, author_id=interaction.user.id).replace(interaction)

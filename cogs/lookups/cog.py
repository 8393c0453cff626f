"""``/saint``, ``/pope``, ``/clergy`` and ``/diocese``: one command per row of :data:`LOOKUPS`.

Each row says what Discord shows of its command (name, description, the option's name,
description and length) and which :class:`LookupKind` it looks up; the answer, its menus and
the diocese's "Statistics" button are the shared ones of :mod:`cogs._lookups`. A new lookup is
a row here, once its kind is known to ``bot.a2a.lookups`` and ``cogs._lookups.show``.

The texts are marked with ``N_()`` where they stand, so ``pybabel extract`` finds them (and the
``# Translators:`` comment on the line above); discord.py turns each into a ``locale_str`` that
the bot's translator (``bot.i18n.translator``) localises at sync.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.a2a.lookups import LookupKind
from bot.i18n import N_
from cogs._lookups.show import lookup_command

if TYPE_CHECKING:
    from bot.app import MagisteriumBot

NAME_MAX = 100

LookupCallback = Callable[["discord.Interaction[MagisteriumBot]", str], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class Lookup:
    """One lookup command. The texts are the English ``N_()`` messages, keys of the catalogue."""

    kind: LookupKind
    name: str
    description: str
    option_name: str
    option_description: str
    # A name Magisterium knows, as it writes it (not translated): the blank-name notice's example.
    example: str
    max_length: int = NAME_MAX


LOOKUPS: tuple[Lookup, ...] = (
    Lookup(
        kind=LookupKind.SAINT,
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("saint"),
        description=N_("A saint's life, feast day and patronage"),
        # Translators: the option's name (lowercase, one word): the name to look up.
        option_name=N_("name"),
        option_description=N_(
            "A saint, blessed, venerable or servant of God: Thérèse of Lisieux, Francis…"
        ),
        example="Thérèse of Lisieux",
    ),
    Lookup(
        kind=LookupKind.POPE,
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("pope"),
        description=N_("A pope's pontificate and life"),
        # Translators: the option's name (lowercase, one word): the name to look up.
        option_name=N_("name"),
        option_description=N_("A pope: John XXIII, Leo XIII, Pius…"),
        example="John XXIII",
    ),
    Lookup(
        kind=LookupKind.PERSON,
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("clergy"),
        description=N_("A bishop's or cardinal's profile"),
        # Translators: the option's name (lowercase, one word): the name to look up.
        option_name=N_("name"),
        option_description=N_("A bishop, archbishop or cardinal, by name"),
        example="Peter Chung Soon-taick",
    ),
    Lookup(
        kind=LookupKind.DIOCESE,
        # Translators: a Discord slash-command name: lowercase, one word, at most 32 characters.
        name=N_("diocese"),
        description=N_("A diocese: its bishop, numbers and finances"),
        # Translators: the option's name (lowercase, one word): the name to look up.
        option_name=N_("name"),
        option_description=N_("A diocese or archdiocese: Seoul, Paris, Kraków…"),
        example="Seoul",
    ),
)


def _callback(row: Lookup) -> LookupCallback:
    async def look_up(interaction: discord.Interaction[MagisteriumBot], name: str) -> None:
        await lookup_command(interaction, row.kind, name, example=row.example)

    # discord.py reads the option's type and length from the callback's annotation. A string
    # annotation (this module's ``from __future__ import annotations``) cannot name the row's
    # length, so the annotation is the object itself.
    look_up.__annotations__["name"] = app_commands.Range[str, 1, row.max_length]
    return look_up


def lookup_app_command(row: Lookup) -> app_commands.Command[Any, ..., None]:
    """The slash command of ``row``, as the decorators ``@app_commands.command``,
    ``@app_commands.rename`` and ``@app_commands.describe`` would build it."""
    callback = app_commands.describe(name=row.option_description)(
        app_commands.rename(name=row.option_name)(_callback(row))
    )
    return app_commands.Command(name=row.name, description=row.description, callback=callback)


class LookupsCog(commands.Cog):
    """The lookup commands, added to the tree when the cog loads and removed when it unloads."""

    def __init__(self, bot: MagisteriumBot) -> None:
        self.bot = bot
        self.lookup_commands = tuple(lookup_app_command(row) for row in LOOKUPS)

    async def cog_load(self) -> None:
        for command in self.lookup_commands:
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        for command in self.lookup_commands:
            self.bot.tree.remove_command(command.name)

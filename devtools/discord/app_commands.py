"""Application commands as a user runs them: slash commands, autocomplete and context menus.

Commands are found in the bot's real CommandTree and their options built from ``to_dict``
(``devtools.discord.commands``); a command the user could not see or run there raises
:class:`~devtools.discord.commands.CommandUnavailable`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import discord

from devtools.discord.commands import (
    USER,
    ResolvedCommand,
    build_options,
    check_available,
    find_command,
)
from devtools.discord.core import HarnessError, Permissions, UserLike, resolve_permissions
from devtools.discord.dispatch import Dispatcher
from devtools.discord.records import Session
from devtools.discord.results import AutocompleteChoices, InteractionResult, SentMessage
from devtools.discord.wire import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    GUILD,
    JSON,
    MEMBER_PERMISSIONS,
    Place,
)


class AppCommandsMixin(Dispatcher):
    """``/name`` commands, their autocomplete and message / user context menus."""

    async def slash(
        self,
        name: str,
        /,
        *,
        options: Mapping[str, Any] | None = None,
        user: UserLike | None = None,
        guild: discord.Guild | bool | None = None,
        dm: bool = False,
        private_channel: bool = False,
        channel: discord.abc.GuildChannel | None = None,
        locale: str | None = None,
        member_permissions: Permissions = None,
        app_permissions: Permissions = None,
        **option_values: Any,
    ) -> InteractionResult:
        """Run ``/name`` ("ask", "account link") as ``user`` in a guild (default), a DM with the
        bot (``dm=True``) or another private channel (``private_channel=True``).

        Options go as keywords, or in ``options=`` when a name clashes with a keyword here.
        """
        return await self._dispatch(
            *self._chat_input(
                APPLICATION_COMMAND,
                name,
                {**option_values, **(options or {})},
                None,
                user=user,
                where=(guild, dm, private_channel, channel),
                locale=locale,
                member_permissions=member_permissions,
                app_permissions=app_permissions,
            )
        )

    def _chat_input(
        self,
        interaction_type: int,
        name: str,
        values: Mapping[str, Any],
        focused: str | None,
        *,
        user: UserLike | None,
        where: tuple[discord.Guild | bool | None, bool, bool, discord.abc.GuildChannel | None],
        locale: str | None,
        member_permissions: Permissions,
        app_permissions: Permissions,
    ) -> tuple[JSON, Session]:
        """The payload of a slash command or of its autocomplete (``focused`` option)."""
        actor = self._as_user(user or self.default_user)
        permissions = resolve_permissions(member_permissions, MEMBER_PERMISSIONS)
        guild, dm, private_channel, channel = where
        place = self._place(
            actor,
            guild=guild,
            dm=dm,
            private_channel=private_channel,
            channel=channel,
            permissions=permissions,
        )
        command = find_command(self.bot.tree, name, guild=place.guild)
        check_available(command, place, permissions)
        built, resolved = build_options(
            command, values, resolve=self._resolver.at(place), focused=focused
        )
        data = self._command_data(command, 1, built)
        if resolved:
            data["resolved"] = resolved
        payload, session = self._interaction(
            interaction_type,
            actor,
            place,
            data,
            locale=locale,
            permissions=permissions,
            app_permissions=app_permissions,
        )
        session.command_name, session.command_type = command.qualified_name, 1
        return payload, session

    async def autocomplete(
        self,
        name: str,
        option: str,
        typed: str,
        /,
        *,
        options: Mapping[str, Any] | None = None,
        user: UserLike | None = None,
        guild: discord.Guild | bool | None = None,
        dm: bool = False,
        private_channel: bool = False,
        channel: discord.abc.GuildChannel | None = None,
        locale: str | None = None,
        member_permissions: Permissions = None,
        app_permissions: Permissions = None,
        **option_values: Any,
    ) -> AutocompleteChoices:
        """Type ``typed`` into ``option`` of ``/name``; return the choices the bot offered."""
        payload, session = self._chat_input(
            AUTOCOMPLETE,
            name,
            {**option_values, **(options or {}), option: typed},
            option,
            user=user,
            where=(guild, dm, private_channel, channel),
            locale=locale,
            member_permissions=member_permissions,
            app_permissions=app_permissions,
        )
        result = await self._dispatch(payload, session)
        if result.choices is None:
            raise HarnessError(
                f"/{name} {option}: no autocomplete answer; Discord shows 'Loading options "
                f"failed'. Requests: {result.transcript or 'none'}; logs: "
                f"{[r.getMessage() for r in result.log_records]}"
            )
        return AutocompleteChoices(result.choices, result)

    async def context_menu(
        self,
        name: str,
        /,
        *,
        target_message: SentMessage | discord.Message | JSON | None = None,
        target_user: UserLike | None = None,
        user: UserLike | None = None,
        guild: discord.Guild | bool | None = None,
        dm: bool = False,
        private_channel: bool = False,
        channel: discord.abc.GuildChannel | None = None,
        locale: str | None = None,
        member_permissions: Permissions = None,
        app_permissions: Permissions = None,
    ) -> InteractionResult:
        """Run a message (``target_message``) or user (``target_user``) context menu."""
        if (target_message is None) == (target_user is None):
            raise ValueError("give exactly one of target_message, target_user")
        actor = self._as_user(user or self.default_user)
        permissions = resolve_permissions(member_permissions, MEMBER_PERMISSIONS)
        message: JSON | None = None
        explicit_place = guild is not None or dm or private_channel or channel is not None
        if target_message is not None:
            message, message_place = self._message_json(target_message)
        if message is not None and not explicit_place:
            place = self._place_of_message(actor, message_place, permissions)
        else:
            place = self._place(
                actor,
                guild=guild,
                dm=dm,
                private_channel=private_channel,
                channel=channel,
                permissions=permissions,
            )
        kind = discord.AppCommandType.message if message else discord.AppCommandType.user
        command = find_command(self.bot.tree, name, guild=place.guild, kind=kind)
        check_available(command, place, permissions)
        data = self._context_menu_data(command, kind, place, message, target_user)
        payload, session = self._interaction(
            APPLICATION_COMMAND,
            actor,
            place,
            data,
            locale=locale,
            permissions=permissions,
            app_permissions=app_permissions,
        )
        session.command_name, session.command_type = command.qualified_name, kind.value
        return await self._dispatch(payload, session)

    def _context_menu_data(
        self,
        command: ResolvedCommand,
        kind: discord.AppCommandType,
        place: Place,
        message: JSON | None,
        target_user: UserLike | None,
    ) -> JSON:
        """A context menu's ``data``: the command, its target and the target resolved."""
        resolved: JSON = {}
        if message is not None:
            target_id = str(message["id"])
            resolved["messages"] = {target_id: message}
        else:
            assert target_user is not None
            target_id = self._resolver.at(place)(USER, target_user, resolved)
        data = self._command_data(command, kind.value, [])
        data.update(target_id=target_id, resolved=resolved)
        return data

    def _message_json(self, target: SentMessage | discord.Message | JSON) -> tuple[JSON, Place]:
        if isinstance(target, SentMessage):
            return target.payload, target.place
        if isinstance(target, dict):
            place = Place(GUILD, {"id": str(target["channel_id"]), "type": 0}, self.guild)
            return target, place
        if target.id in self._posted:
            data, place = self._posted[target.id]
            return copy.deepcopy(data), place
        stored = self.fake.message(target.id)
        if stored is not None:
            return copy.deepcopy(stored.data), stored.place
        raise LookupError(f"message {target.id} was not posted through the harness")

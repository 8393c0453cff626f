"""Sending an interaction: Discord's INTERACTION_CREATE payload through discord.py's parser.

Every interaction the harness sends is built by :meth:`Dispatcher._interaction` and handed to
``state.parsers["INTERACTION_CREATE"]`` by :meth:`Dispatcher._dispatch` with the recording
webhook adapter in ``async_context``; the tasks discord.py started for it are then awaited.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import discord
from discord.webhook.async_ import async_context

from devtools.discord.commands import ResolvedCommand
from devtools.discord.core import HarnessCore, Permissions, resolve_permissions
from devtools.discord.records import Session
from devtools.discord.results import InteractionResult
from devtools.discord.tasks import collect_logs, ignored_exceptions, settle
from devtools.discord.wire import (
    ATTACHMENT_SIZE_LIMIT,
    BOT_DM,
    BOT_PERMISSIONS,
    GUILD,
    JSON,
    PRIVATE_CHANNEL,
    USER_INSTALL_PERMISSIONS,
    HarnessUser,
    Place,
    member_payload,
    new_token,
    snowflake,
)


def _owners(user: HarnessUser, place: Place) -> dict[str, str]:
    """``authorizing_integration_owners``: the guild, the bot's DM, or else the user."""
    if place.context == GUILD:
        return {"0": str(place.guild_id)}
    if place.context == BOT_DM:
        return {"0": "0"}
    return {"1": str(user.id)}


def _invoker(user: HarnessUser, place: Place, permissions: discord.Permissions) -> JSON:
    """The payload's guild and ``member`` fields in a guild, its ``user`` field elsewhere."""
    if place.guild is None:
        return {"user": user.payload()}
    return {
        "guild_id": str(place.guild.id),
        "guild_locale": "en-US",
        "guild": {"id": str(place.guild.id), "locale": "en-US", "features": []},
        "member": member_payload(user.payload(), permissions=permissions),
    }


class Dispatcher(HarnessCore):
    """Builds interaction payloads and runs them through discord.py."""

    def _interaction(
        self,
        interaction_type: int,
        user: HarnessUser,
        place: Place,
        data: JSON,
        *,
        locale: str | None,
        permissions: discord.Permissions,
        app_permissions: Permissions,
        message: JSON | None = None,
    ) -> tuple[JSON, Session]:
        interaction_id, token = snowflake(), new_token()
        owners = _owners(user, place)
        default_app = (
            USER_INSTALL_PERMISSIONS if place.context == PRIVATE_CHANNEL else BOT_PERMISSIONS
        )
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": interaction_type,
            "token": token,
            "version": 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "data": data,
            "locale": locale or user.locale,
            "app_permissions": str(resolve_permissions(app_permissions, default_app).value),
            "context": place.context,
            "authorizing_integration_owners": owners,
            "entitlements": [],
            "channel": copy.deepcopy(place.channel),
            "channel_id": str(place.channel_id),
        }
        payload.update(_invoker(user, place, permissions))
        if message is not None:
            payload["message"] = message
        session = Session(
            interaction_id=interaction_id,
            token=token,
            interaction_type=interaction_type,
            place=place,
            user_id=user.id,
            user=user.payload(),
            owners=owners,
        )
        return payload, session

    async def _dispatch(self, payload: JSON, session: Session) -> InteractionResult:
        session.expired, self._expire_next = self._expire_next, False
        self.fake.open(session)
        result = InteractionResult(session, self.fake.messages)
        self.results.append(result)
        before = asyncio.all_tasks()
        with collect_logs(session.log_records):
            context = async_context.set(self.adapter)
            try:
                self.state.parsers["INTERACTION_CREATE"](payload)
            finally:
                async_context.reset(context)
            await settle(before, prefixes=self.task_prefixes, guard_seconds=self.settle_timeout)
        self._check_ignored(session.log_records)
        return result

    def _check_ignored(self, records: list[Any]) -> None:
        ignored = ignored_exceptions(records)
        if ignored and self.raise_ignored:
            raise ExceptionGroup("discord.py caught these and only logged them", ignored)

    def _command_id(self, command: ResolvedCommand, kind: int) -> int:
        key = (command.root.name, kind, command.guild_id)
        return self._command_ids.setdefault(key, snowflake())

    def _command_data(self, command: ResolvedCommand, kind: int, options: list[JSON]) -> JSON:
        data: JSON = {
            "id": str(self._command_id(command, kind)),
            "name": command.root.name,
            "type": kind,
        }
        if kind == 1:
            data["options"] = command.nest(options)
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        return data

    def expire(self, result: InteractionResult) -> None:
        """From now on Discord refuses this interaction's token (10062 / 50027)."""
        self.fake.expire(result._session)

    def expire_next(self) -> None:
        """The next interaction arrives already dead, as if the bot had missed Discord's
        3-second window: its callbacks fail with 10062 and its webhooks with 50027."""
        self._expire_next = True

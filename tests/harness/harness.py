"""The offline interaction harness: real payloads through the real CommandTree and views.

Every call builds the INTERACTION_CREATE (or MESSAGE_CREATE) payload Discord would send,
hands it to discord.py's own parser (``state.parsers[...]``) with the recording webhook adapter
in ``async_context``, then awaits the tasks discord.py started for it. Nothing calls a command
callback directly and nothing sleeps.

One harness at a time per process: dpytest's backend is module-global.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar, cast

import discord
from discord.ext.test import backend
from discord.state import ConnectionState
from discord.webhook.async_ import async_context

from tests.harness import world
from tests.harness.commands import (
    USER,
    CommandUnavailable,
    InvalidOptions,
    ResolvedCommand,
    build_options,
    check_available,
    find_command,
)
from tests.harness.fake_discord import FakeDiscord, RecordingAdapter, read_file
from tests.harness.inputs import Resolver, modal_submission, select_values
from tests.harness.records import Session, StoredMessage
from tests.harness.results import (
    AutocompleteChoices,
    InteractionResult,
    MessageExchange,
    SentMessage,
)
from tests.harness.tasks import (
    WORK_TASK_PREFIXES,
    cancel_loops,
    collect_logs,
    ignored_exceptions,
    settle,
)
from tests.harness.wire import (
    APPLICATION_COMMAND,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    BOT_DM,
    BOT_PERMISSIONS,
    GUILD,
    JSON,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PRIVATE_CHANNEL,
    USER_INSTALL_PERMISSIONS,
    HarnessUser,
    Place,
    dm_channel_payload,
    guild_channel_payload,
    member_payload,
    message_payload,
    new_token,
    snowflake,
    user_payload,
    user_payload_of,
    walk_components,
)

UserLike = HarnessUser | discord.abc.User | int
Permissions = discord.Permissions | int | None
MessageTarget = InteractionResult | SentMessage | int


class HarnessError(AssertionError):
    """The test asked for something a Discord user could not do (or got no answer)."""


def _permissions(value: Permissions, default: discord.Permissions) -> discord.Permissions:
    if value is None:
        return default
    return value if isinstance(value, discord.Permissions) else discord.Permissions(value)


class Harness:
    """Drive a bot like Discord would; read back what it sent. Build with :meth:`start`."""

    _active: ClassVar[Harness | None] = None

    def __init__(
        self,
        bot: world.AnyBot,
        state: ConnectionState[Any],
        channel: discord.TextChannel,
        *,
        settle_timeout: float,
        task_prefixes: tuple[str, ...],
        raise_ignored: bool,
    ) -> None:
        assert state.user is not None
        self.bot = bot
        self.state = state
        self.guild: discord.Guild = channel.guild
        self.channel: discord.TextChannel = channel
        self.bot_user: JSON = user_payload_of(state.user)
        self.application_id: int = int(state.application_id or state.user.id)
        self.fake = FakeDiscord(application_id=self.application_id, bot_user=self.bot_user)
        self.adapter = RecordingAdapter(self.fake)
        self.results: list[InteractionResult] = []
        self.settle_timeout = settle_timeout
        self.task_prefixes = task_prefixes
        self.raise_ignored = raise_ignored
        self._users: dict[int, HarnessUser] = {}
        self._dm_channels: dict[int, int] = {}
        self._private_channels: dict[int, JSON] = {}
        self._channel_sent: list[SentMessage] = []
        self._posted: dict[int, tuple[JSON, Place]] = {}
        self._command_ids: dict[tuple[str, int, int | None], int] = {}
        self._cdn: dict[str, bytes] = {}
        self._resolver = Resolver(self._as_user, self._ensure_member, self._cdn)
        self._expire_next = False
        self.default_user = self.user(name="tester")

    # --- lifecycle ---------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def start(
        cls,
        bot: world.AnyBot,
        *,
        run_setup_hook: bool = True,
        guild_name: str = "Test Guild",
        channel_name: str = "general",
        settle_timeout: float = 30.0,
        task_prefixes: tuple[str, ...] = WORK_TASK_PREFIXES,
        raise_ignored: bool = True,
    ) -> AsyncIterator[Harness]:
        """Configure ``bot`` on dpytest's backend, run its ``setup_hook``, yield a harness;
        on exit stop views, cancel loops and close the bot.

        ``raise_ignored``: an exception that discord.py's default handlers only log ("Ignoring
        exception in on_message / view / modal / dynamic item") is raised from the harness
        call instead, as an ExceptionGroup; the bot's own error path never logs that way.
        """
        if cls._active is not None:
            raise RuntimeError("another Harness is running: dpytest's backend is global")
        state = await world.configure(bot)
        try:
            if run_setup_hook:
                before = asyncio.all_tasks()
                await bot.setup_hook()
                await settle(before, prefixes=task_prefixes, guard_seconds=settle_timeout)
            channel = world.build_guild(bot, guild_name, channel_name)
            cancel_loops([bot, *bot.cogs.values()])
            harness = cls(
                bot,
                state,
                channel,
                settle_timeout=settle_timeout,
                task_prefixes=task_prefixes,
                raise_ignored=raise_ignored,
            )
            world.record_channel_sends(bot, harness._on_channel_send)
            harness._serve_cdn()
            cls._active = harness
            yield harness
        finally:
            cls._active = None
            await world.teardown(bot)

    # --- the world ---------------------------------------------------------------------------

    def user(
        self,
        id: int | None = None,
        *,
        name: str | None = None,
        locale: str = "en-US",
        global_name: str | None = None,
        member: bool = True,
    ) -> HarnessUser:
        """A user (new, or re-registered with new details) with a DM channel to the bot and,
        with ``member``, a member of :attr:`guild` (other guilds are joined on first use)."""
        user_id = id if id is not None else snowflake()
        previous = self._users.get(user_id)
        name = name or (previous.name if previous else f"user{len(self._users) + 1}")
        user = HarnessUser(user_id, name, locale, global_name)
        self._users[user_id] = user
        self.state.store_user(cast(Any, user.payload()))
        if user_id not in self._dm_channels:
            channel_id = snowflake()
            dm_channel: Any = dm_channel_payload(channel_id, [user.payload()])
            self.state.add_dm_channel(dm_channel)
            self._dm_channels[user_id] = channel_id
        if member:
            self._ensure_member(user, self.guild)
        return user

    def make_guild(self, name: str, *, channel_name: str = "general") -> discord.TextChannel:
        """Another guild with the bot in it; returns its first text channel."""
        return world.build_guild(self.bot, name, channel_name)

    def make_text_channel(
        self, name: str, *, guild: discord.Guild | None = None
    ) -> discord.TextChannel:
        return backend.make_text_channel(name, guild or self.guild)

    def dm_channel_id(self, user: HarnessUser) -> int:
        return self._dm_channels[user.id]

    def _as_user(self, value: UserLike) -> HarnessUser:
        if isinstance(value, HarnessUser):
            return value
        user_id = value if isinstance(value, int) else value.id
        if user_id in self._users:
            return self._users[user_id]
        if isinstance(value, int):
            raise LookupError(f"unknown user id {value}; create it with harness.user()")
        return self.user(value.id, name=value.name, global_name=value.global_name)

    def _ensure_member(self, user: HarnessUser, guild: discord.Guild) -> None:
        if guild.get_member(user.id) is not None:
            return
        with world.silently() as state:
            world.add_member(state, user.payload(), guild)

    def _place(
        self,
        user: HarnessUser,
        *,
        guild: discord.Guild | bool | None,
        dm: bool,
        private_channel: bool,
        channel: discord.abc.GuildChannel | None,
        permissions: discord.Permissions,
    ) -> Place:
        if sum((dm, private_channel, bool(guild) or channel is not None)) > 1:
            raise ValueError("choose one of guild/channel, dm, private_channel")
        if dm:
            return Place(BOT_DM, dm_channel_payload(self._dm_channels[user.id], [user.payload()]))
        if private_channel:
            if user.id not in self._private_channels:
                stranger = user_payload(snowflake(), "someone-else")
                self._private_channels[user.id] = dm_channel_payload(
                    snowflake(), [user.payload(), stranger]
                )
            return Place(PRIVATE_CHANNEL, self._private_channels[user.id])
        if channel is None:
            target = guild if isinstance(guild, discord.Guild) else self.guild
            channel = self.channel if target == self.guild else target.text_channels[0]
        self._ensure_member(user, channel.guild)
        return Place(GUILD, guild_channel_payload(channel, permissions=permissions), channel.guild)

    # --- interactions ------------------------------------------------------------------------

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
        if place.context == GUILD:
            owners = {"0": str(place.guild_id)}
        elif place.context == BOT_DM:
            owners = {"0": "0"}
        else:
            owners = {"1": str(user.id)}
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
            "app_permissions": str(_permissions(app_permissions, default_app).value),
            "context": place.context,
            "authorizing_integration_owners": owners,
            "entitlements": [],
            "channel": copy.deepcopy(place.channel),
            "channel_id": str(place.channel_id),
        }
        if place.guild is not None:
            payload["guild_id"] = str(place.guild.id)
            payload["guild_locale"] = "en-US"
            payload["guild"] = {"id": str(place.guild.id), "locale": "en-US", "features": []}
            payload["member"] = member_payload(user.payload(), permissions=permissions)
        else:
            payload["user"] = user.payload()
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
        permissions = _permissions(member_permissions, MEMBER_PERMISSIONS)
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
        permissions = _permissions(member_permissions, MEMBER_PERMISSIONS)
        message: JSON | None = None
        explicit_place = guild is not None or dm or private_channel or channel is not None
        if target_message is not None:
            message, message_place = self._message_json(target_message)
        if message is not None and not explicit_place:
            place = message_place
            if place.guild is not None:
                self._ensure_member(actor, place.guild)
                channel_json = {**place.channel, "permissions": str(permissions.value)}
                place = Place(place.context, channel_json, place.guild)
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
        resolved: JSON = {}
        if message is not None:
            target_id = str(message["id"])
            resolved["messages"] = {target_id: message}
        else:
            assert target_user is not None
            target_id = self._resolver.at(place)(USER, target_user, resolved)
        data = self._command_data(command, kind.value, [])
        data.update(target_id=target_id, resolved=resolved)
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

    # --- components and modals ---------------------------------------------------------------

    def _stored(self, target: MessageTarget) -> StoredMessage:
        if isinstance(target, InteractionResult):
            message = target.message
            if message is None:
                raise HarnessError(f"{target!r} left no visible message to interact with")
            target = message
        message_id = target.id if isinstance(target, SentMessage) else target
        stored = self.fake.message(message_id)
        if stored is None:
            raise LookupError(f"no message {message_id} in the fake Discord")
        if stored.deleted:
            raise HarnessError(f"message {message_id} was deleted: nobody can click it")
        return stored

    def _default_actor(self, target: MessageTarget, stored: StoredMessage) -> HarnessUser:
        if isinstance(target, InteractionResult):
            return self._users[target.user_id]
        if stored.visible_to is not None:
            return self._users[stored.visible_to]
        return self.default_user

    async def click(
        self,
        target: MessageTarget,
        custom_id: str,
        /,
        *,
        user: UserLike | None = None,
        locale: str | None = None,
        member_permissions: Permissions = None,
        app_permissions: Permissions = None,
    ) -> InteractionResult:
        """Press the button ``custom_id`` on a message (a result's :attr:`message` by default).

        Works for views stored under the message id, persistent views and DynamicItems alike:
        discord.py routes the click, the harness only sends Discord's payload.
        """
        return await self._component(
            target, custom_id, None, user, locale, member_permissions, app_permissions
        )

    async def select(
        self,
        target: MessageTarget,
        custom_id: str,
        values: Sequence[Any],
        /,
        *,
        user: UserLike | None = None,
        locale: str | None = None,
        member_permissions: Permissions = None,
        app_permissions: Permissions = None,
    ) -> InteractionResult:
        """Choose ``values`` in the select ``custom_id`` (option values for a string select;
        users, roles or channels for the entity selects)."""
        return await self._component(
            target, custom_id, list(values), user, locale, member_permissions, app_permissions
        )

    async def _component(
        self,
        target: MessageTarget,
        custom_id: str,
        values: list[Any] | None,
        user: UserLike | None,
        locale: str | None,
        member_permissions: Permissions,
        app_permissions: Permissions,
    ) -> InteractionResult:
        stored = self._stored(target)
        actor = self._as_user(user) if user is not None else self._default_actor(target, stored)
        if stored.visible_to is not None and stored.visible_to != actor.id:
            raise HarnessError(f"message {stored.id} is ephemeral: {actor.name} cannot see it")
        component = next(
            (
                c
                for c in walk_components(stored.data.get("components") or [])
                if c.get("custom_id") == custom_id
            ),
            None,
        )
        if component is None:
            ids = SentMessage(stored).custom_ids
            raise LookupError(f"message {stored.id} has no component {custom_id!r}; it has {ids}")
        if component.get("disabled"):
            raise HarnessError(f"component {custom_id!r} is disabled")
        kind = int(component["type"])
        if (values is None) != (kind == 2):
            raise TypeError(
                f"{custom_id!r} is component type {kind}: "
                "use click() for buttons, select() for selects"
            )
        permissions = _permissions(member_permissions, MEMBER_PERMISSIONS)
        place = stored.place
        if place.guild is not None:
            self._ensure_member(actor, place.guild)
            place = Place(
                place.context, {**place.channel, "permissions": str(permissions.value)}, place.guild
            )
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if component.get("id") is not None:
            data["id"] = component["id"]
        if values is not None:
            data["values"], resolved = select_values(component, values, self._resolver.at(place))
            if resolved:
                data["resolved"] = resolved
        payload, session = self._interaction(
            MESSAGE_COMPONENT,
            actor,
            place,
            data,
            locale=locale,
            permissions=permissions,
            app_permissions=app_permissions,
            message=copy.deepcopy(stored.data),
        )
        session.source_message_id = stored.id
        return await self._dispatch(payload, session)

    async def submit_modal(
        self,
        target: InteractionResult | str,
        values: Mapping[str, str | Sequence[str]],
        /,
        *,
        user: UserLike | None = None,
        locale: str | None = None,
        member_permissions: Permissions = None,
        app_permissions: Permissions = None,
    ) -> InteractionResult:
        """Fill in and submit the modal a result opened (or a modal stored under a custom id).

        ``values`` maps each input's custom_id to its text (or a list of values for selects).
        """
        source: int | None = None
        if isinstance(target, InteractionResult):
            modal = target.modal
            if modal is None:
                raise HarnessError(
                    f"{target!r} did not open a modal (callback {target.callback_type})"
                )
            custom_id, components = modal.custom_id, modal.components
            actor = self._as_user(user) if user is not None else self._users[target.user_id]
            place = target.place
            source = target._session.source_message_id
        else:
            stored_modal = self.state._view_store._modals.get(target)
            if stored_modal is None:
                raise LookupError(f"no modal with custom_id {target!r} is waiting")
            custom_id, components = target, stored_modal.to_dict()["components"]
            actor = self._as_user(user or self.default_user)
            place = self._place(
                actor,
                guild=None,
                dm=False,
                private_channel=False,
                channel=None,
                permissions=_permissions(member_permissions, MEMBER_PERMISSIONS),
            )
        submitted = modal_submission(components, values)
        message = None
        if source is not None and (stored := self.fake.message(source)) is not None:
            message = copy.deepcopy(stored.data)
        payload, session = self._interaction(
            MODAL_SUBMIT,
            actor,
            place,
            {"custom_id": custom_id, "components": submitted},
            locale=locale,
            permissions=_permissions(member_permissions, MEMBER_PERMISSIONS),
            app_permissions=app_permissions,
            message=message,
        )
        session.source_message_id = source
        return await self._dispatch(payload, session)

    def expire(self, result: InteractionResult) -> None:
        """From now on Discord refuses this interaction's token (10062 / 50027)."""
        self.fake.expire(result._session)

    def expire_next(self) -> None:
        """The next interaction arrives already dead, as if the bot had missed Discord's
        3-second window: its callbacks fail with 10062 and its webhooks with 50027."""
        self._expire_next = True

    # --- messages ----------------------------------------------------------------------------

    async def dm_message(self, user: UserLike, content: str) -> MessageExchange:
        """``user`` writes ``content`` to the bot in their DM; await the bot's handling."""
        actor = self._as_user(user)
        channel = dm_channel_payload(self._dm_channels[actor.id], [actor.payload()])
        return await self._message_create(actor, content, Place(BOT_DM, channel))

    async def post(
        self, user: UserLike, content: str, *, channel: discord.TextChannel | None = None
    ) -> MessageExchange:
        """``user`` writes ``content`` in a guild text channel (default: :attr:`channel`)."""
        actor = self._as_user(user)
        target = channel or self.channel
        self._ensure_member(actor, target.guild)
        place = Place(GUILD, guild_channel_payload(target), target.guild)
        return await self._message_create(actor, content, place)

    async def _message_create(
        self, user: HarnessUser, content: str, place: Place
    ) -> MessageExchange:
        message_id = snowflake()
        data = message_payload(
            message_id=message_id, place=place, author=user.payload(), body={"content": content}
        )
        if place.guild is not None:
            data["member"] = member_payload(user.payload(), with_user=False)
        dpytest = backend._cur_config  # dpytest's history, for fetch_message/history
        assert dpytest is not None
        dpytest.messages.setdefault(place.channel_id, []).append({**data, "id": message_id})
        self._posted[message_id] = (data, place)
        sent_before = len(self._channel_sent)
        logs: list[Any] = []
        before = asyncio.all_tasks()
        with collect_logs(logs):
            context = async_context.set(self.adapter)
            try:
                self.state.parsers["MESSAGE_CREATE"](copy.deepcopy(data))
            finally:
                async_context.reset(context)
            await settle(before, prefixes=self.task_prefixes, guard_seconds=self.settle_timeout)
        self._check_ignored(logs)
        message = self.state._get_message(message_id)
        if message is None:
            channel = self.bot.get_channel(place.channel_id)
            message = discord.Message(
                state=self.state,
                channel=channel,  # type: ignore[arg-type]
                data=data,  # type: ignore[arg-type]
            )
        return MessageExchange(message, data, self._channel_sent[sent_before:], logs)

    def existing_message(
        self,
        *,
        content: str = "",
        embeds: list[JSON] | None = None,
        components: list[JSON] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> SentMessage:
        """A message the bot sent before this process started (no view is stored for it):
        for persistent views and DynamicItems after a restart."""
        target = channel or self.channel
        place = Place(GUILD, guild_channel_payload(target), target.guild)
        body = {"content": content, "embeds": embeds or [], "components": components or []}
        message_id = snowflake()
        data = message_payload(message_id=message_id, place=place, author=self.bot_user, body=body)
        return SentMessage(self.fake.store(StoredMessage(message_id, data, place)))

    @property
    def channel_messages(self) -> list[SentMessage]:
        """Everything the bot sent with ``channel.send``/``user.send``, oldest first."""
        return list(self._channel_sent)

    def messages_in(self, channel: discord.abc.Snowflake | int) -> list[SentMessage]:
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self._channel_sent if m.place.channel_id == channel_id]

    def dm_messages(self, user: UserLike) -> list[SentMessage]:
        """What the bot sent to ``user``'s DM channel."""
        return self.messages_in(self._dm_channels[self._as_user(user).id])

    def _on_channel_send(
        self, channel: Any, payload: JSON, answer: JSON, files: list[discord.File]
    ) -> None:
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            place = Place(GUILD, guild_channel_payload(channel), channel.guild)
        else:  # a DM: discord.py's DMChannel may not know its recipient, the harness does
            recipients = [
                self._users[user_id].payload()
                for user_id, channel_id in self._dm_channels.items()
                if channel_id == channel.id
            ]
            place = Place(BOT_DM, dm_channel_payload(channel.id, recipients))
        recorded = [read_file(f) for f in files]
        body = {**payload, "attachments": answer.get("attachments") or []}
        data = message_payload(
            message_id=int(answer["id"]), place=place, author=self.bot_user, body=body
        )
        stored = self.fake.store(StoredMessage(int(answer["id"]), data, place))
        self._channel_sent.append(SentMessage(stored, recorded))

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

    def _serve_cdn(self) -> None:
        """``Attachment.read()`` of an uploaded option gets the uploaded bytes back."""
        http = self.bot.http
        original = http.get_from_cdn

        async def get_from_cdn(url: str) -> bytes:
            if url in self._cdn:
                return self._cdn[url]
            data: bytes = await original(url)
            return data

        http.get_from_cdn = get_from_cdn  # type: ignore[method-assign]


__all__ = [
    "CommandUnavailable",
    "Harness",
    "HarnessError",
    "InvalidOptions",
]

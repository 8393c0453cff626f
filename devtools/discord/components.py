"""Message components and modals: pressing buttons, choosing in selects, submitting modals.

The harness only sends Discord's MESSAGE_COMPONENT / MODAL_SUBMIT payload for a message the
fake Discord holds; discord.py routes it to a stored view, a persistent view or a DynamicItem.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from devtools.discord.core import (
    HarnessError,
    MessageTarget,
    Permissions,
    UserLike,
    resolve_permissions,
)
from devtools.discord.dispatch import Dispatcher
from devtools.discord.inputs import modal_submission, select_values
from devtools.discord.records import StoredMessage
from devtools.discord.results import InteractionResult, SentMessage
from devtools.discord.wire import (
    JSON,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    HarnessUser,
    Place,
    walk_components,
)


class ComponentsMixin(Dispatcher):
    """Buttons, selects and modals on the messages the bot sent."""

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
        component = _usable_component(stored, custom_id, values)
        kind = int(component["type"])
        permissions = resolve_permissions(member_permissions, MEMBER_PERMISSIONS)
        place = self._place_of_message(actor, stored.place, permissions)
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
            custom_id = target
            components, actor, place = self._waiting_modal(target, user, member_permissions)
        submitted = modal_submission(components, values)
        payload, session = self._interaction(
            MODAL_SUBMIT,
            actor,
            place,
            {"custom_id": custom_id, "components": submitted},
            locale=locale,
            permissions=resolve_permissions(member_permissions, MEMBER_PERMISSIONS),
            app_permissions=app_permissions,
            message=self._source_message(source),
        )
        session.source_message_id = source
        return await self._dispatch(payload, session)

    def _waiting_modal(
        self, custom_id: str, user: UserLike | None, member_permissions: Permissions
    ) -> tuple[list[JSON], HarnessUser, Place]:
        """The components of the modal discord.py holds under ``custom_id``, who submits it
        and where (in :attr:`channel`)."""
        stored_modal = self.state._view_store._modals.get(custom_id)
        if stored_modal is None:
            raise LookupError(f"no modal with custom_id {custom_id!r} is waiting")
        components: list[JSON] = stored_modal.to_dict()["components"]
        actor = self._as_user(user or self.default_user)
        place = self._place(
            actor,
            guild=None,
            dm=False,
            private_channel=False,
            channel=None,
            permissions=resolve_permissions(member_permissions, MEMBER_PERMISSIONS),
        )
        return components, actor, place

    def _source_message(self, source: int | None) -> JSON | None:
        """A copy of the message a modal was opened from, if the fake Discord still has it."""
        if source is not None and (stored := self.fake.message(source)) is not None:
            return copy.deepcopy(stored.data)
        return None


def _usable_component(stored: StoredMessage, custom_id: str, values: list[Any] | None) -> JSON:
    """The enabled component ``custom_id`` of ``stored``: a select when ``values`` are given,
    else a button."""
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
            f"{custom_id!r} is component type {kind}: use click() for buttons, select() for selects"
        )
    return component

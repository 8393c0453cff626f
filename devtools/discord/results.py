"""What a test reads back: the messages Discord would show and the requests that made them."""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from devtools.discord.records import RecordedFile, RecordedRequest, Session, StoredMessage
from devtools.discord.wire import EPHEMERAL, JSON, LOADING, Place, walk_components


class SentMessage:
    """A live handle on a message the fake Discord holds (reads its latest version).

    Pass it to :meth:`Harness.click`, :meth:`Harness.select` or as a context-menu target.
    """

    def __init__(
        self,
        stored: StoredMessage,
        files: list[RecordedFile] | None = None,
        request: JSON | None = None,
    ) -> None:
        self._stored = stored
        self.files: list[RecordedFile] = files or []
        # What discord.py sent for a channel.send (allowed_mentions, nonce…); None otherwise.
        self.request: JSON | None = request

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else ""
        return f"<SentMessage id={self.id}{state} ephemeral={self.ephemeral}>"

    @property
    def id(self) -> int:
        return self._stored.id

    @property
    def payload(self) -> JSON:
        """The message object as Discord would return it now (a copy)."""
        return copy.deepcopy(self._stored.data)

    @property
    def place(self) -> Place:
        return self._stored.place

    @property
    def flags(self) -> int:
        return self._stored.flags

    @property
    def ephemeral(self) -> bool:
        return self._stored.ephemeral

    @property
    def loading(self) -> bool:
        """Still the "is thinking…" placeholder of a deferred response."""
        return self._stored.loading

    @property
    def deleted(self) -> bool:
        return self._stored.deleted

    @property
    def visible_to(self) -> int | None:
        return self._stored.visible_to

    @property
    def content(self) -> str:
        return str(self._stored.data.get("content") or "")

    @property
    def allowed_mentions(self) -> JSON | None:
        """``allowed_mentions`` of the ``channel.send`` that made this message."""
        return None if self.request is None else self.request.get("allowed_mentions")

    @property
    def embeds(self) -> list[JSON]:
        return copy.deepcopy(list(self._stored.data.get("embeds") or []))

    @property
    def components(self) -> list[JSON]:
        return copy.deepcopy(list(self._stored.data.get("components") or []))

    @property
    def attachments(self) -> list[JSON]:
        return copy.deepcopy(list(self._stored.data.get("attachments") or []))

    @property
    def versions(self) -> list[JSON]:
        """Earlier states of the message, oldest first (each edit pushes one)."""
        return copy.deepcopy(self._stored.versions)

    def component(self, custom_id: str) -> JSON | None:
        for component in walk_components(self._stored.data.get("components") or []):
            if component.get("custom_id") == custom_id:
                return copy.deepcopy(component)
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [
            str(c["custom_id"])
            for c in walk_components(self._stored.data.get("components") or [])
            if c.get("custom_id")
        ]


@dataclass(frozen=True)
class ModalInfo:
    custom_id: str
    title: str
    components: list[JSON]

    @property
    def inputs(self) -> list[JSON]:
        """The fields a user fills in (text inputs and selects), wherever they are nested."""
        return [c for c in walk_components(self.components) if c.get("type") in (3, 4, 5, 6, 7, 8)]


class InteractionResult:
    """Everything discord.py sent Discord for one interaction, in order, and what it showed.

    Live: a request the bot makes later with this interaction's token (a view, a background
    task) still lands here.
    """

    def __init__(self, session: Session, messages: dict[int, StoredMessage]) -> None:
        self._session = session
        self._messages = messages

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.command_name or self.interaction_type} "
            f"callback={self.callback_type} requests={len(self.requests)}>"
        )

    # --- identity ----------------------------------------------------------------------------

    @property
    def interaction_id(self) -> int:
        return self._session.interaction_id

    @property
    def token(self) -> str:
        return self._session.token

    @property
    def interaction_type(self) -> int:
        return self._session.interaction_type

    @property
    def command_name(self) -> str | None:
        return self._session.command_name

    @property
    def place(self) -> Place:
        return self._session.place

    @property
    def user_id(self) -> int:
        return self._session.user_id

    @property
    def log_records(self) -> list[logging.LogRecord]:
        """Log records of WARNING and above emitted while the harness awaited this interaction."""
        return list(self._session.log_records)

    # --- requests ----------------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        return list(self._session.requests)

    @property
    def transcript(self) -> str:
        """Every request as one JSON line each: method, path, status, payload, error, files."""
        return "\n".join(r.to_json() for r in self._session.requests)

    @property
    def callback(self) -> RecordedRequest | None:
        """The initial response (the first callback request, even if Discord refused it)."""
        return next((r for r in self._session.requests if r.kind == "callback"), None)

    @property
    def initial(self) -> JSON | None:
        """The initial response body: ``{"type": N, "data": {...}}``."""
        callback = self.callback
        return None if callback is None else copy.deepcopy(callback.payload)

    @property
    def callback_type(self) -> int | None:
        callback = self.callback
        return None if callback is None else callback.callback_type

    @property
    def followups(self) -> list[RecordedRequest]:
        return [r for r in self._session.requests if r.kind == "followup"]

    @property
    def edits(self) -> list[RecordedRequest]:
        return [r for r in self._session.requests if r.kind in ("edit_original", "edit_message")]

    @property
    def deletes(self) -> list[RecordedRequest]:
        return [
            r for r in self._session.requests if r.kind in ("delete_original", "delete_message")
        ]

    @property
    def rejected(self) -> list[RecordedRequest]:
        """Requests Discord refused (status >= 400): the bot saw an HTTPException for each."""
        return [r for r in self._session.requests if not r.ok]

    @property
    def deleted_original(self) -> bool:
        return self._session.deleted_original

    @property
    def expired(self) -> bool:
        return self._session.expired

    # --- what the user saw -------------------------------------------------------------------

    @property
    def messages(self) -> list[SentMessage]:
        """Messages this interaction created or changed, oldest first, deleted ones included."""
        return [SentMessage(self._messages[i]) for i in self._session.message_ids]

    @property
    def visible_messages(self) -> list[SentMessage]:
        return [m for m in self.messages if not m.deleted]

    @property
    def message(self) -> SentMessage | None:
        """The last message this interaction created or changed that is still visible."""
        visible = self.visible_messages
        return visible[-1] if visible else None

    @property
    def last_message(self) -> JSON | None:
        """The payload of :attr:`message` as it stands now."""
        message = self.message
        return None if message is None else message.payload

    @property
    def original(self) -> SentMessage | None:
        """The message ``@original`` refers to (the response, or the clicked message)."""
        original_id = self._session.original_id
        return None if original_id is None else SentMessage(self._messages[original_id])

    @property
    def ephemeral(self) -> bool:
        """True when every message this interaction left visible is ephemeral (flag 64).

        False when it left nothing visible (a modal, an autocomplete, a deleted response).
        """
        visible = self.visible_messages
        return bool(visible) and all(m.flags & EPHEMERAL for m in visible)

    @property
    def left_thinking(self) -> bool:
        """A deferred "is thinking…" placeholder was never filled, edited or deleted."""
        return any(m.flags & LOADING for m in self.visible_messages)

    def _bodies(self) -> list[JSON]:
        return [
            body for r in self._session.requests if r.ok and (body := r.message_body) is not None
        ]

    @property
    def embeds(self) -> list[JSON]:
        """Every embed sent for this interaction and accepted by Discord, in order
        (initial response, followups, edits): all the embeds the user was shown."""
        return [copy.deepcopy(e) for body in self._bodies() for e in body.get("embeds") or []]

    @property
    def contents(self) -> list[str]:
        """Every non-empty message content shown, in order."""
        return [str(b["content"]) for b in self._bodies() if b.get("content")]

    @property
    def components(self) -> list[JSON]:
        """The components of :attr:`message` as they stand now."""
        message = self.message
        return [] if message is None else message.components

    @property
    def allowed_mentions(self) -> JSON | None:
        """``allowed_mentions`` of the last accepted message-bearing request."""
        bodies = self._bodies()
        return None if not bodies else bodies[-1].get("allowed_mentions")

    @property
    def allowed_mentions_all(self) -> list[JSON | None]:
        """``allowed_mentions`` of every accepted message-bearing request, in order."""
        return [b.get("allowed_mentions") for b in self._bodies()]

    @property
    def files(self) -> list[RecordedFile]:
        return [f for r in self._session.requests if r.ok for f in r.files]

    @property
    def modal(self) -> ModalInfo | None:
        modal = self._session.modal
        if modal is None:
            return None
        return ModalInfo(
            custom_id=str(modal["custom_id"]),
            title=str(modal["title"]),
            components=copy.deepcopy(list(modal.get("components") or [])),
        )

    @property
    def choices(self) -> list[JSON] | None:
        """The autocomplete choices answered (callback type 8), or None."""
        choices = self._session.choices
        return None if choices is None else copy.deepcopy(choices)


class AutocompleteChoices(list[JSON]):
    """The choices an autocomplete answered; ``.result`` holds the full interaction record."""

    def __init__(self, choices: list[JSON], result: InteractionResult) -> None:
        super().__init__(choices)
        self.result = result

    @property
    def names(self) -> list[str]:
        return [str(c["name"]) for c in self]

    @property
    def values(self) -> list[Any]:
        return [c["value"] for c in self]


@dataclass
class MessageExchange:
    """A user's message dispatched to the bot, and what the bot sent while handling it."""

    message: discord.Message
    payload: JSON
    replies: list[SentMessage] = field(default_factory=list)
    log_records: list[logging.LogRecord] = field(default_factory=list)

    @property
    def reply_embeds(self) -> list[JSON]:
        return [e for reply in self.replies for e in reply.embeds]

"""Discord's side of interaction webhooks, in memory.

discord.py answers interactions through ``discord.webhook.async_.async_context``: a
:class:`RecordingAdapter` set there receives every callback, followup, edit, fetch and delete.
:class:`FakeDiscord` records each one and answers as Discord would: with message objects that
have ids (so discord.py builds ``WebhookMessage``/``InteractionMessage`` and stores views under
the right message id), and with Discord's errors (already acknowledged, unknown message,
invalid form body) when the bot does something Discord would refuse.

Two Discord behaviours are modelled because the bot must handle them (platform-facts):
* the first followup after a deferred (type 5) response replaces the "thinking…" placeholder and
  takes the placeholder's visibility: its own ephemeral flag is ignored;
* a token can be expired (:meth:`FakeDiscord.expire`): callbacks then fail with 10062 and
  webhook calls with 50027, as after Discord's 3-second / 15-minute windows.
"""

from __future__ import annotations

import copy
import json
import mimetypes
from collections.abc import Sequence
from typing import Any, NoReturn

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from devtools.discord import payload_checks
from devtools.discord.records import (
    RecordedFile,
    RecordedRequest,
    RequestKind,
    Session,
    StoredMessage,
    http_error,
)
from devtools.discord.wire import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    JSON,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    attachment_payload,
    message_payload,
    now_iso,
    snowflake,
)

# Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}
# Message flags an edit may change; the rest (ephemeral above all) are fixed at creation.
EDITABLE_FLAGS = discord.MessageFlags(suppress_embeds=True).value
_ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
_MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
_KINDS: dict[tuple[str, str], RequestKind] = {
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"): "callback",
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): "followup",
    ("GET", _ORIGINAL): "get_original",
    ("PATCH", _ORIGINAL): "edit_original",
    ("DELETE", _ORIGINAL): "delete_original",
    ("GET", _MESSAGE): "get_message",
    ("PATCH", _MESSAGE): "edit_message",
    ("DELETE", _MESSAGE): "delete_message",
}


class Rejected(Exception):
    """Discord's refusal, raised to unwind to :meth:`FakeDiscord.handle`."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> JSON:
        body: JSON = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def _reject_problems(code: int, problems: list[payload_checks.Problem]) -> NoReturn:
    if code == 50006:
        raise Rejected(400, 50006, "Cannot send an empty message")
    raise Rejected(400, 50035, "Invalid Form Body", payload_checks.form_errors(problems))


class FakeDiscord:
    """Messages, open interactions and every request, as Discord would hold them."""

    def __init__(self, *, application_id: int, bot_user: JSON) -> None:
        self.application_id = application_id
        self.bot_user = bot_user
        self.messages: dict[int, StoredMessage] = {}
        self.sessions: dict[str, Session] = {}
        self.requests: list[RecordedRequest] = []

    # --- bookkeeping -------------------------------------------------------------------------

    def open(self, session: Session) -> None:
        self.sessions[session.token] = session

    def expire(self, session: Session) -> None:
        session.expired = True

    def store(self, message: StoredMessage) -> StoredMessage:
        self.messages[message.id] = message
        return message

    def message(self, message_id: int) -> StoredMessage | None:
        return self.messages.get(message_id)

    # --- the HTTP surface --------------------------------------------------------------------

    def handle(
        self,
        route: Route,
        payload: JSON | None,
        files: list[RecordedFile],
        params: JSON | None,
    ) -> Any:
        kind = _KINDS.get((route.method, route.path), "other")
        request = RecordedRequest(
            method=route.method,
            path=route.url.removeprefix(Route.BASE),
            kind=kind,
            payload=copy.deepcopy(payload),
            files=files,
            params=dict(params) if params else None,
        )
        self.requests.append(request)
        session = self.sessions.get(str(route.webhook_token))
        if session is not None:
            session.requests.append(request)
        try:
            if kind == "other":
                raise NotImplementedError(
                    f"the harness does not model {route.method} {route.path}; extend FakeDiscord"
                )
            if session is None:
                if kind == "callback":
                    raise Rejected(404, 10062, "Unknown interaction")
                raise Rejected(404, 10015, "Unknown Webhook")
            return self._answer(session, request, route, payload or {})
        except Rejected as rejected:
            request.status, request.error = rejected.status, rejected.body()
            raise http_error(
                rejected.status, rejected.code, rejected.message, rejected.errors
            ) from None

    def _answer(self, session: Session, request: RecordedRequest, route: Route, body: JSON) -> Any:
        if session.expired:
            if request.kind == "callback":
                raise Rejected(404, 10062, "Unknown interaction")
            raise Rejected(401, 50027, "Invalid Webhook Token")
        if request.kind == "callback":
            return self._callback(session, request, body)
        if request.kind == "followup":
            return self._followup(session, request, body)
        message = self._target(session, request, route)
        request.message_id = message.id
        if request.kind in ("get_original", "get_message"):
            return copy.deepcopy(message.data)
        if request.kind in ("edit_original", "edit_message"):
            code, problems = payload_checks.check_message(body, creating=False)
            if code:
                _reject_problems(code, problems)
            self._edit(message, body, request.files)
            session.touch(message.id)
            return copy.deepcopy(message.data)
        message.deleted = True
        if request.kind == "delete_original":
            session.deleted_original = True
        return None

    def _target(self, session: Session, request: RecordedRequest, route: Route) -> StoredMessage:
        if request.kind.endswith("_original"):
            message_id = session.original_id
        else:
            message_id = int(route.url.rsplit("/", 1)[-1])
            if message_id not in session.message_ids and message_id != session.original_id:
                message_id = None  # another interaction's message: not this token's to touch
        message = None if message_id is None else self.messages.get(message_id)
        if message is None or message.deleted:
            raise Rejected(404, 10008, "Unknown Message")
        return message

    # --- callbacks ---------------------------------------------------------------------------

    def _callback(self, session: Session, request: RecordedRequest, body: JSON) -> JSON:
        if session.acknowledged:
            raise Rejected(400, 40060, "Interaction has already been acknowledged.")
        callback_type = int(body["type"])
        data: JSON = body.get("data") or {}
        if callback_type not in ALLOWED_CALLBACKS.get(session.interaction_type, frozenset()):
            raise Rejected(
                400,
                50035,
                f"Callback type {callback_type} is not valid for interaction type "
                f"{session.interaction_type}",
            )
        if callback_type in (6, 7) and session.source_message_id is None:
            raise Rejected(400, 50035, "No message to update for this interaction")
        self._validate_callback(callback_type, data)
        session.acknowledged = True
        message: StoredMessage | None = None
        if callback_type == 4:
            message = self._create(session, data, request.files, original=True)
        elif callback_type == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._create(session, {"flags": flags}, [], original=True)
        elif callback_type in (6, 7):
            message = self.messages[session.source_message_id]  # type: ignore[index]
            session.original_id = message.id
            if callback_type == 7:
                self._edit(message, data, request.files)
                session.touch(message.id)
        elif callback_type == 8:
            session.choices = list(data.get("choices") or [])
        elif callback_type == 9:
            session.modal = copy.deepcopy(data)
        if message is not None:
            request.message_id = message.id
        interaction: JSON = {
            "id": str(session.interaction_id),
            "type": session.interaction_type,
            "response_message_loading": callback_type == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: JSON = {"type": callback_type}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            resource["message"] = copy.deepcopy(message.data)
        return {"interaction": interaction, "resource": resource}

    @staticmethod
    def _validate_callback(callback_type: int, data: JSON) -> None:
        if callback_type in (4, 7):
            code, problems = payload_checks.check_message(data, creating=callback_type == 4)
            if code:
                _reject_problems(code, problems)
        elif callback_type == 8:
            problems = payload_checks.check_choices(list(data.get("choices") or []))
            if problems:
                _reject_problems(50035, problems)
        elif callback_type == 9:
            problems = payload_checks.check_modal(data)
            if problems:
                _reject_problems(50035, problems)

    # --- followups and messages --------------------------------------------------------------

    def _followup(self, session: Session, request: RecordedRequest, body: JSON) -> JSON:
        if not session.acknowledged:
            raise Rejected(404, 10015, "Unknown Webhook")
        code, problems = payload_checks.check_message(body, creating=True)
        if code:
            _reject_problems(code, problems)
        original = None if session.original_id is None else self.messages[session.original_id]
        if original is not None and original.loading and not original.deleted:
            # The first followup after a defer *is* the deferred response: it fills the
            # placeholder, which keeps the visibility chosen at defer time.
            fixed = original.flags & EPHEMERAL
            body = {**body, "flags": (int(body.get("flags") or 0) & ~EPHEMERAL) | fixed}
            self._edit(original, body, request.files, flags_fixed=False)
            message = original
        else:
            message = self._create(session, body, request.files, original=False)
        session.followup_ids.append(message.id)
        session.touch(message.id)
        request.message_id = message.id
        return copy.deepcopy(message.data)

    def _create(
        self, session: Session, body: JSON, files: Sequence[RecordedFile], *, original: bool
    ) -> StoredMessage:
        message_id = snowflake()
        body = dict(body)
        body["attachments"] = self._attachments(
            body.get("attachments") or [], files, session.place.channel_id, []
        )
        message_type = 0
        if original and session.interaction_type == APPLICATION_COMMAND:
            message_type = 20 if session.command_type == 1 else 23
        metadata: JSON = {
            "id": str(session.interaction_id),
            "type": session.interaction_type,
            "user": session.user,
            "authorizing_integration_owners": session.owners,
        }
        if session.source_message_id is not None:
            metadata["interacted_message_id"] = str(session.source_message_id)
        data = message_payload(
            message_id=message_id,
            place=session.place,
            author=self.bot_user,
            body=body,
            message_type=message_type,
            application_id=self.application_id,
            interaction_metadata=metadata,
        )
        flags = int(data["flags"])
        stored = StoredMessage(
            id=message_id,
            data=data,
            place=session.place,
            visible_to=session.user_id if flags & EPHEMERAL else None,
        )
        self.store(stored)
        if original:
            session.original_id = message_id
        session.touch(message_id)
        return stored

    def _edit(
        self,
        message: StoredMessage,
        body: JSON,
        files: Sequence[RecordedFile],
        *,
        flags_fixed: bool = True,
    ) -> None:
        message.versions.append(copy.deepcopy(message.data))
        data = message.data
        for key, empty in (("content", ""), ("embeds", []), ("components", []), ("poll", None)):
            if key in body:
                data[key] = body[key] if body[key] is not None else empty
        if "attachments" in body:
            data["attachments"] = self._attachments(
                body["attachments"] or [], files, message.place.channel_id, data["attachments"]
            )
        flags = message.flags & ~LOADING
        if "flags" in body and body["flags"] is not None:
            wanted = int(body["flags"])
            if flags_fixed:
                flags = (flags & ~EDITABLE_FLAGS) | (wanted & EDITABLE_FLAGS)
            else:
                flags = wanted & ~LOADING
        data["flags"] = flags
        data["edited_timestamp"] = now_iso()

    @staticmethod
    def _attachments(
        specs: list[JSON], files: Sequence[RecordedFile], channel_id: int, existing: list[JSON]
    ) -> list[JSON]:
        kept = {str(a["id"]): a for a in existing}
        result: list[JSON] = []
        for spec in specs:
            spec_id = str(spec.get("id"))
            if spec_id in kept:
                result.append(kept[spec_id])
                continue
            index = int(spec_id) if spec_id.isdigit() else -1
            if not 0 <= index < len(files):
                raise Rejected(400, 50035, "Invalid Form Body", {"attachments": {"_errors": []}})
            upload = files[index]
            result.append(
                attachment_payload(
                    snowflake(),
                    channel_id,
                    str(spec.get("filename") or upload.filename),
                    len(upload.data),
                    upload.content_type,
                )
            )
        return result


class RecordingAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter, talking to :class:`FakeDiscord` instead of the network."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.fake = fake

    async def request(
        self,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        proxy: str | None = None,
        proxy_auth: Any = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        body = payload
        for part in multipart or []:
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        recorded = [read_file(file) for file in files or []]
        return self.fake.handle(route, body, recorded, params)


def read_file(file: discord.File) -> RecordedFile:
    file.reset(seek=True)
    data = file.fp.read()
    file.reset(seek=True)
    return RecordedFile(file.filename or "", data, mimetypes.guess_type(file.filename or "")[0])

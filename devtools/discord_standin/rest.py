"""Discord's REST API (v10), the part the bot uses, with Discord's headers, limits and errors.

Interaction callbacks and webhooks are answered by the harness's :class:`FakeDiscord` (the
same model the fast tests use); channel messages, DMs, threads (started on a message; a forum
takes no messages), the application and command registration are modelled here. Every request
is recorded with its status; every message body is checked against Discord's limits (a broken
one gets 50035, as on Discord) and against the project's rule that nothing goes out able to
mention anyone it did not name.
"""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web
from discord.http import Route

from devtools.discord import payload_checks
from devtools.discord.fake_discord import FakeDiscord
from devtools.discord.records import RecordedFile, StoredMessage
from devtools.discord.wire import JSON
from devtools.discord_standin.interactions import Commands
from devtools.discord_standin.ratelimits import Answer, RateLimits
from devtools.discord_standin.world import GUILD_FORUM, GUILD_TEXT, World

API_PREFIX = "/api/v10"
# The flags a bot may set on a channel message: suppress embeds, suppress notifications, voice
# message, components v2 (not ephemeral: only interaction responses can be).
CHANNEL_MESSAGE_FLAGS = (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15)
BODY = web.RequestKey("standin.body", tuple)  # (JSON payload, uploaded files)
# The status recorded for a held request that never reached Discord (:meth:`Rest.lose`):
# nginx's "client closed request"; nobody reads the answer.
LOST = 499
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class RestRequest:
    """One request the bot made, as the stand-in saw and answered it."""

    method: str
    path: str
    kind: str
    status: int = 200
    payload: JSON | list[Any] | None = None
    files: list[str] = field(default_factory=list)
    error: JSON | None = None
    at: float = field(default_factory=time.monotonic)


def json_response(
    body: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # Exactly "application/json": discord.py reads a body with a charset suffix as text.
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(body).encode(), status=status, headers=all_headers)


async def read_body(request: web.Request) -> tuple[Any, list[RecordedFile]]:
    """The JSON body, or a multipart body's ``payload_json`` and its files."""
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: list[RecordedFile] = []
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None)
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(data)
            else:
                filename = getattr(part, "filename", None) or ""
                content_type = part.headers.get("Content-Type")  # type: ignore[union-attr]
                files.append(RecordedFile(filename, bytes(data), content_type))
        return payload, files
    if not request.can_read_body:
        return None, []
    return await request.json(), []


def mention_problems(body: JSON | None) -> list[str]:
    """Text that could ping people the bot did not name: content sent without
    ``allowed_mentions`` or with ``parse`` non-empty."""
    if not body or not body.get("content"):
        return []
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return ["content sent without allowed_mentions (Discord then parses every mention)"]
    if allowed.get("parse"):
        return [f"allowed_mentions.parse is {allowed['parse']!r}"]
    return []


class Rest:
    def __init__(
        self,
        world: World,
        fake: FakeDiscord,
        commands: Commands,
        ratelimits: RateLimits,
        *,
        gateway_url: Callable[[], str],
        recommended_shards: int,
        on_change: Callable[[], None],
        on_thread: Callable[[JSON, JSON], Awaitable[None]],
    ) -> None:
        self.world, self.fake, self.commands, self.ratelimits = world, fake, commands, ratelimits
        self.gateway_url = gateway_url
        self.recommended_shards = recommended_shards
        self.on_change = on_change
        self.on_thread = on_thread
        self.requests: list[RestRequest] = []
        # Called with each request once it is answered (the fake Discord's state updated).
        self.listeners: list[Callable[[RestRequest], None]] = []
        self.problems: list[str] = []
        self.session_starts = 0
        # Requests held (not answered) while the matching event is unset: a send in flight.
        self.holds: dict[str, Any] = {}

    def routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        webhook = p + "/webhooks/{webhook_id}/{webhook_token}"
        return [
            web.get(p + "/gateway", self._gateway),
            web.get(p + "/gateway/bot", self._authed("gateway", self._gateway_bot)),
            web.get(p + "/users/@me", self._authed("user", self._me)),
            web.get(p + "/oauth2/applications/@me", self._authed("application", self._app)),
            web.get(p + "/applications/@me", self._authed("application", self._app)),
            web.put(
                p + "/applications/{app}/commands", self._authed("commands", self._put_commands)
            ),
            web.get(
                p + "/applications/{app}/commands", self._authed("commands", self._get_commands)
            ),
            web.put(
                p + "/applications/{app}/guilds/{guild}/commands",
                self._authed("commands", self._put_guild_commands),
            ),
            web.post(
                p + "/interactions/{webhook_id}/{webhook_token}/callback",
                self._webhook(
                    "callback", "POST", "/interactions/{webhook_id}/{webhook_token}/callback"
                ),
            ),
            web.post(
                webhook, self._webhook("webhook", "POST", "/webhooks/{webhook_id}/{webhook_token}")
            ),
            *[
                method(
                    webhook + "/messages/{message_id}",
                    self._webhook(
                        "webhook",
                        verb,
                        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                    ),
                )
                for method, verb in ((web.get, "GET"), (web.patch, "PATCH"), (web.delete, "DELETE"))
            ],
            web.post(
                p + "/channels/{channel}/messages", self._authed("channel_message", self._send)
            ),
            web.get(
                p + "/channels/{channel}/messages", self._authed("channel_history", self._history)
            ),
            web.patch(
                p + "/channels/{channel}/messages/{message}",
                self._authed("channel_message", self._edit),
            ),
            web.delete(
                p + "/channels/{channel}/messages/{message}",
                self._authed("channel_message", self._delete),
            ),
            web.post(
                p + "/channels/{channel}/messages/{message}/threads",
                self._authed("thread", self._thread),
            ),
            web.post(p + "/channels/{channel}/typing", self._authed("typing", self._typing)),
            web.get(p + "/channels/{channel}", self._authed("channel", self._channel)),
            web.post(p + "/users/@me/channels", self._authed("dm_open", self._open_dm)),
            web.route("*", p + "/{tail:.*}", self._unmodelled),
        ]

    # --- plumbing ----------------------------------------------------------------------------

    def _record(self, request: web.Request, kind: str, payload: Any = None) -> RestRequest:
        recorded = RestRequest(request.method, request.path_qs.removeprefix(API_PREFIX), kind)
        recorded.payload = copy.deepcopy(payload)
        self.requests.append(recorded)
        return recorded

    def _finish(self, recorded: RestRequest, response: web.Response) -> web.Response:
        recorded.status = response.status
        if response.status >= 400 and response.body:
            body = json.loads(bytes(response.body))  # type: ignore[arg-type]
            recorded.error = body if isinstance(body, dict) else None
        for listener in self.listeners:
            listener(recorded)
        self.on_change()
        return response

    def _limited(self, kind: str, major: str) -> tuple[Answer | None, dict[str, str]]:
        return self.ratelimits.check(kind, major)

    def _authed(
        self, kind: str, handler: Callable[[web.Request, RestRequest], Awaitable[web.Response]]
    ) -> Handler:
        async def serve(request: web.Request) -> web.StreamResponse:
            payload, files = await read_body(request)
            recorded = self._record(request, kind, payload)
            recorded.files = [f.filename for f in files]
            request[BODY] = (payload, files)
            if request.headers.get("Authorization") != f"Bot {self.world.token}":
                return self._finish(recorded, json_response(_unauthorized(), 401))
            refused, headers = self._limited(kind, _major(request))
            if refused is not None:
                return self._finish(
                    recorded, json_response(refused.body, refused.status, refused.headers)
                )
            if not await self._hold(kind):
                return self._finish(recorded, web.Response(status=LOST))
            response = await handler(request, recorded)
            response.headers.update(headers)
            await self._answer_late(kind)
            return self._finish(recorded, response)

        return serve

    async def _hold(self, kind: str) -> bool:
        """Wait while ``kind`` is held before acting; whether to act (not when it was lost)."""
        gate = self.holds.get(kind)
        if gate is not None and not gate["act_first"]:
            gate["arrived"].set()
            self.on_change()
            await gate["release"].wait()
            return not gate["lost"]
        return True

    async def _answer_late(self, kind: str) -> None:
        """Wait, the request acted on, while ``kind`` is held with ``act_first``."""
        gate = self.holds.get(kind)
        if gate is not None and gate["act_first"]:
            gate["arrived"].set()
            self.on_change()
            await gate["release"].wait()

    def hold(self, kind: str, *, act_first: bool = False) -> tuple[Any, Any]:
        """Hold requests of ``kind`` until the returned release event is set; the arrived
        event is set when the first one came in.

        By default a held request is acted on once released: a request still on its way to
        Discord. With ``act_first`` (REST kinds, not interaction callbacks or webhooks) it is
        acted on at once (the message is created) and only its answer waits: a request that
        went out whose answer never reached a client killed meanwhile."""
        gate: dict[str, Any] = {
            "arrived": asyncio.Event(),
            "release": asyncio.Event(),
            "act_first": act_first,
            "lost": False,
        }
        self.holds[kind] = gate
        return gate["arrived"], gate["release"]

    def lose(self, kind: str) -> None:
        """The requests held (before acting) of ``kind`` never reached Discord, their client
        killed: they are let go without being acted on (recorded with status :data:`LOST`),
        and later requests of ``kind`` pass."""
        gate = self.holds.pop(kind, None)
        if gate is not None:
            gate["lost"] = True
            gate["release"].set()

    # --- the application ---------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        recorded = self._record(request, "gateway")
        return self._finish(recorded, json_response({"url": self.gateway_url()}))

    async def _gateway_bot(self, request: web.Request, recorded: RestRequest) -> web.Response:
        self.session_starts += 1
        return json_response(
            {
                "url": self.gateway_url(),
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000 - self.session_starts,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def _me(self, request: web.Request, recorded: RestRequest) -> web.Response:
        return json_response(self.world.bot_user)

    async def _app(self, request: web.Request, recorded: RestRequest) -> web.Response:
        app_id = str(self.world.application_id)
        return json_response(
            {
                "id": app_id,
                "name": self.world.bot_user["username"],
                "icon": None,
                "description": "Catholic teaching with citations",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.world.bot_user | {"id": str(int(app_id) + 1), "bot": False},
                "team": None,
                "bot": self.world.bot_user,
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.world.guilds),
                "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
                "integration_types_config": {"0": {}, "1": {}},
            }
        )

    async def _put_commands(self, request: web.Request, recorded: RestRequest) -> web.Response:
        body, _files = request[BODY]
        return json_response(self.commands.register(list(body or [])))

    async def _get_commands(self, request: web.Request, recorded: RestRequest) -> web.Response:
        return json_response(list(self.commands.registered.values()))

    async def _put_guild_commands(
        self, request: web.Request, recorded: RestRequest
    ) -> web.Response:
        body, _files = request[BODY]
        guild_id = request.match_info["guild"]
        if int(guild_id) not in self.world.guilds:
            # Discord's answer for a server the app was not added to (JSON error code 50001).
            return json_response({"message": "Missing Access", "code": 50001}, 403)
        return json_response([self.commands.stored(c, guild_id) for c in body or []])

    # --- interactions and webhooks (the harness's model of them) -----------------------------

    def _webhook(self, kind: str, method: str, template: str) -> Handler:
        async def serve(request: web.Request) -> web.StreamResponse:
            payload, files = await read_body(request)
            recorded = self._record(request, kind, payload)
            recorded.files = [f.filename for f in files]
            params = dict(request.match_info)
            refused, headers = self._limited(kind, params.get("webhook_token", ""))
            if refused is not None:
                return self._finish(
                    recorded, json_response(refused.body, refused.status, refused.headers)
                )
            if not await self._hold(kind):
                return self._finish(recorded, web.Response(status=LOST))
            self._check_mentions(recorded.path, _message_body(kind, payload))
            path = template
            if params.get("message_id") in ("@original", "%40original"):
                path = template.replace("{message_id}", "@original")
                del params["message_id"]
            route = Route(method, path, **params)
            query = dict(request.query)
            try:
                answer = self.fake.handle(route, payload, files, query or None)
            except discord.HTTPException as error:
                body = self.fake.requests[-1].error or {"code": error.code, "message": error.text}
                return self._finish(recorded, json_response(body, error.status))
            wants_body = kind != "callback" or query.get("with_response") in ("1", "true", "True")
            if method == "DELETE" or answer is None or not wants_body:
                response = web.Response(status=204, headers=headers)
            else:
                if (
                    kind == "webhook"
                    and method == "POST"
                    and query.get("wait") not in ("1", "true", "True")
                ):
                    return self._finish(recorded, web.Response(status=204, headers=headers))
                response = json_response(answer, 200, headers)
            return self._finish(recorded, response)

        return serve

    def _check_mentions(self, where: str, body: JSON | None) -> None:
        self.problems.extend(f"{where}: {problem}" for problem in mention_problems(body))

    # --- channels, messages, DMs, threads ----------------------------------------------------

    def _channel_or_404(self, request: web.Request) -> Any:
        channel = self.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return json_response({"message": "Unknown Channel", "code": 10003}, 404)
        return channel

    async def _send(self, request: web.Request, recorded: RestRequest) -> web.Response:
        channel = self._channel_or_404(request)
        if isinstance(channel, web.Response):
            return channel
        if channel.type == GUILD_FORUM:  # posts are threads: POST /channels/{forum}/threads
            return json_response(
                {"message": "Cannot send messages in a non-text channel", "code": 50008}, 400
            )
        body, files = request[BODY]
        body = dict(body or {})
        code, problems = payload_checks.check_message(body, creating=True)
        stray_flags = int(body.get("flags") or 0) & ~CHANNEL_MESSAGE_FLAGS
        if stray_flags and not code:
            code, problems = 50035, [("flags", f"Flags {stray_flags} cannot be set here.")]
        if code:
            errors = payload_checks.form_errors(problems) if code == 50035 else None
            message = "Invalid Form Body" if code == 50035 else "Cannot send an empty message"
            error: JSON = {"code": code, "message": message}
            if errors:
                error["errors"] = errors
            return json_response(error, 400)
        self._check_mentions(recorded.path, body)
        if files:
            body["attachments"] = [
                {"id": str(i), "filename": f.filename, "size": len(f.data), "url": ""}
                for i, f in enumerate(files)
            ]
        data, _created = self.world.post(channel, self.world.bot_user, body)
        self.fake.store(StoredMessage(id=int(data["id"]), data=data, place=channel.place()))
        return json_response(data)

    async def _history(self, request: web.Request, recorded: RestRequest) -> web.Response:
        channel = self._channel_or_404(request)
        if isinstance(channel, web.Response):
            return channel
        limit = min(int(request.query.get("limit", 50)), 100)
        newest_first = sorted(self._visible_in(channel), key=lambda m: int(m["id"]), reverse=True)
        return json_response(newest_first[:limit])

    def _visible_in(self, channel: Any) -> list[JSON]:
        """Everyone's messages in ``channel``: those posted to it and the public interaction
        responses the fake Discord holds there."""
        posted = {m["id"] for m in channel.messages}
        responses = [
            m.data
            for m in self.fake.messages.values()
            if m.place.channel_id == channel.id
            and not m.ephemeral
            and not m.deleted
            and m.data["id"] not in posted
        ]
        return [*channel.messages, *responses]

    def _message_in(self, request: web.Request) -> Any:
        channel = self._channel_or_404(request)
        if isinstance(channel, web.Response):
            return channel, None
        message_id = request.match_info["message"]
        message = next((m for m in self._visible_in(channel) if m["id"] == message_id), None)
        if message is None:
            return channel, json_response({"message": "Unknown Message", "code": 10008}, 404)
        return channel, message

    async def _edit(self, request: web.Request, recorded: RestRequest) -> web.Response:
        _channel, message = self._message_in(request)
        if isinstance(message, web.Response) or message is None:
            return message or _channel
        body, _files = request[BODY]
        code, problems = payload_checks.check_message(dict(body or {}), creating=False)
        if code:
            return json_response(
                {
                    "code": code,
                    "message": "Invalid Form Body",
                    "errors": payload_checks.form_errors(problems),
                },
                400,
            )
        self._check_mentions(recorded.path, body)
        for key in ("content", "embeds", "components"):
            if key in (body or {}):
                message[key] = body[key]
        return json_response(message)

    async def _delete(self, request: web.Request, recorded: RestRequest) -> web.Response:
        channel, message = self._message_in(request)
        if isinstance(message, web.Response) or message is None:
            return message or channel
        if message in channel.messages:
            channel.messages.remove(message)
        stored = self.fake.messages.get(int(message["id"]))
        if stored is not None:
            stored.deleted = True
        return web.Response(status=204)

    async def _thread(self, request: web.Request, recorded: RestRequest) -> web.Response:
        """Start Thread from Message: a public thread whose id is the message's, in a text
        channel only; THREAD_CREATE, then MESSAGE_UPDATE of the message (now with ``thread``)."""
        parent, message = self._message_in(request)
        if isinstance(message, web.Response) or message is None:
            return message or parent
        if parent.type != GUILD_TEXT:  # a thread's, a DM's (a forum holds no messages)
            return json_response(
                {"message": "Cannot execute action on this channel type", "code": 50024}, 400
            )
        body, _files = request[BODY]
        problems = payload_checks.thread_problems(body)
        if problems:
            return _invalid_form(problems)
        if message.get("thread"):
            return json_response(
                {"message": "A thread has already been created for this message", "code": 160004},
                400,
            )
        thread = self.world.add_thread(
            parent,
            str(body["name"]),
            int(message["id"]),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        data = thread.payload()
        message["thread"] = data
        await self.on_thread(data, message)
        return json_response(data, 201)

    async def _typing(self, request: web.Request, recorded: RestRequest) -> web.Response:
        channel = self._channel_or_404(request)
        if isinstance(channel, web.Response):
            return channel
        return web.Response(status=204)

    async def _channel(self, request: web.Request, recorded: RestRequest) -> web.Response:
        channel = self._channel_or_404(request)
        if isinstance(channel, web.Response):
            return channel
        return json_response(channel.payload())

    async def _open_dm(self, request: web.Request, recorded: RestRequest) -> web.Response:
        body, _files = request[BODY]
        person = self.world.people.get(int((body or {}).get("recipient_id") or 0))
        if person is None:
            return json_response({"message": "Unknown User", "code": 10013}, 400)
        return json_response(self.world.dm_channel(person.payload()).payload())

    async def _unmodelled(self, request: web.Request) -> web.StreamResponse:
        recorded = self._record(request, "unmodelled")
        self.problems.append(f"unmodelled request {request.method} {recorded.path}")
        return self._finish(recorded, json_response({"message": "404: Not Found", "code": 0}, 404))


def _invalid_form(problems: list[payload_checks.Problem]) -> web.Response:
    return json_response(
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": payload_checks.form_errors(problems),
        },
        400,
    )


def _unauthorized() -> JSON:
    return {"message": "401: Unauthorized", "code": 0}


def _major(request: web.Request) -> str:
    info = request.match_info
    return info.get("channel") or info.get("guild") or info.get("webhook_token") or ""


def _message_body(kind: str, payload: Any) -> JSON | None:
    if not isinstance(payload, dict):
        return None
    if kind == "callback":
        data = payload.get("data")
        return data if isinstance(data, dict) and payload.get("type") in (4, 7) else None
    return payload

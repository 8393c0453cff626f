"""Discord's gateway (v10, JSON, zlib-stream or zstd-stream transport compression).

A connection gets HELLO, answers heartbeats with ACK, and IDENTIFYs (token, intents and shard
checked, with Discord's close codes; a privileged intent is refused with 4014 unless
``World.privileged_intents`` switches it on, as the developer portal does) or RESUMEs. A
session outlives its socket: dispatches meant for it while it is disconnected are kept and
replayed on RESUME, from the sequence the client last saw. Faults on demand: the socket dropped
without a close frame, RECONNECT, INVALID_SESSION, and new sockets held before HELLO
(:meth:`Gateway.hold_connections`) so that a shard stays disconnected while a test delivers
events to its session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from devtools.discord.wire import JSON
from devtools.discord_standin.world import World

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    9,
    10,
    11,
)
ACK_ROUND_TRIP_SECONDS = 0.02
MESSAGE_CONTENT_INTENT = 1 << 15
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | MESSAGE_CONTENT_INTENT  # members, presences, content
# Discord's close codes.
UNKNOWN_OPCODE, DECODE_ERROR, AUTHENTICATION_FAILED = 4001, 4002, 4004
INVALID_SHARD, INVALID_API_VERSION, DISALLOWED_INTENTS = 4010, 4012, 4014


def readable(message: JSON, intents: int, bot_id: str) -> JSON:
    """``message`` as a session with ``intents`` gets it: without the Message Content intent
    its content, embeds, attachments, components and poll are withheld, except in DMs, in
    messages that mention the app (a reply to it carries its mention) and in its own.

    A mention of the app's managed role alone (``mention_roles``, not ``mentions``) is no such
    exception: Discord's docs name only the app's own mention ("Content in which the app is
    mentioned", docs.discord.com/developers/events/gateway#message-content-intent; "Messages
    that @mention your app", …/gateway/you-might-not-need-a-privileged-intent), so the text is
    withheld."""
    if intents & MESSAGE_CONTENT_INTENT or "guild_id" not in message:
        return message
    if str(message.get("author", {}).get("id")) == bot_id:
        return message
    if any(str(user.get("id")) == bot_id for user in message.get("mentions") or []):
        return message
    withheld = {key: value for key, value in message.items() if key != "poll"}
    withheld.update(content="", embeds=[], attachments=[], components=[])
    return withheld


class Compressor(Protocol):
    def __call__(self, data: bytes) -> bytes: ...


def compressor_for(kind: str | None) -> Compressor | None:
    """One stream compressor per connection, as Discord's transport compression is."""
    if kind is None:
        return None
    if kind == "zlib-stream":
        stream = zlib.compressobj()
        return lambda data: stream.compress(data) + stream.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        # Only when discord.py asks for it, which it does only where zstandard is installed.
        import zstandard  # type: ignore[import-not-found]

        zstd = zstandard.ZstdCompressor().compressobj()
        return lambda data: zstd.compress(data) + zstd.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    raise ValueError(f"unknown transport compression {kind!r}")


@dataclass
class Connection:
    """One websocket, with its compressor and a lock that keeps its frames in order."""

    ws: web.WebSocketResponse
    request: web.Request
    compress: Compressor | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    heartbeats: int = 0

    async def send(self, payload: JSON) -> None:
        raw = json.dumps(payload, separators=(",", ":")).encode()
        async with self.lock:
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionError, RuntimeError):
                if self.compress is None:
                    await self.ws.send_str(raw.decode())
                else:
                    await self.ws.send_bytes(self.compress(raw))

    def drop(self) -> None:
        """Cut the TCP connection without a close frame, as a network failure does."""
        transport = self.request.transport
        if transport is not None:
            transport.abort()


@dataclass
class Session:
    """A gateway session: its shard, the dispatches sent in it, the socket it is on now."""

    id: str
    shard: tuple[int, int]
    intents: int
    sequence: int = 0
    sent: list[JSON] = field(default_factory=list)
    connection: Connection | None = None
    ended: bool = False
    resumes: int = 0

    async def dispatch(self, event: str, data: JSON) -> int:
        self.sequence += 1
        payload = {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.sent.append(payload)
        if self.connection is not None:
            await self.connection.send(payload)
        return self.sequence


@dataclass(frozen=True)
class GatewayEvent:
    """Something that happened on the gateway, for tests to read."""

    # identify, refused (an IDENTIFY closed with detail["code"]), resume, resumed,
    # invalid_session, close, reconnect_sent, dropped
    kind: str
    shard: tuple[int, int] | None
    session_id: str | None
    at: float = field(default_factory=time.monotonic)
    detail: JSON = field(default_factory=dict)


class Gateway:
    """Sessions by id and by shard; delivery to the shard that owns a guild."""

    def __init__(
        self,
        world: World,
        *,
        heartbeat_interval_ms: int = 41_250,
        resume_url: Callable[[], str],
        on_change: Callable[[], None],
    ) -> None:
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.resume_url = resume_url
        self.on_change = on_change
        self.sessions: dict[str, Session] = {}
        self.owner: dict[int, Session] = {}  # shard id -> its live session
        self.shard_count: int | None = None  # the count every IDENTIFY must agree on
        self.events: list[GatewayEvent] = []
        # New sockets wait before HELLO while this is set and its release is not.
        self._held: tuple[asyncio.Event, asyncio.Event] | None = None

    # --- what tests call ---------------------------------------------------------------------

    def session_of_shard(self, shard_id: int) -> Session:
        session = self.owner.get(shard_id)
        if session is None:
            raise LookupError(f"no session identified for shard {shard_id}")
        return session

    async def to_shard(self, shard_id: int, event: str, data: JSON) -> Session:
        session = self.session_of_shard(shard_id)
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            data = readable(data, session.intents, str(self.world.application_id))
        await session.dispatch(event, data)
        return session

    def drop(self, shard_id: int) -> None:
        connection = self.session_of_shard(shard_id).connection
        if connection is None:
            raise LookupError(f"shard {shard_id} is not connected")
        self._note("dropped", self.session_of_shard(shard_id))
        connection.drop()

    async def send_reconnect(self, shard_id: int) -> None:
        session = self.session_of_shard(shard_id)
        if session.connection is not None:
            self._note("reconnect_sent", session)
            await session.connection.send({"op": RECONNECT, "d": None})

    async def invalidate(self, shard_id: int, *, resumable: bool = False) -> None:
        session = self.session_of_shard(shard_id)
        if not resumable:
            self._end(session)
        self._note("invalid_session", session, resumable=resumable)
        if session.connection is not None:
            await session.connection.send({"op": INVALID_SESSION, "d": resumable})

    def hold_connections(self) -> tuple[asyncio.Event, asyncio.Event]:
        """Hold every new socket before HELLO until the returned release event is set; the
        arrived event is set when the first one came in. A shard that lost its socket then
        stays disconnected (its session buffering dispatches) for as long as a test needs."""
        self._held = (asyncio.Event(), asyncio.Event())
        return self._held

    # --- the socket --------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        query = request.query
        if query.get("v") != "10" or query.get("encoding", "json") != "json":
            await ws.close(code=INVALID_API_VERSION, message=b"Invalid API version")
            return ws
        try:
            connection = Connection(ws, request, compressor_for(query.get("compress")))
        except (ValueError, ImportError):
            await ws.close(code=DECODE_ERROR, message=b"Unsupported compression")
            return ws
        if self._held is not None:
            arrived, release = self._held
            arrived.set()
            await release.wait()
        await connection.send(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        )
        session: Session | None = None
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                try:
                    payload = json.loads(message.data)
                    op = payload["op"]
                except (ValueError, KeyError, TypeError):
                    await ws.close(code=DECODE_ERROR, message=b"Decode error")
                    break
                if op == HEARTBEAT:
                    connection.heartbeats += 1
                    # A network's round trip: discord.py stamps a heartbeat as sent only after
                    # its send returns, so an ACK on loopback can beat the stamp and read as
                    # "41 s behind".
                    await asyncio.sleep(ACK_ROUND_TRIP_SECONDS)
                    await connection.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY and session is None:
                    session = await self._identify(connection, payload.get("d") or {})
                elif op == RESUME and session is None:
                    session = await self._resume(connection, payload.get("d") or {})
                elif op not in (IDENTIFY, RESUME):
                    log.debug("stand-in gateway: ignoring op %s", op)
                else:
                    await ws.close(code=UNKNOWN_OPCODE, message=b"Already authenticated")
        finally:
            if session is not None and session.connection is connection:
                session.connection = None
                # A client's own close with 1000/1001 ends the session (Discord's rule).
                if ws.close_code in (1000, 1001):
                    self._end(session)
                self._note("close", session, code=ws.close_code)
        return ws

    async def _identify(self, connection: Connection, data: JSON) -> Session | None:
        intents = int(data.get("intents", 0))
        shard_id, shard_count = data.get("shard") or (0, 1)
        agreed = self.shard_count in (None, shard_count)
        refusal: tuple[int, bytes] | None = None
        if data.get("token") != self.world.token:
            refusal = AUTHENTICATION_FAILED, b"Authentication failed"
        # The developer portal's switches: a privileged intent not switched on is refused.
        elif intents & PRIVILEGED_INTENTS & ~self.world.privileged_intents:
            refusal = DISALLOWED_INTENTS, b"Disallowed intent(s)"
        elif not 0 <= shard_id < shard_count or not agreed:
            refusal = INVALID_SHARD, b"Invalid shard"
        if refusal is not None:
            code, reason = refusal
            detail = {"code": code, "intents": intents}
            self.events.append(
                GatewayEvent("refused", (shard_id, shard_count), None, detail=detail)
            )
            self.on_change()
            await connection.ws.close(code=code, message=reason)
            return None
        self.shard_count = shard_count
        previous = self.owner.get(shard_id)
        if previous is not None:
            self._end(previous)
        session = Session(secrets.token_hex(16), (shard_id, shard_count), intents)
        session.connection = connection
        self.sessions[session.id] = session
        self.owner[shard_id] = session
        self._note("identify", session, intents=intents, path=connection.request.path)
        guilds = self.world.guilds_of_shard(shard_id, shard_count)
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.world.bot_user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.resume_url(),
                "shard": [shard_id, shard_count],
                "application": {"id": str(self.world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.create_payload(self.world.bot_user))
        return session

    async def _resume(self, connection: Connection, data: JSON) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.world.token:
            await connection.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed")
            return None
        if session is None or session.ended:
            self.events.append(GatewayEvent("invalid_session", None, None, detail={"on": "resume"}))
            self.on_change()
            await connection.send({"op": INVALID_SESSION, "d": False})
            return None
        seen = int(data.get("seq") or 0)
        if session.connection is not None:
            session.connection.drop()
        session.connection = connection
        session.resumes += 1
        missed = [p for p in session.sent if p["s"] > seen]
        self._note("resume", session, seq=seen, replayed=len(missed), path=connection.request.path)
        for payload in missed:
            await connection.send(payload)
        await session.dispatch("RESUMED", {})
        self._note("resumed", session)
        return session

    def _end(self, session: Session) -> None:
        session.ended = True
        if self.owner.get(session.shard[0]) is session:
            del self.owner[session.shard[0]]
        if not self.owner:
            self.shard_count = None

    def _note(self, kind: str, session: Session, **detail: Any) -> None:
        self.events.append(GatewayEvent(kind, session.shard, session.id, detail=detail))
        self.on_change()

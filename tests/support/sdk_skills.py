"""All ten Magisterium skills answered by a2a-sdk's server, with the fake Magisterium's content.

:class:`MagisteriumExecutor` hands each message's parts to the fake's own skill functions
(``devtools.fake_magisterium.skills.SKILLS``), so what is said is the same as from the fake;
the SDK's dispatcher, task store and serialisation answer. That serialisation is protobuf: data
parts
become ``google.protobuf.Struct`` values, so members come back in the SDK's order and every
JSON integer comes back as a float (``1964`` → ``1964.0``).
"""

from __future__ import annotations

import base64
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import httpx
from a2a.helpers import new_data_part, new_text_part
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue
from a2a.types.a2a_pb2 import Part
from a2a.utils.errors import A2AError, InvalidParamsError
from google.protobuf.json_format import MessageToDict

from bot.a2a import A2AClient
from bot.a2a.http import new_http_client
from bot.services.magisterium import SERVICE_RETRY
from devtools.fake_magisterium import rpc
from devtools.fake_magisterium.fake import utc_today
from devtools.fake_magisterium.messages import DEFAULT_SKILL, data_of, text_of
from devtools.fake_magisterium.skills import SKILLS, Request
from devtools.sdk_peer import RecordingExecutor
from tests.support.fakes import FakeClock

JsonDict = dict[str, Any]


class SkillNotFoundError(A2AError):
    """Magisterium's -32002; the SDK has no such error, so it reaches the wire as -32603."""

    message = "Skill not found"


def wire_part(part: Part) -> JsonDict:
    """An SDK (A2A 1.0 protobuf) part as the fake's skills read parts: v0.3 JSON with ``kind``."""
    content = part.WhichOneof("content")
    if content == "text":
        return {"kind": "text", "text": part.text}
    if content == "data":
        data = MessageToDict(part.data)
        return {"kind": "data", "data": data if isinstance(data, dict) else {"value": data}}
    file: JsonDict = {"mimeType": part.media_type, "name": part.filename}
    if content == "url":
        file["uri"] = part.url
    else:
        file["bytes"] = base64.b64encode(part.raw).decode()
    return {"kind": "file", "file": file}


def sdk_part(part: JsonDict) -> Part:
    """One of the fake's v0.3 JSON parts as the SDK's protobuf part."""
    kind = part.get("kind")
    if kind == "text":
        return new_text_part(part["text"])
    if kind == "data":
        return new_data_part(part["data"])
    if kind == "file":
        file = part["file"]
        media_type, name = file.get("mimeType") or "", file.get("name") or ""
        if "uri" in file:
            return Part(url=file["uri"], media_type=media_type, filename=name)
        return Part(raw=base64.b64decode(file["bytes"]), media_type=media_type, filename=name)
    raise ValueError(f"the fake made a part of kind {kind!r}")


def _sdk_error(error: rpc.RpcError) -> A2AError:
    detail = error.data.get("detail") if error.data else None
    if error.code == rpc.SKILL_NOT_FOUND:
        return SkillNotFoundError(data=error.data)
    if error.code == rpc.INVALID_PARAMS:
        return InvalidParamsError(str(detail or error.message), data=error.data)
    return A2AError(error.message, data=error.data)


@dataclass
class MagisteriumExecutor(RecordingExecutor):
    """Every skill of the fake, behind the SDK. ``today`` is the fake's notion of today."""

    today: Callable[[], date] = utc_today
    last_query: dict[str, str] = field(default_factory=dict)  # contextId → its last query

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        if message is None:  # the SDK always passes one for message/send
            raise RuntimeError("message/send without a message")
        parts = [wire_part(part) for part in message.parts]
        skill_id = str(MessageToDict(message.metadata).get("skillId", DEFAULT_SKILL))
        skill = SKILLS.get(skill_id)
        # An unknown skill or bad input is refused before any task exists, as upstream does.
        if skill is None:
            raise SkillNotFoundError(data={"skillId": skill_id})
        previous = self.last_query.get(context.context_id or "")
        try:
            result = skill.run(Request(parts, previous, self.today()))
        except rpc.RpcError as error:
            raise _sdk_error(error) from error
        updater = await self.start_task(context, event_queue)
        self.last_query[updater.context_id] = text_of(parts) or json.dumps(data_of(parts))
        await updater.add_artifact([sdk_part(p) for p in result["parts"]], name=result["name"])
        await updater.complete()


@contextlib.asynccontextmanager
async def production_client(
    url: str,
) -> AsyncIterator[tuple[httpx.AsyncClient, A2AClient, FakeClock]]:
    """The bot's own HTTP client and A2AClient, built as ``bot.app.composition`` builds them, at
    ``url``, retrying as the service's skill calls do (``SERVICE_RETRY``, the policy
    :meth:`A2AClient.policy` then gives); retries, if any, sleep on the returned FakeClock, never
    for real."""
    async with new_http_client() as http:
        clock = FakeClock()
        yield http, A2AClient(http, url, retry=SERVICE_RETRY, clock=clock), clock

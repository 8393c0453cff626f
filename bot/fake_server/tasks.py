"""Task objects and their per-owner store (kept 24 hours, like the upstream)."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from bot.fake_server.messages import UserMessage
from bot.fake_server.rpc import JsonDict

TASK_TTL_SECONDS = 24 * 3600.0


def new_id() -> str:
    return str(uuid.uuid4())


def text_part(text: str) -> JsonDict:
    return {"kind": "text", "text": text}


def data_part(data: JsonDict) -> JsonDict:
    return {"kind": "data", "data": data}


def artifact(name: str, parts: list[JsonDict]) -> JsonDict:
    return {"artifactId": new_id(), "name": name, "parts": parts}


def agent_message(parts: list[JsonDict], context_id: str, task_id: str | None) -> JsonDict:
    message: JsonDict = {
        "kind": "message",
        "role": "agent",
        "messageId": new_id(),
        "parts": parts,
        "contextId": context_id,
    }
    if task_id is not None:
        message["taskId"] = task_id
    return message


def _timestamp() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _echo(user: UserMessage, context_id: str, task_id: str) -> JsonDict:
    echoed = copy.deepcopy(user.raw)
    echoed.update(contextId=context_id, taskId=task_id)
    return echoed


def completed_task(user: UserMessage, context_id: str, result: JsonDict) -> JsonDict:
    task_id = new_id()
    reply = agent_message(copy.deepcopy(result["parts"]), context_id, task_id)
    return {
        "kind": "task",
        "id": task_id,
        "contextId": context_id,
        "status": {"state": "completed", "timestamp": _timestamp()},
        "artifacts": [result],
        "history": [_echo(user, context_id, task_id), reply],
    }


def failed_task(user: UserMessage, context_id: str, reason: str) -> JsonDict:
    task_id = new_id()
    reply = agent_message([text_part(reason)], context_id, task_id)
    return {
        "kind": "task",
        "id": task_id,
        "contextId": context_id,
        "status": {"state": "failed", "message": reply, "timestamp": _timestamp()},
        "history": [_echo(user, context_id, task_id), reply],
    }


class TaskStore:
    """Finished tasks per token, and the last query of each conversation (contextId)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._tasks: dict[tuple[str, str], tuple[float, JsonDict]] = {}
        self._last_query: dict[tuple[str, str], str] = {}

    def put(self, owner: str, task: JsonDict) -> None:
        self._tasks[owner, task["id"]] = (self._clock(), task)

    def get(self, owner: str, task_id: str) -> JsonDict | None:
        stored = self._tasks.get((owner, task_id))
        if stored is None:
            return None
        created, task = stored
        if self._clock() - created >= TASK_TTL_SECONDS:
            del self._tasks[owner, task_id]
            return None
        return task

    def previous_query(self, owner: str, context_id: str) -> str | None:
        return self._last_query.get((owner, context_id))

    def remember_query(self, owner: str, context_id: str, query: str) -> None:
        self._last_query[owner, context_id] = query

    def __len__(self) -> int:
        return len(self._tasks)

    def clear(self) -> None:
        self._tasks.clear()
        self._last_query.clear()

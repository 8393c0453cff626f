"""Task objects and their per-owner store (kept 24 hours, like the upstream)."""

from __future__ import annotations

import base64
import copy
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from devtools.fake_magisterium.messages import IncomingMessage
from devtools.fake_magisterium.rpc import JsonDict

TASK_TTL_SECONDS = 24 * 3600.0
PENDING_STATES = frozenset({"submitted", "working", "unknown"})
CANCELABLE_STATES = frozenset({"submitted", "working", "input-required", "auth-required"})
# The status message a task in each state shows unless a fault says otherwise ("": none).
STATUS_TEXTS = {
    "submitted": "",
    "working": "Still working on it.",
    "input-required": "Which Pope Pius do you mean? Twelve popes have taken that name.",
    "completed": "",
    "canceled": "The task was canceled before it finished.",
    "failed": "The skill raised an error while answering.",
    "rejected": "I can only answer questions about Catholic teaching.",
    "auth-required": "Sign in to Magisterium again to continue.",
    "unknown": "",
}


def new_id() -> str:
    return str(uuid.uuid4())


def text_part(text: str) -> JsonDict:
    return {"kind": "text", "text": text}


def data_part(data: JsonDict) -> JsonDict:
    return {"kind": "data", "data": data}


def artifact(name: str, parts: list[JsonDict]) -> JsonDict:
    return {"artifactId": new_id(), "name": name, "parts": parts}


# A2A v0.3 FilePart: the file by URI (FileWithUri) or inline as base64 (FileWithBytes).
FILE_PARTS: tuple[JsonDict, ...] = (
    {
        "kind": "file",
        "file": {
            "uri": "https://www.magisterium.com/files/lumen-gentium.pdf",
            "mimeType": "application/pdf",
            "name": "lumen-gentium.pdf",
        },
    },
    {
        "kind": "file",
        "file": {
            "bytes": base64.b64encode(b"Lumen Gentium, 21 November 1964\n").decode(),
            "mimeType": "text/plain",
            "name": "note.txt",
        },
    },
)


def with_file_parts(result: JsonDict) -> JsonDict:
    """The artifact with the file parts after its own parts."""
    extended = copy.deepcopy(result)
    extended["parts"] = [*extended["parts"], *copy.deepcopy(FILE_PARTS)]
    return extended


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


def _echo(user: IncomingMessage, context_id: str, task_id: str) -> JsonDict:
    echoed = copy.deepcopy(user.raw)
    echoed.update(contextId=context_id, taskId=task_id)
    return echoed


def completed_task(
    user: IncomingMessage, context_id: str, result: JsonDict, task_id: str | None = None
) -> JsonDict:
    task_id = task_id or new_id()
    reply = agent_message(copy.deepcopy(result["parts"]), context_id, task_id)
    return {
        "kind": "task",
        "id": task_id,
        "contextId": context_id,
        "status": {"state": "completed", "timestamp": _timestamp()},
        "artifacts": [result],
        "history": [_echo(user, context_id, task_id), reply],
    }


def task_in_state(
    user: IncomingMessage, context_id: str, state: str, text: str, task_id: str | None = None
) -> JsonDict:
    """A task without artifacts in ``state``; ``text`` (if any) is its status message."""
    task_id = task_id or new_id()
    status: JsonDict = {"state": state, "timestamp": _timestamp()}
    history = [_echo(user, context_id, task_id)]
    if text:
        status["message"] = agent_message([text_part(text)], context_id, task_id)
        history.append(status["message"])
    return {
        "kind": "task",
        "id": task_id,
        "contextId": context_id,
        "status": status,
        "history": history,
    }


def failed_task(user: IncomingMessage, context_id: str, reason: str) -> JsonDict:
    return task_in_state(user, context_id, "failed", reason)


def message_result(result: JsonDict, context_id: str) -> JsonDict:
    """The skill's answer as a Message result (no task is made): the artifact's parts."""
    return agent_message(copy.deepcopy(result["parts"]), context_id, None)


class TaskStore:
    """Tasks per token, and the last query of each conversation (contextId).

    A task put with ``completes_after=N`` (one still submitted or working) answers its Nth
    ``tasks/get`` with ``completed`` instead, and from then on; a pending task can be canceled.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._tasks: dict[tuple[str, str], tuple[float, JsonDict]] = {}
        self._pending: dict[tuple[str, str], tuple[int, JsonDict]] = {}
        self._last_query: dict[tuple[str, str], str] = {}

    def put(
        self,
        owner: str,
        task: JsonDict,
        *,
        completes_after: int = 0,
        completed: JsonDict | None = None,
    ) -> None:
        self._tasks[owner, task["id"]] = (self._clock(), task)
        if completes_after > 0 and completed is not None:
            self._pending[owner, task["id"]] = (completes_after, completed)

    def get(self, owner: str, task_id: str) -> JsonDict | None:
        """The task as ``tasks/get`` sees it now (one poll of a pending task counted)."""
        task = self.peek(owner, task_id)
        pending = self._pending.get((owner, task_id))
        if task is None or pending is None:
            return task
        polls_left, completed = pending
        if polls_left > 1:
            self._pending[owner, task_id] = (polls_left - 1, completed)
            return task
        del self._pending[owner, task_id]
        self._tasks[owner, task_id] = (self._tasks[owner, task_id][0], completed)
        return completed

    def peek(self, owner: str, task_id: str) -> JsonDict | None:
        stored = self._tasks.get((owner, task_id))
        if stored is None:
            return None
        created, task = stored
        if self._clock() - created >= TASK_TTL_SECONDS:
            del self._tasks[owner, task_id]
            self._pending.pop((owner, task_id), None)
            return None
        return task

    def cancel(self, owner: str, task_id: str) -> JsonDict | None:
        """The task canceled, if it was still submitted or working; None when it was not."""
        task = self.peek(owner, task_id)
        if task is None or task["status"]["state"] not in CANCELABLE_STATES:
            return None
        canceled = copy.deepcopy(task)
        canceled["status"] = {"state": "canceled", "timestamp": _timestamp()}
        self._pending.pop((owner, task_id), None)
        self._tasks[owner, task_id] = (self._tasks[owner, task_id][0], canceled)
        return canceled

    def previous_query(self, owner: str, context_id: str) -> str | None:
        return self._last_query.get((owner, context_id))

    def remember_query(self, owner: str, context_id: str, query: str) -> None:
        self._last_query[owner, context_id] = query

    def contexts(self) -> set[str]:
        """The conversations (contextIds) asked in so far, whoever owns them."""
        return {context_id for _owner, context_id in self._last_query}

    def __len__(self) -> int:
        return len(self._tasks)

    def clear(self) -> None:
        self._tasks.clear()
        self._pending.clear()
        self._last_query.clear()

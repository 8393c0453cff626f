"""What a ``message/send`` result means: a completed task, a Message taken as one, or the
exception its A2A v0.3 state stands for.

    completed                      the task (its artifacts hold the answer)
    failed, rejected,              TaskFailed, TaskRejected, InputRequired, TaskCanceled:
    input-required, canceled       ``reason`` is the text of ``status.message``
    auth-required                  AuthRequired (an Unauthorized: refresh or relink)
    submitted, working, unknown    polled with ``tasks/get`` by the client (PENDING_STATES),
                                   then TaskNotFinished(state=...) if still so; a state the
                                   spec does not name is treated like ``unknown``
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.a2a import errors
from bot.a2a.models import Artifact, Message, Task, TaskStatus

COMPLETED = "completed"
# Ends the task without an answer, each with its own exception.
_ENDED: dict[str, type[errors.TaskNotCompleted]] = {
    kind.state: kind
    for kind in (errors.TaskFailed, errors.TaskRejected, errors.InputRequired, errors.TaskCanceled)
}
AUTH_REQUIRED = "auth-required"
NOT_PENDING = frozenset({COMPLETED, AUTH_REQUIRED, *_ENDED})

M = TypeVar("M", bound=BaseModel)


def is_pending(task: Task) -> bool:
    """Still ``submitted``/``working``/``unknown`` (or a state the spec does not name)."""
    return task.status.state not in NOT_PENDING


def task_from_result(method: str, result: Any, *, message_allowed: bool = False) -> Task:
    """The task in a JSON-RPC ``result``; a Message (``message/send`` only: its result is
    Task | Message) becomes the completed task it stands for."""
    kind = result.get("kind", "task") if isinstance(result, dict) else None
    if kind == "message" and message_allowed:
        return task_from_message(_validated(method, Message, result))
    if kind != "task":
        raise errors.MalformedResponse(f"{method}: result is not a task")
    return _validated(method, Task, result)


def task_from_message(message: Message) -> Task:
    """A Message answer as a completed task: its parts as the one artifact, so every skill's
    parser reads it. The task id is the message's ``taskId``, else its ``messageId`` (a
    ``tasks/get`` of it then answers TaskNotFound, which callers treat as expired)."""
    return Task(
        id=message.task_id or message.message_id,
        context_id=message.context_id,
        status=TaskStatus(state=COMPLETED),
        artifacts=[Artifact(artifact_id=message.message_id, parts=list(message.parts))],
        history=[message],
    )


def completed(task: Task) -> Task:
    """``task`` when it is completed, else the exception its state stands for."""
    state = task.status.state
    if state == COMPLETED:
        return task
    reason = task.status.message.text() if task.status.message else ""
    if state == AUTH_REQUIRED:
        raise errors.AuthRequired(
            f"task auth-required: {reason}" if reason else "task auth-required",
            task_id=task.id,
            context_id=task.context_id,
            reason=reason,
        )
    ended = _ENDED.get(state)
    if ended is not None:
        raise ended(reason, task_id=task.id, context_id=task.context_id)
    raise errors.TaskNotFinished(reason, task_id=task.id, context_id=task.context_id, state=state)


def _validated(method: str, model: type[M], result: dict[str, Any]) -> M:
    try:
        return model.model_validate(result)
    except ValidationError as exc:
        what = model.__name__.lower()
        raise errors.MalformedResponse(
            f"{method}: malformed {what} ({exc.error_count()} validation errors)"
        ) from None

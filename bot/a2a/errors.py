"""One exception hierarchy for everything that can go wrong talking to Magisterium.

Magisterium's JSON-RPC codes are mapped explicitly: stock A2A libraries give -32002..-32005
other meanings (-32002 is "task not cancelable" in the A2A spec, "skill not found" here).
No message built here ever contains a bearer token.
"""

from __future__ import annotations

from typing import Any, ClassVar


class A2AError(Exception):
    """Base of every error raised by the A2A client.

    ``retryable`` says whether repeating the same request (same ``messageId``) may succeed.
    """

    retryable: ClassVar[bool] = False
    # The request certainly never reached the upstream (no connection was made), so it cost
    # no quota there: the limiter gives back the slot it spent on it.
    never_sent: ClassVar[bool] = False
    code: int | None = None
    http_status: int | None = None

    def __init__(
        self,
        message: str,
        *,
        code: int | None = None,
        http_status: int | None = None,
        data: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.http_status = http_status
        self.data = data

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(message={self.message!r}, code={self.code}, "
            f"http_status={self.http_status})"
        )


# --- transport: nothing usable came back ----------------------------------------------------


class TransportError(A2AError):
    """The request did not complete: connection, timeout or pool trouble."""

    retryable = True


class UpstreamConnectError(TransportError):
    """No connection could be made (refused, unreachable, connect timeout): nothing was sent."""

    never_sent = True


class UpstreamReadTimeout(TransportError):
    pass


class UpstreamPoolTimeout(TransportError):
    """No free connection in the pool in time: nothing was sent."""

    never_sent = True


class DeadlineExceeded(A2AError):
    """The caller's overall time budget ran out (across retries)."""


# --- the body was not a usable JSON-RPC answer -------------------------------------------------


class MalformedResponse(A2AError):
    """Non-JSON, truncated JSON, a JSON-RPC envelope without result/error, one whose
    ``jsonrpc`` is not "2.0" or whose ``id`` answers another request, or a result that is
    neither a task nor (for ``message/send``) a message."""


class HTTPStatusError(A2AError):
    """An HTTP error status without a usable JSON-RPC error body."""


class UpstreamServerError(HTTPStatusError):
    """5xx, including a proxy's HTML 502 page."""

    retryable = True


class GatewayRefused(HTTPStatusError):
    """HTTP 401 or 403 without a JSON-RPC error body (a proxy's or firewall's HTML page).

    The seed ties "unauthorized" and "paid plan required" to Magisterium's JSON-RPC codes
    -32004/-32005; a bare page from whatever sits in front says nothing about the token or
    the plan, so it never touches the token's state: Magisterium is unavailable."""


class GatewayThrottled(HTTPStatusError):
    """HTTP 429 without a JSON-RPC error body: something in front of Magisterium (a CDN or
    firewall) throttles this client's address, not one token's pool. Treated like a 503:
    retried with backoff, waiting ``retry_after`` (a ``Retry-After`` header) when given."""

    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


# --- JSON-RPC errors with Magisterium's codes --------------------------------------------------


class RPCError(A2AError):
    """A JSON-RPC error object; subclasses name Magisterium's codes."""


class ParseError(RPCError):
    code = -32700


class InvalidRequest(RPCError):
    code = -32600


class MethodNotFound(RPCError):
    code = -32601


class InvalidParams(RPCError):
    """Missing/invalid params, and also ``Invalid state transition`` from ``tasks/cancel``."""

    code = -32602


class InternalError(RPCError):
    code = -32603
    retryable = True


class TaskNotFound(RPCError):
    code = -32001


class SkillNotFound(RPCError):
    code = -32002


class RateLimited(RPCError):
    """Too many requests. ``retry_after`` is in seconds, ``None`` when the server gave none."""

    code = -32003
    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class Unauthorized(RPCError):
    """The bearer token is missing, invalid or revoked (HTTP 401)."""

    code = -32004


class PlanRequired(RPCError):
    """The token's account has no paid plan (HTTP 403)."""

    code = -32005


class UnknownRPCError(RPCError):
    """A JSON-RPC error code this client does not know."""


class AuthRequired(Unauthorized):
    """The task ended ``auth-required``: Magisterium wants the person to sign in again.
    ``reason`` is the text of its ``status.message`` (possibly empty)."""

    def __init__(
        self,
        message: str,
        *,
        task_id: str | None = None,
        context_id: str | None = None,
        reason: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(message, **kwargs)
        self.task_id = task_id
        self.context_id = context_id
        self.reason = reason


class TaskNotCompleted(A2AError):
    """The task came back in a state other than ``completed``. ``reason`` is the text of its
    ``status.message`` (Magisterium's own words, possibly empty); ``state`` the A2A state."""

    state: ClassVar[str] = ""

    def __init__(
        self,
        reason: str,
        *,
        task_id: str | None = None,
        context_id: str | None = None,
        state: str | None = None,
    ) -> None:
        shown_state = state or self.state
        super().__init__(f"task {shown_state}: {reason}" if reason else f"task {shown_state}")
        self.reason = reason
        self.task_id = task_id
        self.context_id = context_id
        if state is not None:
            self.state = state  # type: ignore[misc]


class TaskFailed(TaskNotCompleted):
    """The skill ran and failed; ``reason`` is why."""

    state = "failed"


class TaskRejected(TaskNotCompleted):
    """Magisterium declined the request; ``reason`` is its answer (shown to the person, privately,
    as what Magisterium said to this question)."""

    state = "rejected"


class InputRequired(TaskNotCompleted):
    """Magisterium asks the person something (``reason`` is its question, e.g. which Pope Pius);
    a reply sent with ``context_id`` continues the same task's conversation."""

    state = "input-required"


class TaskCanceled(TaskNotCompleted):
    state = "canceled"


class TaskNotFinished(TaskNotCompleted):
    """Still ``submitted``/``working`` (or ``unknown``) after the bounded ``tasks/get`` poll
    within the deadline: the person is told it did not finish and to try again."""

    state = "working"


RPC_ERRORS_BY_CODE: dict[int, type[RPCError]] = {
    cls.code: cls
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        TaskNotFound,
        SkillNotFound,
        RateLimited,
        Unauthorized,
        PlanRequired,
    )
    if cls.code is not None
}

# Magisterium's codes that mean what the seed says only at their HTTP status; stock A2A uses
# -32003 (PushNotificationNotSupported), -32004 (UnsupportedOperation) and -32005
# (ContentTypeNotSupported) at HTTP 200. Both halves are needed: either alone is an unknown
# upstream error (UnknownRPCError), which never touches the token's state.
HTTP_STATUS_OF_CODE: dict[int, int] = {
    -32003: 429,  # RateLimited
    -32004: 401,  # Unauthorized
    -32005: 403,  # PlanRequired
}

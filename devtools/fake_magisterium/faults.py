"""Injectable faults: what can go wrong, and the queue of faults waiting for requests."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Fault(enum.StrEnum):
    LATENCY = "latency"
    FAILED_TASK = "failed_task"
    INTERNAL_ERROR = "internal_error"
    INVALID_PARAMS = "invalid_params"
    TASK_NOT_FOUND = "task_not_found"
    SKILL_NOT_FOUND = "skill_not_found"
    PARSE_ERROR = "parse_error"
    INVALID_REQUEST = "invalid_request"
    METHOD_NOT_FOUND = "method_not_found"
    UNKNOWN_CODE = "unknown_code"
    RATE_LIMITED = "rate_limited"
    UNAUTHORIZED = "unauthorized"
    PLAN_REQUIRED = "plan_required"
    HTML_502 = "html_502"
    HTTP_500 = "http_500"
    HTTP_404 = "http_404"
    GARBAGE_BODY = "garbage_body"
    TRUNCATED_JSON = "truncated_json"
    NOT_A_TASK = "not_a_task"
    HUGE_ANSWER = "huge_answer"
    MENTIONS_ANSWER = "mentions_answer"
    DROP_CONNECTION = "drop_connection"
    # The rest of A2A v0.3 that Magisterium's own skills never show.
    TASK_STATE = "task_state"  # the task ends (or stays) in `state`, with a status message
    MESSAGE_RESULT = "message_result"  # a Message result holding the answer, not a Task
    FILE_PARTS = "file_parts"  # the artifact also carries file parts (by uri and by bytes)
    WRONG_ID = "wrong_id"  # the response answers another request id
    WRONG_JSONRPC = "wrong_jsonrpc"  # the response's "jsonrpc" is not "2.0"
    STOCK_A2A_CODE = "stock_a2a_code"  # a stock A2A error (-32004 UnsupportedOperation…), HTTP 200
    HTML_403 = "html_403"  # a proxy's or firewall's HTML 403 page
    RATE_LIMITED_NO_WAIT = "rate_limited_no_wait"  # 429 without retryAfter or Retry-After


# When in a request's life each kind strikes. Content and envelope faults need a request that
# succeeds, so they wait (unconsumed) through requests that fail for real reasons.
CONTENT_FAULTS = frozenset(
    {
        Fault.FAILED_TASK,
        Fault.HUGE_ANSWER,
        Fault.MENTIONS_ANSWER,
        Fault.TASK_STATE,
        Fault.MESSAGE_RESULT,
        Fault.FILE_PARTS,
    }
)
ENVELOPE_FAULTS = frozenset(
    {Fault.NOT_A_TASK, Fault.TRUNCATED_JSON, Fault.WRONG_ID, Fault.WRONG_JSONRPC}
)
PRE_FAULTS = frozenset(Fault) - CONTENT_FAULTS - ENVELOPE_FAULTS - {Fault.LATENCY}

_ONLY_SKILL = {Fault.HUGE_ANSWER: "catholic_qa"}

# The A2A v0.3 task states (TaskState in the spec's a2a.json).
TASK_STATES = frozenset(
    {
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    }
)
# Stock A2A's meanings of Magisterium's -32003..-32005, with a2a-sdk's messages.
STOCK_A2A_MESSAGES = {
    -32003: "Push Notification is not supported",
    -32004: "This operation is not supported",
    -32005: "Incompatible content types",
}

# kind -> {param: (type, default)}
_PARAMS: dict[Fault, dict[str, tuple[type, Any]]] = {
    Fault.LATENCY: {"seconds": (float, 1.0)},
    Fault.FAILED_TASK: {"reason": (str, "The skill raised an error while answering.")},
    Fault.RATE_LIMITED: {"retry_after": (int, 30), "header": (bool, False)},
    # `message`: the status message's text (None: one typical of the state; "": none).
    # `polls`: for submitted/working/unknown, the tasks/get that first answers completed
    # (1: the first poll); 0 leaves the task unfinished for good.
    Fault.TASK_STATE: {"state": (str, "rejected"), "message": (str, None), "polls": (int, 0)},
    Fault.WRONG_JSONRPC: {"version": (str, "1.0")},
    Fault.STOCK_A2A_CODE: {"code": (int, -32004)},
}
# (kind, param) -> the values it may take
_CHOICES: dict[tuple[Fault, str], frozenset[Any]] = {
    (Fault.TASK_STATE, "state"): TASK_STATES,
    (Fault.STOCK_A2A_CODE, "code"): frozenset(STOCK_A2A_MESSAGES),
}


def fault_kind(value: Fault | str) -> Fault:
    """A Fault from an enum member, its value or its name (any case)."""
    if isinstance(value, Fault):
        return value
    try:
        return Fault(value.lower())
    except ValueError:
        raise ValueError(f"unknown fault kind {value!r}") from None


def _coerce(kind: Fault, name: str, value: Any) -> Any:
    expected = _PARAMS[kind][name][0]
    if expected is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if expected is int and isinstance(value, bool):
        raise ValueError(f"{kind}: {name} must be int")
    if not isinstance(value, expected):
        raise ValueError(f"{kind}: {name} must be {expected.__name__}")
    choices = _CHOICES.get((kind, name))
    if choices is not None and value not in choices:
        raise ValueError(f"{kind}: {name} must be one of {sorted(choices)}")
    if isinstance(value, int) and value < 0 and choices is None:
        raise ValueError(f"{kind}: {name} cannot be negative")
    return value


def _params(kind: Fault, given: dict[str, Any]) -> dict[str, Any]:
    spec = _PARAMS.get(kind, {})
    unknown = set(given) - set(spec)
    if unknown:
        raise ValueError(f"{kind} takes no parameter(s) {sorted(unknown)}")
    params = {name: default for name, (_, default) in spec.items()}
    params.update({name: _coerce(kind, name, value) for name, value in given.items()})
    return params


@dataclass
class FaultRule:
    kind: Fault
    times: int | None
    skill: str | None = None
    method: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def matches(self, method: str, skill: str | None) -> bool:
        if self.kind in CONTENT_FAULTS and method != "message/send":
            return False
        needed_skill = _ONLY_SKILL.get(self.kind)
        if needed_skill is not None and skill != needed_skill:
            return False
        if self.method is not None and self.method != method:
            return False
        return self.skill is None or self.skill == skill

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "times": self.times,
            "skill": self.skill,
            "method": self.method,
            **self.params,
        }


class FaultBook:
    """Queued faults, consumed first-in first-out by the requests they match."""

    def __init__(self) -> None:
        self._rules: list[FaultRule] = []

    def add(
        self,
        kind: Fault | str,
        times: int | None = 1,
        skill: str | None = None,
        method: str | None = None,
        **params: Any,
    ) -> FaultRule:
        """Queue a fault for the next `times` matching requests (None: until cleared)."""
        fault = fault_kind(kind)
        if times is not None and (
            isinstance(times, bool) or not isinstance(times, int) or times < 1
        ):
            raise ValueError("times must be a positive integer or None")
        rule = FaultRule(fault, times, skill, method, _params(fault, params))
        self._rules.append(rule)
        return rule

    def clear(self) -> None:
        self._rules.clear()

    @property
    def pending(self) -> list[FaultRule]:
        return list(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def take(self, kinds: frozenset[Fault], method: str, skill: str | None) -> FaultRule | None:
        """Consume one use of the oldest matching fault among `kinds`."""
        for rule in self._rules:
            if rule.kind in kinds and rule.matches(method, skill):
                self._consume(rule)
                return rule
        return None

    def take_latency(self, method: str, skill: str | None) -> float:
        """Consume every matching LATENCY fault; delays add up."""
        total = 0.0
        for rule in list(self._rules):
            if rule.kind is Fault.LATENCY and rule.matches(method, skill):
                self._consume(rule)
                total += float(rule.params["seconds"])
        return total

    def _consume(self, rule: FaultRule) -> None:
        if rule.times is None:
            return
        rule.times -= 1
        if rule.times == 0:
            self._rules.remove(rule)

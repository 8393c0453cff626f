"""One request through the fake: faults, auth, JSON-RPC, rate limits, skills, recording."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from devtools.fake_magisterium import rpc
from devtools.fake_magisterium.answers import ARTIFACT_NAME, huge_parts
from devtools.fake_magisterium.faults import (
    CONTENT_FAULTS,
    ENVELOPE_FAULTS,
    PRE_FAULTS,
    Fault,
    FaultRule,
)
from devtools.fake_magisterium.hostile import hostile_answer, poison
from devtools.fake_magisterium.messages import (
    IncomingMessage,
    RequestFacts,
    data_of,
    request_facts,
    task_id,
    text_of,
    user_message,
)
from devtools.fake_magisterium.replies import (
    Reply,
    envelope_reply,
    error_reply,
    fault_reply,
    not_a_task,
)
from devtools.fake_magisterium.replies import truncated as truncate
from devtools.fake_magisterium.rpc import JsonDict, RpcError
from devtools.fake_magisterium.skills import SKILLS, Request
from devtools.fake_magisterium.tasks import (
    PENDING_STATES,
    STATUS_TEXTS,
    artifact,
    completed_task,
    failed_task,
    message_result,
    new_id,
    task_in_state,
    with_file_parts,
)

if TYPE_CHECKING:
    from devtools.fake_magisterium.fake import FakeMagisterium

log = logging.getLogger(__name__)
_UNPARSED = object()


class Exchange:
    """Answers one POST to the A2A endpoint and records it in `fake.requests`."""

    def __init__(self, fake: FakeMagisterium, body: bytes, token: str | None) -> None:
        self.fake = fake
        self.token = token
        try:
            self.payload: Any = json.loads(body)
        except (UnicodeDecodeError, ValueError):
            self.payload = _UNPARSED
        self.facts: RequestFacts = request_facts(self.payload)
        self.rpc_id = rpc.request_id(self.payload)
        self.applied: list[Fault] = []

    def _take(self, kinds: frozenset[Fault], skill: str | None = None) -> FaultRule | None:
        rule = self.fake.faults.take(kinds, self.facts.method, skill or self.facts.skill)
        if rule is not None:
            self.applied.append(rule.kind)
            log.info("fake fault %s on %s", rule.kind, self.facts.method or "<unparsed>")
        return rule

    def run(self) -> Reply:
        facts = self.facts
        delay = self.fake.latency + self.fake.faults.take_latency(facts.method, facts.skill)
        if delay > self.fake.latency:
            self.applied.append(Fault.LATENCY)
        rule = self._take(PRE_FAULTS)
        reply = fault_reply(rule, self.rpc_id) if rule else self._answer()
        reply.delay = delay
        self.fake.record(facts, self.token, reply, self.applied)
        log.debug("fake %s %s -> HTTP %d", facts.method, facts.skill, reply.status)
        return reply

    def _answer(self) -> Reply:
        try:
            owner = self.fake.accounts.authorize(self.token)
            if self.payload is _UNPARSED:
                raise RpcError(rpc.PARSE_ERROR)
            request = rpc.envelope(self.payload)
            result = self._dispatch(owner, request)
        except RpcError as error:
            return error_reply(None if error.code == rpc.PARSE_ERROR else self.rpc_id, error)
        rule = self._take(ENVELOPE_FAULTS)
        if rule is not None and rule.kind is Fault.NOT_A_TASK:
            result = not_a_task(result)
        reply = envelope_reply(rule, request.id, result)
        return truncate(reply) if rule is not None and rule.kind is Fault.TRUNCATED_JSON else reply

    def _dispatch(self, owner: str, request: rpc.Envelope) -> JsonDict:
        if request.method == "message/send":
            return self._send(owner, user_message(request.params))
        tasks, wanted = self.fake.tasks, task_id(request.params)
        if request.method == "tasks/cancel":
            canceled = tasks.cancel(owner, wanted)
            if canceled is not None:
                return canceled
            if tasks.peek(owner, wanted) is None:
                raise RpcError(rpc.TASK_NOT_FOUND)
            # Magisterium's tasks are terminal by the time anyone holds their id.
            raise RpcError(rpc.INVALID_PARAMS, "Invalid state transition")
        task = tasks.get(owner, wanted)
        if task is None:
            raise RpcError(rpc.TASK_NOT_FOUND)
        return task

    def _send(self, owner: str, message: IncomingMessage) -> JsonDict:
        skill = SKILLS.get(message.skill)
        if skill is None:
            raise RpcError(rpc.SKILL_NOT_FOUND, data={"skillId": message.skill})
        self.fake.check_rate(owner, skill.id)
        context_id = message.context_id or new_id()
        previous = self.fake.tasks.previous_query(owner, context_id)
        result = skill.run(
            Request(message.parts, previous, self.fake.today(), self.fake.label_samples)
        )
        answer = self._result(owner, message, context_id, result)
        self.fake.count_rate(owner, skill.id)
        query = text_of(message.parts) or json.dumps(data_of(message.parts))
        self.fake.tasks.remember_query(owner, context_id, query)
        return answer

    def _result(
        self, owner: str, message: IncomingMessage, context_id: str, result: JsonDict
    ) -> JsonDict:
        """The message/send result: a stored task, or (MESSAGE_RESULT) a Message."""
        rule = self._take(CONTENT_FAULTS, message.skill)
        if rule is not None and rule.kind is Fault.MESSAGE_RESULT:
            return message_result(result, context_id)
        if rule is not None and rule.kind is Fault.TASK_STATE:
            return self._task_in_state(owner, message, context_id, result, rule)
        task = self._task(rule, message, context_id, result)
        self.fake.tasks.put(owner, task)
        return task

    def _task(
        self, rule: FaultRule | None, message: IncomingMessage, context_id: str, result: JsonDict
    ) -> JsonDict:
        if rule is None:
            return completed_task(message, context_id, result)
        if rule.kind is Fault.FAILED_TASK:
            return failed_task(message, context_id, str(rule.params["reason"]))
        if rule.kind is Fault.FILE_PARTS:
            result = with_file_parts(result)
        elif rule.kind is Fault.HUGE_ANSWER:
            result = artifact(ARTIFACT_NAME, huge_parts(text_of(message.parts)))
        elif message.skill == "catholic_qa":
            result = hostile_answer()
        else:
            result = poison(result)
        return completed_task(message, context_id, result)

    def _task_in_state(
        self,
        owner: str,
        message: IncomingMessage,
        context_id: str,
        result: JsonDict,
        rule: FaultRule,
    ) -> JsonDict:
        """TASK_STATE: the task in the state asked for; a pending one can complete later."""
        state, polls = str(rule.params["state"]), int(rule.params["polls"])
        text = rule.params["message"]
        text = STATUS_TEXTS[state] if text is None else str(text)
        if state == "completed":
            task = completed_task(message, context_id, result)
            self.fake.tasks.put(owner, task)
            return task
        task = task_in_state(message, context_id, state, text)
        later = completed_task(message, context_id, result, task["id"])
        pending = state in PENDING_STATES
        self.fake.tasks.put(owner, task, completes_after=polls if pending else 0, completed=later)
        return task

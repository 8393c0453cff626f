"""The conformance fixture itself (``tests/support/conformance.py``): it counts and collects
what the wire check finds, exempts what faults break on purpose, sees every exchange of a test, and
fails the test at teardown."""

from __future__ import annotations

import copy
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest

import devtools.fake_magisterium.exchange as fake_exchange
from bot.a2a import A2AClient, errors
from devtools.fake_magisterium import Fault, RunningFakeServer
from devtools.fake_magisterium.observe import ObservedExchange, notify
from devtools.fake_magisterium.replies import Reply
from devtools.fake_magisterium.tasks import completed_task
from tests.support.conformance import ConformanceLog
from tests.support.fakes import FakeClock, a2a_request, wire_bytes
from tests.support.paths import REPO
from tests.support.skill_calls import SkillCalls

JSON = dict[str, Any]
DEFAULTED = "the model only defaults it)"
MISSING_ID = "response.id: missing (JSON-RPC 2.0 requires it, null if unknown)"


def _response(*, without: str = "") -> JSON:
    """A completed task answering ``a2a_request()``; ``without``: "id" or "kind" left out."""
    task = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    response: JSON = {"jsonrpc": "2.0", "id": 3, "result": task}
    if without == "id":
        del response["id"]
    if without == "kind":
        del task["kind"]
    return response


# --- the log and its exemptions --------------------------------------------------------------


def _observed(response: JSON, *faults: Fault, request: JSON | None = None) -> ObservedExchange:
    sent = request if request is not None else a2a_request()
    return ObservedExchange(wire_bytes(sent), Reply(200, wire_bytes(response)), faults)


def test_the_log_counts_checks_and_collects_violations_with_the_request_named() -> None:
    log = ConformanceLog()
    log.observe(_observed(_response()))
    log.observe(_observed(_response(without="id")))
    assert (log.totals.requests, log.totals.responses) == (2, 2)
    [violation] = log.violations
    assert violation.startswith("['message/send' id=3 skill='catholic_qa' -> HTTP 200]: ")
    assert violation.endswith(MISSING_ID)
    message = log.failure()
    assert message is not None and "1 A2A conformance violation(s)" in message
    assert log.take_violations() == [violation]
    assert log.failure() is None


def test_replies_a_fault_breaks_on_purpose_are_exempt_and_others_are_not() -> None:
    log = ConformanceLog()
    garbage = Reply(200, b"\xff<<not json")
    log.observe(ObservedExchange(wire_bytes(a2a_request()), garbage, (Fault.GARBAGE_BODY,)))
    log.observe(_observed(_response(without="id"), Fault.LATENCY, Fault.FAILED_TASK))
    assert log.totals.exempt_responses == 1
    assert [v.split("]: ")[1] for v in log.violations] == [MISSING_ID]


def test_requests_are_left_alone_when_the_test_sends_bad_ones_on_purpose() -> None:
    log = ConformanceLog(check_requests=False)
    bad_request = {"id": 3, "method": "message/send"}
    error = {"jsonrpc": "2.0", "id": 3, "error": {"code": -32600, "message": "Invalid request"}}
    log.observe(_observed(error, request=bad_request))
    assert log.violations == []
    assert (log.totals.requests, log.totals.responses) == (0, 1)


def test_the_autouse_fixture_sees_every_exchange_of_the_test(
    a2a_conformance: ConformanceLog,
) -> None:
    before = a2a_conformance.totals.responses
    notify(wire_bytes(a2a_request()), Reply(200, wire_bytes(_response(without="kind"))), ())
    assert a2a_conformance.totals.responses == before + 1
    [violation] = a2a_conformance.take_violations()
    assert violation.endswith("response.result.kind: missing (the spec requires it; " + DEFAULTED)


# --- through the real fake and the real client ----------------------------------------------


async def test_a_fake_task_off_the_spec_is_caught_on_the_wire(
    fake_server: RunningFakeServer,
    a2a_conformance: ConformanceLog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot tolerates an artifact without ``artifactId``; the spec requires one."""
    made = completed_task

    def without_artifact_id(*args: Any) -> JSON:
        task = copy.deepcopy(made(*args))
        del task["artifacts"][0]["artifactId"]
        return task

    monkeypatch.setattr(fake_exchange, "completed_task", without_artifact_id)
    async with httpx.AsyncClient() as http:
        skills = SkillCalls(A2AClient(http, fake_server.url, clock=FakeClock()))
        results = await skills.search("pro-token", "human dignity")
        fake_server.fake.faults.add(Fault.GARBAGE_BODY)
        with pytest.raises(errors.MalformedResponse):
            await skills.search("pro-token", "human dignity")

    assert results.hits  # the bot read it; only the reference objects
    found = a2a_conformance.take_violations()
    label = "['message/send' id=1 skill='document_search' -> HTTP 200]: "
    assert found and all(v.startswith(label) for v in found), found
    missing = "response.result.Task.artifacts.0.artifactId: Field required"
    assert any(v.endswith(missing) for v in found), found
    assert a2a_conformance.totals.exempt_responses >= 1  # the garbage body


def test_a_violation_fails_the_test_at_teardown(tmp_path: Path) -> None:
    """A test of its own, run by pytest with only this plugin: it posts a request without
    ``jsonrpc`` to the fake, passes its own asserts, and is failed at teardown."""
    test_file = tmp_path / "test_violation.py"
    test_file.write_text(
        textwrap.dedent(
            """
            import httpx
            from devtools.fake_magisterium import running_fake_server

            async def test_posts_a_request_without_jsonrpc():
                body = {"id": 1, "method": "tasks/get", "params": {"id": "t"}}
                auth = {"Authorization": "Bearer pro-token"}
                async with running_fake_server() as server, httpx.AsyncClient() as http:
                    reply = await http.post(server.url, json=body, headers=auth)
                assert reply.json()["error"]["code"] == -32600
            """
        )
    )
    run = subprocess.run(  # noqa: S603 - our interpreter, our plugin, a file we wrote
        [
            sys.executable,
            "-m",
            "pytest",
            str(test_file),
            "-p",
            "tests.support.conformance",
            "-p",
            "no:cacheprovider",
            "-o",
            "asyncio_mode=auto",
            "-o",
            "asyncio_default_fixture_loop_scope=function",
            "--rootdir",
            str(tmp_path),
            "-q",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 passed, 1 error" in run.stdout, run.stdout
    assert "ERROR at teardown of test_posts_a_request_without_jsonrpc" in run.stdout
    assert "request.jsonrpc: missing (the spec requires it" in run.stdout

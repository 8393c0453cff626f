"""The fake Magisterium A2A server, exercised over a real loopback socket."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from a2a.compat.v0_3 import types as v03

from bot.__main__ import build_parser
from devtools.fake_magisterium import FakeMagisterium, Fault, running_fake_server
from tests.support.fake_server import Api, open_api, send, task_call

SKILLS = ["catholic_qa", "document_search", "document_fetch"]
SKILLS += ["liturgical_readings", "saints_of_the_day"]
SKILLS += ["saint_lookup", "person_lookup", "pope_lookup"]
SKILLS += ["diocese_lookup", "diocese_statistics_lookup"]


@pytest.fixture
async def api() -> AsyncIterator[Api]:
    async with open_api() as api:
        yield api


DELETE = object()


@pytest.mark.a2a_malformed_requests  # posts bad requests on purpose (tests/support/conformance.py)
@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("jsonrpc", DELETE, -32600),
        ("jsonrpc", "1.0", -32600),
        ("method", DELETE, -32600),
        ("id", DELETE, -32600),
        ("method", "tasks/resubscribe", -32601),
        ("params.message", DELETE, -32602),
        ("params.message.parts", [], -32602),
        ("params.message.role", "agent", -32602),
        ("params.message.kind", "task", -32602),
        ("params.message.messageId", DELETE, -32602),
        ("params.message.parts", [{"kind": "video", "video": {}}], -32602),
        ("params.message.metadata", {"skillId": "no_such_skill"}, -32002),
    ],
)
async def test_jsonrpc_errors(api: Api, path: str, value: Any, code: int) -> None:
    body = node = send()
    *parents, last = path.split(".")
    for key in parents:
        node = node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    response = await api.post(body)
    assert response.status_code == 200
    assert response.json()["error"]["code"] == code
    assert api.fake.requests[-1].error_code == code


@pytest.mark.a2a_malformed_requests  # posts bad requests on purpose (tests/support/conformance.py)
async def test_parse_error_has_null_id(api: Api) -> None:
    response = await api.post(b"{not json")
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["error"]) == (None, {"code": -32700, "message": "Parse error"})


@pytest.mark.parametrize(
    ("token", "setup", "status", "code"),
    [
        (None, None, 401, -32004),
        ("", None, 401, -32004),
        ("invalid-abc", None, 401, -32004),
        ("pro-revoked", "revoke", 401, -32004),
        ("free-abc", None, 403, -32005),
        ("pro-downgraded", "free", 403, -32005),
        ("free-upgraded", "pro", 200, None),
    ],
)
async def test_auth(api: Api, token: str | None, setup: str | None, status: int, code: Any) -> None:
    if setup == "revoke":
        api.fake.accounts.revoke("pro-revoked")
    elif setup is not None:
        api.fake.accounts.set_plan(str(token), setup)  # type: ignore[arg-type]
    response = await api.post(send(), token)
    assert response.status_code == status
    if code is not None:
        assert response.json()["error"]["code"] == code
        assert response.json()["error"]["message"] in {"Unauthorized", "Paid plan required"}


async def test_basic_pool_sliding_window(api: Api) -> None:
    api.fake.basic_per_minute = 3
    search = send("dignity", skill="document_search")
    for _ in range(3):
        assert (await api.post(search)).status_code == 200
        api.clock.advance(10)
    limited = await api.post(search)  # hits at 1000, 1010, 1020; now 1030
    assert limited.status_code == 429
    error = limited.json()["error"]
    assert (error["code"], error["message"], error["data"]) == (
        -32003,
        "Rate limit exceeded",
        {"retryAfter": 30},
    )
    api.clock.now = 1060  # the first hit leaves the window; the rejected one never entered it
    assert (await api.post(search)).status_code == 200
    assert (await api.post(search)).json()["error"]["data"]["retryAfter"] == 10
    assert (await api.post(search, token="pro-other")).status_code == 200


async def test_expensive_pool_and_uncounted_methods(api: Api) -> None:
    task = await api.result(send())
    await api.result(send())
    limited = await api.post(send())
    assert limited.status_code == 429
    assert limited.json()["error"]["data"]["retryAfter"] == 60
    api.clock.advance(59.5)
    assert (await api.post(send())).json()["error"]["data"]["retryAfter"] == 1
    assert (await api.post(send("x", skill="document_search"))).status_code == 200
    for _ in range(20):
        assert (await api.post(task_call("tasks/get", task["id"]))).status_code == 200
    api.fake.basic_per_minute = 3  # 2 catholic_qa + 1 search already count in the basic pool
    assert (await api.post(send("x", skill="document_search"))).status_code == 429
    api.fake.rate_limits_enabled = False
    assert (await api.post(send())).status_code == 200


@pytest.mark.a2a_malformed_requests  # posts bad requests on purpose (tests/support/conformance.py)
async def test_tasks_get_and_cancel(api: Api) -> None:
    task = await api.result(send())
    assert await api.result(task_call("tasks/get", task["id"])) == task
    cases = [
        (task_call("tasks/get", task["id"]), "pro-stranger", -32001, "Task not found"),
        (task_call("tasks/get", "nope"), "pro-token", -32001, "Task not found"),
        (task_call("tasks/get", None), "pro-token", -32602, "Invalid params"),
        (task_call("tasks/cancel", task["id"]), "pro-token", -32602, "Invalid state transition"),
        (task_call("tasks/cancel", "nope"), "pro-token", -32001, "Task not found"),
    ]
    for body, token, code, message in cases:
        error = (await api.post(body, token)).json()["error"]
        assert (error["code"], error["message"]) == (code, message)


async def test_task_shape_and_context_reuse(api: Api) -> None:
    api.fake.rate_limits_enabled = False
    first = await api.result(send("What is the Eucharist?"))
    assert first["kind"] == "task"
    assert first["status"]["state"] == "completed"
    assert first["status"]["timestamp"].endswith("Z")
    user, agent = first["history"]
    assert (user["role"], user["messageId"], agent["role"]) == ("user", "m-1", "agent")
    assert first["artifacts"][0]["artifactId"]
    follow_up = await api.result(send("And the Trinity?", context_id=first["contextId"]))
    assert follow_up["contextId"] == first["contextId"]
    assert follow_up["id"] != first["id"]
    answer = follow_up["artifacts"][0]["parts"][0]["text"]
    assert answer.startswith('Continuing our conversation about "What is the Eucharist?"')
    fresh = await api.result(send("And the Trinity?"))
    assert fresh["contextId"] != first["contextId"]
    assert not fresh["artifacts"][0]["parts"][0]["text"].startswith("Continuing")


FAULT_REPLIES: list[tuple[Fault, dict[str, Any], int, int | str]] = [
    (Fault.INTERNAL_ERROR, {}, 200, -32603),
    (Fault.INVALID_PARAMS, {}, 200, -32602),
    (Fault.TASK_NOT_FOUND, {}, 200, -32001),
    (Fault.SKILL_NOT_FOUND, {}, 200, -32002),
    (Fault.PARSE_ERROR, {}, 200, -32700),
    (Fault.INVALID_REQUEST, {}, 200, -32600),
    (Fault.METHOD_NOT_FOUND, {}, 200, -32601),
    (Fault.UNKNOWN_CODE, {}, 200, -32099),
    (Fault.UNAUTHORIZED, {}, 401, -32004),
    (Fault.PLAN_REQUIRED, {}, 403, -32005),
    (Fault.RATE_LIMITED, {"retry_after": 7}, 429, -32003),
    (Fault.RATE_LIMITED, {"retry_after": 7, "header": True}, 429, -32003),
    (Fault.HTTP_500, {}, 500, -32603),
    (Fault.HTML_502, {}, 502, "text/html"),
    (Fault.HTTP_404, {}, 404, "text/plain"),
    (Fault.GARBAGE_BODY, {}, 200, "application/json"),
    (Fault.TRUNCATED_JSON, {}, 200, "application/json"),
    (Fault.HTML_403, {}, 403, "text/html"),
    (Fault.STOCK_A2A_CODE, {}, 200, -32004),
    (Fault.STOCK_A2A_CODE, {"code": -32003}, 200, -32003),
    (Fault.RATE_LIMITED_NO_WAIT, {}, 429, -32003),
]


@pytest.mark.parametrize(("kind", "params", "status", "expected"), FAULT_REPLIES)
async def test_reply_faults(
    api: Api, kind: Fault, params: dict[str, Any], status: int, expected: int | str
) -> None:
    api.fake.faults.add(kind, **params)
    response = await api.post(send())
    assert response.status_code == status
    assert (api.fake.requests[-1].http_status, api.fake.requests[-1].faults) == (status, (kind,))
    if isinstance(expected, int):
        assert response.json()["error"]["code"] == api.fake.requests[-1].error_code == expected
    else:
        assert response.headers["Content-Type"].startswith(expected)
        with pytest.raises(ValueError):
            json.loads(response.content)
    if kind is Fault.RATE_LIMITED:
        assert response.json()["error"]["data"] == {"retryAfter": 7}
        assert response.headers.get("Retry-After") == ("7" if params.get("header") else None)
    if kind is Fault.RATE_LIMITED_NO_WAIT:
        assert "data" not in response.json()["error"] and "Retry-After" not in response.headers
    if kind is Fault.STOCK_A2A_CODE:  # a2a-sdk's own wording of the stock A2A error
        stock = {
            -32004: v03.UnsupportedOperationError(),
            -32003: v03.PushNotificationNotSupportedError(),
        }
        assert response.json()["error"]["message"] == stock[int(expected)].message
    assert (await api.post(send())).status_code == 200  # consumed after one use


async def test_result_faults(api: Api) -> None:
    api.fake.faults.add(Fault.NOT_A_TASK)
    assert (await api.result(send()))["kind"] == "message"
    api.fake.faults.add(Fault.FAILED_TASK, reason="The model fell over.")
    failed = await api.result(send("q", skill="document_search"))
    assert failed["status"]["state"] == "failed"
    assert failed["status"]["message"]["role"] == "agent"
    assert failed["status"]["message"]["parts"] == [
        {"kind": "text", "text": "The model fell over."}
    ]
    assert (await api.result(task_call("tasks/get", failed["id"])))["status"]["state"] == "failed"
    api.fake.rate_limits_enabled = False
    api.fake.faults.add(Fault.HUGE_ANSWER, skill=None)
    assert (await api.artifact(text="q", skill="document_search"))["name"] == "search_results"
    huge = (await api.artifact(text="Tell me everything"))["parts"]
    assert len(huge[0]["text"]) >= 30_000
    assert len(huge[1]["data"]["citations"]) == 40


async def test_mentions_fault(api: Api) -> None:
    api.fake.faults.add(Fault.MENTIONS_ANSWER, times=2)
    text, citations, _ = (await api.artifact(text="Hello"))["parts"]
    for token in ("@everyone", "@here", "<@123>", "<@&456>", "<#789>", "**", "__", "```", "||"):
        assert token in text["text"]
    assert "[masked link](https://example.com)" in text["text"]
    assert all("@everyone" in c["document_title"] for c in citations["data"]["citations"])
    results = await api.artifact(text="Lumen Gentium", skill="document_search")
    assert "@everyone" in results["parts"][0]["data"]["results"][0]["title"]


async def test_latency(api: Api) -> None:
    api.fake.faults.add(Fault.LATENCY, seconds=0.2)
    started = time.monotonic()
    await api.result(send())
    assert time.monotonic() - started >= 0.2
    api.fake.latency = 0.1
    started = time.monotonic()
    await api.post(task_call("tasks/get", "x"))
    assert time.monotonic() - started >= 0.1


async def test_drop_connection(api: Api) -> None:
    api.fake.faults.add(Fault.DROP_CONNECTION)
    with pytest.raises(httpx.RemoteProtocolError):
        await api.post(send())
    assert api.fake.requests[-1].http_status == 0
    assert (await api.post(send())).status_code == 200


async def test_fault_matching_and_consumption(api: Api) -> None:
    faults = api.fake.faults
    faults.add(Fault.INTERNAL_ERROR, times=None, skill="document_search")
    for _ in range(3):
        assert "error" in (await api.post(send("q", skill="document_search"))).json()
    assert "result" in (await api.post(send())).json()
    faults.clear()
    assert "result" in (await api.post(send("q", skill="document_search"))).json()
    faults.add(Fault.FAILED_TASK)  # waits through a request that fails for real
    assert (await api.post(send(), token="invalid")).status_code == 401
    assert (await api.result(send("q", skill="document_search")))["status"]["state"] == "failed"
    with pytest.raises(ValueError):
        faults.add("no_such_fault")
    with pytest.raises(ValueError):
        faults.add(Fault.LATENCY, sekonds=1)


async def test_recording_and_reset(api: Api) -> None:
    await api.post(send("Hi", skill="document_search", context_id="ctx-1"))
    await api.post(task_call("tasks/get", "x"))
    rec = api.fake.requests[0]
    assert (rec.method, rec.skill, rec.token) == ("message/send", "document_search", "pro-token")
    assert (rec.message_id, rec.context_id, rec.http_status) == ("m-1", "ctx-1", 200)
    assert rec.parts == [{"kind": "text", "text": "Hi"}]
    assert api.fake.count() == 2
    assert api.fake.count(skill="document_search") == 1
    assert api.fake.count(method="tasks/get") == 1
    api.fake.faults.add(Fault.HTTP_404)
    api.fake.reset()
    assert api.fake.count() == 0 and len(api.fake.faults) == 0


async def test_agent_card(api: Api) -> None:
    response = await api.http.get(api.server.base_url + "/.well-known/agent.json")
    card = response.json()
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    assert card["url"] == api.server.url
    assert [skill["id"] for skill in card["skills"]] == SKILLS
    assert card["capabilities"]["streaming"] is False


async def test_control_endpoints(api: Api) -> None:
    base = api.server.base_url + "/_fake"
    spec = {"kind": "rate_limited", "times": 2, "retry_after": 3, "skill": "catholic_qa"}
    assert (await api.http.post(base + "/faults", json=spec)).status_code == 201
    assert (await api.post(send())).json()["error"]["data"] == {"retryAfter": 3}
    for bad in ({"kind": "nope"}, {"kind": "latency", "bogus": 1}, {"times": 1}):
        assert (await api.http.post(base + "/faults", json=bad)).status_code == 400
    stats = (await api.http.get(base + "/stats")).json()
    assert stats["total"] == 1 and stats["by_status"] == {"429": 1}
    assert stats["by_skill"] == {"catholic_qa": 1} and len(stats["pending_faults"]) == 1
    assert (await api.http.delete(base + "/faults")).status_code == 200
    assert len(api.fake.faults) == 0
    assert (await api.http.post(base + "/reset")).status_code == 200
    assert api.fake.count() == 0


async def test_default_fake_and_loopback_only() -> None:
    async with running_fake_server() as srv:
        assert isinstance(srv.fake, FakeMagisterium)
        assert srv.url == srv.base_url + "/api/v1/a2a"
        assert srv.base_url.startswith("http://127.0.0.1:")
    with pytest.raises(ValueError):
        async with running_fake_server(host="0.0.0.0"):
            pass


def test_cli_parser() -> None:
    args = build_parser().parse_args(["fake-server"])
    assert (args.host, args.port) == ("127.0.0.1", 8765)
    assert args.latency == 0.0 and not args.no_rate_limits
    args = build_parser().parse_args(
        ["fake-server", "--port", "0", "--latency", "0.25", "--no-rate-limits"]
    )
    assert (args.port, args.latency, args.no_rate_limits) == (0, 0.25, True)
    for argv in ([], ["fake-server", "--host", "0.0.0.0"], ["fake-server", "--latency", "-1"]):
        with pytest.raises(SystemExit):
            build_parser().parse_args(argv)


def test_cli_serves_until_terminated() -> None:
    command = [sys.executable, "-m", "bot", "fake-server", "--port", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as proc:  # noqa: S603
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[-1]
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/api/v1/a2a", url)
        response = httpx.post(url, json=send(), headers={"Authorization": "Bearer pro"})
        assert response.json()["result"]["kind"] == "task"
        proc.terminate()
        assert proc.wait(timeout=10) == 0

"""Benchmark: our A2A client vs a2a-sdk 1.3.0's own client, side by side in one run.

Run by hand from the repository root:

    .venv/bin/python bench/a2a_client.py [--calls N] [--concurrency C] [--rounds R]

Both clients send the same ``message/send`` (catholic_qa, one text part, v0.3 JSON-RPC) to the
same server on loopback TCP. The server runs in a child process, so ``time.process_time()``
in this process counts client CPU only. Each round runs, for each client, N sequential calls
and then N calls with C in flight; the table shows the median over rounds. A third row,
``httpx``, is a reference, not a client: a bare httpx POST plus ``json.loads``, the floor
both clients stand on.

Server (``--server``):
  fake  our fake Magisterium (``devtools.fake_magisterium``), rate limits off: a plain v0.3 server.
  sdk   a2a-sdk's own server with ``enable_v0_3_compat=True`` (``devtools/sdk_peer.py``),
        served by uvicorn.
  auto  (default) ``fake`` when ``devtools.fake_magisterium`` provides ``running_fake_server``
        and the SDK client gets a completed task from it, ``sdk`` otherwise; the output says which.

The SDK client speaks v0.3 through ``CompatJsonRpcTransport``, which its ``ClientFactory``
picks when the agent card's JSONRPC interface declares ``protocol_version="0.3"``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TOKEN = "bench-token"  # the fake server treats any token not starting "free"/"invalid" as Pro
QUESTION = "What is grace?"
WARMUP_CALLS = 30

Call = Callable[[], Awaitable[str]]


# --- the server, in a child process ------------------------------------------------------------


def fake_server_available() -> str | None:
    """None when devtools.fake_magisterium can be served, else why not."""
    try:
        from devtools.fake_magisterium import FakeMagisterium, running_fake_server  # noqa: F401
    except ImportError as exc:
        return f"devtools.fake_magisterium is not usable yet ({exc})"
    return None


async def _serve(kind: str) -> None:
    """Child process: start the server, print its URL, stop when stdin closes."""
    stack = contextlib.AsyncExitStack()
    async with stack:
        if kind == "fake":
            from devtools.fake_magisterium import FakeMagisterium, running_fake_server

            try:
                fake = FakeMagisterium(rate_limits_enabled=False)
            except TypeError:
                fake = FakeMagisterium()
            fake.rate_limits_enabled = False
            server: Any = await stack.enter_async_context(
                running_fake_server(fake, host="127.0.0.1", port=0)
            )
        else:
            from devtools.sdk_peer import running_sdk_server

            server = await stack.enter_async_context(running_sdk_server(host="127.0.0.1"))
        print(server.url, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


@contextlib.contextmanager
def server_process(kind: str) -> Any:
    proc = subprocess.Popen(  # noqa: S603 - our own interpreter and script
        [sys.executable, str(Path(__file__).resolve()), "--serve", kind],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the URL is the first line that looks like one
            if line.startswith("http://"):
                yield line.strip()
                break
        else:
            raise RuntimeError(f"{kind} server did not start (exit code {proc.wait(10)})")
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- the two clients --------------------------------------------------------------------------


def _limits(concurrency: int) -> Any:
    import httpx

    return httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)


@contextlib.asynccontextmanager
async def ours(url: str, concurrency: int) -> AsyncIterator[Call]:

    from bot.a2a import A2AClient, Message, RetryPolicy, TextPart
    from bot.a2a.http import new_http_client

    async with new_http_client(max_connections=concurrency) as http:
        client = A2AClient(http, url, retry=RetryPolicy(max_attempts=1))

        async def call() -> str:
            message = Message.from_user([TextPart(text=QUESTION)], skill_id="catholic_qa")
            task = await client.send_message(message, client.policy(TOKEN))
            if task.status.state != "completed":
                raise RuntimeError(f"ours: task {task.status.state}")
            return task.text_parts()[0]

        yield call


@contextlib.asynccontextmanager
async def sdk(url: str, concurrency: int) -> AsyncIterator[Call]:
    import httpx
    from a2a.client import ClientCallContext, ClientConfig, ClientFactory
    from a2a.types.a2a_pb2 import Message, Part, Role, SendMessageRequest, TaskState

    from devtools.sdk_peer import agent_card

    async with httpx.AsyncClient(limits=_limits(concurrency)) as http:
        config = ClientConfig(httpx_client=http, streaming=False)
        client = ClientFactory(config).create(agent_card(url, protocol_version="0.3"))
        transport = type(getattr(client, "_transport", None)).__name__
        if transport != "CompatJsonRpcTransport":
            raise RuntimeError(f"the SDK picked {transport}, not its v0.3 transport")
        context = ClientCallContext(
            timeout=60.0, service_parameters={"Authorization": f"Bearer {TOKEN}"}
        )

        async def call() -> str:
            message = Message(
                role=Role.ROLE_USER, message_id=str(uuid.uuid4()), parts=[Part(text=QUESTION)]
            )
            message.metadata.update({"skillId": "catholic_qa"})
            request = SendMessageRequest(message=message)
            async for event in client.send_message(request, context=context):
                task = event.task
                if task.status.state != TaskState.TASK_STATE_COMPLETED:
                    raise RuntimeError(f"sdk: task state {task.status.state}")
                return str(task.artifacts[0].parts[0].text)
            raise RuntimeError("sdk: no response")

        yield call


@contextlib.asynccontextmanager
async def httpx_floor(url: str, concurrency: int) -> AsyncIterator[Call]:
    """Reference, not a client: one bare httpx POST plus json.loads, nothing parsed.

    Both clients above pay at least this; it shows how much of their cost is httpx's.
    """
    import json

    import httpx

    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    async with httpx.AsyncClient(limits=_limits(concurrency)) as http:

        async def call() -> str:
            message = {
                "role": "user",
                "kind": "message",
                "messageId": str(uuid.uuid4()),
                "parts": [{"kind": "text", "text": QUESTION}],
                "metadata": {"skillId": "catholic_qa"},
            }
            body = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "message/send",
                "params": {"message": message},
            }
            response = await http.post(url, content=json.dumps(body), headers=headers)
            return str(json.loads(response.content)["result"]["status"]["state"])

        yield call


CLIENTS: dict[str, Callable[[str, int], contextlib.AbstractAsyncContextManager[Call]]] = {
    "ours": ours,
    "a2a-sdk": sdk,
    "httpx": httpx_floor,
}


# --- measuring ----------------------------------------------------------------------------------


@dataclass
class Sample:
    calls: int
    wall: float
    cpu: float

    @property
    def per_second(self) -> float:
        return self.calls / self.wall

    @property
    def cpu_ms_per_call(self) -> float:
        return 1000 * self.cpu / self.calls


async def measure(call: Call, calls: int, concurrency: int) -> Sample:
    answers: list[str] = []

    async def worker(count: int) -> None:
        for _ in range(count):
            answers.append(await call())

    shares = [calls // concurrency + (i < calls % concurrency) for i in range(concurrency)]
    gc.collect()  # start every sample from the same heap state; GC during it still counts
    wall0, cpu0 = time.perf_counter(), time.process_time()
    if concurrency == 1:
        await worker(calls)
    else:
        await asyncio.gather(*(worker(n) for n in shares if n))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if len(answers) != calls or not all(answers):
        raise RuntimeError(f"expected {calls} answers, got {len(answers)}")
    return Sample(calls, wall, cpu)


async def probe(url: str) -> str | None:
    """None when both clients get a completed task from ``url``, else the first failure."""
    for name, factory in CLIENTS.items():  # the reference row must work too
        try:
            async with factory(url, 1) as call:
                await call()
        except Exception as exc:
            return f"{name} client: {type(exc).__name__}: {exc}"
    return None


async def bench(
    url: str, calls: int, concurrency: int, rounds: int
) -> dict[str, dict[str, list[Sample]]]:
    samples: dict[str, dict[str, list[Sample]]] = {
        name: {"sequential": [], "concurrent": []} for name in CLIENTS
    }
    for round_no in range(rounds):
        # Alternate who goes first so neither client always meets a warmer server.
        order = list(CLIENTS) if round_no % 2 == 0 else list(reversed(CLIENTS))
        for name in order:
            async with CLIENTS[name](url, concurrency) as call:
                await measure(call, WARMUP_CALLS, min(concurrency, WARMUP_CALLS))
                for mode, width in (("sequential", 1), ("concurrent", concurrency)):
                    samples[name][mode].append(await measure(call, calls, width))
    return samples


def report(samples: dict[str, dict[str, list[Sample]]], calls: int, concurrency: int) -> None:
    """Median over rounds of calls/s and of CPU ms per call."""

    def rate(name: str, mode: str) -> float:
        return statistics.median(s.per_second for s in samples[name][mode])

    def cpu(name: str, mode: str) -> float:
        return statistics.median(s.cpu_ms_per_call for s in samples[name][mode])

    header = f"{'mode':<24}{'client':<10}{'calls/s':>10}{'CPU ms/call':>13}"
    print(header)
    print("-" * len(header))
    for mode, width in (("sequential", 1), ("concurrent", concurrency)):
        label = f"{mode} ({calls}, x{width})"
        for name in CLIENTS:
            print(f"{label:<24}{name:<10}{rate(name, mode):>10.0f}{cpu(name, mode):>13.3f}")
    print()
    print("ours vs a2a-sdk (above 1.00x favours ours; goal >= 2.00x):")
    for mode in ("sequential", "concurrent"):
        print(
            f"  {mode:<11} calls/s {rate('ours', mode) / rate('a2a-sdk', mode):5.2f}x"
            f"   CPU per call {cpu('a2a-sdk', mode) / cpu('ours', mode):5.2f}x less"
        )


def choose_server(requested: str) -> tuple[str, str]:
    if requested != "auto":
        return requested, f"--server {requested}"
    why_not = fake_server_available()
    if why_not is None:
        return "fake", "auto: devtools.fake_magisterium available"
    return "sdk", f"auto: {why_not}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per phase (default 300)")
    parser.add_argument(
        "--concurrency", type=int, default=16, help="calls in flight, concurrent phase (16)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds; median shown (5)")
    parser.add_argument("--server", choices=("auto", "fake", "sdk"), default="auto")
    parser.add_argument("--serve", choices=("fake", "sdk"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve(args.serve))
        return
    if args.calls < 1 or args.concurrency < 1 or args.rounds < 1:
        parser.error("--calls, --concurrency and --rounds must be >= 1")

    kind, why = choose_server(args.server)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(server_process(kind))
            failure = asyncio.run(probe(url))
        except RuntimeError as exc:
            url, failure = "", str(exc)
        if failure is not None and kind == "fake" and args.server == "auto":
            stack.close()
            kind, why = "sdk", f"auto: the fake server failed a probe call ({failure})"
            url = stack.enter_context(server_process(kind))
            failure = asyncio.run(probe(url))
        if failure is not None:
            sys.exit(f"{kind} server: probe call failed: {failure}")

        from importlib.metadata import version

        servers = {
            "fake": "fake Magisterium (devtools.fake_magisterium), plain v0.3 JSON-RPC, "
            "rate limits off",
            "sdk": f"a2a-sdk {version('a2a-sdk')} server, v0.3 compat on, uvicorn",
        }
        print(f"server:  {servers[kind]}  [{why}]")
        print(f"         {url} on loopback TCP, in a child process")
        print("clients: ours    = bot.a2a.A2AClient.send_message -> pydantic Task")
        print("         a2a-sdk = ClientFactory(ClientConfig(streaming=False)).create(card with")
        print("                   protocol_version 0.3).send_message -> CompatJsonRpcTransport")
        print("                   -> protobuf Task")
        print("         httpx   = reference only: a bare httpx POST + json.loads, no parsing")
        print(
            f"each: {WARMUP_CALLS} warm-up calls, then {args.calls} sequential and "
            f"{args.calls} with {args.concurrency} in flight; {args.rounds} rounds, median shown"
        )
        samples = asyncio.run(bench(url, args.calls, args.concurrency, args.rounds))
    print(f"({time.perf_counter() - started:.1f}s)\n")
    report(samples, args.calls, args.concurrency)


if __name__ == "__main__":
    main()

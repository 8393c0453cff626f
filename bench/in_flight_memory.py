"""Benchmark: the memory one upstream call in flight costs, which sizes the in-flight cap.

Run by hand from the repository root (offline; about a minute):

    .venv/bin/python bench/in_flight_memory.py [--calls 100,250,500] [--latency-ms 3000]
        [--no-tls]

N calls start at once against the fake Magisterium (``python -m bot fake-server``, its own
process, rate limits off, answering after ``--latency-ms``) and are measured while all N wait
for their answer (the fake has received every one). Three layers, each N in a fresh process
(so that memory an earlier run freed but kept cannot hide the growth):

  http:        a catholic_qa call (its row of ``bot.a2a.skills``, sent by ``A2AClient``) on the
               bot's HTTP client (``new_http_client``: httpx on aiohttp's pool, one connection
               per call in flight), plain HTTP on loopback;
  tls:         the same over TLS, through a TLS-terminating relay in another process (Magisterium
               is reached over https: each connection then holds an OpenSSL session);
  interaction: whole ``/ask`` interactions through the offline harness (``devtools.discord``),
               each from its own linked person: discord.py's Interaction, the command's task,
               the limiter's admission, the call (plain HTTP). Each person's token is looked
               up once before the baseline: the entry it leaves in memory is not per call.

Per call, the growth over the baseline (after one warm-up call) divided by N: of RSS (one
pass, tracemalloc off) and of the Python heap (tracemalloc, a second pass). For the interaction
layer the heap is also given without what the harness's fake Discord keeps (allocations with a
frame in devtools/discord or dpytest): RSS there is an upper bound. OpenSSL's buffers are not
Python allocations: only RSS sees them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import ssl
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from pydantic import SecretStr  # noqa: E402

from bot.a2a import A2AClient, Answer, Message  # noqa: E402
from bot.a2a.http import new_http_client  # noqa: E402
from bot.a2a.skills import CATHOLIC_QA  # noqa: E402
from devtools.fake_magisterium.agent_card import A2A_PATH  # noqa: E402

LAYERS = ("http", "tls", "interaction")
HARNESS_FRAMES = ("*/devtools/discord/*", "*/discord/ext/test/*")
ARRIVAL_GUARD = 60.0  # seconds: a guard against a hang, not a wait
KIB = 1024


def read_rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


# --- the fake Magisterium and the TLS relay, each in its own process -----------------------


@contextlib.contextmanager
def child(command: list[str]) -> Iterator[str]:
    """A child process that prints its URL (last word of its first line) once it listens."""
    process = subprocess.Popen(  # noqa: S603 - our own interpreter running our own code
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.rsplit(" ", 1)[-1].strip()
        if not url.startswith("http"):
            raise SystemExit(f"{command[1:4]} did not start: {line!r}")
        yield url
    finally:
        process.terminate()
        process.wait()


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, for the relay (the client trusts it alone)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    import ipaddress

    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "relay.crt", directory / "relay.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


async def relay(target: str, cert: str, key: str) -> None:
    """Terminate TLS on a free port and pipe each connection to ``target`` (host:port)."""
    host, port = target.rsplit(":", 1)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=context, backlog=4096)
    print(f"relay listening on https://127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


# --- one measurement, in its own process -----------------------------------------------------


async def arrived(control: httpx.AsyncClient) -> int:
    response = await control.get("/_fake/stats")
    response.raise_for_status()
    total: int = response.json()["total"]
    return total


async def measure(
    control: httpx.AsyncClient,
    start: Callable[[], Awaitable[list[asyncio.Task[Any]]]],
    count: int,
    heap: bool,
) -> dict[str, float]:
    """Start ``count`` calls, wait until the fake has every one, read memory, let them end."""
    before_requests = await arrived(control)
    gc.collect()
    rss, traced, bot_traced = read_rss_kib(), 0, 0
    if heap:
        tracemalloc.start(25)
        base = tracemalloc.take_snapshot()
    started = time.perf_counter()
    tasks = await start()
    while await arrived(control) - before_requests < count:
        if time.perf_counter() - started > ARRIVAL_GUARD:
            raise SystemExit("the calls never all reached the fake")
        await asyncio.sleep(0.05)
    gc.collect()
    figures: dict[str, float] = {"rss": (read_rss_kib() - rss) * KIB / count}
    if heap:
        snapshot = tracemalloc.take_snapshot()
        tracemalloc.stop()
        traced = sum(stat.size_diff for stat in snapshot.compare_to(base, "filename"))
        outside = [
            tracemalloc.Filter(False, pattern, all_frames=True) for pattern in HARNESS_FRAMES
        ]
        bot_traced = sum(
            stat.size_diff
            for stat in snapshot.filter_traces(outside).compare_to(
                base.filter_traces(outside), "filename"
            )
        )
        figures = {"heap": traced / count, "heap_without_harness": bot_traced / count}
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        raise SystemExit(f"{len(failed)} calls failed, the first: {failed[0]!r}")
    return figures


async def measure_calls(url: str, count: int, heap: bool, ca: str | None) -> dict[str, float]:
    transport = None
    if ca is not None:
        from httpx_aiohttp import AiohttpTransport

        limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
        transport = AiohttpTransport(verify=ssl.create_default_context(cafile=ca), limits=limits)
    async with (
        new_http_client(max_connections=count, transport=transport) as http,
        httpx.AsyncClient(base_url=CONTROL[0]) as control,
    ):
        client = A2AClient(http, url)

        async def ask(token: SecretStr, question: str) -> Answer:
            message = Message.from_user([CATHOLIC_QA.part(question)], skill_id=CATHOLIC_QA.id)
            task = await client.send_message(message, client.policy(token))
            return CATHOLIC_QA.parse(task, question)

        await ask(SecretStr("warm-up"), "Warm-up: what is grace?")

        async def start() -> list[asyncio.Task[Any]]:
            return [
                asyncio.create_task(ask(SecretStr(f"person-{i}"), f"Question {i}: grace?"))
                for i in range(count)
            ]

        return await measure(control, start, count, heap)


async def measure_interactions(url: str, count: int, heap: bool) -> dict[str, float]:
    sys.path.insert(0, str(ROOT / "bench"))
    from bot_load import Recorder, prepare

    from bot.app import MagisteriumBot, create_bot
    from devtools.discord import Harness
    from devtools.discord.fixtures import harness_settings

    with tempfile.TemporaryDirectory(prefix="in-flight-") as directory:
        settings = harness_settings(
            url,
            f"sqlite+aiosqlite:///{directory}/bot.db",
            rate_limit_wait_seconds=60.0,
            max_in_flight=count + 1,
            upstream_max_connections=count + 1,
        )
        bot = create_bot(settings)
        async with (
            Harness.start(bot) as harness,
            httpx.AsyncClient(base_url=CONTROL[0]) as control,
        ):
            services = bot.services if isinstance(bot, MagisteriumBot) else None
            assert services is not None
            users = [harness.user(name=f"p{i}") for i in range(count + 1)]
            for user in users:
                await services.registry.link(user.id, SecretStr(f"bench-{user.id}"))
                await services.registry.get(user.id)  # in memory before the baseline
            asks = [
                prepare(harness, "ask", user, {"question": f"Question {i}: what is grace?"})
                for i, user in enumerate(users)
            ]
            with Recorder(harness) as recorder:  # the warm-up
                recorder.dispatch(asks[0], time.perf_counter())
                await recorder.wait_idle()
            recorder = Recorder(harness)

            async def start() -> list[asyncio.Task[Any]]:
                recorder.__enter__()
                for ask in asks[1:]:
                    recorder.dispatch(ask, time.perf_counter())
                return [asyncio.create_task(recorder.wait_idle())]

            try:
                return await measure(control, start, count, heap)
            finally:
                recorder.__exit__()


CONTROL: list[str] = []


def run_one(args: argparse.Namespace) -> None:
    layer, count, heap = args.measure[0], int(args.measure[1]), args.measure[2] == "heap"
    CONTROL.append(args.fake.removesuffix(A2A_PATH))
    if layer == "interaction":
        import logging

        logging.basicConfig(level=logging.WARNING)
        logging.getLogger("discord.client").setLevel(logging.ERROR)
        figures = asyncio.run(measure_interactions(args.fake, count, heap))
    elif layer == "tls":
        figures = asyncio.run(measure_calls(args.relay + A2A_PATH, count, heap, args.ca))
    else:
        figures = asyncio.run(measure_calls(args.fake, count, heap, None))
    print(json.dumps(figures))


# --- the report ------------------------------------------------------------------------------


def spawn(layer: str, count: int, pass_: str, *, where: list[str]) -> dict[str, Any]:
    """One measurement in a fresh process; ``where``: the fake's URL, the relay's, the CA."""
    fake, relay_url, ca = where
    command = [sys.executable, __file__, "--measure", layer, str(count), pass_, "--fake", fake]
    command += ["--relay", relay_url, "--ca", ca]
    done = subprocess.run(  # noqa: S603 - our own interpreter running this script
        command, cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{layer} x{count} ({pass_}) failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", default="100,250,500", help="N, comma-separated")
    parser.add_argument("--latency-ms", type=float, default=3000.0, help="upstream latency")
    parser.add_argument("--no-tls", action="store_true", help="skip the TLS layer")
    parser.add_argument("--layers", default=",".join(LAYERS), help="comma-separated")
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--fake", help=argparse.SUPPRESS)
    parser.add_argument("--relay-to", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--relay", help=argparse.SUPPRESS)
    parser.add_argument("--ca", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.relay_to:
        asyncio.run(relay(*args.relay_to))
        return
    if args.measure:
        run_one(args)
        return
    counts = [int(part) for part in args.calls.split(",")]
    layers = [layer for layer in args.layers.split(",") if not (args.no_tls and layer == "tls")]
    fake_command = [sys.executable, "-m", "bot", "fake-server", "--port", "0", "--no-rate-limits"]
    fake_command += ["--latency", str(args.latency_ms / 1000)]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="in-flight-tls-") as directory:
        cert, key = self_signed(Path(directory))
        with child(fake_command) as fake:
            target = fake.split("//", 1)[1].split("/", 1)[0]
            relay_command = [sys.executable, __file__, "--relay-to", target, str(cert), str(key)]
            with child(relay_command) as relay_url:
                print(
                    f"upstream: the fake Magisterium ({fake}), {args.latency_ms:g} ms per "
                    f"request; TLS relay {relay_url}"
                )
                print("per call in flight, KiB (growth over the baseline / N):")
                print(f"  {'layer':<12}{'N':>6}{'RSS':>10}{'heap':>10}{'heap w/o harness':>18}")
                for layer in layers:
                    for count in counts:
                        where = [fake, relay_url, str(cert)]
                        rss = spawn(layer, count, "rss", where=where)["rss"]
                        heap = spawn(layer, count, "heap", where=where)
                        without = (
                            f"{heap['heap_without_harness'] / KIB:18.1f}"
                            if layer == "interaction"
                            else f"{'':18}"
                        )
                        print(
                            f"  {layer:<12}{count:>6}{rss / KIB:10.1f}"
                            f"{heap['heap'] / KIB:10.1f}{without}",
                            flush=True,
                        )
    print(f"total {time.perf_counter() - started:.0f}s")


if __name__ == "__main__":
    main()

"""`python -m bot fake-server`: run the fake Magisterium until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from devtools.fake_magisterium.fake import FakeMagisterium
from devtools.fake_magisterium.server import check_loopback, running_fake_server

COMMAND = "fake-server"
DEFAULT_PORT = 8765


def _loopback_host(value: str) -> str:
    try:
        check_loopback(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def _seconds(value: str) -> float:
    seconds = float(value)
    if seconds < 0:
        raise argparse.ArgumentTypeError("latency cannot be negative")
    return seconds


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        COMMAND,
        help="run a local fake of the Magisterium A2A API",
        description="Serve a fake Magisterium A2A API on a loopback address until Ctrl-C. "
        "Control it over HTTP: POST/DELETE /_fake/faults, GET /_fake/stats, POST /_fake/reset.",
    )
    parser.add_argument("--host", type=_loopback_host, default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="0 picks a free port")
    parser.add_argument(
        "--latency", type=_seconds, default=0.0, metavar="SECONDS", help="added to each request"
    )
    parser.add_argument(
        "--no-rate-limits", action="store_true", help="never answer 429 Rate limit exceeded"
    )
    parser.set_defaults(handler=run)


async def serve(fake: FakeMagisterium, host: str, port: int) -> None:
    """Serve until SIGTERM (Ctrl-C cancels this coroutine through asyncio.run)."""
    stop = asyncio.Event()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with running_fake_server(fake, host=host, port=port) as server:
        print(f"Fake Magisterium A2A endpoint: {server.url}", flush=True)
        print(f"Agent Card: {server.base_url}/.well-known/agent.json", flush=True)
        print("Press Ctrl-C to stop.", flush=True)
        await stop.wait()


def run(args: argparse.Namespace) -> int:
    fake = FakeMagisterium(latency=args.latency, rate_limits_enabled=not args.no_rate_limits)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(fake, args.host, args.port))
    return 0

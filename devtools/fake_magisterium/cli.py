"""`python -m bot fake-server`: run the fake Magisterium until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from devtools.fake_magisterium.fake import FakeMagisterium
from devtools.fake_magisterium.server import running_fake_server


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
    fake = FakeMagisterium(
        latency=args.latency, rate_limits_enabled=not args.no_rate_limits, label_samples=True
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(fake, args.host, args.port))
    return 0

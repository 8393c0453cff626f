"""A faithful local stand-in for Magisterium AI's A2A JSON-RPC API, for tests, benchmarks and
offline demos. Works on raw JSON and is independent of `bot.a2a`, so a client bug is not mirrored.

    fake = FakeMagisterium()
    async with running_fake_server(fake) as server:
        ...  # point a client at server.url; steer it with fake.faults, fake.accounts
"""

from devtools.fake_magisterium.fake import FakeMagisterium, UpstreamRequest
from devtools.fake_magisterium.faults import Fault, FaultRule
from devtools.fake_magisterium.server import RunningFakeServer, running_fake_server

__all__ = [
    "FakeMagisterium",
    "Fault",
    "FaultRule",
    "RunningFakeServer",
    "UpstreamRequest",
    "running_fake_server",
]

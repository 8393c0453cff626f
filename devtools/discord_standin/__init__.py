"""A local Discord for the real run path: its REST API and gateway, on one loopback port.

``python -m bot run`` connects to it as to Discord (``DISCORD_API_BASE_URL``; the gateway URL
from ``GET /gateway/bot``): IDENTIFY, READY, GUILD_CREATE, heartbeats, RESUME with replay,
RECONNECT, INVALID_SESSION, INTERACTION_CREATE and MESSAGE_CREATE on the shard that owns the
guild, interaction callbacks and webhooks (the harness's :class:`FakeDiscord`), channel
messages with ``enforce_nonce``, threads started on messages, forum channels and their posts,
DMs, command registration, Discord's rate-limit headers and, on demand, 429s (per route or
global) and 5xx. The developer portal's privileged-intent switches are
``StandIn(privileged_intents=…)`` (none by default: 4014); without the Message Content intent a
server message reaches the bot without its text unless it mentions the bot itself (a mention of
its managed role alone does not count). Modules: ``world`` (what Discord
holds), ``gateway``, ``rest``, ``ratelimits``, ``interactions`` (payloads), ``server``.
"""

from devtools.discord_standin.server import Delivered, StandIn, StandInTimeout, running_standin
from devtools.discord_standin.world import Channel, Guild, Person, World, shard_of

__all__ = [
    "Channel",
    "Delivered",
    "Guild",
    "Person",
    "StandIn",
    "StandInTimeout",
    "World",
    "running_standin",
    "shard_of",
]

"""What keeps pytest-xdist's workers apart on one machine.

Each worker (``gw0``, ``gw1``, …; ``main`` without xdist) has a Redis database number of its
own, so that two workers' bots never share a limiter's counts or a cache's entries even where
their keys are alike; PostgreSQL databases carry the worker's name (see ``databases``); ports
are always the kernel's free ones (port 0) and temporary directories pytest's per-worker ones.
"""

from __future__ import annotations

import os

# Database 0 is left to whoever runs the bot by hand on this machine.
_REDIS_DATABASES = 15


def worker_name() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def worker_number() -> int:
    """0 for ``gw0`` and for a run without xdist, 1 for ``gw1``, …"""
    name = worker_name()
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


def redis_url(host: str = "127.0.0.1", port: int = 6379) -> str:
    """The Redis URL of this worker's own database (1–15)."""
    return f"redis://{host}:{port}/{1 + worker_number() % _REDIS_DATABASES}"


REDIS_URL = redis_url()

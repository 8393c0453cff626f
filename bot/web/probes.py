"""Readiness: is the gateway connected, and does the database answer in time?"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage import StorageUnavailable

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 2.0


@dataclass(frozen=True)
class Readiness:
    gateway_connected: Callable[[], bool]
    ping_database: Callable[[], Awaitable[None]]
    shutting_down: Callable[[], bool] = lambda: False
    database_timeout: float = DATABASE_TIMEOUT

    async def check(self) -> dict[str, str]:
        """Each check's verdict: ``"ok"``, or what is wrong (never a URL or a secret)."""
        verdicts = {
            "gateway": "ok" if self.gateway_connected() else "not connected",
            "database": await self._database(),
        }
        if self.shutting_down():
            verdicts["shutdown"] = "draining: new commands are turned away"
        return verdicts

    async def _database(self) -> str:
        try:
            async with asyncio.timeout(self.database_timeout):
                await self.ping_database()
        except TimeoutError:
            return f"no answer within {self.database_timeout:g}s"
        except StorageUnavailable as error:
            return str(error)  # names the kind of failure only
        except Exception as error:
            return f"failed: {_kind(error)}"
        return "ok"


def _kind(error: BaseException) -> str:
    """The error's class and, from a database driver, its SQLSTATE: never its message, which
    may quote a URL."""
    sqlstate = getattr(getattr(error, "orig", None), "sqlstate", None)
    name = type(error).__name__
    return f"{name} (SQLSTATE {sqlstate})" if isinstance(sqlstate, str) else name


class ReadinessLog:
    """Tells the log why the bot is not ready (the probe's answer says only whether it is),
    once each time the verdicts change rather than on every probe."""

    def __init__(self) -> None:
        self._last: dict[str, str] | None = None

    def ready(self, checks: dict[str, str]) -> bool:
        ready = all(verdict == "ok" for verdict in checks.values())
        if checks != self._last:
            if not ready:
                reasons = "; ".join(f"{name}: {v}" for name, v in checks.items() if v != "ok")
                log.warning("not ready: %s", reasons)
            elif self._last is not None:
                log.info("ready again")
            self._last = dict(checks)
        return ready

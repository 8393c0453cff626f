"""Readiness: is the gateway connected, and does the database answer in time?"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage import StorageUnavailable

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

"""SQLite specifics: connection pragmas, the data directory, and a locked database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pydantic import SecretStr
from sqlalchemy import text

from bot.accounts import TokenCipher, TokenRegistry
from bot.storage import Database, StorageUnavailable
from bot.storage.migrate import HEAD_REVISION


async def test_the_data_directory_is_created(tmp_path: Path) -> None:
    async with Database(f"sqlite+aiosqlite:///{tmp_path}/a/b/bot.db") as db:
        assert (tmp_path / "a" / "b").is_dir()
        assert await db.migrate() == HEAD_REVISION
    assert (tmp_path / "a" / "b" / "bot.db").is_file()


async def test_every_connection_gets_wal_busy_timeout_and_foreign_keys(sqlite_url: str) -> None:
    db = Database(sqlite_url, busy_timeout_ms=1234)
    # Two sessions open at once hold two different pooled connections.
    async with db, db.session() as first, db.session() as second:
        for session in (first, second):
            pragmas = [
                (await session.execute(text(f"PRAGMA {name}"))).scalar_one()
                for name in ("journal_mode", "busy_timeout", "foreign_keys")
            ]
            assert pragmas == ["wal", 1234, 1]


async def test_a_locked_database_is_unavailable_and_loses_nothing(
    sqlite_url: str, cipher: TokenCipher
) -> None:
    async with Database(sqlite_url, busy_timeout_ms=50) as db:
        await db.migrate()
        registry = TokenRegistry(db, cipher)
        await registry.link(1, SecretStr("token-one"))

        database_file = sqlite_url.removeprefix("sqlite+aiosqlite:///")
        other_process = sqlite3.connect(database_file, isolation_level=None)
        try:
            other_process.execute("BEGIN IMMEDIATE")  # holds the write lock
            with pytest.raises(StorageUnavailable, match="locked") as raised:
                await registry.link(2, SecretStr("token-two"))
            assert "token-two" not in str(raised.value)
            assert database_file not in str(raised.value)
        finally:
            other_process.execute("ROLLBACK")
            other_process.close()

        stored = await registry.get(1)
        assert stored is not None
        assert stored.token.get_secret_value() == "token-one"
        assert await registry.get(2) is None
        await registry.link(2, SecretStr("token-two"))
        assert await registry.count() == 2

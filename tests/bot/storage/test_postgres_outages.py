"""PostgreSQL outages: a server that is down, and connections killed mid-transaction."""

from __future__ import annotations

import pytest
from pydantic import SecretStr
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url

from bot.accounts import TokenCipher, TokenRegistry
from bot.storage import Database, StorageUnavailable
from tests.support.databases import closed_port, terminate_connections


async def test_a_server_that_is_down_is_unavailable_and_the_message_hides_the_url() -> None:
    url = f"postgresql+asyncpg://bot:hunter2@127.0.0.1:{closed_port()}/bot"
    async with Database(url) as db:
        with pytest.raises(StorageUnavailable, match="cannot connect") as raised:
            await db.ping()
        assert "hunter2" not in str(raised.value)
        assert "127.0.0.1" not in str(raised.value)

        with pytest.raises(StorageUnavailable):
            async with db.session() as session:
                await session.execute(text("SELECT 1"))
        with pytest.raises(StorageUnavailable):
            await db.migrate()


async def test_an_unknown_database_is_unavailable(postgres_server_url: URL) -> None:
    url = postgres_server_url.set(database="mgb_test_does_not_exist")
    async with Database(url.render_as_string(hide_password=False)) as db:
        with pytest.raises(StorageUnavailable, match="SQLSTATE 3D000"):
            await db.ping()


async def test_connections_killed_mid_transaction_lose_nothing_committed(
    postgres_url: str, postgres_server_url: URL, cipher: TokenCipher
) -> None:
    async with Database(postgres_url) as db:
        await db.migrate()
        registry = TokenRegistry(db, cipher)
        await registry.link(1, SecretStr("token-one"))

        with pytest.raises(StorageUnavailable, match="connection to it was lost"):
            async with db.session() as session:
                await session.execute(text("DELETE FROM linked_accounts"))
                killed = await terminate_connections(
                    postgres_server_url, str(make_url(postgres_url).database)
                )
                assert killed >= 1
                await session.execute(text("SELECT 1"))

        # The pool notices dead connections before handing them out again.
        stored = await registry.get(1)
        assert stored is not None
        assert stored.token.get_secret_value() == "token-one"

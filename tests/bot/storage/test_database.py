"""Storage: migrations, transactions, per-user deletion and types, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, func, inspect, select
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage import (
    Base,
    Database,
    SharedTokenUsageRow,
    UserDataDeleter,
    rows_of_user,
)
from bot.storage import migrate as migrate_module
from bot.storage.migrate import HEAD_REVISION, scripts_head

WHEN = datetime(2025, 3, 1, 10, tzinfo=UTC)


def usage(user_id: int, pool: str = "all", count: int = 1) -> SharedTokenUsageRow:
    return SharedTokenUsageRow(discord_user_id=user_id, window_start=WHEN, pool=pool, count=count)


async def usage_rows(db: Database, user_id: int) -> int:
    async with db.session() as session:
        query = select(func.count()).where(SharedTokenUsageRow.discord_user_id == user_id)
        return (await session.execute(query)).scalar_one()


async def table_names(db: Database) -> set[str]:
    async with db.session() as session:
        connection = await session.connection()
        return set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))


async def test_migrations_apply_on_an_empty_database_and_are_idempotent(
    empty_database: Database,
) -> None:
    assert await empty_database.revision() is None
    assert await table_names(empty_database) == set()

    assert await empty_database.migrate() == HEAD_REVISION
    assert await table_names(empty_database) == {
        "alembic_version",
        "linked_accounts",
        "shared_token_usage",
        "dm_conversations",
        "daily_schedules",
        "daily_claims",
        "oauth_clients",
        "server_accounts",
        "server_token_usage",
        "personal_daily_schedules",
        "personal_daily_claims",
        "oauth_states",
        "person_timezones",
        "server_timezones",
        "server_settings",
        "ask_channels",
        "answer_conversations",
        "answer_feedback",
        "install_secrets",
    }
    assert await empty_database.migrate() == HEAD_REVISION
    assert await empty_database.revision() == HEAD_REVISION


def test_the_head_revision_is_the_newest_script() -> None:
    assert scripts_head() == HEAD_REVISION


async def test_a_database_at_the_head_is_not_upgraded_again(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    def upgrade(*_args: Any) -> None:
        raise AssertionError("alembic ran on a database already at the head")

    monkeypatch.setattr(migrate_module.command, "upgrade", upgrade)
    assert await database.migrate() == HEAD_REVISION


async def test_the_models_match_the_migrations(database: Database) -> None:
    def differences(connection: Connection) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))

    async with database.session() as session:
        connection = await session.connection()
        assert await connection.run_sync(differences) == []


async def test_two_processes_migrating_at_once_both_succeed(database_url: str) -> None:
    async with Database(database_url) as first, Database(database_url) as second:
        assert await asyncio.gather(first.migrate(), second.migrate()) == [
            HEAD_REVISION,
            HEAD_REVISION,
        ]


async def test_a_session_commits_on_success_and_rolls_back_on_error(database: Database) -> None:
    async with database.session() as session:
        session.add(usage(1))

    with pytest.raises(RuntimeError, match="midway"):
        async with database.session() as session:
            session.add(usage(2))
            await session.flush()
            raise RuntimeError("midway")

    assert await usage_rows(database, 1) == 1
    assert await usage_rows(database, 2) == 0


async def test_delete_user_data_runs_every_deleter_and_keeps_other_users(
    database: Database,
) -> None:
    database.user_data.register("shared_token_usage", rows_of_user(SharedTokenUsageRow))
    async with database.session() as session:
        session.add_all([usage(1, "all"), usage(1, "qa"), usage(2, "all")])

    assert await database.delete_user_data(1) == {"shared_token_usage": 2}
    assert await usage_rows(database, 1) == 0
    assert await usage_rows(database, 2) == 1


async def test_user_data_is_deleted_all_at_once_or_not_at_all(database: Database) -> None:
    async def failing(session: AsyncSession, user_id: int) -> int:
        raise RuntimeError("this store cannot delete")

    database.user_data.register("shared_token_usage", rows_of_user(SharedTokenUsageRow))
    database.user_data.register("broken", failing)
    async with database.session() as session:
        session.add(usage(1))

    with pytest.raises(RuntimeError, match="cannot delete"):
        await database.delete_user_data(1)
    assert await usage_rows(database, 1) == 1


async def test_registering_a_deleter_name_again_replaces_it(database: Database) -> None:
    calls: list[str] = []

    def recorder(label: str) -> UserDataDeleter:
        async def record(session: AsyncSession, user_id: int) -> int:
            calls.append(label)
            return 0

        return record

    database.user_data.register("store", recorder("first"))
    database.user_data.register("store", recorder("second"))
    await database.delete_user_data(1)
    assert calls == ["second"]


async def test_datetimes_come_back_aware_and_in_utc(database: Database) -> None:
    paris_noon = datetime(2025, 3, 1, 12, tzinfo=timezone(timedelta(hours=1)))
    async with database.session() as session:
        session.add(
            SharedTokenUsageRow(discord_user_id=1, window_start=paris_noon, pool="all", count=1)
        )

    async with database.session() as session:
        stored = (await session.execute(select(SharedTokenUsageRow.window_start))).scalar_one()
    assert stored == paris_noon
    assert stored.tzinfo == UTC
    assert stored.hour == 11


async def test_naive_datetimes_are_refused(database: Database) -> None:
    with pytest.raises(StatementError, match="aware datetime"):
        async with database.session() as session:
            naive = datetime(2025, 3, 1, 12)
            session.add(
                SharedTokenUsageRow(discord_user_id=1, window_start=naive, pool="all", count=1)
            )


async def test_a_missing_table_is_a_bug_not_an_outage(empty_database: Database) -> None:
    # DBAPIError, not StorageUnavailable: "no such table" must not read as "try again shortly".
    with pytest.raises(DBAPIError, match="shared_token_usage"):
        async with empty_database.session() as session:
            await session.execute(select(SharedTokenUsageRow))


async def test_ping_answers_on_a_reachable_database(database: Database) -> None:
    await database.ping()


def test_the_url_is_shown_without_its_password() -> None:
    db = Database("postgresql+asyncpg://bot:hunter2@db.internal:5432/bot")
    assert "hunter2" not in db.display_url
    assert "hunter2" not in repr(db)
    assert db.dialect_name == "postgresql"


@pytest.mark.parametrize(
    "url", ["mysql+aiomysql://bot:hunter2@db/bot", "sqlite:///plain.db", "not a url hunter2"]
)
def test_an_unsupported_or_malformed_url_is_refused_without_echoing_it(url: str) -> None:
    with pytest.raises(ValueError, match="DATABASE_URL") as raised:
        Database(url)
    assert "hunter2" not in str(raised.value)

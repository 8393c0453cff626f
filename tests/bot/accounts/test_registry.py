"""The token registry on SQLite and PostgreSQL: linking, encryption at rest, rotation, binding,
startup checks and deleting everything about a user."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr
from sqlalchemy import func, select, text, update

from bot.accounts import (
    MissingEncryptionKey,
    ServerRegistry,
    ServerTokenQuota,
    SharedTokenQuota,
    TokenBindingError,
    TokenCipher,
    TokenDecryptionError,
    TokenRegistry,
    WrongEncryptionKey,
    generate_key,
)
from bot.accounts.rotation import rotate_every_secret
from bot.storage import Base, Database, LinkedAccountRow, SharedTokenUsageRow
from bot.storage.models import USER_ID_COLUMN
from tests.support.fakes import FakeWallClock

TOKENS = {1: "mag-token-alpha-5b1e0c", 2: "mag-token-bravo-93d7aa", 3: "mag-token-charlie-0f42"}


def cipher_for(*keys: str) -> TokenCipher:
    cipher = TokenCipher.from_setting(",".join(keys))
    assert cipher is not None
    return cipher


async def link_all(registry: TokenRegistry) -> None:
    for user_id, token in TOKENS.items():
        await registry.link(user_id, SecretStr(token))


async def ciphertexts(db: Database) -> dict[int, str]:
    async with db.session() as session:
        rows = await session.execute(
            select(LinkedAccountRow.discord_user_id, LinkedAccountRow.token_ciphertext)
        )
        return {user_id: ciphertext for user_id, ciphertext in rows}


async def test_link_get_and_unlink(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    assert await registry.get(1) is None

    linked = await registry.link(1, SecretStr(TOKENS[1]), note="pasted")

    stored = await registry.get(1)
    assert stored == linked
    assert stored is not None
    assert stored.token.get_secret_value() == TOKENS[1]
    assert (stored.status, stored.note, stored.linked_at) == ("valid", "pasted", clock.now)
    assert await registry.count() == 1
    assert await registry.unlink(1) is True
    assert await registry.get(1) is None
    assert await registry.unlink(1) is False
    assert await registry.count() == 0


async def test_linking_again_replaces_the_token_and_restarts_linked_at(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    await registry.link(1, SecretStr(TOKENS[1]))
    await registry.mark_invalid(1, "rejected")
    clock.advance(days=2)

    await registry.link(1, SecretStr(TOKENS[2]))

    stored = await registry.get(1)
    assert stored is not None
    assert stored.token.get_secret_value() == TOKENS[2]
    assert (stored.status, stored.note, stored.linked_at) == ("valid", None, clock.now)
    assert await registry.count() == 1


async def test_status_changes(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    await registry.link(1, SecretStr(TOKENS[1]))
    clock.advance(minutes=5)

    assert await registry.set_status(1, "rate_limited", "429 from upstream") is True
    stored = await registry.get(1)
    assert stored is not None
    assert (stored.status, stored.note, stored.updated_at) == (
        "rate_limited",
        "429 from upstream",
        clock.now,
    )
    assert await registry.mark_invalid(1) is True
    stored = await registry.get(1)
    assert stored is not None
    assert (stored.status, stored.note) == ("invalid", None)

    assert await registry.mark_invalid(2) is False
    with pytest.raises(ValueError, match="unknown account status"):
        await registry.set_status(1, "banned")  # type: ignore[arg-type]


async def test_a_long_note_is_clipped_to_fit_the_column(
    database: Database, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    await registry.link(1, SecretStr(TOKENS[1]), note="x" * 500)
    stored = await registry.get(1)
    assert stored is not None
    assert stored.note == "x" * 200


async def test_unlink_deletes_every_row_about_the_user(
    database: Database, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    quota = SharedTokenQuota(database, per_hour=10, qa_per_hour=5)
    await link_all(registry)
    for user_id in (1, 2):
        await quota.consume(user_id, expensive=True)

    assert await registry.unlink(1) is True

    async with database.session() as session:
        for model in (LinkedAccountRow, SharedTokenUsageRow):
            column = getattr(model, USER_ID_COLUMN)
            users = set((await session.execute(select(column).distinct())).scalars())
            assert 1 not in users, model.__tablename__
            assert 2 in users, model.__tablename__


async def test_unlink_without_a_token_still_deletes_the_rest(
    database: Database, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    quota = SharedTokenQuota(database, per_hour=10, qa_per_hour=5)
    await quota.consume(1, expensive=False)

    assert await registry.unlink(1) is False
    assert await quota.remaining(1) == (10, 5)


async def test_every_table_about_users_has_a_deleter(
    database: Database, cipher: TokenCipher
) -> None:
    from bot.daily import ScheduleStore
    from bot.daily.personal_store import PersonalScheduleStore
    from bot.services.conversations import ConversationStore
    from bot.services.feedback import FeedbackStore
    from bot.services.timezones import TimezoneStore

    TokenRegistry(database, cipher)
    SharedTokenQuota(database, per_hour=1, qa_per_hour=1)
    ServerRegistry(database, cipher)
    ServerTokenQuota(database)
    ConversationStore(database)
    ScheduleStore(database)
    PersonalScheduleStore(database)
    TimezoneStore(database)
    FeedbackStore(database)
    user_tables = {t.name for t in Base.metadata.sorted_tables if USER_ID_COLUMN in t.c}
    assert user_tables == {
        "linked_accounts",
        "shared_token_usage",
        "server_accounts",
        "server_token_usage",
        "dm_conversations",
        "daily_schedules",
        "personal_daily_schedules",
        "personal_daily_claims",
        "oauth_states",
        "person_timezones",
    }
    assert user_tables <= database.user_data.names
    # Keyed by a hash of the user id rather than the id: its deleter recomputes the hash.
    assert "answer_feedback" in database.user_data.names


async def test_no_plaintext_token_is_stored(database: Database, cipher: TokenCipher) -> None:
    await link_all(TokenRegistry(database, cipher))
    async with database.session() as session:
        rows = (await session.execute(text("SELECT * FROM linked_accounts"))).all()
    stored = " ".join(str(value) for row in rows for value in row)
    assert len(rows) == len(TOKENS)
    assert all(token not in stored for token in TOKENS.values())


def sqlite_files(url: str) -> dict[str, bytes]:
    """The database file and its -wal/-shm companions, by name."""
    database_file = Path(url.removeprefix("sqlite+aiosqlite:///"))
    return {
        path.name.removeprefix(database_file.name): path.read_bytes()
        for path in database_file.parent.glob(database_file.name + "*")
    }


async def test_the_sqlite_files_hold_no_plaintext_token(
    sqlite_url: str, cipher: TokenCipher
) -> None:
    async with Database(sqlite_url) as db:
        await db.migrate()
        registry = TokenRegistry(db, cipher)
        await link_all(registry)
        await registry.link(1, SecretStr(TOKENS[1]))  # an update writes the page again
        written = b"".join(sqlite_files(sqlite_url).values())
        stored = await ciphertexts(db)
        assert all(ciphertext.encode() in written for ciphertext in stored.values())
        assert all(token.encode() not in written for token in TOKENS.values())
    written = b"".join(sqlite_files(sqlite_url).values())
    assert all(token.encode() not in written for token in TOKENS.values())


async def test_key_rotation(database: Database) -> None:
    old_key, new_key = generate_key(), generate_key()
    await link_all(TokenRegistry(database, cipher_for(old_key)))

    rotated = await rotate_every_secret(database, cipher_for(new_key, old_key), batch_size=2)
    assert rotated["linked_accounts.token_ciphertext"] == len(TOKENS)

    only_new = TokenRegistry(database, cipher_for(new_key))
    for user_id, token in TOKENS.items():
        stored = await only_new.get(user_id)
        assert stored is not None
        assert stored.token.get_secret_value() == token
    with pytest.raises(TokenDecryptionError):
        await TokenRegistry(database, cipher_for(old_key)).get(1)
    assert await only_new.check_startup() == len(TOKENS)


async def test_rotation_is_all_or_nothing(database: Database) -> None:
    key, unknown_key = generate_key(), generate_key()
    await link_all(TokenRegistry(database, cipher_for(key)))
    await TokenRegistry(database, cipher_for(unknown_key)).link(9, SecretStr("mag-token-lost"))
    before = await ciphertexts(database)

    with pytest.raises(TokenDecryptionError, match="user 9") as raised:
        await rotate_every_secret(database, cipher_for(generate_key(), key), batch_size=2)

    assert "mag-token" not in str(raised.value)
    assert await ciphertexts(database) == before


async def test_a_ciphertext_copied_to_another_user_does_not_decrypt(
    database: Database, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    await link_all(registry)
    stolen = (await ciphertexts(database))[1]
    async with database.session() as session:
        await session.execute(
            update(LinkedAccountRow)
            .where(LinkedAccountRow.discord_user_id == 2)
            .values(token_ciphertext=stolen)
        )

    with pytest.raises(TokenBindingError) as raised:
        await registry.get(2)
    assert all(token not in str(raised.value) for token in TOKENS.values())
    stored = await registry.get(1)
    assert stored is not None
    assert stored.token.get_secret_value() == TOKENS[1]


async def test_startup_without_tokens_needs_no_key(database: Database) -> None:
    assert await TokenRegistry(database, None).check_startup() == 0


async def test_startup_with_tokens_but_no_key_fails_clearly(
    database: Database, cipher: TokenCipher
) -> None:
    await link_all(TokenRegistry(database, cipher))
    with pytest.raises(MissingEncryptionKey) as raised:
        await TokenRegistry(database, None).check_startup()
    assert str(raised.value) == "3 tokens are stored but TOKEN_ENCRYPTION_KEY is not set"


async def test_startup_with_the_wrong_key_fails_clearly(database: Database, key: str) -> None:
    await link_all(TokenRegistry(database, cipher_for(key)))
    wrong_key = generate_key()
    with pytest.raises(WrongEncryptionKey, match="decrypts none of the 3") as raised:
        await TokenRegistry(database, cipher_for(wrong_key)).check_startup()
    assert key not in str(raised.value)
    assert wrong_key not in str(raised.value)
    assert "rotate-keys" in str(raised.value)


async def test_startup_with_the_old_key_second_passes(database: Database, key: str) -> None:
    await link_all(TokenRegistry(database, cipher_for(key)))
    assert await TokenRegistry(database, cipher_for(generate_key(), key)).check_startup() == 3


async def test_no_token_is_stored_or_read_without_a_key(
    database: Database, cipher: TokenCipher
) -> None:
    keyless = TokenRegistry(database, None)
    with pytest.raises(MissingEncryptionKey, match="TOKEN_ENCRYPTION_KEY is not set"):
        await keyless.link(1, SecretStr(TOKENS[1]))
    async with database.session() as session:
        count = (
            await session.execute(select(func.count()).select_from(LinkedAccountRow))
        ).scalar_one()
    assert count == 0

    await TokenRegistry(database, cipher).link(1, SecretStr(TOKENS[1]))
    with pytest.raises(MissingEncryptionKey):
        await keyless.get(1)
    assert await keyless.unlink(1) is True

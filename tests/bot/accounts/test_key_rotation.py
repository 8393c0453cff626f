"""`rotate-keys` covers every encrypted column, and each ciphertext is bound to its owner and
its purpose; a secret no configured key decrypts gives a clear page, never a bare 500."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from cryptography.fernet import Fernet
from pydantic import SecretStr

from bot.accounts import (
    Purpose,
    ServerRegistry,
    TokenBindingError,
    TokenCipher,
    TokenDecryptionError,
    TokenRegistry,
    generate_key,
)
from bot.accounts.rotation import ENCRYPTED_COLUMNS, rotate_every_secret
from bot.oauth.clients import ClientSource
from bot.oauth.config import OAuthConfig
from bot.oauth.errors import OAuthUnavailable
from bot.oauth.metadata import MetadataSource, ServerMetadata
from bot.oauth.states import StateStore
from bot.storage import Base, Database
from bot.storage.models import OAuthClientRow
from devtools.discord import Harness
from tests.support import sign_in as sign_in_support
from tests.support.fakes import cipher_for
from tests.support.oauth_server import running_oauth_server

oauth_server = sign_in_support.oauth_server
sign_in_settings = sign_in_support.sign_in_settings
harness_overrides = sign_in_support.harness_overrides

USER = 4242
GUILD = 9191
CONFIG = OAuthConfig(public_base_url="http://127.0.0.1:8080", issuer="http://127.0.0.1:1")
METADATA = ServerMetadata(
    authorization_endpoint="http://127.0.0.1:1/authorize", token_endpoint="http://127.0.0.1:1/t"
)


def test_every_encrypted_column_of_the_schema_is_rotated() -> None:
    in_schema = {
        f"{table.name}.{column.name}"
        for table in Base.metadata.tables.values()
        for column in table.columns
        if column.name.endswith("_ciphertext")
    }
    assert {column.name for column in ENCRYPTED_COLUMNS} == in_schema
    for column in ENCRYPTED_COLUMNS:
        if column.owner_column is not None:
            assert column.owner_column in column.model.__table__.columns


# --- one test per column: written by the bot's own code, rotated, read with the new key only ---

Write = Callable[[Database, TokenCipher], Awaitable[Any]]
Read = Callable[[Database, TokenCipher, Any], Awaitable[str | None]]


async def write_account(db: Database, cipher: TokenCipher) -> None:
    await TokenRegistry(db, cipher).link(
        USER, SecretStr("the-access-token"), refresh_token=SecretStr("the-refresh-token")
    )


async def read_access(db: Database, cipher: TokenCipher, _: Any) -> str | None:
    account = await TokenRegistry(db, cipher).get(USER)
    return None if account is None else account.token.get_secret_value()


async def read_refresh(db: Database, cipher: TokenCipher, _: Any) -> str | None:
    account = await TokenRegistry(db, cipher).get(USER)
    refresh = None if account is None else account.refresh_token
    return None if refresh is None else refresh.get_secret_value()


async def write_state(db: Database, cipher: TokenCipher) -> str:
    return await StateStore(db, cipher).create(USER, "en-US")


async def read_verifier(db: Database, cipher: TokenCipher, state: str) -> str | None:
    return (await StateStore(db, cipher).peek(state)).verifier.get_secret_value()


async def write_client(db: Database, cipher: TokenCipher) -> None:
    async with db.session() as session:
        session.add(
            OAuthClientRow(
                issuer=CONFIG.issuer,
                redirect_uri=CONFIG.redirect_uri,
                client_id="registered-client",
                secret_ciphertext=cipher.encrypt(
                    0, SecretStr("the-client-secret"), Purpose.CLIENT_SECRET
                ),
                registered_at=sa.func.now(),
            )
        )


async def read_client_secret(db: Database, cipher: TokenCipher, _: Any) -> str | None:
    async with httpx.AsyncClient() as http:  # never used: the stored client is found first
        client = await ClientSource(CONFIG, db, cipher, http).get(METADATA)
    assert client.client_id == "registered-client"
    return None if client.client_secret is None else client.client_secret.get_secret_value()


async def write_server_account(db: Database, cipher: TokenCipher) -> None:
    await ServerRegistry(db, cipher).link(
        GUILD, USER, SecretStr("the-server-token"), refresh_token=SecretStr("server-refresh")
    )


async def read_server_token(db: Database, cipher: TokenCipher, _: Any) -> str | None:
    account = await ServerRegistry(db, cipher).get(GUILD)
    return None if account is None else account.token.get_secret_value()


async def read_server_refresh(db: Database, cipher: TokenCipher, _: Any) -> str | None:
    account = await ServerRegistry(db, cipher).get(GUILD)
    refresh = None if account is None else account.refresh_token
    return None if refresh is None else refresh.get_secret_value()


CASES: dict[str, tuple[Write, Read, str]] = {
    "linked_accounts.token_ciphertext": (write_account, read_access, "the-access-token"),
    "linked_accounts.refresh_ciphertext": (write_account, read_refresh, "the-refresh-token"),
    "oauth_states.verifier_ciphertext": (write_state, read_verifier, ""),
    "oauth_clients.secret_ciphertext": (write_client, read_client_secret, "the-client-secret"),
    "server_accounts.token_ciphertext": (
        write_server_account,
        read_server_token,
        "the-server-token",
    ),
    "server_accounts.refresh_ciphertext": (
        write_server_account,
        read_server_refresh,
        "server-refresh",
    ),
}


def test_there_is_a_case_for_every_encrypted_column() -> None:
    assert set(CASES) == {column.name for column in ENCRYPTED_COLUMNS}


@pytest.mark.parametrize("column", sorted(CASES))
async def test_rotation_moves_the_column_to_the_new_key(database: Database, column: str) -> None:
    write, read, expected = CASES[column]
    old_key, new_key = generate_key(), generate_key()
    handle = await write(database, cipher_for(old_key))
    before = await read(database, cipher_for(old_key), handle)
    assert before and (not expected or before == expected)

    counts = await rotate_every_secret(database, cipher_for(new_key, old_key))

    assert counts[column] == 1
    assert await read(database, cipher_for(new_key), handle) == before
    # The old key alone reads it no more (the sign-in code says so as "unavailable").
    with pytest.raises((TokenDecryptionError, OAuthUnavailable)):
        await read(database, cipher_for(old_key), handle)


async def test_rotation_upgrades_rows_written_before_purposes(database: Database, key: str) -> None:
    legacy = Fernet(key.encode()).encrypt(f"mgb1:{USER}:old-token".encode()).decode()
    cipher = cipher_for(key)
    await TokenRegistry(database, cipher).link(USER, SecretStr("placeholder"))
    async with database.session() as session:
        await session.execute(
            sa.text("UPDATE linked_accounts SET token_ciphertext = :c"), {"c": legacy}
        )
    assert (await read_access(database, cipher, None)) == "old-token"  # still read as it was

    await rotate_every_secret(database, cipher)

    async with database.session() as session:
        rotated = (
            await session.execute(sa.text("SELECT token_ciphertext FROM linked_accounts"))
        ).scalar_one()
    assert rotated != legacy
    assert cipher.decrypt(USER, rotated, Purpose.ACCESS_TOKEN).get_secret_value() == "old-token"
    with pytest.raises(TokenBindingError):  # now bound to its purpose too
        cipher.decrypt(USER, rotated, Purpose.REFRESH_TOKEN)


async def test_an_access_token_copied_into_the_refresh_column_is_not_read_as_one(
    database: Database, cipher: TokenCipher
) -> None:
    await write_account(database, cipher)
    async with database.session() as session:
        await session.execute(
            sa.text("UPDATE linked_accounts SET refresh_ciphertext = token_ciphertext")
        )
    with pytest.raises(TokenBindingError):
        await TokenRegistry(database, cipher).get(USER)


async def test_a_row_bound_elsewhere_is_left_alone_and_the_rest_rotates(
    database: Database, key: str
) -> None:
    cipher = cipher_for(key)
    await write_account(database, cipher)
    async with database.session() as session:
        await session.execute(
            sa.text("UPDATE linked_accounts SET refresh_ciphertext = token_ciphertext")
        )
    counts = await rotate_every_secret(database, cipher_for(generate_key(), key))
    assert counts["linked_accounts.token_ciphertext"] == 1
    assert counts["linked_accounts.refresh_ciphertext"] == 0


# --- a key dropped without rotating: a clear page, and a registration made again ---------------


async def test_an_undecryptable_client_secret_drops_the_registration_and_registers_again(
    database: Database,
) -> None:
    async with running_oauth_server() as server, httpx.AsyncClient() as http:
        config = OAuthConfig(public_base_url="http://127.0.0.1:8080", issuer=server.issuer)
        lost = cipher_for(generate_key())
        async with database.session() as session:
            session.add(
                OAuthClientRow(
                    issuer=config.issuer,
                    redirect_uri=config.redirect_uri,
                    client_id="client-of-a-dropped-key",
                    secret_ciphertext=lost.encrypt(0, SecretStr("s"), Purpose.CLIENT_SECRET),
                    registered_at=sa.func.now(),
                )
            )
        metadata = await MetadataSource(http, server.issuer).get()

        client = await ClientSource(config, database, cipher_for(generate_key()), http).get(
            metadata
        )

        assert client.client_id != "client-of-a-dropped-key"
        assert len(server.registrations) == 1
        async with database.session() as session:
            ids = (await session.execute(sa.select(OAuthClientRow.client_id))).scalars().all()
        assert ids == [client.client_id]


async def test_a_sign_in_whose_verifier_no_key_decrypts_shows_the_unavailable_page(
    harness: Harness,
) -> None:
    user = harness.user()
    offered = await harness.slash("account link", user=user)
    [link] = [
        button["url"]
        for row in offered.components
        for button in row["components"]
        if button.get("url")
    ]
    state = str(link).rsplit("/", 1)[-1]
    foreign = cipher_for(generate_key()).encrypt(user.id, SecretStr("v"), Purpose.PKCE_VERIFIER)
    async with harness.bot.services.db.session() as session:
        await session.execute(
            sa.text("UPDATE oauth_states SET verifier_ciphertext = :c"), {"c": foreign}
        )

    base = harness.bot.settings.public_base_url
    async with httpx.AsyncClient() as browser:
        page = await browser.get(f"{base}/oauth/callback", params={"state": state, "code": "c"})

    assert page.status_code == 502
    assert "sign-in is not reachable" in page.text
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert "Traceback" not in page.text

"""`python -m bot genkey`, `python -m bot rotate-keys` and `python -m bot migrate`."""

from __future__ import annotations

import argparse
import asyncio

from pydantic import SecretStr

from bot.accounts import AccountsError, TokenCipher, generate_key
from bot.accounts.rotation import rotate_every_secret
from bot.cli.common import CLIError, fail, load_settings
from bot.storage import Database, StorageUnavailable


def genkey(args: argparse.Namespace) -> int:
    print(generate_key())
    return 0


def rotate_keys(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
        cipher = _cipher(settings.token_encryption_key)
        counts = asyncio.run(_rotate(settings.database_url, cipher))
    except CLIError as error:
        return fail(error)
    for column, count in counts.items():
        print(f"{column}: re-encrypted {count}")
    print(f"re-encrypted {sum(counts.values())} secrets under the first key")
    return 0


def migrate(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
        display_url, revision = asyncio.run(_migrate(settings.database_url))
    except CLIError as error:
        return fail(error)
    print(f"database {display_url} is at revision {revision}")
    return 0


def _cipher(setting: SecretStr | None) -> TokenCipher:
    try:
        cipher = TokenCipher.from_setting(setting)
    except AccountsError as error:
        raise CLIError(str(error)) from None
    if cipher is None:
        raise CLIError("TOKEN_ENCRYPTION_KEY is not set (environment or .env file)")
    return cipher


async def _rotate(url: str, cipher: TokenCipher) -> dict[str, int]:
    async with _database(url) as db:
        try:
            if await db.revision() is None:
                raise CLIError("the database has no tables yet: run `python -m bot migrate`")
            return await rotate_every_secret(db, cipher)
        except (StorageUnavailable, AccountsError) as error:
            raise CLIError(str(error)) from None


async def _migrate(url: str) -> tuple[str, str]:
    async with _database(url) as db:
        try:
            return db.display_url, await db.migrate()
        except StorageUnavailable as error:
            raise CLIError(f"{db.display_url}: {error}") from None


def _database(url: str) -> Database:
    try:
        return Database(url)
    except ValueError as error:  # an unsupported driver or a malformed URL
        raise CLIError(str(error)) from None

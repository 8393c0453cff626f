"""`genkey`, `migrate` and `rotate-keys`, and the two settings they read."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from pydantic import SecretStr

from bot.accounts import TokenCipher, TokenRegistry, generate_key
from bot.cli.parsers import add_account_commands as add_parsers
from bot.settings import Settings
from bot.storage import DEFAULT_DATABASE_URL, Database
from bot.storage.migrate import HEAD_REVISION
from tests.support.databases import closed_port, run_outside_loop


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.handler(args)
    return code


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """A working directory without a .env file and DATABASE_URL pointing into it."""
    monkeypatch.chdir(tmp_path)
    url = f"sqlite+aiosqlite:///{tmp_path}/data/bot.db"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("TOKEN_ENCRYPTION_KEY", raising=False)
    return url


def cipher_for(*keys: str) -> TokenCipher:
    cipher = TokenCipher.from_setting(",".join(keys))
    assert cipher is not None
    return cipher


async def link_tokens(url: str, key: str, count: int) -> None:
    async with Database(url) as db:
        await db.migrate()
        registry = TokenRegistry(db, cipher_for(key))
        for user_id in range(count):
            await registry.link(user_id, SecretStr(f"token-{user_id}"))


async def tokens_readable_with(url: str, key: str) -> list[str]:
    async with Database(url) as db:
        registry = TokenRegistry(db, cipher_for(key))
        accounts = [await registry.get(user_id) for user_id in range(await registry.count())]
        return [account.token.get_secret_value() for account in accounts if account is not None]


def test_settings_defaults_and_secret_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("TOKEN_ENCRYPTION_KEY", "key-material-1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (
        settings.database_url
        == DEFAULT_DATABASE_URL
        == ("sqlite+aiosqlite:///./data/magisterium-bot.db")
    )
    assert settings.token_encryption_key == SecretStr("key-material-1")
    assert "key-material-1" not in repr(settings)


def test_genkey_prints_a_fresh_fernet_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("genkey") == 0
    first = capsys.readouterr().out.strip()
    assert run_cli("genkey") == 0
    assert capsys.readouterr().out.strip() != first
    Fernet(first.encode())


def test_migrate_prints_the_revision(environment: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("migrate") == 0
    assert capsys.readouterr().out.strip().endswith(f"is at revision {HEAD_REVISION}")
    assert run_cli("migrate") == 0
    assert f"revision {HEAD_REVISION}" in capsys.readouterr().out


def test_migrate_against_a_server_that_is_down_fails_without_the_password(
    environment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"postgresql+asyncpg://bot:hunter2@127.0.0.1:{closed_port()}/bot"
    monkeypatch.setenv("DATABASE_URL", url)
    assert run_cli("migrate") == 2
    err = capsys.readouterr().err
    assert "unavailable" in err
    assert "hunter2" not in err


def test_rotate_keys_reencrypts_every_token(
    environment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    old_key, new_key = generate_key(), generate_key()
    run_outside_loop(lambda: link_tokens(environment, old_key, 3))
    monkeypatch.setenv("TOKEN_ENCRYPTION_KEY", f"{new_key},{old_key}")

    assert run_cli("rotate-keys") == 0

    lines = capsys.readouterr().out.strip().splitlines()
    assert "linked_accounts.token_ciphertext: re-encrypted 3" in lines
    assert lines[-1] == "re-encrypted 3 secrets under the first key"
    readable = run_outside_loop(lambda: tokens_readable_with(environment, new_key))
    assert readable == ["token-0", "token-1", "token-2"]


def test_rotate_keys_needs_a_key(environment: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("rotate-keys") == 2
    assert "TOKEN_ENCRYPTION_KEY is not set" in capsys.readouterr().err


def test_rotate_keys_refuses_a_bad_key_without_echoing_it(
    environment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TOKEN_ENCRYPTION_KEY", f"{generate_key()},oops-hunter2")
    assert run_cli("rotate-keys") == 2
    err = capsys.readouterr().err
    assert "key 2 of 2" in err
    assert "hunter2" not in err


def test_rotate_keys_on_a_database_never_migrated_says_so(
    environment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TOKEN_ENCRYPTION_KEY", generate_key())
    assert run_cli("rotate-keys") == 2
    assert "python -m bot migrate" in capsys.readouterr().err


def test_rotate_keys_with_the_wrong_key_changes_nothing(
    environment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key = generate_key()
    run_outside_loop(lambda: link_tokens(environment, key, 2))
    monkeypatch.setenv("TOKEN_ENCRYPTION_KEY", generate_key())

    assert run_cli("rotate-keys") == 2

    assert "cannot be decrypted" in capsys.readouterr().err
    assert run_outside_loop(lambda: tokens_readable_with(environment, key)) == [
        "token-0",
        "token-1",
    ]

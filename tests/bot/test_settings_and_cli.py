"""Settings come from the environment; the CLI fails clearly without what it needs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.__main__ import main
from bot.accounts import MissingEncryptionKey, TokenCipher, TokenRegistry, generate_key
from bot.app import create_bot
from bot.settings import Settings
from bot.storage import Database
from tests.support.paths import REPO


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "discord-secret-1")
    monkeypatch.setenv("MAGISTERIUM_API_URL", "http://127.0.0.1:9/api/v1/a2a")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2, 3")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.magisterium_api_url == "http://127.0.0.1:9/api/v1/a2a"
    assert settings.shard_count == 4 and settings.shard_ids == [2, 3]
    assert "discord-secret-1" not in repr(settings) and "discord-secret-1" not in str(settings)


def test_bot_takes_shards_and_silences_mentions() -> None:
    bot = create_bot(Settings(_env_file=None, shard_count=4, shard_ids=[1, 3]))  # type: ignore[call-arg]
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    assert bot.allowed_mentions is not None
    assert bot.allowed_mentions.to_dict() == {"parse": []}
    assert not bot.intents.message_content and not bot.intents.members


@pytest.mark.parametrize("command", ["run", "sync"])
def test_commands_needing_discord_say_which_setting_is_missing(
    command: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([command]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_invalid_settings_are_one_readable_line(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SHARD_COUNT", "zero")
    assert main(["sync"]) == 2
    err = capsys.readouterr().err
    assert "SHARD_COUNT" in err and "Traceback" not in err


def test_sync_parser_takes_a_guild() -> None:
    from bot.__main__ import build_parser

    args = build_parser().parse_args(["sync", "--guild", "123"])
    assert args.guild == 123


def test_help_imports_none_of_the_bot() -> None:
    """`python -m bot --help` (and any command's parser) builds without importing discord.py,
    the database layer, the HTTP clients or the bot's own packages: each command's code is
    imported when it runs (bot.cli.lazy). Measured on a fresh clone: 0.1 s instead of 3.4 s."""
    probe = (
        "import sys; from bot.__main__ import build_parser; build_parser(None); "
        "print(' '.join(sorted({m.split('.')[0] if not m.startswith('bot.') else m "
        "for m in sys.modules})))"
    )
    done = subprocess.run(  # noqa: S603 (this interpreter, a fixed probe)
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True
    )
    loaded = set(done.stdout.split())
    heavy = {"discord", "sqlalchemy", "aiohttp", "httpx", "pydantic", "alembic", "redis"}
    assert loaded & heavy == set(), loaded & heavy
    own = {m for m in loaded if m.startswith(("bot.", "cogs", "devtools."))}
    assert own <= {
        "bot.__main__",
        "bot.cli",
        "bot.cli.common",
        "bot.cli.dev_commands",
        "bot.cli.lazy",
        "bot.cli.parsers",
        "devtools.cli",
    }, own


def test_a_command_still_runs_its_handler(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genkey"]) == 0
    assert len(capsys.readouterr().out.strip()) == 44  # a Fernet key


async def _database_with_a_token_under_a_lost_key(tmp_path: Path) -> str:
    """A database URL whose one stored token was encrypted with a key nobody has any more."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    async with Database(url) as db:
        await db.migrate()
        registry = TokenRegistry(db, TokenCipher.from_setting(generate_key()))
        await registry.link(42, SecretStr("pro-stored-token"))
    return url


async def test_stored_tokens_without_a_key_stop_setup_hook(tmp_path: Path) -> None:
    url = await _database_with_a_token_under_a_lost_key(tmp_path)
    bot = create_bot(Settings(_env_file=None, database_url=url, token_encryption_key=None))  # type: ignore[call-arg]
    await bot._async_setup_hook()  # what login() runs first
    with pytest.raises(MissingEncryptionKey, match="TOKEN_ENCRYPTION_KEY is not set"):
        await bot.setup_hook()
    await bot.close()


def test_env_example_documents_every_setting() -> None:

    from bot.settings import Settings

    example = (REPO / ".env.example").read_text(encoding="utf-8")
    documented = {
        line.lstrip("# ").split("=", 1)[0]
        for line in example.splitlines()
        if "=" in line and line.lstrip("# ").split("=", 1)[0].isupper()
    }
    assert {name.upper() for name in Settings.model_fields} <= documented


def test_readme_quick_start_and_the_operators_install_permissions_match_the_code() -> None:

    from bot.app.invite import BOT_PERMISSIONS, SCOPES, invite_url

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("```", 2)[1]
    first, second = quick_start.strip().splitlines()[1:3]
    assert "pip install -e '.[console]'" in first  # the console's needs, no test toolchain
    assert 'python -m bot console -c "/ask question:' in first
    assert second == "pip install -e '.[dev]' && python -m devtools test"
    running = (REPO / "docs" / "operating" / "running.md").read_text(encoding="utf-8")
    assert f"permissions **{BOT_PERMISSIONS.value}**" in running
    assert " ".join(SCOPES) in running
    assert invite_url(1).replace("client_id=1", "client_id=<APPLICATION_ID>") in running

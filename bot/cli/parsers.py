"""The production commands of ``python -m bot``: their arguments and help, with handlers
imported only when their command runs (``bot.cli.lazy``), so that ``--help`` is instant."""

from __future__ import annotations

import argparse
from typing import TypeAlias

from bot.cli.lazy import handler

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_production_commands(commands: Commands) -> None:
    add_bot_commands(commands)
    add_account_commands(commands)
    add_check(commands)
    add_i18n(commands)


def add_bot_commands(commands: Commands) -> None:
    run_parser = commands.add_parser("run", help="connect to Discord and serve")
    run_parser.set_defaults(handler=handler("bot.cli.bot_commands:run"))
    sync_parser = commands.add_parser(
        "sync",
        help="register the slash commands with Discord (never done on start)",
        description="Without --guild, syncs global commands (they can take a while to appear "
        "everywhere); with --guild (or DEV_GUILD_ID), copies them to that server for testing.",
    )
    sync_parser.add_argument("--guild", type=int, metavar="ID", help="a server id to sync to")
    sync_parser.set_defaults(handler=handler("bot.cli.bot_commands:sync"))


def add_account_commands(commands: Commands) -> None:
    genkey_parser = commands.add_parser(
        "genkey",
        help="print a new key for TOKEN_ENCRYPTION_KEY",
        description="To rotate keys, put the new key first and keep the old one after it "
        "(comma-separated), restart, then run rotate-keys.",
    )
    genkey_parser.set_defaults(handler=handler("bot.cli.accounts_cli:genkey"))
    rotate_parser = commands.add_parser(
        "rotate-keys",
        help="re-encrypt every stored secret under the first key of TOKEN_ENCRYPTION_KEY",
        description="Afterwards the older keys can be removed from TOKEN_ENCRYPTION_KEY.",
    )
    rotate_parser.set_defaults(handler=handler("bot.cli.accounts_cli:rotate_keys"))
    migrate_parser = commands.add_parser(
        "migrate", help="create or upgrade the database tables (DATABASE_URL)"
    )
    migrate_parser.set_defaults(handler=handler("bot.cli.accounts_cli:migrate"))


def add_check(commands: Commands) -> None:
    parser = commands.add_parser(
        "check",
        help="check settings, database, key, Magisterium and Discord; exit 1 on a failure",
        description="Checks, without changing anything: the settings load; the database "
        "(DATABASE_URL) is reachable, and at which migration revision; TOKEN_ENCRYPTION_KEY "
        "parses and decrypts the stored tokens; Magisterium (MAGISTERIUM_API_URL) answers and "
        "accepts MAGISTERIUM_TOKEN; its Agent Card lists every skill the bot uses; Discord's REST "
        "API (DISCORD_API_BASE_URL) answers and accepts DISCORD_TOKEN. Exit status 1 when any "
        "check failed (a warning does not fail).",
    )
    parser.set_defaults(handler=handler("bot.cli.check:check"))


def add_i18n(commands: Commands) -> None:
    parser = commands.add_parser(
        "i18n", help="check the translations (see docs/contributing/translations.md)"
    )
    actions = parser.add_subparsers(dest="i18n_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="fail on a missing or stale translation, a placeholder mismatch, or a "
        "localisation Discord would refuse",
    )
    check.set_defaults(handler=handler("bot.cli.i18n_cli:run_check"))

"""Helpers shared by the CLI subcommands."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.settings import Settings


class CLIError(Exception):
    """A problem the operator can fix; printed as one line, exit code 2."""


def load_settings() -> Settings:
    # Imported here: the parser and `--help` import this module, and need no settings.
    from pydantic import ValidationError  # noqa: PLC0415

    from bot.settings import Settings  # noqa: PLC0415

    try:
        return Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        raise CLIError(f"invalid settings: {problems}") from None


def discord_token(settings: Settings) -> str:
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        raise CLIError("DISCORD_TOKEN is not set (environment or .env file)")
    return settings.discord_token.get_secret_value()


def fail(error: CLIError) -> int:
    print(f"error: {error}", file=sys.stderr)
    return 2

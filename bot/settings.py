"""Settings from the environment (or a ``.env`` file), built in ``main``, never at import."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.a2a.client import DEFAULT_API_URL, DEFAULT_DEADLINE


class Settings(BaseSettings):
    """Every setting the bot reads. Names are the environment variables, upper-cased."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = None
    magisterium_api_url: str = DEFAULT_API_URL
    magisterium_token: SecretStr | None = None
    log_level: str = "INFO"

    # Multi-process deployments: each process runs some shards of one shard count.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    # `python -m bot sync` without --guild syncs globally; with DEV_GUILD_ID set, there.
    dev_guild_id: int | None = None

    # The whole time one upstream call may take, retries included (seconds).
    upstream_deadline_seconds: float = Field(default=DEFAULT_DEADLINE, gt=0, le=840)
    upstream_max_connections: int = Field(default=100, ge=1)

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated_ints(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [int(part) for part in value.split(",") if part.strip()] or None
        return value

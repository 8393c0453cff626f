"""Settings from the environment (or a ``.env`` file), built in ``main``, never at import."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, IPvAnyNetwork, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.a2a.client import DEFAULT_API_URL, DEFAULT_DEADLINE
from bot.storage import DEFAULT_DATABASE_URL

DEFAULT_OAUTH_ISSUER = "https://www.magisterium.com"
# discord.py 2.7 speaks API v10 only (discord.http.INTERNAL_API_VERSION; this layer imports no
# discord, so tests/bot/app/test_discord_endpoints.py keeps the two equal).
DISCORD_API_PATH = "/api/v10"
DEFAULT_DISCORD_API_BASE_URL = f"https://discord.com{DISCORD_API_PATH}"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}


def checked_base_url(
    value: str,
    *,
    plain_http_to: Callable[[str], bool] = LOCAL_HOSTS.__contains__,
    plain_http_hosts: str = "localhost",
) -> str:
    """An absolute http(s) base URL without a trailing slash; plain http only to the hosts
    ``plain_http_to`` accepts (localhost), since tokens and sign-in codes travel through it."""
    parsed = urlsplit(value.strip())
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ValueError("must be an absolute http(s) URL")
    if parsed.scheme == "http" and not plain_http_to(parsed.hostname):
        raise ValueError(f"must use https (plain http is allowed for {plain_http_hosts} only)")
    if parsed.query or parsed.fragment:
        raise ValueError("must not have a query or fragment")
    return value.strip().rstrip("/")


# Where a REST proxy usually runs: a compose or Kubernetes service name, or a private address.
PRIVATE_NAME_SUFFIXES = (".svc", ".local", ".internal", ".lan", ".home.arpa")


def on_private_network(host: str) -> bool:
    """A loopback or private address, or a name only a private network resolves."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host or host.endswith(PRIVATE_NAME_SUFFIXES) or host in LOCAL_HOSTS
    return address.is_private or address.is_loopback or address.is_link_local


def checked_discord_api_base_url(value: str) -> str:
    """Discord's REST base, or a proxy's (nirn-proxy, twilight-http-proxy) or a local stand-in's
    that serves Discord's paths under it. A proxy in the same compose project or cluster is
    usually reached over plain http; anything farther away must be https (the bot token goes
    with every request)."""
    base = checked_base_url(
        value,
        plain_http_to=on_private_network,
        plain_http_hosts="a proxy on a private network",
    )
    if not urlsplit(base).path.endswith(DISCORD_API_PATH):
        raise ValueError(f"must end in {DISCORD_API_PATH}, the API version discord.py 2.7 speaks")
    return base


class Settings(BaseSettings):
    """Every setting the bot reads. Names are the environment variables, upper-cased."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = None
    # Discord's REST base (discord.py's Route.BASE, webhooks and interaction callbacks too): a
    # shared REST proxy in front of Discord, so that every shard process shares its rate limits.
    discord_api_base_url: str = DEFAULT_DISCORD_API_BASE_URL
    # Ask the gateway for Message Content, a privileged intent the operator must also enable in
    # Discord's developer portal: needed only by ask channels (/server askchannel), where every
    # message is a question without a mention.
    message_content_intent: bool = False
    magisterium_api_url: str = DEFAULT_API_URL
    magisterium_token: SecretStr | None = None
    log_level: str = "INFO"
    # "text" (one line per record) or "json" (one JSON object per line, for log collectors).
    log_format: Literal["text", "json"] = "text"
    # Unexpected errors reported to Sentry (needs the `sentry` extra), scrubbed of secrets, Discord
    # ids and what people typed: off unless SENTRY_DSN is set. The release defaults to
    # magisterium-discord-bot@<installed version>; the environment to Sentry's "production".
    sentry_dsn: SecretStr | None = None
    sentry_environment: str | None = None
    sentry_release: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    # Fernet keys, comma-separated; the first encrypts. Required once a token is stored.
    token_encryption_key: SecretStr | None = None

    # Optional shared state (limiter buckets, cache) for several bot processes.
    redis_url: str | None = None
    # A linked account, once read and decrypted, is served from this process's memory for up to
    # this long (s; 0: read from the database on every use). This process's own changes apply
    # at once; with REDIS_URL every use also checks a version each change bumps, so another
    # process's link, unlink or refresh does too. Without Redis, this bounds how long a change
    # made by another process sharing the database can go unseen.
    token_cache_seconds: float = Field(default=600.0, ge=0, le=3600)

    # Magisterium's per-token limits (Pro/Organization plan defaults).
    rate_limit_per_minute: int = Field(default=15, ge=1)
    qa_rate_limit_per_minute: int = Field(default=2, ge=1)
    # Longest a request may queue for its token's turn before the person is told to come back.
    rate_limit_wait_seconds: float = Field(default=60.0, ge=0, le=600)
    max_in_flight_per_token: int = Field(default=4, ge=1)
    # Upstream calls in flight at once in the whole process, never more than the pool below.
    # Unset: as many as 128 MiB pays for at the measured 384 KiB a call (341; bot.limits.config),
    # at most UPSTREAM_MAX_CONNECTIONS when that is set and a quarter of the open-file limit.
    max_in_flight: int | None = Field(default=None, ge=1)
    # Per-person quota on the operator's MAGISTERIUM_TOKEN, for people who linked none.
    shared_quota_per_hour: int = Field(default=20, ge=0)
    shared_qa_quota_per_hour: int = Field(default=5, ge=0)

    # Entries of public content (readings, saints, documents, searches) kept in process.
    cache_max_entries: int = Field(default=1024, ge=1)
    # Recent /ask answers remembered in process for the buttons and menus under them (lost on
    # restart; without them the bot reads the answer back with tasks/get or says "ask again"):
    # their related questions and citations, and the private answers that "Share in channel"
    # may still post.
    answer_memory_size: int = Field(default=2000, ge=1)
    share_memory_size: int = Field(default=1000, ge=1)

    # Multi-process deployments: each process runs some shards of one shard count.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    # `python -m bot sync` without --guild syncs globally; with DEV_GUILD_ID set, there.
    dev_guild_id: int | None = None

    # The whole time one upstream call may take, retries included (seconds).
    upstream_deadline_seconds: float = Field(default=DEFAULT_DEADLINE, gt=0, le=840)
    # The upstream connection pool. Unset: the in-flight cap (one connection per call in flight).
    upstream_max_connections: int | None = Field(default=None, ge=1)

    # Daily posts: a post missed while the bot was down is still sent this long after its slot
    # (at most 12 h, so the windows of two consecutive days never overlap).
    daily_grace_hours: float = Field(default=6.0, gt=0, le=12)
    # Daily posts sent at once when many servers share a slot: enough to keep the pace below
    # over Discord's round trip (45 a second x 0.3 s is about 14 in flight).
    daily_post_concurrency: int = Field(default=16, ge=1, le=50)
    # Daily posts started a second by the whole bot, every process together (each takes its
    # shards' share), under Discord's global limit of 50 requests a second per bot. Raise it
    # only once Discord has raised your bot's global limit; 0: unpaced.
    daily_posts_per_second: float = Field(default=45.0, ge=0, le=10_000)

    # The public web server (/, /privacy, the sign-in, /healthz): off unless WEB_PORT is set.
    web_host: str = "127.0.0.1"
    web_port: int | None = Field(default=None, ge=1, le=65535)
    # Connections it keeps open at once (also kept under a quarter of the process's fd limit);
    # more are closed unserved.
    web_max_connections: int = Field(default=256, ge=1, le=65535)
    # Of those, connections one client address (an IPv6 /64) may hold; a trusted proxy, any.
    # Unset: 16, or a quarter of the cap when that is less.
    web_max_connections_per_client: int | None = Field(default=None, ge=1, le=65535)
    # A new connection's first request must have sent its headers within this time (s).
    web_header_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    # An idle connection between two requests is closed after this long (s).
    web_keepalive_seconds: float = Field(default=15.0, gt=0, le=3600)
    # A connection whose responses wait unread this long is closed (s).
    web_write_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    # Requests per minute one client address may make to /oauth/...; more get 429.
    web_oauth_requests_per_minute: int = Field(default=30, ge=1, le=10000)
    # Requests per minute all clients together may make to /oauth/...; more get 429.
    web_oauth_requests_total_per_minute: int = Field(default=600, ge=1, le=100000)
    # Reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For is believed.
    web_trusted_proxies: Annotated[list[IPvAnyNetwork], NoDecode] = Field(default_factory=list)
    # The operator's web server (/healthz, /readyz, /metrics): off unless OPERATOR_PORT is set.
    # Keep it off the public network: it tells whoever asks how the bot is doing.
    operator_host: str = "127.0.0.1"
    operator_port: int | None = Field(default=None, ge=1, le=65535)
    # On SIGTERM: commands already running get this long to finish before the bot closes.
    shutdown_grace_seconds: float = Field(default=20.0, ge=0, le=600)

    # "Sign in with Magisterium" (OAuth 2.0 + PKCE): on when PUBLIC_BASE_URL and WEB_PORT are set.
    # The address people's browsers reach the web server at (https, except for localhost).
    public_base_url: str | None = None
    # The authorization server; its endpoints come from its RFC 8414 metadata unless set below.
    oauth_issuer: str = DEFAULT_OAUTH_ISSUER
    oauth_authorization_endpoint: str | None = None
    oauth_token_endpoint: str | None = None
    # A client registered by hand; without one, the bot registers itself (RFC 7591) and keeps it.
    oauth_client_id: str | None = None
    oauth_client_secret: SecretStr | None = None
    # Space-separated scopes, and an RFC 8707 resource indicator, sent when set.
    oauth_scopes: str | None = None
    oauth_resource: str | None = None

    @property
    def oauth_enabled(self) -> bool:
        return self.public_base_url is not None and self.web_port is not None

    @field_validator("public_base_url", "oauth_issuer")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        return None if value is None else checked_base_url(value)

    @field_validator("discord_api_base_url")
    @classmethod
    def _discord_api_base(cls, value: str) -> str:
        return checked_discord_api_base_url(value)

    @field_validator("web_trusted_proxies", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated_ints(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [int(part) for part in value.split(",") if part.strip()] or None
        return value

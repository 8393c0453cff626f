"""Composition: settings → storage → client → limiter → registry → services.

Everything the bot opens in ``setup_hook`` is built here, in dependency order, and closed by
:meth:`Services.aclose` in reverse. Nothing here touches Discord.
"""

from __future__ import annotations

import contextlib
import logging
import resource
from dataclasses import dataclass

import httpx
from redis.asyncio import BlockingConnectionPool, Redis

from bot.a2a import A2AClient
from bot.a2a.http import new_http_client
from bot.accounts import (
    AccountCache,
    RedisVersions,
    ServerAccountCache,
    ServerRegistry,
    ServerTokenQuota,
    SharedTokenQuota,
    TokenCipher,
    TokenRegistry,
)
from bot.accounts.errors import MissingEncryptionKey
from bot.cache import Cache, LocalCache, RedisCache
from bot.cache.public import PublicContentCache
from bot.daily import ScheduleStore
from bot.daily.personal_store import PersonalScheduleStore
from bot.limits import (
    IN_FLIGHT_CALL_BYTES,
    Limiter,
    LimiterConfig,
    LocalBackend,
    RedisBackend,
    default_max_in_flight,
)
from bot.oauth import OAuthConfig, OAuthService
from bot.observability.metrics import Metrics
from bot.services.answer_conversations import AnswerConversationStore
from bot.services.ask_channels import AskChannelStore
from bot.services.conversations import ConversationStore
from bot.services.feedback import FeedbackStore
from bot.services.magisterium import MagisteriumService
from bot.services.server_settings import ServerSettingsStore
from bot.services.timezones import TimezoneStore
from bot.services.tokens import TokenChooser
from bot.settings import Settings
from bot.storage import Database

log = logging.getLogger(__name__)

# Redis commands take about a millisecond: 32 connections serve thousands of commands a second.
REDIS_MAX_CONNECTIONS = 32
REDIS_POOL_WAIT_SECONDS = 5.0


@dataclass
class Services:
    http: httpx.AsyncClient
    a2a: A2AClient
    db: Database
    registry: TokenRegistry
    quota: SharedTokenQuota
    chooser: TokenChooser
    limiter: Limiter
    magisterium: MagisteriumService
    conversations: ConversationStore
    cache: Cache
    schedules: ScheduleStore
    personal_schedules: PersonalScheduleStore  # /mydaily: daily posts in people's DMs
    metrics: Metrics
    servers: ServerRegistry  # servers' own accounts (/server)
    server_quota: ServerTokenQuota
    timezones: TimezoneStore  # people's and servers' timezones: the day "today" is
    feedback: FeedbackStore  # "Was it helpful?": votes on answers, by keyed hash
    server_settings: ServerSettingsStore  # what servers' admins chose (/server mentions)
    answer_conversations: AnswerConversationStore  # what a reply or a thread continues, 24 h
    ask_channels: AskChannelStore  # where every message is a question (/server askchannel)
    oauth: OAuthService | None = None  # Sign in with Magisterium, when configured
    oauth_http: httpx.AsyncClient | None = None
    redis: Redis | None = None  # the one client the limiter, cache and token cache share

    async def aclose(self) -> None:
        """Close in reverse order; one failure does not keep the rest open."""
        oauth_http = self.oauth_http.aclose if self.oauth_http is not None else _nothing
        redis = self.redis.aclose if self.redis is not None else _nothing
        for name, close in (
            ("oauth http client", oauth_http),
            ("limiter", self.limiter.close),
            ("cache", self.cache.close),
            ("token cache", self.registry.close),
            ("server account cache", self.servers.close),
            ("redis client", redis),
            ("database", self.db.close),
            ("http client", self.http.aclose),
        ):
            try:
                await close()
            except Exception:
                log.exception("closing the %s failed", name)


async def open_services(settings: Settings, *, metrics: Metrics | None = None) -> Services:
    metrics = metrics if metrics is not None else Metrics()
    db = Database(settings.database_url)
    redis = shared_redis(settings.redis_url) if settings.redis_url else None
    async with contextlib.AsyncExitStack() as cleanup:
        cleanup.push_async_callback(db.close)
        if redis is not None:
            cleanup.push_async_callback(redis.aclose)
        cipher, registry = await _open_accounts(settings, db, redis)
        cleanup.push_async_callback(registry.close)
        capacity = upstream_capacity(settings)
        http = new_http_client(max_connections=capacity.connections)
        cleanup.push_async_callback(http.aclose)
        a2a = A2AClient(
            http,
            settings.magisterium_api_url,
            deadline=settings.upstream_deadline_seconds,
        )
        servers = ServerRegistry(db, cipher, cache=_server_cache(settings, redis))
        cleanup.push_async_callback(servers.close)
        oauth, oauth_http = _oauth(settings, db, cipher, registry, servers)
        if oauth_http is not None:
            cleanup.push_async_callback(oauth_http.aclose)
        quota = SharedTokenQuota(
            db, settings.shared_quota_per_hour, settings.shared_qa_quota_per_hour
        )
        server_quota = ServerTokenQuota(db)
        chooser = TokenChooser(
            registry,
            operator_token=settings.magisterium_token,
            quota=quota,
            refresher=oauth,
            servers=servers,
            server_quota=server_quota,
            server_refresher=oauth,
        )
        limiter = Limiter(
            _limiter_config(settings, capacity),
            backend=RedisBackend(redis) if redis is not None else LocalBackend(),
            on_wait=metrics.limiter_waited,
        )
        cache: Cache = (
            RedisCache(redis)
            if redis is not None
            else LocalCache(max_entries=settings.cache_max_entries)
        )
        magisterium = MagisteriumService(
            a2a,
            chooser,
            limiter,
            registry,
            wait_budget=settings.rate_limit_wait_seconds,
            cache=PublicContentCache(cache, metrics=metrics),
            metrics=metrics,
        )
        services = Services(
            http=http,
            a2a=a2a,
            db=db,
            registry=registry,
            quota=quota,
            chooser=chooser,
            limiter=limiter,
            magisterium=magisterium,
            conversations=ConversationStore(db),
            cache=cache,
            schedules=ScheduleStore(db),
            personal_schedules=PersonalScheduleStore(db),
            metrics=metrics,
            servers=servers,
            server_quota=server_quota,
            timezones=TimezoneStore(db),
            feedback=FeedbackStore(db, metrics=metrics),
            server_settings=ServerSettingsStore(db),
            ask_channels=AskChannelStore(db),
            answer_conversations=AnswerConversationStore(db),
            oauth=oauth,
            oauth_http=oauth_http,
            redis=redis,
        )
        cleanup.pop_all()  # opened fully: the bot's close() owns them now
        return services
    raise AssertionError("unreachable")  # pragma: no cover


async def _open_accounts(
    settings: Settings, db: Database, redis: Redis | None
) -> tuple[TokenCipher | None, TokenRegistry]:
    """The database at the code's revision, and the token registry its key can read."""
    revision = await db.migrate()
    log.info("database %s at revision %s", db.display_url, revision)
    cipher = TokenCipher.from_setting(settings.token_encryption_key)
    registry = TokenRegistry(db, cipher, cache=_account_cache(settings, redis))
    await registry.check_startup()
    return cipher, registry


def _account_cache(settings: Settings, redis: Redis | None) -> AccountCache | None:
    if settings.token_cache_seconds <= 0:
        return None
    versions = RedisVersions(redis) if redis is not None else None
    return AccountCache(ttl=settings.token_cache_seconds, versions=versions)


def _server_cache(settings: Settings, redis: Redis | None) -> ServerAccountCache | None:
    """Servers' accounts, cached like people's (TOKEN_CACHE_SECONDS), versioned apart."""
    if settings.token_cache_seconds <= 0:
        return None
    versions = RedisVersions.for_servers(redis) if redis is not None else None
    return ServerAccountCache(ttl=settings.token_cache_seconds, versions=versions)


@dataclass(frozen=True)
class UpstreamCapacity:
    """Upstream calls in flight at once in the process, and the connection pool they use."""

    in_flight: int
    connections: int


def upstream_capacity(settings: Settings, *, open_files: int | None = None) -> UpstreamCapacity:
    """MAX_IN_FLIGHT (at most the pool), or when unset what memory and the open-file limit allow
    (see ``bot.limits.config``); UPSTREAM_MAX_CONNECTIONS, or when unset one connection per call
    in flight. ``open_files``: the soft RLIMIT_NOFILE (read from the process when None)."""
    pool = settings.upstream_max_connections
    in_flight = settings.max_in_flight
    if in_flight is None:
        in_flight = default_max_in_flight(
            pool=pool,
            open_files=open_files if open_files is not None else _open_files_limit(),
        )
    elif pool is not None and in_flight > pool:
        # A call beyond the pool would only wait for a connection, holding its memory.
        log.warning(
            "MAX_IN_FLIGHT (%d) is more than UPSTREAM_MAX_CONNECTIONS (%d): %d calls in flight",
            in_flight,
            pool,
            pool,
        )
        in_flight = pool
    return UpstreamCapacity(in_flight, pool or in_flight)


def _open_files_limit() -> int | None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


async def _nothing() -> None:
    return None


def _oauth(
    settings: Settings,
    db: Database,
    cipher: TokenCipher | None,
    registry: TokenRegistry,
    servers: ServerRegistry,
) -> tuple[OAuthService | None, httpx.AsyncClient | None]:
    """Sign in with Magisterium, when PUBLIC_BASE_URL and WEB_PORT are set."""
    config = OAuthConfig.from_settings(settings)
    if config is None:
        return None, None
    if cipher is None:
        raise MissingEncryptionKey(
            "Sign in with Magisterium (PUBLIC_BASE_URL) stores tokens: set TOKEN_ENCRYPTION_KEY"
        )
    # Its own client: short timeouts, and never following a redirect to somewhere unexpected.
    http = httpx.AsyncClient(timeout=httpx.Timeout(10.0), follow_redirects=False)
    return OAuthService(config, db, cipher, registry, http, servers=servers), http


def _limiter_config(settings: Settings, capacity: UpstreamCapacity) -> LimiterConfig:
    how = "MAX_IN_FLIGHT" if settings.max_in_flight is not None else "sized by memory"
    log.info(
        "upstream: at most %d calls in flight (%s: %d MiB at %d KiB a call), %d connections",
        capacity.in_flight,
        how,
        capacity.in_flight * IN_FLIGHT_CALL_BYTES // 2**20,
        IN_FLIGHT_CALL_BYTES // 1024,
        capacity.connections,
    )
    return LimiterConfig(
        per_minute=settings.rate_limit_per_minute,
        qa_per_minute=settings.qa_rate_limit_per_minute,
        max_in_flight_per_token=settings.max_in_flight_per_token,
        max_in_flight=capacity.in_flight,
    )


def shared_redis(url: str) -> Redis:
    """One client for the limiter, the cache and the token cache, on a pool that makes callers
    wait for a free connection: redis-py's default pool fails at 100 connections, which a burst
    of a few hundred commands in flight reaches at once (each holds one only for a command)."""
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_MAX_CONNECTIONS,
        timeout=REDIS_POOL_WAIT_SECONDS,
        socket_connect_timeout=REDIS_POOL_WAIT_SECONDS,
        socket_timeout=REDIS_POOL_WAIT_SECONDS,
    )
    return Redis(connection_pool=pool)

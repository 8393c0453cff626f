"""Composition: settings → storage → client → limiter → registry → services.

Everything the bot opens in ``setup_hook`` is built here, in dependency order, and closed by
:meth:`Services.aclose` in reverse. Nothing here touches Discord.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass

import httpx

from bot.a2a import A2AClient, MagisteriumSkills, RetryPolicy
from bot.a2a.http import new_http_client
from bot.accounts import SharedTokenQuota, TokenCipher, TokenRegistry
from bot.accounts.errors import MissingEncryptionKey
from bot.cache import Cache, LocalCache, RedisCache
from bot.cache.public import PublicContentCache
from bot.daily import ScheduleStore
from bot.limits import Backend, Limiter, LimiterConfig, LocalBackend, RedisBackend
from bot.oauth import OAuthConfig, OAuthService
from bot.observability.metrics import Metrics
from bot.services.conversations import ConversationStore
from bot.services.magisterium import MagisteriumService
from bot.services.tokens import TokenChooser
from bot.settings import Settings
from bot.storage import Database

log = logging.getLogger(__name__)

# Rate limits are the limiter's to wait out (it pauses the token for every waiter), so the
# client hands any retryAfter back at once instead of sleeping inside one request.
CLIENT_RETRY = RetryPolicy(max_retry_after=0.0)


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
    metrics: Metrics
    oauth: OAuthService | None = None  # Sign in with Magisterium, when configured
    oauth_http: httpx.AsyncClient | None = None

    async def aclose(self) -> None:
        """Close in reverse order; one failure does not keep the rest open."""
        oauth_http = self.oauth_http.aclose if self.oauth_http is not None else _nothing
        for name, close in (
            ("oauth http client", oauth_http),
            ("limiter", self.limiter.close),
            ("cache", self.cache.close),
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
    async with contextlib.AsyncExitStack() as cleanup:
        cleanup.push_async_callback(db.close)
        cipher, registry = await _open_accounts(settings, db)
        http = new_http_client(max_connections=settings.upstream_max_connections)
        cleanup.push_async_callback(http.aclose)
        a2a = A2AClient(
            http,
            settings.magisterium_api_url,
            retry=CLIENT_RETRY,
            deadline=settings.upstream_deadline_seconds,
        )
        oauth, oauth_http = _oauth(settings, db, cipher, registry)
        if oauth_http is not None:
            cleanup.push_async_callback(oauth_http.aclose)
        quota = SharedTokenQuota(
            db, settings.shared_quota_per_hour, settings.shared_qa_quota_per_hour
        )
        chooser = TokenChooser(
            registry, operator_token=settings.magisterium_token, quota=quota, refresher=oauth
        )
        limiter = Limiter(
            _limiter_config(settings),
            backend=_limiter_backend(settings),
            on_wait=metrics.limiter_waited,
        )
        cache = _cache(settings)
        magisterium = MagisteriumService(
            MagisteriumSkills(a2a),
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
            metrics=metrics,
            oauth=oauth,
            oauth_http=oauth_http,
        )
        cleanup.pop_all()  # opened fully: the bot's close() owns them now
        return services
    raise AssertionError("unreachable")  # pragma: no cover


async def _open_accounts(
    settings: Settings, db: Database
) -> tuple[TokenCipher | None, TokenRegistry]:
    """The database at the code's revision, and the token registry its key can read."""
    revision = await db.migrate()
    log.info("database %s at revision %s", db.display_url, revision)
    cipher = TokenCipher.from_setting(settings.token_encryption_key)
    registry = TokenRegistry(db, cipher)
    await registry.check_startup()
    return cipher, registry


async def check_storage(settings: Settings) -> None:
    """Fail before connecting to Discord when storage or the encryption key is wrong."""
    async with Database(settings.database_url) as db:
        await db.migrate()
        await TokenRegistry(
            db, TokenCipher.from_setting(settings.token_encryption_key)
        ).check_startup()


async def _nothing() -> None:
    return None


def _oauth(
    settings: Settings, db: Database, cipher: TokenCipher | None, registry: TokenRegistry
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
    return OAuthService(config, db, cipher, registry, http), http


def _limiter_config(settings: Settings) -> LimiterConfig:
    return LimiterConfig(
        per_minute=settings.rate_limit_per_minute,
        qa_per_minute=settings.qa_rate_limit_per_minute,
        max_in_flight_per_token=settings.max_in_flight_per_token,
        max_in_flight=settings.max_in_flight,
    )


def _cache(settings: Settings) -> Cache:
    if settings.redis_url:
        return RedisCache.from_url(settings.redis_url)
    return LocalCache(max_entries=settings.cache_max_entries)


def _limiter_backend(settings: Settings) -> Backend:
    if settings.redis_url:
        return RedisBackend.from_url(settings.redis_url)
    return LocalBackend()

"""Sign in with Magisterium, start to finish, and keeping the token fresh afterwards.

A sign-in is a person's (``/account link``: it links their own account) or a server's
(``/server link``: it links that server's account, by the admin who started it). Which one is
fixed when the state is made and read back from the stored state only: nothing the browser
sends can turn one into the other, or point a server's sign-in at another server.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import httpx
from authlib.oauth2.rfc6749.parameters import prepare_grant_uri
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from pydantic import SecretStr

from bot.accounts.crypto import TokenCipher
from bot.accounts.registry import LinkedAccount, TokenRegistry
from bot.accounts.server_registry import ServerAccount, ServerRegistry
from bot.accounts.wall_clock import Clock, utcnow
from bot.oauth.binding import new_browser_secret
from bot.oauth.clients import ClientSource
from bot.oauth.config import OAuthConfig
from bot.oauth.errors import OAuthUnavailable, SignInFailed
from bot.oauth.metadata import MetadataSource, origin_of
from bot.oauth.states import SignInState, StateStore
from bot.oauth.tokens import IssuedTokens, request_tokens
from bot.oauth.userinfo import fetch_account_name
from bot.storage import Database

log = logging.getLogger(__name__)

REFRESH_AHEAD = dt.timedelta(seconds=60)  # refresh a token this close to its expiry
T = TypeVar("T")


class Expiring(Protocol):
    """A signed-in account, a person's or a server's."""

    @property
    def refresh_token(self) -> SecretStr | None: ...

    @property
    def expires_at(self) -> dt.datetime | None: ...


@dataclass(frozen=True)
class LinkedBySignIn:
    user_id: int
    locale: str
    state: str
    discord_name: str | None = None
    account_name: str | None = None  # the Magisterium account, when the server names it
    guild_id: int | None = None  # a server's sign-in: the server whose account was linked
    guild_name: str | None = None


@dataclass(frozen=True)
class StartPage:
    """What the start link shows before anything happens: whose sign-in it is, and the origin
    its form's answer redirects to (the page's CSP must allow it: see bot.web.site)."""

    discord_name: str
    locale: str
    redirect_origin: str
    guild_name: str | None = None  # a server's sign-in: the server it links


@dataclass(frozen=True)
class StartedSignIn:
    """A sign-in just started: where the browser goes, and the secret its cookie keeps."""

    authorization_url: str
    browser_secret: SecretStr = field(repr=False)
    lifetime: dt.timedelta


class OAuthService:
    def __init__(
        self,
        config: OAuthConfig,
        db: Database,
        cipher: TokenCipher,
        registry: TokenRegistry,
        http: httpx.AsyncClient,
        *,
        clock: Clock = utcnow,
        servers: ServerRegistry | None = None,
    ) -> None:
        self.config = config
        self._registry = registry
        self._servers = servers
        self._http = http
        self._clock = clock
        self.states = StateStore(db, cipher, clock=clock)
        self._metadata = MetadataSource(
            http,
            config.issuer,
            authorization_endpoint=config.authorization_endpoint,
            token_endpoint=config.token_endpoint,
        )
        self._clients = ClientSource(config, db, cipher, http, clock=clock)
        self._refreshing: dict[int, asyncio.Future[LinkedAccount | None]] = {}
        self._refreshing_servers: dict[int, asyncio.Future[ServerAccount | None]] = {}

    # --- signing in --------------------------------------------------------------------------

    async def begin(
        self,
        user_id: int,
        locale: str,
        discord_name: str,
        *,
        guild_id: int | None = None,
        guild_name: str | None = None,
    ) -> tuple[str, str]:
        """A new sign-in for ``user_id`` (shown as ``discord_name``), ending their others of
        the same kind: (its state, the short link the button opens). ``guild_id``: a sign-in
        that links that server's account (``/server link``), never the person's."""
        if guild_id is not None and self._servers is None:
            raise OAuthUnavailable("servers' accounts are not available to sign-in")
        state = await self.states.create(
            user_id, locale, discord_name, guild_id=guild_id, guild_name=guild_name
        )
        return state, self.config.start_url(state)

    async def start_page(self, state: str) -> StartPage:
        """What the start link's page shows; nothing changes."""
        signing_in = await self.states.startable(state)
        assert signing_in.discord_name is not None  # startable() sees to it
        metadata = await self._metadata.get()
        return StartPage(
            signing_in.discord_name,
            signing_in.locale,
            origin_of(metadata.authorization_endpoint),
            guild_name=_server_name(signing_in),
        )

    async def start(self, state: str) -> StartedSignIn:
        """The start page's button: bind the sign-in to this browser (once only) and send it
        to the server's sign-in page, with PKCE, asking it to show its consent page always."""
        signing_in = await self.states.startable(state)
        url = await self._authorization_url(state, signing_in.verifier)
        secret = new_browser_secret()
        # Marked only once the URL is known: an unreachable server leaves the link usable.
        started = await self.states.start(state, secret)
        return StartedSignIn(url, secret, started.expires_at - self._clock())

    async def _authorization_url(self, state: str, verifier: SecretStr) -> str:
        metadata = await self._metadata.get()
        client = await self._clients.get(metadata)
        params: dict[str, str] = {
            "code_challenge": create_s256_code_challenge(verifier.get_secret_value()),
            "code_challenge_method": "S256",
            # Never pass a browser that approved this client before straight through: whoever
            # opened the link sees whose account is asked for, and chooses.
            "prompt": "consent",
        }
        if self.config.resource:
            params["resource"] = self.config.resource
        url: str = prepare_grant_uri(
            metadata.authorization_endpoint,
            client.client_id,
            "code",
            redirect_uri=self.config.redirect_uri,
            scope=self.config.scopes,
            state=state,
            **params,
        )
        return url

    async def finish(
        self, state: str, code: str, browser_secret: SecretStr | None
    ) -> LinkedBySignIn:
        """The callback: use the state up (in the browser that started it), exchange the code,
        store the tokens (the person's, or the server's the state is bound to), end the
        person's other sign-ins of that kind."""
        signing_in = await self.states.take(state, browser_secret)
        try:
            tokens = await self._grant(
                "authorization_code",
                code=code,
                redirect_uri=self.config.redirect_uri,
                code_verifier=signing_in.verifier.get_secret_value(),
            )
        except SignInFailed as failed:
            if failed.error == "invalid_client" and not self.config.client_id:
                await self._clients.forget()  # the server dropped our registration: redo it
            raise SignInFailed(failed.error, signing_in.user_id, signing_in.locale) from None
        await self._link(signing_in, tokens)
        await self.states.end_others(signing_in.user_id, state, signing_in.guild_id)
        return LinkedBySignIn(
            signing_in.user_id,
            signing_in.locale,
            state,
            discord_name=signing_in.discord_name,
            account_name=tokens.account_name or await self._account_name(tokens),
            guild_id=signing_in.guild_id,
            guild_name=_server_name(signing_in),
        )

    async def _link(self, signing_in: SignInState, tokens: IssuedTokens) -> None:
        if signing_in.guild_id is None:
            await self._registry.link(
                signing_in.user_id,
                tokens.access_token,
                refresh_token=tokens.refresh_token,
                expires_at=tokens.expires_at,
            )
            log.info("a person signed in with Magisterium")
            return
        if self._servers is None:
            raise OAuthUnavailable("servers' accounts are not available to sign-in")
        await self._servers.link(
            signing_in.guild_id,
            signing_in.user_id,
            tokens.access_token,
            refresh_token=tokens.refresh_token,
            expires_at=tokens.expires_at,
        )
        log.info("a server admin signed in with Magisterium for guild %s", signing_in.guild_id)

    async def decline(
        self, state: str, error: str, browser_secret: SecretStr | None
    ) -> SignInFailed:
        """The server sent the person back with an error (they declined): use the state up."""
        signing_in = await self.states.take(state, browser_secret)
        return SignInFailed(error, signing_in.user_id, signing_in.locale)

    async def _account_name(self, tokens: IssuedTokens) -> str | None:
        try:
            endpoint = (await self._metadata.get()).userinfo_endpoint
        except OAuthUnavailable:
            return None
        if endpoint is None:
            return None
        return await fetch_account_name(self._http, endpoint, tokens.access_token)

    async def _grant(self, grant_type: str, **params: str) -> IssuedTokens:
        """One token request, with the configured RFC 8707 resource."""
        metadata = await self._metadata.get()
        client = await self._clients.get(metadata)
        if self.config.resource:
            params["resource"] = self.config.resource
        return await request_tokens(
            self._http,
            metadata.token_endpoint,
            client,
            grant_type,
            now=self._clock(),
            **params,
        )

    # --- keeping the token fresh -------------------------------------------------------------

    def needs_refresh(self, account: Expiring) -> bool:
        return (
            account.refresh_token is not None
            and account.expires_at is not None
            and account.expires_at - REFRESH_AHEAD <= self._clock()
        )

    async def refresh(self, account: LinkedAccount) -> LinkedAccount | None:
        """New tokens for ``account`` (once at a time per person); None when the server will
        not refresh it any more: the account is then marked for relinking."""
        return await _once(self._refreshing, account.user_id, lambda: self._refresh(account))

    async def refresh_server(self, account: ServerAccount) -> ServerAccount | None:
        """New tokens for a server's account (once at a time per server); None when the server
        will not refresh it any more: the account is then marked for its admins to relink."""
        return await _once(
            self._refreshing_servers, account.guild_id, lambda: self._refresh_server(account)
        )

    async def _refresh_server(self, account: ServerAccount) -> ServerAccount | None:
        servers = self._servers
        if account.refresh_token is None or servers is None:
            return None
        try:
            tokens = await self._grant(
                "refresh_token", refresh_token=account.refresh_token.get_secret_value()
            )
        except SignInFailed as failed:
            current = await servers.get(account.guild_id, fresh=True)
            if current is not None and _refresh_of(current) != _refresh_of(account):
                return current  # refreshed elsewhere, or an admin relinked, meanwhile
            log.info("the authorization server refused a server's refresh (%s)", failed.error)
            await servers.mark_invalid(account.guild_id, account.token, note="refresh refused")
            return None
        except OAuthUnavailable as error:
            log.warning("could not refresh a server's signed-in token: %s", error)
            return account
        if await servers.refreshed(
            account.guild_id,
            old_refresh_token=account.refresh_token,
            token=tokens.access_token,
            refresh_token=tokens.refresh_token,
            expires_at=tokens.expires_at,
        ):
            log.info("refreshed a server's signed-in token")
        return await servers.get(account.guild_id, fresh=True)

    async def _refresh(self, account: LinkedAccount) -> LinkedAccount | None:
        if account.refresh_token is None:
            return None
        try:
            tokens = await self._grant(
                "refresh_token", refresh_token=account.refresh_token.get_secret_value()
            )
        except SignInFailed as failed:
            return await self._refresh_refused(account, failed.error)
        except OAuthUnavailable as error:
            # The server is down, not refusing: the old token may still work until it expires.
            log.warning("could not refresh a signed-in token: %s", error)
            return account
        return await self._store(account, tokens)

    async def _store(self, account: LinkedAccount, tokens: IssuedTokens) -> LinkedAccount | None:
        assert account.refresh_token is not None
        stored = await self._registry.refreshed(
            account.user_id,
            old_refresh_token=account.refresh_token,
            token=tokens.access_token,
            refresh_token=tokens.refresh_token,
            expires_at=tokens.expires_at,
        )
        if stored:
            log.info("refreshed a signed-in token")
        # Not stored: unlinked, relinked or refreshed elsewhere meanwhile; what is stored wins.
        return await self._registry.get(account.user_id, fresh=True)

    async def _refresh_refused(self, account: LinkedAccount, error: str) -> LinkedAccount | None:
        current = await self._registry.get(account.user_id, fresh=True)
        if current is not None and _refresh_of(current) != _refresh_of(account):
            return current  # another process refreshed (or the person relinked) meanwhile
        log.info("the authorization server refused a refresh (%s): relink needed", error)
        await self._registry.mark_invalid(account.user_id, note="refresh refused")
        return None


def _refresh_of(account: Expiring) -> str | None:
    token: SecretStr | None = account.refresh_token
    return token.get_secret_value() if token is not None else None


def _server_name(signing_in: SignInState) -> str | None:
    """The name a server's sign-in shows (its id if it had none); None for a person's."""
    if signing_in.guild_id is None:
        return None
    return signing_in.guild_name or str(signing_in.guild_id)


async def _once(
    running: dict[int, asyncio.Future[T | None]],
    key: int,
    work: Callable[[], Awaitable[T | None]],
) -> T | None:
    """``work()``, or the result of the same work already running for ``key``."""
    pending = running.get(key)
    if pending is not None:
        return await asyncio.shield(pending)
    future: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
    running[key] = future
    try:
        result = await work()
    except BaseException as error:
        future.set_exception(error)
        future.exception()  # retrieved: only the waiters care
        raise
    else:
        future.set_result(result)
        return result
    finally:
        del running[key]

"""Which Magisterium token a request is made with.

The person's own linked token; else, for a request made in a server (its
:class:`~bot.services.origin.Origin`),
that server's account within the member's allowance; else the operator's shared token within a
per-person quota; else nothing, and they are told how to link. One person's token is never used
for another, and a server's account never serves a DM, another server or a daily post
(:meth:`TokenChooser.for_schedule` never looks at it). A signed-in token, a person's or a
server's, is refreshed just before it expires, and once when Magisterium refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import SecretStr

from bot.accounts.errors import QuotaExceeded, ServerQuotaExceeded
from bot.accounts.keys import token_key
from bot.accounts.quota import SharedTokenQuota
from bot.accounts.registry import LinkedAccount, TokenRegistry
from bot.accounts.server_quota import ServerTokenQuota
from bot.accounts.server_registry import ServerAccount, ServerRegistry
from bot.i18n import N_, _
from bot.services.origin import Origin
from bot.services.user_errors import LINK_HINT, UserFacingError

TokenSource = Literal["own", "shared"]  # what a daily schedule posts with
ChosenSource = Literal["own", "server", "shared"]


@dataclass(frozen=True)
class ChosenToken:
    token: SecretStr
    key: str  # the limiter's bucket id for this token; never the token itself
    source: ChosenSource
    guild_id: int | None = None  # the server whose account it is ("server" only)

    def __repr__(self) -> str:
        return f"ChosenToken(key={self.key!r}, source={self.source!r})"


@dataclass(frozen=True)
class TokenPreview:
    """Whose token would serve the person's next request here, and what is left (nothing
    spent): for ``/account status``. ``source`` is None when nothing would."""

    source: ChosenSource | None
    own: LinkedAccount | None = None
    server: ServerAccount | None = None
    server_left: tuple[int, int] | None = None  # (any kind, questions) on the server's account
    shared_left: tuple[int, int] | None = None  # the same on the operator's shared token


class NoTokenAvailable(UserFacingError):
    def __init__(self) -> None:
        super().__init__(
            _("Link your Magisterium account first"),
            # Translators: {link_hint} is the sentence "Link your own Magisterium account
            # with `/account link`."
            _(
                "Magisterium answers on behalf of a signed-in account with a paid plan. {link_hint}"
            ).format(link_hint=_(LINK_HINT)),
        )


class LinkedTokenInvalid(UserFacingError):
    def __init__(self) -> None:
        super().__init__(
            _("Your Magisterium token no longer works"),
            _("Magisterium refused it (expired or revoked). Run `/account link` to link it again."),
        )


class ServerTokenRefused(UserFacingError):
    def __init__(self) -> None:
        super().__init__(
            _("This server's Magisterium account no longer works"),
            # Translators: {link_hint} is the sentence "Link your own Magisterium account
            # with `/account link`."
            _(
                "Magisterium refused it (expired or revoked). A server admin can link it again "
                "with `/server link`. {link_hint}"
            ).format(link_hint=_(LINK_HINT)),
        )


class ScheduleTokenUnavailable(Exception):
    """A daily schedule's token cannot be used; ``reason`` (an English catalogue message, stored
    with the schedule) is shown, translated, by ``/daily status``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# Stored with a schedule in English and compared as they are: translate them where shown.
# Translators: why a server's daily post is paused, shown by /daily status.
OWNER_NOT_LINKED = N_(
    "The admin who set this schedule has no Magisterium account linked any more. "
    "Run `/daily set` again."
)
# Translators: why a server's daily post is paused, shown by /daily status.
OWNER_REFUSED = N_(
    "Magisterium refused the token of the admin who set this schedule. It resumes once they "
    "link their account again with `/account link`, or run `/daily set` to post with yours."
)
# Translators: why a server's daily post is paused, shown by /daily status.
SHARED_ACCOUNT_GONE = N_(
    "The bot's shared Magisterium account is no longer configured. "
    "Run `/daily set` again with your own account linked."
)


class Refresher(Protocol):
    """Keeps a signed-in account's token fresh (bot.oauth.OAuthService)."""

    def needs_refresh(self, account: LinkedAccount) -> bool: ...

    async def refresh(self, account: LinkedAccount) -> LinkedAccount | None:
        """New tokens; None when the server refuses: the account is then marked invalid."""
        ...


class ServerRefresher(Protocol):
    """Keeps a server's signed-in token fresh (bot.oauth.OAuthService)."""

    def needs_refresh(self, account: ServerAccount) -> bool: ...

    async def refresh_server(self, account: ServerAccount) -> ServerAccount | None:
        """New tokens; None when the server refuses: the account is then marked invalid."""
        ...


class TokenChooser:
    def __init__(
        self,
        registry: TokenRegistry,
        *,
        operator_token: SecretStr | None,
        quota: SharedTokenQuota | None,
        refresher: Refresher | None = None,
        servers: ServerRegistry | None = None,
        server_quota: ServerTokenQuota | None = None,
        server_refresher: ServerRefresher | None = None,
    ) -> None:
        self._registry = registry
        self.refresher = refresher
        self.server_refresher = server_refresher
        self._servers = servers
        self._server_quota = server_quota
        self._operator_token = (
            operator_token if operator_token and operator_token.get_secret_value() else None
        )
        self._operator_key = token_key(self._operator_token) if self._operator_token else None
        self._quota = quota

    @property
    def has_shared_token(self) -> bool:
        return self._operator_token is not None

    async def for_schedule(self, owner_id: int | None, source: TokenSource) -> ChosenToken:
        """The token a daily schedule posts with: its admin's own, or the shared one (which
        spends no person's quota: the schedule makes one call a day, shared by every server)."""
        if source == "shared":
            if self._operator_token is None or self._operator_key is None:
                raise ScheduleTokenUnavailable(SHARED_ACCOUNT_GONE)
            return ChosenToken(self._operator_token, self._operator_key, "shared")
        account = await self._registry.get(owner_id) if owner_id is not None else None
        if account is None:
            raise ScheduleTokenUnavailable(OWNER_NOT_LINKED)
        if account.status == "invalid":
            raise ScheduleTokenUnavailable(OWNER_REFUSED)
        account = await self._fresh(account)
        if account is None:
            raise ScheduleTokenUnavailable(OWNER_REFUSED)
        return ChosenToken(account.token, token_key(account.token), "own")

    async def source_for(self, user_id: int) -> TokenSource:
        """Whose token would serve ``user_id`` (nothing spent): for a daily schedule they set."""
        if await self._own_account(user_id) is not None:
            return "own"
        if self._operator_token is None:
            raise NoTokenAvailable
        return "shared"

    async def choose(self, origin: Origin, *, expensive: bool) -> ChosenToken:
        """The token that serves ``origin``'s request, its allowance or quota spent."""
        user_id = origin.user_id
        account = await self._own_account(user_id)
        if account is not None:
            return ChosenToken(account.token, token_key(account.token), "own")
        server_used_up: QuotaExceeded | None = None
        server = await self._server_account(origin.guild_id)
        if server is not None and self._server_quota is not None:
            server = await self._fresh_server(server)
            try:
                await self._server_quota.consume(
                    server.guild_id, user_id, server.allowance, expensive=expensive
                )
            except QuotaExceeded as used_up:
                server_used_up = used_up  # the shared token may still serve
            else:
                return ChosenToken(
                    server.token, token_key(server.token), "server", guild_id=server.guild_id
                )
        try:
            return await self._shared(user_id, expensive=expensive)
        except (NoTokenAvailable, QuotaExceeded) as shared_refused:
            if server_used_up is None or not _spent(server, server_used_up):
                raise
            raise ServerQuotaExceeded(
                server_used_up.retry_after_seconds,
                server_used_up.pool,
                shared_too=isinstance(shared_refused, QuotaExceeded),
            ) from None

    async def _shared(self, user_id: int, *, expensive: bool) -> ChosenToken:
        if self._operator_token is None or self._operator_key is None:
            raise NoTokenAvailable
        if self._quota is not None:
            await self._quota.consume(user_id, expensive=expensive)
        return ChosenToken(self._operator_token, self._operator_key, "shared")

    async def preview(self, origin: Origin) -> TokenPreview:
        """Whose token would serve ``origin``'s next request there, and what each allowance
        has left; nothing is spent."""
        user_id = origin.user_id
        own = await self._registry.get(user_id)
        if own is not None:
            return TokenPreview("own", own=own)
        server = await self._server_account(origin.guild_id)
        server_left = None
        if server is not None and self._server_quota is not None:
            server_left = await self._server_quota.remaining(
                server.guild_id, user_id, server.allowance
            )
        shared_left = None
        if self._operator_token is not None:
            shared_left = await self._quota.remaining(user_id) if self._quota else None
        source: ChosenSource | None = None
        if server_left is not None and (server_left[0] > 0 or self._operator_token is None):
            source = "server"
        elif self._operator_token is not None:
            source = "shared"
        return TokenPreview(source, server=server, server_left=server_left, shared_left=shared_left)

    async def server_refused(self, refused: ChosenToken) -> None:
        """Magisterium refused a server's token (401): its admins must link it again."""
        if self._servers is not None and refused.guild_id is not None:
            await self._servers.mark_invalid(refused.guild_id, refused.token, note="refused")

    async def _server_account(self, guild_id: int | None) -> ServerAccount | None:
        """The account of the server the request comes from, if it can serve."""
        if guild_id is None or self._servers is None:
            return None
        account = await self._servers.get(guild_id)
        if account is None or account.status == "invalid":
            return None
        return account

    async def _fresh_server(self, account: ServerAccount) -> ServerAccount:
        """The server's account with its token refreshed first when it is about to expire; a
        refresh refused (the account is then marked invalid) tells the member."""
        refresher = self.server_refresher
        if refresher is None or not refresher.needs_refresh(account):
            return account
        fresh = await refresher.refresh_server(account)
        if fresh is None or fresh.status == "invalid":
            raise ServerTokenRefused
        return fresh

    async def after_refused(self, user_id: int, refused: ChosenToken) -> ChosenToken | None:
        """Magisterium refused the person's own token, or a server's (401): a refreshed one to
        try once, or None when there is no refresh token or the server will not refresh it."""
        if refused.source == "server":
            return await self._server_after_refused(refused)
        if self.refresher is None or refused.source != "own":
            return None
        account = await self._registry.get(user_id, fresh=True)
        if account is None or account.refresh_token is None:
            return None
        fresh = await self.refresher.refresh(account)
        if fresh is None or fresh.token.get_secret_value() == refused.token.get_secret_value():
            return None
        return ChosenToken(fresh.token, token_key(fresh.token), "own")

    async def _server_after_refused(self, refused: ChosenToken) -> ChosenToken | None:
        if self.server_refresher is None or self._servers is None or refused.guild_id is None:
            return None
        account = await self._servers.get(refused.guild_id, fresh=True)
        if account is None or account.refresh_token is None:
            return None
        fresh = await self.server_refresher.refresh_server(account)
        if fresh is None or fresh.token.get_secret_value() == refused.token.get_secret_value():
            return None
        return ChosenToken(fresh.token, token_key(fresh.token), "server", guild_id=fresh.guild_id)

    async def _own_account(self, user_id: int) -> LinkedAccount | None:
        """The user's linked account; a token Magisterium refused is an error, not None."""
        account = await self._registry.get(user_id)
        if account is None:
            return None
        if account.status == "invalid":
            raise LinkedTokenInvalid
        fresh = await self._fresh(account)
        if fresh is None:
            raise LinkedTokenInvalid
        return fresh

    async def _fresh(self, account: LinkedAccount) -> LinkedAccount | None:
        """``account`` with a token refreshed first when it is about to expire."""
        if self.refresher is None or not self.refresher.needs_refresh(account):
            return account
        return await self.refresher.refresh(account)


def _spent(server: ServerAccount | None, used_up: QuotaExceeded) -> bool:
    """The member spent the allowance (rather than the admins turning that kind off: then the
    server's account simply does not serve it, and the person is told how to link)."""
    if server is None:
        return False
    limit = server.allowance.qa_per_hour if used_up.pool == "qa" else server.allowance.per_hour
    return limit > 0

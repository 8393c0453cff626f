"""Which Magisterium token a request is made with.

The person's own linked token; else the operator's shared token within a per-person quota;
else nothing, and they are told how to link. One person's token is never used for another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import SecretStr

from bot.accounts.keys import token_key
from bot.accounts.quota import SharedTokenQuota
from bot.accounts.registry import LinkedAccount, TokenRegistry
from bot.i18n import N_, _
from bot.services.user_errors import LINK_HINT, UserFacingError

TokenSource = Literal["own", "shared"]


@dataclass(frozen=True)
class ChosenToken:
    token: SecretStr
    key: str  # the limiter's bucket id for this token; never the token itself
    source: TokenSource

    def __repr__(self) -> str:
        return f"ChosenToken(key={self.key!r}, source={self.source!r})"


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


class TokenChooser:
    def __init__(
        self,
        registry: TokenRegistry,
        *,
        operator_token: SecretStr | None,
        quota: SharedTokenQuota | None,
        refresher: Refresher | None = None,
    ) -> None:
        self._registry = registry
        self.refresher = refresher
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

    async def choose(self, user_id: int, *, expensive: bool) -> ChosenToken:
        account = await self._own_account(user_id)
        if account is not None:
            return ChosenToken(account.token, token_key(account.token), "own")
        if self._operator_token is None or self._operator_key is None:
            raise NoTokenAvailable
        if self._quota is not None:
            await self._quota.consume(user_id, expensive=expensive)
        return ChosenToken(self._operator_token, self._operator_key, "shared")

    async def after_refused(self, user_id: int, refused: ChosenToken) -> ChosenToken | None:
        """Magisterium refused the person's own token (401): a refreshed one to try once, or
        None when there is no refresh token or the server will not refresh it."""
        if self.refresher is None or refused.source != "own":
            return None
        account = await self._registry.get(user_id, fresh=True)
        if account is None or account.refresh_token is None:
            return None
        fresh = await self.refresher.refresh(account)
        if fresh is None or fresh.token.get_secret_value() == refused.token.get_secret_value():
            return None
        return ChosenToken(fresh.token, token_key(fresh.token), "own")

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

"""The token endpoint: a code for tokens (with the PKCE verifier), a refresh token for new ones."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import httpx
from authlib.oauth2.rfc6749.parameters import prepare_token_request
from pydantic import BaseModel, ConfigDict, SecretStr, ValidationError

from bot.oauth.clients import ClientCredentials
from bot.oauth.errors import OAuthUnavailable, SignInFailed
from bot.oauth.userinfo import account_name

FORM = "application/x-www-form-urlencoded"


class TokenResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    access_token: str
    token_type: str = "Bearer"  # noqa: S105 - the scheme's name, not a secret
    refresh_token: str | None = None
    expires_in: float | None = None


@dataclass(frozen=True)
class IssuedTokens:
    access_token: SecretStr = field(repr=False)
    refresh_token: SecretStr | None = field(repr=False)
    expires_at: dt.datetime | None
    account_name: str | None = None  # when the response names the account (bot.oauth.userinfo)


async def request_tokens(
    http: httpx.AsyncClient,
    endpoint: str,
    client: ClientCredentials,
    grant_type: str,
    *,
    now: dt.datetime,
    **params: str,
) -> IssuedTokens:
    """POST one grant to the token endpoint. An OAuth error (``invalid_grant``…) raises
    :class:`SignInFailed`; an unreachable or broken server, :class:`OAuthUnavailable`."""
    auth: tuple[str, str] | None = None
    if client.client_secret is not None:
        auth = (client.client_id, client.client_secret.get_secret_value())  # client_secret_basic
    else:
        params["client_id"] = client.client_id  # a public client names itself
    body = prepare_token_request(grant_type, **params)
    try:
        response = await http.post(
            endpoint,
            content=body,
            headers={"Content-Type": FORM, "Accept": "application/json"},
            auth=auth if auth is not None else httpx.USE_CLIENT_DEFAULT,
        )
    except httpx.HTTPError as error:
        raise OAuthUnavailable(f"token endpoint unreachable: {type(error).__name__}") from None
    if response.status_code in (400, 401):
        raise SignInFailed(_oauth_error(response))
    if response.status_code != 200:
        raise OAuthUnavailable(f"token endpoint answered HTTP {response.status_code}")
    try:
        tokens = TokenResponse.model_validate_json(response.content)
    except ValidationError:
        raise OAuthUnavailable("token endpoint sent no usable token response") from None
    if tokens.token_type.lower() != "bearer":
        raise OAuthUnavailable(f"unsupported token type {tokens.token_type!r}")
    expires_at = now + dt.timedelta(seconds=tokens.expires_in) if tokens.expires_in else None
    return IssuedTokens(
        SecretStr(tokens.access_token),
        SecretStr(tokens.refresh_token) if tokens.refresh_token else None,
        expires_at,
        account_name(response.json()),
    )


def _oauth_error(response: httpx.Response) -> str:
    try:
        error = response.json().get("error")
    except ValueError:
        error = None
    return (
        error
        if isinstance(error, str) and error.isascii() and len(error) < 64
        else "invalid_request"
    )

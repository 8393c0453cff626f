"""Authlib's grants, completed for the test server: code + PKCE S256 and rotating refresh tokens.

Both grants also check RFC 8707 resource indicators when the server requires one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from authlib.oauth2.rfc6749 import (
    AuthorizationCodeGrant,
    InvalidRequestError,
    OAuth2Error,
    OAuth2Request,
    RefreshTokenGrant,
)
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc7636.challenge import compare_s256_code_challenge

from tests.support.oauth_server.models import AuthorizationCode, Client, IssuedToken, User
from tests.support.oauth_server.state import resources_of

if TYPE_CHECKING:
    from tests.support.oauth_server.state import OAuthTestServer

# Public clients authenticate with "none": Authlib's grants leave it out by default.
TOKEN_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]


class InvalidTargetError(OAuth2Error):
    """RFC 8707 §2: the requested resource is invalid, unknown or malformed."""

    error = "invalid_target"


def state_of(grant: Any) -> OAuthTestServer:
    state: OAuthTestServer = grant.server.state
    return state


def check_resource(state: OAuthTestServer, request: OAuth2Request) -> None:
    required = state.required_resource
    if required is not None and resources_of(request) != [required]:
        raise InvalidTargetError(f"This server only issues tokens for resource {required}.")


class S256CodeChallenge(CodeChallenge):
    """PKCE with S256 only, required for every client at the authorization endpoint.

    Authlib's `CodeChallenge(required=True)` lets an authorization request through without a
    challenge (it only refuses a public client's token request without a verifier), accepts
    "plain", and takes a missing method to mean "plain".
    """

    SUPPORTED_CODE_CHALLENGE_METHOD: ClassVar[list[str]] = ["S256"]
    CODE_CHALLENGE_METHODS: ClassVar[dict[str, Callable[[str, str], bool]]] = {
        "S256": compare_s256_code_challenge
    }

    def validate_code_challenge(self, grant: Any, redirect_uri: str) -> None:
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("Missing 'code_challenge': PKCE is required.")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("'code_challenge_method' must be 'S256'.")
        super().validate_code_challenge(grant, redirect_uri)


class CodeGrant(AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = TOKEN_AUTH_METHODS

    def validate_authorization_request(self) -> str:
        redirect_uri: str = super().validate_authorization_request()
        try:
            check_resource(state_of(self), self.request)
        except InvalidTargetError as error:
            error.redirect_uri = redirect_uri  # the redirect URI is valid by now: tell the client
            raise
        return redirect_uri

    def validate_token_request(self) -> None:
        super().validate_token_request()  # with the PKCE hook
        check_resource(state_of(self), self.request)

    def save_authorization_code(self, code: str, request: OAuth2Request) -> None:
        state_of(self).save_code(code, request)

    def query_authorization_code(self, code: str, client: Client) -> AuthorizationCode | None:
        # Used up here rather than in delete_authorization_code: a failed exchange (a wrong
        # verifier) spends the code too.
        return state_of(self).redeem_code(code, client)

    def delete_authorization_code(self, authorization_code: AuthorizationCode) -> None:
        """Already spent by `query_authorization_code`."""

    def authenticate_user(self, authorization_code: AuthorizationCode) -> User:
        return User(authorization_code.subject)


class RotatingRefreshGrant(RefreshTokenGrant):
    """Every refresh issues a new refresh token and revokes the one that was used."""

    TOKEN_ENDPOINT_AUTH_METHODS = TOKEN_AUTH_METHODS
    INCLUDE_NEW_REFRESH_TOKEN = True

    def validate_token_request(self) -> None:
        super().validate_token_request()
        check_resource(state_of(self), self.request)

    def authenticate_refresh_token(self, refresh_token: str) -> IssuedToken | None:
        return state_of(self).find_refresh_token(refresh_token)

    def authenticate_user(self, refresh_token: IssuedToken) -> User:
        return User(refresh_token.subject)

    def revoke_old_credential(self, refresh_token: IssuedToken) -> None:
        refresh_token.refresh_revoked = True

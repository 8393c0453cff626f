"""What the test authorization server keeps: clients, authorization codes and issued tokens.

The classes implement Authlib's model mixins. Secrets stay out of their reprs: Authlib logs
clients with ``%r``, and the suite's log guard fails the run on any secret in a log line.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from authlib.oauth2.rfc6749 import (
    AuthorizationCodeMixin,
    ClientMixin,
    TokenMixin,
    list_to_scope,
    scope_to_list,
)

AUTHORIZATION_CODE = "authorization_code"
REFRESH_TOKEN = "refresh_token"


@dataclass(frozen=True)
class User:
    """The person who signs in on the consent page."""

    subject: str

    def get_user_id(self) -> str:
        return self.subject


@dataclass
class Client(ClientMixin):
    client_id: str
    client_secret: str | None = field(default=None, repr=False)
    redirect_uris: list[str] = field(default_factory=list)
    # RFC 7591: "none" (public), "client_secret_basic" or "client_secret_post".
    token_endpoint_auth_method: str = "none"
    grant_types: list[str] = field(default_factory=lambda: [AUTHORIZATION_CODE, REFRESH_TOKEN])
    response_types: list[str] = field(default_factory=lambda: ["code"])
    client_name: str | None = None
    # The scopes this client may get; None: any scope the server supports.
    scope: str | None = None

    @property
    def display_name(self) -> str:
        return self.client_name or self.client_id

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        # Stricter than RFC 6749 (like OAuth 2.1): every authorization request names its
        # redirect_uri, even when the client registered only one.
        return None

    def get_allowed_scope(self, scope: str | None) -> str:
        if not scope:
            return ""
        requested = scope_to_list(scope)
        if self.scope is None:
            return str(list_to_scope(requested))
        allowed = set(scope_to_list(self.scope))
        return str(list_to_scope([s for s in requested if s in allowed]))

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.redirect_uris  # exact string match

    def check_client_secret(self, client_secret: str) -> bool:
        if self.client_secret is None:
            return False
        return secrets.compare_digest(self.client_secret, client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        if endpoint == "token":
            return method == self.token_endpoint_auth_method
        return True

    def check_response_type(self, response_type: str) -> bool:
        return response_type in self.response_types

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in self.grant_types


@dataclass
class AuthorizationCode(AuthorizationCodeMixin):
    code: str = field(repr=False)
    client_id: str
    redirect_uri: str
    scope: str
    code_challenge: str
    code_challenge_method: str
    resources: list[str]
    subject: str
    expires_at: float
    used: bool = False

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope


@dataclass
class IssuedToken(TokenMixin):
    """One token response: an access token and (usually) its refresh token."""

    access_token: str = field(repr=False)
    refresh_token: str | None = field(repr=False)
    client_id: str
    grant_type: str
    scope: str
    resources: list[str]
    subject: str
    issued_at: float
    expires_at: float
    # The authorization code the chain of refreshes started from: a replayed code revokes it.
    origin_code: str = field(repr=False)
    revoked: bool = False
    refresh_revoked: bool = False

    def check_client(self, client: Client) -> bool:
        return self.client_id == client.get_client_id()

    def get_scope(self) -> str:
        return self.scope

    def get_expires_in(self) -> int:
        return int(self.expires_at - self.issued_at)

    def is_revoked(self) -> bool:
        return self.revoked

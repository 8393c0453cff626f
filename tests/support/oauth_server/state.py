"""`OAuthTestServer`: the test authorization server's state, records and controls.

The HTTP side (`app.py`) and Authlib's grants (`grants.py`) read and write this object; tests
steer it (`auto_consent`, `remember_consent`, `account_name`, `advance`,
`revoke_refresh_tokens`, `fail_token_endpoint`, `fail_userinfo`) and read what clients sent
(`registrations`, `authorize_requests`, `token_requests`, `userinfo_requests`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from authlib.oauth2.rfc6749 import OAuth2Request
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata, get_well_known_url

from tests.support.oauth_server.models import (
    AUTHORIZATION_CODE,
    REFRESH_TOKEN,
    AuthorizationCode,
    Client,
    IssuedToken,
    User,
)

Consent = Literal["allow", "deny"]

AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
DEFAULT_SUBJECT = "magisterium-user-1"


class OAuthTestServer:
    """An OAuth 2.0 authorization server for tests; serve it with `running_oauth_server`."""

    def __init__(
        self,
        *,
        issuer_path: str = "",
        registration: bool = True,
        required_resource: str | None = None,
        scopes_supported: Iterable[str] | None = None,
        subject: str = DEFAULT_SUBJECT,
    ) -> None:
        if issuer_path and (not issuer_path.startswith("/") or issuer_path.endswith("/")):
            raise ValueError(f"issuer_path must look like '/tenant', not {issuer_path!r}")
        self.issuer_path = issuer_path
        self.registration = registration
        self.required_resource = required_resource
        self.scopes_supported = list(scopes_supported) if scopes_supported is not None else None
        # The signed-in person the consent page grants access for.
        self.user = User(subject)

        # Controls.
        self.auto_consent: Consent | None = None
        # Like most real servers: a client the person allowed before is let through without
        # the consent page, unless the authorization request says prompt=consent.
        self.remember_consent = False
        # What the userinfo endpoint says of the signed-in person, besides `sub`:
        # `account_name` as preferred_username, and any other claims.
        self.account_name: str | None = None
        self.userinfo_claims: dict[str, Any] = {}
        self.access_token_lifetime = 3600
        self.code_lifetime = 60

        # What clients sent, in order.
        self.registrations: list[dict[str, Any]] = []
        self.authorize_requests: list[dict[str, Any]] = []
        self.token_requests: list[dict[str, Any]] = []
        self.userinfo_requests: list[dict[str, Any]] = []

        self.clients: dict[str, Client] = {}
        self.consented_clients: set[str] = set()
        self.tokens: list[IssuedToken] = []
        self._codes: dict[str, AuthorizationCode] = {}
        self._token_failures: list[int] = []
        self._userinfo_failures: list[int] = []
        self._clock_offset = 0.0
        self._issuer: str | None = None

    # -- addresses ---------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        """The issuer identifier, e.g. http://127.0.0.1:PORT or http://127.0.0.1:PORT/tenant."""
        if self._issuer is None:
            raise RuntimeError("the server is not running: use running_oauth_server()")
        return self._issuer

    @property
    def metadata_url(self) -> str:
        """Where RFC 8414 puts the metadata: the well-known segment goes before the path."""
        return str(get_well_known_url(self.issuer, external=True))

    @property
    def authorization_endpoint(self) -> str:
        return self.issuer + "/authorize"

    @property
    def token_endpoint(self) -> str:
        return self.issuer + "/token"

    @property
    def userinfo_endpoint(self) -> str:
        return self.issuer + "/userinfo"

    @property
    def registration_endpoint(self) -> str | None:
        return self.issuer + "/register" if self.registration else None

    def _bind(self, origin: str) -> None:
        self._issuer = origin + self.issuer_path

    def metadata(self) -> dict[str, Any]:
        """The RFC 8414 document, checked with Authlib's `AuthorizationServerMetadata`."""
        document: dict[str, Any] = {
            "issuer": self.issuer,
            "authorization_endpoint": self.authorization_endpoint,
            "token_endpoint": self.token_endpoint,
            "userinfo_endpoint": self.userinfo_endpoint,  # OpenID Connect's, as many list it
        }
        if self.registration_endpoint is not None:
            document["registration_endpoint"] = self.registration_endpoint
        if self.scopes_supported is not None:
            document["scopes_supported"] = list(self.scopes_supported)
        document |= {
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": [AUTHORIZATION_CODE, REFRESH_TOKEN],
            "token_endpoint_auth_methods_supported": list(AUTH_METHODS),
            "code_challenge_methods_supported": ["S256"],
        }
        metadata = AuthorizationServerMetadata(document)
        metadata.validate()
        return dict(metadata)

    # -- controls ----------------------------------------------------------------------------

    def now(self) -> float:
        """The server's clock: wall time moved on by `advance`."""
        return time.time() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the server's clock (authorization codes expire after `code_lifetime`)."""
        self._clock_offset += seconds

    def add_client(
        self,
        client_id: str,
        client_secret: str | None = None,
        redirect_uris: Iterable[str] = (),
        *,
        token_endpoint_auth_method: str | None = None,
        grant_types: Iterable[str] = (AUTHORIZATION_CODE, REFRESH_TOKEN),
        response_types: Iterable[str] = ("code",),
        client_name: str | None = None,
        scope: str | None = None,
    ) -> Client:
        """A static client: public ("none") without a secret, client_secret_basic with one."""
        if token_endpoint_auth_method is None:
            token_endpoint_auth_method = "none" if client_secret is None else "client_secret_basic"
        if token_endpoint_auth_method not in AUTH_METHODS:
            raise ValueError(f"unsupported token_endpoint_auth_method {token_endpoint_auth_method}")
        if (token_endpoint_auth_method == "none") != (client_secret is None):
            raise ValueError("a public client has no secret; a confidential one needs one")
        client = Client(
            client_id=client_id,
            client_secret=client_secret,
            redirect_uris=list(redirect_uris),
            token_endpoint_auth_method=token_endpoint_auth_method,
            grant_types=list(grant_types),
            response_types=list(response_types),
            client_name=client_name,
            scope=scope,
        )
        self.clients[client_id] = client
        return client

    def userinfo(self, token: IssuedToken) -> dict[str, Any]:
        """What the userinfo endpoint answers for a live token."""
        claims: dict[str, Any] = {"sub": token.subject}
        if self.account_name is not None:
            claims["preferred_username"] = self.account_name
        return claims | self.userinfo_claims

    def fail_token_endpoint(self, status: int = 500) -> None:
        """The next token request (only that one) gets `status` with a server_error body."""
        self._token_failures.append(status)

    def fail_userinfo(self, status: int = 500) -> None:
        """The next userinfo request (only that one) gets `status`."""
        self._userinfo_failures.append(status)

    def take_userinfo_failure(self) -> int | None:
        return self._userinfo_failures.pop(0) if self._userinfo_failures else None

    def revoke_refresh_tokens(self) -> None:
        """Every refresh token issued so far stops working: the next refresh is invalid_grant."""
        for token in self.tokens:
            token.refresh_revoked = True

    def active_token(self, access_token: str) -> IssuedToken | None:
        """The token record for a live access token (issued here, not revoked, not expired)."""
        for token in self.tokens:
            if token.access_token == access_token:
                live = not token.revoked and self.now() < token.expires_at
                return token if live else None
        return None

    @property
    def last_token(self) -> IssuedToken:
        return self.tokens[-1]

    # -- used by grants.py and app.py --------------------------------------------------------

    def take_token_failure(self) -> int | None:
        return self._token_failures.pop(0) if self._token_failures else None

    def save_code(self, code: str, request: OAuth2Request) -> None:
        data = request.payload.data
        self._codes[code] = AuthorizationCode(
            code=code,
            client_id=request.client.get_client_id(),
            redirect_uri=request.payload.redirect_uri,
            scope=request.scope or "",
            code_challenge=data.get("code_challenge"),
            code_challenge_method=data.get("code_challenge_method"),
            resources=resources_of(request),
            subject=request.user.get_user_id(),
            expires_at=self.now() + self.code_lifetime,
        )

    def redeem_code(self, code: str, client: Client) -> AuthorizationCode | None:
        """The code, now used up; None when unknown, expired, another client's, or replayed.

        A replayed code also revokes the tokens issued from it (RFC 6749 §4.1.2).
        """
        record = self._codes.get(code)
        if record is None:
            return None
        if record.used:
            for token in self.tokens:
                if token.origin_code == code:
                    token.revoked = token.refresh_revoked = True
            return None
        record.used = True
        if record.client_id != client.get_client_id() or self.now() >= record.expires_at:
            return None
        return record

    def find_refresh_token(self, refresh_token: str) -> IssuedToken | None:
        for token in self.tokens:
            if token.refresh_token == refresh_token and not token.refresh_revoked:
                return token
        return None

    def save_token(self, token: Mapping[str, Any], request: OAuth2Request) -> None:
        grant_type = request.payload.grant_type
        previous = request.refresh_token if grant_type == REFRESH_TOKEN else None
        if previous is not None:
            origin_code = previous.origin_code
            inherited = previous.resources
        else:
            origin_code = request.authorization_code.code
            inherited = request.authorization_code.resources
        now = self.now()
        self.tokens.append(
            IssuedToken(
                access_token=token["access_token"],
                refresh_token=token.get("refresh_token"),
                client_id=request.client.get_client_id(),
                grant_type=grant_type,
                scope=token.get("scope", ""),
                resources=resources_of(request) or list(inherited),
                subject=request.user.get_user_id(),
                issued_at=now,
                expires_at=now + token.get("expires_in", self.access_token_lifetime),
                origin_code=origin_code,
            )
        )


def resources_of(request: OAuth2Request) -> list[str]:
    """The RFC 8707 `resource` parameters of a request (there may be several)."""
    return list(request.payload.datalist.get("resource", []))

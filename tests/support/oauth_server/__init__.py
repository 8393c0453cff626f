"""A real OAuth 2.0 authorization server for tests, built on Authlib, on loopback.

    async with running_oauth_server() as server:
        server.auto_consent = "allow"
        ...  # point a client at server.issuer (metadata at server.metadata_url)

Authorization code + PKCE (S256 only, always required), rotating refresh tokens, open dynamic
client registration (RFC 7591), RFC 8414 metadata, RFC 8707 resource indicators, a consent
remembered per client unless ``prompt=consent`` (when ``remember_consent`` is on), and an
OpenID-style userinfo endpoint naming the account (``account_name``).
"""

from tests.support.oauth_server.adapter import ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX
from tests.support.oauth_server.models import AuthorizationCode, Client, IssuedToken, User
from tests.support.oauth_server.pages import TITLE as CONSENT_TITLE
from tests.support.oauth_server.server import running_oauth_server
from tests.support.oauth_server.state import DEFAULT_SUBJECT, Consent, OAuthTestServer

__all__ = [
    "ACCESS_TOKEN_PREFIX",
    "CONSENT_TITLE",
    "DEFAULT_SUBJECT",
    "REFRESH_TOKEN_PREFIX",
    "AuthorizationCode",
    "Client",
    "Consent",
    "IssuedToken",
    "OAuthTestServer",
    "User",
    "running_oauth_server",
]

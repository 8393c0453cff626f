"""Sign in with Magisterium: the bot as an OAuth 2.0 client (authorization code with PKCE).

Endpoints from RFC 8414 metadata, a static or dynamically registered (RFC 7591) client, an
RFC 8707 resource when configured, one-time states bound to a Discord user and to the browser
that started them, and refresh.
"""

from bot.oauth.config import CALLBACK_PATH, START_PATH, OAuthConfig
from bot.oauth.errors import OAuthUnavailable, SignInFailed, StateProblem
from bot.oauth.service import LinkedBySignIn, OAuthService, StartedSignIn, StartPage

__all__ = [
    "CALLBACK_PATH",
    "START_PATH",
    "LinkedBySignIn",
    "OAuthConfig",
    "OAuthService",
    "OAuthUnavailable",
    "SignInFailed",
    "StartPage",
    "StartedSignIn",
    "StateProblem",
]

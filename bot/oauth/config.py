"""What the OAuth client needs from the settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import SecretStr

from bot.settings import Settings

CALLBACK_PATH = "/oauth/callback"
START_PATH = "/oauth/start/"  # + the state: the short link the Discord button opens
STATE_LIFETIME_SECONDS = 600
CLIENT_NAME = "Magisterium AI for Discord"


@dataclass(frozen=True)
class OAuthConfig:
    public_base_url: str
    issuer: str
    authorization_endpoint: str | None = None
    token_endpoint: str | None = None
    client_id: str | None = None
    client_secret: SecretStr | None = field(default=None, repr=False)
    scopes: str | None = None
    resource: str | None = None

    @property
    def redirect_uri(self) -> str:
        return self.public_base_url + CALLBACK_PATH

    def start_url(self, state: str) -> str:
        return self.public_base_url + START_PATH + state

    @classmethod
    def from_settings(cls, settings: Settings) -> OAuthConfig | None:
        """None unless sign-in is on (PUBLIC_BASE_URL and WEB_PORT both set)."""
        if not settings.oauth_enabled or settings.public_base_url is None:
            return None
        return cls(
            public_base_url=settings.public_base_url,
            issuer=settings.oauth_issuer,
            authorization_endpoint=settings.oauth_authorization_endpoint,
            token_endpoint=settings.oauth_token_endpoint,
            client_id=settings.oauth_client_id,
            client_secret=settings.oauth_client_secret,
            scopes=" ".join(settings.oauth_scopes.split()) if settings.oauth_scopes else None,
            resource=settings.oauth_resource,
        )

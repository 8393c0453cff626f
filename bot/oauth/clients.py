"""The bot's OAuth client: set by hand, or registered once (RFC 7591) and kept in the database."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import httpx
from pydantic import BaseModel, ConfigDict, SecretStr, ValidationError

from bot.accounts.crypto import SERVICE_OWNER, Purpose, TokenCipher
from bot.accounts.errors import TokenDecryptionError
from bot.accounts.wall_clock import Clock, utcnow
from bot.oauth.config import CLIENT_NAME, OAuthConfig
from bot.oauth.errors import OAuthUnavailable
from bot.oauth.metadata import ServerMetadata
from bot.storage import Database
from bot.storage.models import OAuthClientRow
from bot.storage.upsert import dialect_insert

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClientCredentials:
    client_id: str
    client_secret: SecretStr | None = field(default=None, repr=False)


class RegistrationResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")

    client_id: str
    client_secret: str | None = None


def registration_request(redirect_uri: str) -> dict[str, object]:
    """A public client (PKCE, no secret) that may refresh: what a bot needs."""
    return {
        "client_name": CLIENT_NAME,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }


class ClientSource:
    def __init__(
        self,
        config: OAuthConfig,
        db: Database,
        cipher: TokenCipher | None,
        http: httpx.AsyncClient,
        *,
        clock: Clock = utcnow,
    ) -> None:
        self._config = config
        self._db = db
        self._cipher = cipher
        self._http = http
        self._clock = clock

    async def get(self, metadata: ServerMetadata) -> ClientCredentials:
        """The configured client, else the one registered before, else a new registration."""
        if self._config.client_id:
            return ClientCredentials(self._config.client_id, self._config.client_secret)
        stored = await self._stored()
        if stored is not None:
            return stored
        if not metadata.registration_endpoint:
            raise OAuthUnavailable(
                "no OAUTH_CLIENT_ID is set and the server offers no registration endpoint"
            )
        return await self._register(metadata.registration_endpoint)

    async def _stored(self) -> ClientCredentials | None:
        key = (self._config.issuer, self._config.redirect_uri)
        async with self._db.session() as session:
            row = await session.get(OAuthClientRow, key)
        if row is None:
            return None
        secret = None
        if row.secret_ciphertext and self._cipher is not None:
            try:
                secret = self._cipher.decrypt(
                    SERVICE_OWNER, row.secret_ciphertext, Purpose.CLIENT_SECRET
                )
            except TokenDecryptionError:
                # Encrypted under a key that was dropped: a registration is cheap to redo.
                log.warning("the stored OAuth client secret cannot be decrypted: registering anew")
                await self.forget()
                return None
        return ClientCredentials(row.client_id, secret)

    async def _register(self, endpoint: str) -> ClientCredentials:
        try:
            response = await self._http.post(
                endpoint, json=registration_request(self._config.redirect_uri)
            )
            response.raise_for_status()
            registered = RegistrationResponse.model_validate_json(response.content)
        except (httpx.HTTPError, ValidationError) as error:
            raise OAuthUnavailable(f"client registration failed: {type(error).__name__}") from None
        secret = SecretStr(registered.client_secret) if registered.client_secret else None
        await self._save(registered.client_id, secret)
        log.info("registered an OAuth client with %s", self._config.issuer)
        return await self._stored() or ClientCredentials(registered.client_id, secret)

    async def _save(self, client_id: str, secret: SecretStr | None) -> None:
        ciphertext = None
        if secret is not None:
            if self._cipher is None:
                raise OAuthUnavailable("TOKEN_ENCRYPTION_KEY is needed to keep the client secret")
            ciphertext = self._cipher.encrypt(SERVICE_OWNER, secret, Purpose.CLIENT_SECRET)
        # Two processes registering at once: the first row stays, and both use it.
        insert = dialect_insert(self._db.dialect_name, OAuthClientRow).values(
            issuer=self._config.issuer,
            redirect_uri=self._config.redirect_uri,
            client_id=client_id,
            secret_ciphertext=ciphertext,
            registered_at=self._clock(),
        )
        async with self._db.session() as session:
            await session.execute(insert.on_conflict_do_nothing())

    async def forget(self) -> None:
        """Drop the stored registration (the server no longer knows it): register again."""
        async with self._db.session() as session:
            row = await session.get(
                OAuthClientRow, (self._config.issuer, self._config.redirect_uri)
            )
            if row is not None:
                await session.delete(row)

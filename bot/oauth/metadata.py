"""Authorization server metadata (RFC 8414), fetched once an hour per issuer."""

from __future__ import annotations

import time
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError

from bot.oauth.errors import OAuthUnavailable
from bot.settings import checked_base_url

WELL_KNOWN = "/.well-known/oauth-authorization-server"
METADATA_TTL_SECONDS = 3600.0


class ServerMetadata(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    issuer: str | None = None
    authorization_endpoint: str
    token_endpoint: str
    registration_endpoint: str | None = None
    code_challenge_methods_supported: list[str] | None = None
    # OpenID Connect's, which some OAuth servers list too: who signed in (bot.oauth.userinfo).
    userinfo_endpoint: str | None = None


def metadata_url(issuer: str) -> str:
    """RFC 8414 §3: the well-known segment goes between the host and the issuer's path."""
    parts = urlsplit(issuer)
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, WELL_KNOWN + path, "", ""))


def _checked(metadata: ServerMetadata, issuer: str) -> ServerMetadata:
    if metadata.issuer is not None and metadata.issuer.rstrip("/") != issuer.rstrip("/"):
        raise OAuthUnavailable(f"metadata names issuer {metadata.issuer!r}, not {issuer!r}")
    methods = metadata.code_challenge_methods_supported
    if methods is not None and "S256" not in methods:
        raise OAuthUnavailable("the authorization server does not support PKCE with S256")
    try:
        for url in (metadata.authorization_endpoint, metadata.token_endpoint):
            checked_base_url(url)  # https, or http on localhost only
        if metadata.registration_endpoint:
            checked_base_url(metadata.registration_endpoint)
    except ValueError as error:
        raise OAuthUnavailable(f"unusable endpoint in the metadata: {error}") from None
    if metadata.userinfo_endpoint:
        try:
            checked_base_url(metadata.userinfo_endpoint)
        except ValueError:
            # Only a nicety (the account's name): not worth a token sent in clear.
            metadata = metadata.model_copy(update={"userinfo_endpoint": None})
    return metadata


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of an http(s) URL, as a browser (and CSP) writes an origin."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(parts.scheme)
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{parts.scheme}://{host}{port}"


class MetadataSource:
    """The metadata of one issuer, or endpoints set by hand (then no request at all)."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        issuer: str,
        *,
        authorization_endpoint: str | None = None,
        token_endpoint: str | None = None,
    ) -> None:
        self._http = http
        self._issuer = issuer
        self._fixed = (
            ServerMetadata(
                authorization_endpoint=authorization_endpoint, token_endpoint=token_endpoint
            )
            if authorization_endpoint and token_endpoint
            else None
        )
        self._cached: tuple[float, ServerMetadata] | None = None

    async def get(self) -> ServerMetadata:
        if self._fixed is not None:
            return self._fixed
        if self._cached is not None and time.monotonic() - self._cached[0] < METADATA_TTL_SECONDS:
            return self._cached[1]
        url = metadata_url(self._issuer)
        try:
            response = await self._http.get(url, headers={"Accept": "application/json"})
            response.raise_for_status()
            metadata = ServerMetadata.model_validate_json(response.content)
        except (httpx.HTTPError, ValidationError) as error:
            raise OAuthUnavailable(f"no usable metadata at {url}: {type(error).__name__}") from None
        metadata = _checked(metadata, self._issuer)
        self._cached = (time.monotonic(), metadata)
        return metadata

"""Open dynamic client registration (RFC 7591) on Authlib's `ClientRegistrationEndpoint`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from authlib.common.security import generate_token
from authlib.oauth2.rfc6749 import JsonRequest
from authlib.oauth2.rfc7591 import ClientRegistrationEndpoint, InvalidRedirectURIError

from tests.support.oauth_server.models import AUTHORIZATION_CODE, Client

if TYPE_CHECKING:
    from tests.support.oauth_server.state import OAuthTestServer


class OpenRegistrationEndpoint(ClientRegistrationEndpoint):
    """Anyone may register (no initial access token), as RFC 7591 §3 allows."""

    @property
    def state(self) -> OAuthTestServer:
        state: OAuthTestServer = self.server.state
        return state

    def authenticate_token(self, request: JsonRequest) -> bool:
        return True

    def get_server_metadata(self) -> dict[str, Any]:
        # Authlib checks grant_types, response_types, scope and the auth method against it.
        return self.state.metadata()

    def extract_client_metadata(self, request: JsonRequest) -> dict[str, Any]:
        metadata: dict[str, Any] = super().extract_client_metadata(request)
        uris = metadata.get("redirect_uris")
        if not uris or not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
            raise InvalidRedirectURIError("'redirect_uris' is required for the code flow.")
        # RFC 7591 §2 defaults, returned so that the client sees what it registered.
        metadata.setdefault("grant_types", [AUTHORIZATION_CODE])
        metadata.setdefault("response_types", ["code"])
        return metadata

    def generate_client_id(self, request: JsonRequest) -> str:
        return "oauth-client-" + str(generate_token(24))

    def generate_client_info(self, request: JsonRequest) -> dict[str, Any]:
        info: dict[str, Any] = super().generate_client_info(request)
        if request.payload.data.get("token_endpoint_auth_method") == "none":
            # Authlib issues a secret to every client; a public client gets none.
            del info["client_secret"], info["client_secret_expires_at"]
        return info

    def save_client(
        self, client_info: dict[str, Any], client_metadata: dict[str, Any], request: JsonRequest
    ) -> Client:
        return self.state.add_client(
            client_info["client_id"],
            client_info.get("client_secret"),
            client_metadata["redirect_uris"],
            token_endpoint_auth_method=client_metadata["token_endpoint_auth_method"],
            grant_types=client_metadata["grant_types"],
            response_types=client_metadata["response_types"],
            client_name=client_metadata.get("client_name"),
            scope=client_metadata.get("scope"),
        )

"""Authlib's generic `AuthorizationServer`, adapted to aiohttp.

Authlib's server classes are synchronous, so a handler reads the whole request first
(`read_request`) and hands Authlib the result: `create_oauth2_request` and
`create_json_request` wrap it, `handle_response` turns Authlib's (status, body, headers) into
an aiohttp response.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from aiohttp import web
from authlib.common.security import generate_token
from authlib.oauth2.rfc6749 import (
    AuthorizationServer,
    JsonPayload,
    JsonRequest,
    OAuth2Payload,
    OAuth2Request,
)
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from multidict import CIMultiDict, CIMultiDictProxy, MultiDict, MultiMapping

from tests.support.oauth_server.grants import CodeGrant, RotatingRefreshGrant, S256CodeChallenge
from tests.support.oauth_server.models import Client
from tests.support.oauth_server.registration import OpenRegistrationEndpoint

if TYPE_CHECKING:
    from tests.support.oauth_server.state import OAuthTestServer

# Access tokens must not start with "invalid" or "free": the fake Magisterium treats those
# specially.
ACCESS_TOKEN_PREFIX = "oauth-at-"
REFRESH_TOKEN_PREFIX = "oauth-rt-"


@dataclass(frozen=True)
class HttpRequest:
    """An aiohttp request read to the end."""

    method: str
    url: str
    headers: CIMultiDictProxy[str]
    query: MultiMapping[str]
    form: MultiDict[str] = field(default_factory=MultiDict)
    json: Any = None


async def read_request(request: web.Request, *, json_body: bool = False) -> HttpRequest:
    form: MultiDict[str] = MultiDict()
    body: Any = None
    if request.method == "POST":
        if json_body:
            try:
                body = await request.json()
            except ValueError:
                body = None
        else:
            posted = await request.post()
            form = MultiDict((k, v) for k, v in posted.items() if isinstance(v, str))
    return HttpRequest(request.method, str(request.url), request.headers, request.query, form, body)


class _Payload(OAuth2Payload):
    """Query and form parameters together, query first (like Flask's `request.values`)."""

    def __init__(self, request: HttpRequest) -> None:
        self._values: MultiDict[str] = MultiDict([*request.query.items(), *request.form.items()])

    @property
    def data(self) -> MultiDict[str]:
        return self._values

    @cached_property
    def datalist(self) -> defaultdict[str, list[str]]:
        values: defaultdict[str, list[str]] = defaultdict(list)
        for key, value in self._values.items():
            values[key].append(value)
        return values


class AiohttpOAuth2Request(OAuth2Request):
    def __init__(self, request: HttpRequest) -> None:
        super().__init__(method=request.method, uri=request.url, headers=request.headers)
        self._request = request
        self.payload = _Payload(request)

    @property
    def args(self) -> MultiMapping[str]:
        return self._request.query

    @property
    def form(self) -> MultiDict[str]:
        return self._request.form


class _JsonPayload(JsonPayload):
    def __init__(self, body: Any) -> None:
        self._body = body if isinstance(body, dict) else None

    @property
    def data(self) -> dict[str, Any] | None:
        return self._body


class AiohttpJsonRequest(JsonRequest):
    def __init__(self, request: HttpRequest) -> None:
        super().__init__(request.method, request.url, request.headers)
        self.payload = _JsonPayload(request.json)


def _opaque(prefix: str) -> Any:
    def generate(**_: Any) -> str:
        return prefix + str(generate_token(40))

    return generate


class AiohttpAuthorizationServer(AuthorizationServer):
    def __init__(self, state: OAuthTestServer) -> None:
        super().__init__(scopes_supported=state.scopes_supported)
        self.state = state
        self.register_token_generator(
            "default",
            BearerTokenGenerator(
                _opaque(ACCESS_TOKEN_PREFIX),
                _opaque(REFRESH_TOKEN_PREFIX),
                # Read at each token response: tests change it while the server runs.
                lambda client, grant_type: state.access_token_lifetime,
            ),
        )
        self.register_grant(CodeGrant, [S256CodeChallenge(required=True)])
        self.register_grant(RotatingRefreshGrant)
        if state.registration:
            self.register_endpoint(OpenRegistrationEndpoint)

    def query_client(self, client_id: str) -> Client | None:
        return self.state.clients.get(client_id)

    def save_token(self, token: dict[str, Any], request: OAuth2Request) -> None:
        self.state.save_token(token, request)

    def create_oauth2_request(self, request: HttpRequest) -> OAuth2Request:
        return AiohttpOAuth2Request(request)

    def create_json_request(self, request: HttpRequest) -> JsonRequest:
        return AiohttpJsonRequest(request)

    def handle_response(
        self, status: int, body: Any, headers: list[tuple[str, str]]
    ) -> web.Response:
        text = json.dumps(body) if isinstance(body, dict) else str(body or "")
        return web.Response(status=status, body=text.encode(), headers=CIMultiDict(headers))

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Authlib announces "after_authenticate_client" and the like; nothing listens here."""

"""The test OAuth 2.0 authorization server (tests/support/oauth_server), driven over HTTP
like a client.

The client side of PKCE is done by hand here (hashlib, base64), independently of Authlib.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import secrets
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata

from tests.support.oauth_server import CONSENT_TITLE, OAuthTestServer, running_oauth_server

REDIRECT_URI = "http://127.0.0.1:9/oauth/callback"  # never contacted: redirects are not followed
RESOURCE = "https://api.magisterium.test/a2a"
CLIENT_ID = "magisterium-bot"
CLIENT_SECRET = "static-client-secret-value"


def make_pkce() -> tuple[str, str]:
    """A code verifier (RFC 7636 §4.1) and its S256 challenge (§4.2), by hand."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def redirect_params(response: httpx.Response) -> dict[str, str]:
    """The query of a redirect to the client's redirect_uri, one value per name."""
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    assert location.startswith(REDIRECT_URI + "?"), location
    return {name: values[0] for name, values in parse_qs(urlsplit(location).query).items()}


@dataclass
class Flow:
    """A client of one server: its HTTP session, a client id and the PKCE pair of this flow."""

    server: OAuthTestServer
    http: httpx.AsyncClient
    client_id: str = CLIENT_ID
    auth: httpx.BasicAuth | None = None

    def __post_init__(self) -> None:
        self.verifier, self.challenge = make_pkce()

    def authorize_params(self, **changes: str | None) -> dict[str, str]:
        params: dict[str, str | None] = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": REDIRECT_URI,
            "state": "state-123",
            "code_challenge": self.challenge,
            "code_challenge_method": "S256",
        }
        params |= changes
        return {name: value for name, value in params.items() if value is not None}

    async def authorize(self, **changes: str | None) -> httpx.Response:
        url = self.server.authorization_endpoint
        return await self.http.get(url, params=self.authorize_params(**changes))

    async def code(self, **changes: str | None) -> str:
        self.server.auto_consent = "allow"
        params = redirect_params(await self.authorize(**changes))
        assert params["state"] == "state-123"
        return params["code"]

    async def token(self, **form: str | None) -> httpx.Response:
        data = {name: value for name, value in form.items() if value is not None}
        url = self.server.token_endpoint
        if self.auth is not None:
            return await self.http.post(url, data=data, auth=self.auth)
        data.setdefault("client_id", self.client_id)
        return await self.http.post(url, data=data)

    async def exchange(self, code: str, **extra: str | None) -> httpx.Response:
        form: dict[str, str | None] = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT_URI,
            "code_verifier": self.verifier,
        }
        return await self.token(**(form | extra))

    async def refresh(self, refresh_token: str, **extra: str | None) -> httpx.Response:
        return await self.token(grant_type="refresh_token", refresh_token=refresh_token, **extra)

    async def tokens(self, **extra: str | None) -> dict[str, Any]:
        response = await self.exchange(await self.code(), **extra)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


def assert_error(response: httpx.Response, error: str, status: int = 400) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"] == error


# Built once: httpx otherwise loads the CA bundle for every client (~40 ms), though every
# request here is plain HTTP on loopback.
TLS = ssl.create_default_context()


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=10, follow_redirects=False, verify=TLS) as client:
        yield client


@pytest.fixture
async def server() -> AsyncIterator[OAuthTestServer]:
    async with running_oauth_server() as server:
        server.add_client(CLIENT_ID, redirect_uris=[REDIRECT_URI], client_name="Test bot")
        yield server


@pytest.fixture
def flow(server: OAuthTestServer, http: httpx.AsyncClient) -> Flow:
    return Flow(server, http)


# -- metadata (RFC 8414) -------------------------------------------------------------------------


async def test_metadata_document(server: OAuthTestServer, http: httpx.AsyncClient) -> None:
    response = await http.get(server.issuer + "/.well-known/oauth-authorization-server")

    assert response.status_code == 200
    document = response.json()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", document["issuer"])
    assert document["issuer"] == server.issuer
    assert document["authorization_endpoint"] == server.issuer + "/authorize"
    assert document["token_endpoint"] == server.issuer + "/token"
    assert document["registration_endpoint"] == server.issuer + "/register"
    assert document["userinfo_endpoint"] == server.issuer + "/userinfo"
    assert document["response_types_supported"] == ["code"]
    assert document["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert document["code_challenge_methods_supported"] == ["S256"]
    assert set(document["token_endpoint_auth_methods_supported"]) == {
        "none",
        "client_secret_basic",
        "client_secret_post",
    }
    assert "scopes_supported" not in document
    AuthorizationServerMetadata(document).validate()


async def test_metadata_of_an_issuer_with_a_path_and_no_registration(
    http: httpx.AsyncClient,
) -> None:
    async with running_oauth_server(
        issuer_path="/tenant", registration=False, scopes_supported=["chat", "profile"]
    ) as server:
        origin = server.issuer.removesuffix("/tenant")
        assert server.metadata_url == origin + "/.well-known/oauth-authorization-server/tenant"

        response = await http.get(server.metadata_url)

        assert response.status_code == 200
        document = response.json()
        assert document["issuer"] == origin + "/tenant"
        assert document["authorization_endpoint"] == origin + "/tenant/authorize"
        assert document["token_endpoint"] == origin + "/tenant/token"
        assert "registration_endpoint" not in document
        assert document["scopes_supported"] == ["chat", "profile"]
        AuthorizationServerMetadata(document).validate()
        # Only RFC 8414's location: not the OpenID-style one, not the origin's own.
        for wrong in (
            "/tenant/.well-known/oauth-authorization-server",
            "/.well-known/oauth-authorization-server",
        ):
            assert (await http.get(origin + wrong)).status_code == 404
        assert (await http.post(origin + "/tenant/register", json={})).status_code == 404


# -- dynamic registration (RFC 7591) and the whole flow ------------------------------------------


async def test_registration_then_the_whole_code_flow(http: httpx.AsyncClient) -> None:
    async with running_oauth_server() as server:
        metadata = (await http.get(server.metadata_url)).json()
        registration = {
            "client_name": "Magisterium Discord bot",
            "redirect_uris": [REDIRECT_URI],
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
        }
        response = await http.post(metadata["registration_endpoint"], json=registration)

        assert response.status_code == 201, response.text
        client = response.json()
        assert client["client_id"].startswith("oauth-client-")
        assert "client_secret" not in client
        assert client["redirect_uris"] == [REDIRECT_URI]
        assert client["token_endpoint_auth_method"] == "none"
        assert server.registrations == [registration]
        assert server.clients[client["client_id"]].client_name == "Magisterium Discord bot"

        flow = Flow(server, http, client_id=client["client_id"])
        server.auto_consent = "allow"
        authorize = await flow.authorize(resource=RESOURCE, scope="chat")
        params = redirect_params(authorize)
        assert params["state"] == "state-123"
        [request] = server.authorize_requests
        assert request["resource"] == RESOURCE
        assert request["scope"] == "chat"
        assert request["code_challenge_method"] == "S256"
        assert request["state"] == "state-123"
        assert request["client_id"] == client["client_id"]

        response = await flow.exchange(params["code"], resource=RESOURCE)

        assert response.status_code == 200, response.text
        assert response.headers["cache-control"] == "no-store"
        tokens = response.json()
        assert tokens["token_type"] == "Bearer"
        assert tokens["access_token"].startswith("oauth-at-")
        assert tokens["refresh_token"].startswith("oauth-rt-")
        assert tokens["expires_in"] == 3600
        assert tokens["scope"] == "chat"
        [token_request] = server.token_requests
        assert token_request == {
            "grant_type": "authorization_code",
            "client_id": client["client_id"],
            "client_auth": "none",
            "scope": None,
            "redirect_uri": REDIRECT_URI,
            "status": 200,
            "resource": RESOURCE,
            "resources": [RESOURCE],
        }
        issued = server.active_token(tokens["access_token"])
        assert issued is not None
        assert issued.resources == [RESOURCE]
        assert issued.subject == "magisterium-user-1"


async def test_registered_clients_get_refresh_tokens_only_when_they_ask(
    server: OAuthTestServer, http: httpx.AsyncClient
) -> None:
    """RFC 7591 §2: grant_types defaults to ["authorization_code"] alone."""
    body = {"redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "none"}
    response = await http.post(server.issuer + "/register", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["grant_types"] == ["authorization_code"]

    tokens = await Flow(server, http, client_id=response.json()["client_id"]).tokens()

    assert "refresh_token" not in tokens


async def test_registration_of_a_confidential_client(
    server: OAuthTestServer, http: httpx.AsyncClient
) -> None:
    body = {"redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "client_secret_post"}
    response = await http.post(server.issuer + "/register", json=body)
    assert response.status_code == 201, response.text
    client = response.json()
    assert len(client["client_secret"]) >= 32
    assert client["client_secret_expires_at"] == 0

    flow = Flow(server, http, client_id=client["client_id"])
    code = await flow.code()
    # No secret: Authlib answers 401 whenever client_secret_basic is among the methods tried.
    assert_error(await flow.exchange(code), "invalid_client", status=401)
    response = await flow.exchange(await flow.code(), client_secret=client["client_secret"])
    assert response.status_code == 200, response.text
    assert server.token_requests[-1]["client_auth"] == "client_secret_post"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"client_name": "no redirect"}, "invalid_redirect_uri"),
        ({"redirect_uris": ["not a url"]}, "invalid_client_metadata"),
        (
            {"redirect_uris": [REDIRECT_URI], "grant_types": ["client_credentials"]},
            "invalid_client_metadata",
        ),
        (
            {"redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "private_key_jwt"},
            "invalid_client_metadata",
        ),
    ],
)
async def test_registration_refuses_bad_metadata(
    server: OAuthTestServer, http: httpx.AsyncClient, body: dict[str, Any], error: str
) -> None:
    response = await http.post(server.issuer + "/register", json=body)

    assert_error(response, error)
    assert server.registrations == [body]


# -- the authorization endpoint --------------------------------------------------------------


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.form: dict[str, str] = {}
        self.buttons: list[dict[str, str | None]] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "title":
            self._in_title = True
        elif tag == "form":
            self.form = {key: value or "" for key, value in attributes.items()}
        elif tag == "button":
            self.buttons.append(attributes)

    def handle_endtag(self, tag: str) -> None:
        self._in_title = self._in_title and tag != "title"

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


@pytest.mark.parametrize(("decision", "allowed"), [("allow", True), ("deny", False)])
async def test_consent_page_then_the_form(
    server: OAuthTestServer, flow: Flow, decision: str, allowed: bool
) -> None:
    page = await flow.authorize(resource=RESOURCE)

    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    parsed = _Page()
    parsed.feed(page.text)
    assert parsed.title == CONSENT_TITLE == "Sign in to Magisterium (test)"
    assert '<strong id="client-name">Test bot</strong>' in page.text
    assert [(b["id"], b["value"]) for b in parsed.buttons] == [("allow", "allow"), ("deny", "deny")]
    assert parsed.form["method"] == "post"
    action = httpx.URL(server.issuer).join(parsed.form["action"])
    assert action.path == "/authorize"
    assert action.params["code_challenge"] == flow.challenge
    assert action.params["resource"] == RESOURCE
    assert len(server.authorize_requests) == 1

    response = await flow.http.post(str(action), data={"decision": decision})

    params = redirect_params(response)
    assert params["state"] == "state-123"
    if allowed:
        assert "error" not in params
        tokens = await flow.exchange(params["code"])
        assert tokens.status_code == 200, tokens.text
    else:
        assert params["error"] == "access_denied"
        assert "code" not in params


async def test_auto_consent_deny(server: OAuthTestServer, flow: Flow) -> None:
    server.auto_consent = "deny"

    params = redirect_params(await flow.authorize())

    assert params["error"] == "access_denied"
    assert params["state"] == "state-123"
    assert "code" not in params


@pytest.mark.parametrize(
    "changes",
    [
        {"client_id": "stranger"},
        {"redirect_uri": REDIRECT_URI + "/other"},
        {"redirect_uri": None},
    ],
    ids=["unknown client", "redirect_uri mismatch", "no redirect_uri"],
)
async def test_authorization_errors_that_must_not_redirect(
    server: OAuthTestServer, flow: Flow, changes: dict[str, str | None]
) -> None:
    server.auto_consent = "allow"

    response = await flow.authorize(**changes)

    assert response.status_code in (400, 401), response.text
    assert "location" not in response.headers
    assert response.json()["error"] in ("invalid_client", "invalid_request")


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"code_challenge_method": None}, "invalid_request"),  # "plain" by default
        ({"code_challenge": None, "code_challenge_method": None}, "invalid_request"),
        ({"code_challenge": "too-short"}, "invalid_request"),
        ({"response_type": "token"}, "unsupported_response_type"),
    ],
    ids=["plain", "no method", "no challenge", "bad challenge", "implicit"],
)
async def test_authorization_errors_go_back_to_the_client(
    server: OAuthTestServer, flow: Flow, changes: dict[str, str | None], error: str
) -> None:
    server.auto_consent = "allow"

    params = redirect_params(await flow.authorize(**changes))

    assert params["error"] == error
    assert params["state"] == "state-123"
    assert "code" not in params


async def test_scopes_are_checked_against_the_supported_ones(http: httpx.AsyncClient) -> None:
    async with running_oauth_server(scopes_supported=["chat"]) as server:
        server.add_client(CLIENT_ID, redirect_uris=[REDIRECT_URI])
        server.auto_consent = "allow"
        flow = Flow(server, http)

        assert redirect_params(await flow.authorize(scope="admin"))["error"] == "invalid_scope"
        code = redirect_params(await flow.authorize(scope="chat"))["code"]
        response = await flow.exchange(code)
        assert response.json()["scope"] == "chat"


# -- the token endpoint ----------------------------------------------------------------------


async def test_a_wrong_verifier_is_refused_and_spends_the_code(flow: Flow) -> None:
    code = await flow.code()
    wrong, _ = make_pkce()

    assert_error(await flow.exchange(code, code_verifier=wrong), "invalid_grant")
    assert_error(await flow.exchange(code), "invalid_grant")


async def test_a_missing_verifier_is_refused(flow: Flow) -> None:
    assert_error(await flow.exchange(await flow.code(), code_verifier=None), "invalid_request")


async def test_a_replayed_code_is_refused_and_revokes_its_tokens(
    server: OAuthTestServer, flow: Flow
) -> None:
    code = await flow.code()
    first = await flow.exchange(code)
    assert first.status_code == 200
    access, refresh = first.json()["access_token"], first.json()["refresh_token"]
    assert server.active_token(access) is not None

    assert_error(await flow.exchange(code), "invalid_grant")

    assert server.active_token(access) is None
    assert_error(await flow.refresh(refresh), "invalid_grant")


@pytest.mark.parametrize(("seconds", "works"), [(59, True), (60, False), (3600, False)])
async def test_codes_expire_after_a_minute(
    server: OAuthTestServer, flow: Flow, seconds: int, works: bool
) -> None:
    code = await flow.code()
    server.advance(seconds)

    response = await flow.exchange(code)

    if works:
        assert response.status_code == 200, response.text
    else:
        assert_error(response, "invalid_grant")


async def test_a_code_is_bound_to_its_redirect_uri_and_client(
    server: OAuthTestServer, flow: Flow, http: httpx.AsyncClient
) -> None:
    server.add_client("other", redirect_uris=[REDIRECT_URI])
    other = Flow(server, http, client_id="other")
    other.verifier = flow.verifier

    assert_error(await flow.exchange(await flow.code(), redirect_uri=None), "invalid_grant")
    assert_error(await other.exchange(await flow.code()), "invalid_grant")


async def test_refresh_tokens_rotate(server: OAuthTestServer, flow: Flow) -> None:
    server.access_token_lifetime = 120
    first = await flow.tokens()
    assert first["expires_in"] == 120

    response = await flow.refresh(first["refresh_token"])

    assert response.status_code == 200, response.text
    second = response.json()
    assert second["access_token"].startswith("oauth-at-")
    assert second["refresh_token"].startswith("oauth-rt-")
    assert second["access_token"] != first["access_token"]
    assert second["refresh_token"] != first["refresh_token"]
    assert second["expires_in"] == 120
    assert server.token_requests[-1]["grant_type"] == "refresh_token"
    # The used refresh token is revoked; the new one works.
    assert_error(await flow.refresh(first["refresh_token"]), "invalid_grant")
    third = await flow.refresh(second["refresh_token"])
    assert third.status_code == 200, third.text


async def test_access_tokens_expire_on_the_server_clock(
    server: OAuthTestServer, flow: Flow
) -> None:
    tokens = await flow.tokens()
    server.advance(3599)
    assert server.active_token(tokens["access_token"]) is not None
    server.advance(1)
    assert server.active_token(tokens["access_token"]) is None
    assert server.active_token("oauth-at-never-issued") is None


async def test_revoke_refresh_tokens(server: OAuthTestServer, flow: Flow) -> None:
    tokens = await flow.tokens()

    server.revoke_refresh_tokens()

    assert_error(await flow.refresh(tokens["refresh_token"]), "invalid_grant")
    # A new authorization still works.
    assert "refresh_token" in await flow.tokens()


async def test_fail_token_endpoint_is_one_shot(server: OAuthTestServer, flow: Flow) -> None:
    code = await flow.code()
    server.fail_token_endpoint(status=503)

    assert_error(await flow.exchange(code), "server_error", status=503)
    response = await flow.exchange(code)  # the failure came before the code was looked at

    assert response.status_code == 200, response.text
    assert [r["status"] for r in server.token_requests] == [503, 200]


async def test_unsupported_grant_type(flow: Flow) -> None:
    response = await flow.token(grant_type="client_credentials")

    assert_error(response, "unsupported_grant_type")


# -- resource indicators (RFC 8707) ----------------------------------------------------------


async def test_required_resource(http: httpx.AsyncClient) -> None:
    async with running_oauth_server(required_resource=RESOURCE) as server:
        server.add_client(CLIENT_ID, redirect_uris=[REDIRECT_URI])
        server.auto_consent = "allow"
        flow = Flow(server, http)

        for resource in (None, "https://elsewhere.test/"):
            params = redirect_params(await flow.authorize(resource=resource))
            assert params["error"] == "invalid_target"
            assert params["state"] == "state-123"
        assert [r["resource"] for r in server.authorize_requests] == [
            None,
            "https://elsewhere.test/",
        ]

        code = await flow.code(resource=RESOURCE)
        assert_error(await flow.exchange(code), "invalid_target")
        code = await flow.code(resource=RESOURCE)
        response = await flow.exchange(code, resource=RESOURCE)
        assert response.status_code == 200, response.text
        refresh = response.json()["refresh_token"]
        assert_error(
            await flow.refresh(refresh, resource="https://elsewhere.test/"), "invalid_target"
        )
        response = await flow.refresh(refresh, resource=RESOURCE)
        assert response.status_code == 200, response.text
        assert server.last_token.resources == [RESOURCE]


# -- a static confidential client ------------------------------------------------------------


async def test_static_client_with_client_secret_basic(
    server: OAuthTestServer, http: httpx.AsyncClient
) -> None:
    server.add_client("confidential", CLIENT_SECRET, [REDIRECT_URI])
    flow = Flow(
        server, http, client_id="confidential", auth=httpx.BasicAuth("confidential", CLIENT_SECRET)
    )

    tokens = await flow.tokens()

    assert tokens["access_token"].startswith("oauth-at-")
    assert server.token_requests[-1]["client_auth"] == "client_secret_basic"
    assert server.token_requests[-1]["client_id"] == "confidential"
    refreshed = await flow.refresh(tokens["refresh_token"])
    assert refreshed.status_code == 200, refreshed.text

    flow.auth = httpx.BasicAuth("confidential", "wrong-secret")
    assert_error(await flow.exchange(await flow.code()), "invalid_client", status=401)
    flow.auth = None  # a confidential client cannot act as a public one
    assert_error(await flow.exchange(await flow.code()), "invalid_client", status=401)


# -- remembered consent and prompt=consent -------------------------------------------------------


async def test_a_remembered_consent_passes_through_unless_prompt_consent(
    server: OAuthTestServer, flow: Flow
) -> None:
    server.remember_consent = True
    first = await flow.authorize()  # never allowed yet: the consent page
    assert first.status_code == 200 and CONSENT_TITLE in first.text

    await flow.code()  # allowed once (auto_consent "allow")
    server.auto_consent = None

    passed = await flow.authorize()
    assert "code" in redirect_params(passed)  # straight through, no page
    asked = await flow.authorize(prompt="consent")
    assert asked.status_code == 200 and CONSENT_TITLE in asked.text
    assert server.authorize_requests[-1]["prompt"] == "consent"

    server.remember_consent = False
    assert (await flow.authorize()).status_code == 200  # off: the page every time


# -- userinfo ----------------------------------------------------------------------------------


async def test_userinfo_names_the_account_of_a_live_token(
    server: OAuthTestServer, flow: Flow
) -> None:
    server.account_name = "Thérèse"
    server.userinfo_claims = {"email": "therese@example.org"}
    tokens = await flow.tokens()
    bearer = {"Authorization": f"Bearer {tokens['access_token']}"}

    named = await flow.http.get(server.userinfo_endpoint, headers=bearer)

    assert named.status_code == 200, named.text
    assert named.json() == {
        "sub": "magisterium-user-1",
        "preferred_username": "Thérèse",
        "email": "therese@example.org",
    }
    refused = await flow.http.get(server.userinfo_endpoint, headers={"Authorization": "Bearer x"})
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"] == 'Bearer error="invalid_token"'
    server.fail_userinfo(503)
    assert (await flow.http.get(server.userinfo_endpoint, headers=bearer)).status_code == 503
    assert (await flow.http.get(server.userinfo_endpoint, headers=bearer)).status_code == 200
    assert [r["authorized"] for r in server.userinfo_requests] == [True, False, True, True]


# -- logs ------------------------------------------------------------------------------------


async def test_no_token_or_secret_reaches_the_logs(
    server: OAuthTestServer, http: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server.add_client("confidential", CLIENT_SECRET, [REDIRECT_URI])
    flow = Flow(
        server, http, client_id="confidential", auth=httpx.BasicAuth("confidential", CLIENT_SECRET)
    )
    tokens = await flow.tokens()
    refreshed = (await flow.refresh(tokens["refresh_token"])).json()

    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert 'Authenticate confidential via "client_secret_basic"' in logged  # DEBUG is captured
    secrets_used = [CLIENT_SECRET, *tokens.values(), *refreshed.values()]
    for value in secrets_used:
        if isinstance(value, str) and value.startswith(("oauth-", CLIENT_SECRET)):
            assert value not in logged

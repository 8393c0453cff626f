"""The aiohttp routes of the test authorization server."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from authlib.oauth2.rfc6749 import OAuth2Error
from authlib.oauth2.rfc6749.util import extract_basic_authorization
from authlib.oauth2.rfc8414 import get_well_known_url

from tests.support.oauth_server.adapter import AiohttpAuthorizationServer, HttpRequest, read_request
from tests.support.oauth_server.pages import consent_page
from tests.support.oauth_server.state import OAuthTestServer

NO_STORE = {"Cache-Control": "no-store"}


def make_app(state: OAuthTestServer) -> web.Application:
    routes = _Routes(state)
    prefix = state.issuer_path
    app = web.Application()
    app.add_routes(
        [
            # RFC 8414 §3: /.well-known/oauth-authorization-server, then the issuer's path.
            web.get(get_well_known_url("http://issuer" + prefix), routes.metadata),
            web.get(prefix + "/authorize", routes.authorize_page),
            web.post(prefix + "/authorize", routes.authorize_decision),
            web.post(prefix + "/token", routes.token),
            web.get(prefix + "/userinfo", routes.userinfo),
        ]
    )
    if state.registration:
        app.add_routes([web.post(prefix + "/register", routes.register)])
    return app


class _Routes:
    def __init__(self, state: OAuthTestServer) -> None:
        self.state = state
        self.authlib = AiohttpAuthorizationServer(state)

    async def metadata(self, request: web.Request) -> web.Response:
        return web.json_response(self.state.metadata())

    async def register(self, request: web.Request) -> web.Response:
        http = await read_request(request, json_body=True)
        self.state.registrations.append(http.json if isinstance(http.json, dict) else {})
        response: web.Response = self.authlib.create_endpoint_response("client_registration", http)
        return response

    async def authorize_page(self, request: web.Request) -> web.Response:
        http = await read_request(request)
        self.state.authorize_requests.append(_authorize_record(http))
        try:
            grant = self.authlib.get_consent_grant(http)
        except OAuth2Error as error:
            return self._error(error)
        decision = self.state.auto_consent
        if decision is None and self._remembered(grant, http):
            decision = "allow"
        if decision is None:
            page = consent_page(
                client_name=grant.client.display_name,
                subject=self.state.user.subject,
                scope=grant.request.scope or "",
                action=request.path_qs,
            )
            return web.Response(text=page, content_type="text/html", headers=NO_STORE)
        return self._decide(grant, decision)

    async def authorize_decision(self, request: web.Request) -> web.Response:
        """The consent form: the original query in the URL, the decision in the body."""
        http = await read_request(request)
        try:
            grant = self.authlib.get_consent_grant(http)
        except OAuth2Error as error:
            return self._error(error)
        decision = http.form.get("decision")
        if decision not in ("allow", "deny"):
            return web.Response(status=400, text="decision must be allow or deny")
        return self._decide(grant, decision)

    async def token(self, request: web.Request) -> web.Response:
        http = await read_request(request)
        record = _token_record(http)
        self.state.token_requests.append(record)
        status = self.state.take_token_failure()
        if status is not None:
            body = {"error": "server_error", "error_description": "Injected failure."}
            response = web.json_response(body, status=status, headers=NO_STORE)
        else:
            response = self.authlib.create_token_response(http)
        record["status"] = response.status
        return response

    async def userinfo(self, request: web.Request) -> web.Response:
        """OpenID Connect's userinfo: the claims of the person a live bearer token is for."""
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        issued = self.state.active_token(token) if scheme.lower() == "bearer" else None
        self.state.userinfo_requests.append({"authorized": issued is not None})
        status = self.state.take_userinfo_failure()
        if status is not None:
            return web.json_response({"error": "server_error"}, status=status)
        if issued is None:
            challenge = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
            return web.json_response({"error": "invalid_token"}, status=401, headers=challenge)
        return web.json_response(self.state.userinfo(issued), headers=NO_STORE)

    def _remembered(self, grant: Any, http: HttpRequest) -> bool:
        """The person allowed this client before, and the request does not ask to be asked."""
        prompts = http.query.get("prompt", "").split()
        return (
            self.state.remember_consent
            and "consent" not in prompts
            and grant.client.get_client_id() in self.state.consented_clients
        )

    def _decide(self, grant: Any, decision: str) -> web.Response:
        if decision == "allow":
            self.state.consented_clients.add(grant.client.get_client_id())
        user = self.state.user if decision == "allow" else None
        response: web.Response = self.authlib.create_authorization_response(
            grant.request, grant_user=user, grant=grant
        )
        return response

    def _error(self, error: OAuth2Error) -> web.Response:
        """A redirect to the client when its redirect_uri is known good, else a 400 here."""
        response: web.Response = self.authlib.handle_error_response(None, error)
        return response


def _resource_fields(values: list[str]) -> dict[str, Any]:
    return {"resource": values[-1] if values else None, "resources": values}


def _authorize_record(http: HttpRequest) -> dict[str, Any]:
    record: dict[str, Any] = dict.fromkeys(
        ("client_id", "redirect_uri", "response_type", "scope", "state"), None
    )
    record |= {"code_challenge": None, "code_challenge_method": None}
    record |= {key: http.query[key] for key in http.query}
    return record | _resource_fields(http.query.getall("resource", []))


def _token_record(http: HttpRequest) -> dict[str, Any]:
    form = http.form
    basic_id, _ = extract_basic_authorization(http.headers)
    if basic_id:
        client_auth = "client_secret_basic"
    elif form.get("client_secret"):
        client_auth = "client_secret_post"
    else:
        client_auth = "none"
    record = {
        "grant_type": form.get("grant_type"),
        "client_id": basic_id or form.get("client_id"),
        "client_auth": client_auth,
        "scope": form.get("scope"),
        "redirect_uri": form.get("redirect_uri"),
        "status": None,
    }
    return record | _resource_fields(form.getall("resource", []))

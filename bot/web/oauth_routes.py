"""The sign-in's two web endpoints: the short start link, and the callback.

``/oauth/start/<state>`` sends the browser to the authorization server's sign-in page (the
Discord button links here: the full authorization URL would not fit in a button).
``/oauth/callback`` checks the state, exchanges the code and stores the tokens, then shows a
small page in the person's language; the Discord message they came from is edited too.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.i18n import N_, _, using_locale
from bot.oauth import (
    CALLBACK_PATH,
    START_PATH,
    LinkedBySignIn,
    OAuthService,
    OAuthUnavailable,
    SignInFailed,
    StateProblem,
)
from bot.web.pages import linked_page, result_page
from bot.web.site import html_response, page_language

log = logging.getLogger(__name__)

OAUTH: web.AppKey[Callable[[], OAuthService | None]] = web.AppKey("oauth")
ON_LINKED: web.AppKey[Callable[[LinkedBySignIn], Awaitable[None]]] = web.AppKey("on_linked")
STATE_MAX = 200

AGAIN = N_("Run `/account link` in Discord to start again.")
FAILURES: dict[str, tuple[str, str]] = {
    "unknown": (N_("This sign-in link is not valid"), AGAIN),
    "replayed": (N_("This sign-in link was already used"), AGAIN),
    "expired": (N_("This sign-in link has expired"), N_("Sign-in links last ten minutes. {again}")),
    "access_denied": (
        N_("Your account was not linked"),
        N_("You chose not to let the bot use your Magisterium account. {again}"),
    ),
    "refused": (
        N_("Magisterium did not complete the sign-in"),
        N_("The sign-in could not be finished. {again}"),
    ),
    "unavailable": (
        N_("Magisterium's sign-in is not reachable"),
        N_("Try again in a few minutes. {again}"),
    ),
}
STATUS = {"unknown": 400, "replayed": 400, "expired": 400, "access_denied": 200, "refused": 400}


def add_oauth_routes(
    app: web.Application,
    oauth: Callable[[], OAuthService | None],
    on_linked: Callable[[LinkedBySignIn], Awaitable[None]],
) -> None:
    """``oauth`` gives the service once the bot has opened it (None before, or when sign-in
    is not configured: the routes then answer 404)."""
    app[OAUTH] = oauth
    app[ON_LINKED] = on_linked
    app.router.add_get(START_PATH + "{state}", start)
    app.router.add_get(CALLBACK_PATH, callback)


def failure(kind: str, locale: str) -> web.Response:
    title, text = FAILURES[kind]
    with using_locale(locale):
        message = _(text).format(again=_(AGAIN))
        body = result_page(ok=False, title=_(title), message=message, lang=locale)
    return html_response(body, status=STATUS.get(kind, 502), cache=False)


def _service(request: web.Request) -> OAuthService:
    oauth = request.app[OAUTH]()
    if oauth is None:
        raise web.HTTPNotFound()
    return oauth


def _language(request: web.Request) -> str:
    return page_language(request.headers.get("Accept-Language"))


async def start(request: web.Request) -> web.Response:
    oauth = _service(request)
    state = request.match_info["state"][:STATE_MAX]
    locale = await oauth.states.locale_of(state) or _language(request)
    try:
        url = await oauth.authorization_url(state)
    except StateProblem as problem:
        return failure(problem.reason, locale)
    except OAuthUnavailable as error:
        log.warning("sign-in could not start: %s", error)
        return failure("unavailable", locale)
    raise web.HTTPFound(
        url, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    )


async def callback(request: web.Request) -> web.Response:
    oauth = _service(request)
    state = request.query.get("state", "")[:STATE_MAX]
    locale = (await oauth.states.locale_of(state) if state else None) or _language(request)
    code, error = request.query.get("code"), request.query.get("error")
    try:
        if error or not code:
            declined = await oauth.decline(state, error or "invalid_request")
            kind = "access_denied" if declined.error == "access_denied" else "refused"
            log.info("a sign-in came back with %s", declined.error[:40])
            return failure(kind, locale)
        linked = await oauth.finish(state, code)
    except StateProblem as problem:
        log.info("a sign-in callback had a %s state", problem.reason)
        return failure(problem.reason, locale)
    except SignInFailed as failed:
        log.info("the authorization server refused a sign-in code (%s)", failed.error)
        return failure("refused", locale)
    except OAuthUnavailable as unreachable:
        log.warning("sign-in could not finish: %s", unreachable)
        return failure("unavailable", locale)
    try:
        await request.app[ON_LINKED](linked)
    except Exception:  # the tokens are stored: a Discord hiccup must not turn this into an error
        log.exception("could not tell Discord that an account was linked")
    return html_response(linked_page(lang=linked.locale), cache=False)

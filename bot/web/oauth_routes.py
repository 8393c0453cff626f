"""The sign-in's web endpoints: the short start link, and the callback.

``GET /oauth/start/<state>`` (the Discord button links here) changes nothing: it shows whose
Discord account the sign-in would link, warns anyone else off, and offers a button. The button
posts to the same address from this site only; that starts the sign-in, once, in this browser
(a cookie whose hash is kept with the state), and sends it to the authorization server's
sign-in page. ``GET /oauth/callback`` finishes the sign-in only in the browser that started it:
it checks the state and the cookie, exchanges the code, stores the tokens and shows a small
page in the person's language; the Discord message they came from is edited too. In another
browser, the callback uses the state up unfinished: neither browser can finish it. HEAD on the
callback is refused (405): it must never use a state up. A sign-in ``/server link`` started
names the server on both pages, and links that server's account (bot.oauth.service).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import hdrs, web
from pydantic import SecretStr

from bot.i18n import N_, _, using_locale
from bot.oauth import (
    CALLBACK_PATH,
    START_PATH,
    LinkedBySignIn,
    OAuthService,
    OAuthUnavailable,
    SignInFailed,
    StartedSignIn,
    StateProblem,
)
from bot.oauth.metadata import origin_of
from bot.web.log_throttle import LogThrottle
from bot.web.same_origin import sent_from
from bot.web.sign_in_pages import (
    linked_page,
    result_page,
    server_linked_page,
    server_start_page,
    start_page,
)
from bot.web.site import html_response, page_language, with_form_targets

log = logging.getLogger(__name__)

OAUTH: web.AppKey[Callable[[], OAuthService | None]] = web.AppKey("oauth")
ON_LINKED: web.AppKey[Callable[[LinkedBySignIn], Awaitable[None]]] = web.AppKey("on_linked")
STATE_MAX = 200
BROWSER_COOKIE = "magisterium_sign_in"
# Over https: a cookie only this host sets and gets, whatever a sibling subdomain does.
HOST_ONLY_COOKIE = "__Host-" + BROWSER_COOKIE

AGAIN = N_("Run `/account link` in Discord to start again.")
SERVER_AGAIN = N_("Run `/server link` in Discord to start again.")
FAILURES: dict[str, tuple[str, str]] = {
    "unknown": (N_("This sign-in link is not valid"), AGAIN),
    "replayed": (N_("This sign-in link was already used"), AGAIN),
    "expired": (N_("This sign-in link has expired"), N_("Sign-in links last ten minutes. {again}")),
    # Used up by that callback (bot.oauth.states): it can no longer be finished anywhere.
    "other_browser": (N_("This sign-in was started in another browser"), AGAIN),
    "cross_site": (
        N_("This sign-in cannot be started from another site"),
        N_("Open the sign-in link from Discord and press the button on its page. {again}"),
    ),
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
STATUS = {
    "unknown": 400,
    "replayed": 400,
    "expired": 400,
    "other_browser": 403,
    "cross_site": 403,
    "access_denied": 200,
    "refused": 400,
}


class ProblemLog:
    """Lines about requests anyone can forge (a made-up state, a form posted from elsewhere):
    each kind at most once a minute, saying how many were held back."""

    def __init__(self) -> None:
        self._throttles: dict[str, LogThrottle] = {}

    def info(self, message: str, *args: object) -> None:
        held_back = self._throttles.setdefault(message, LogThrottle()).event()
        if held_back is not None:
            log.info(message + " (%d more since the last such line)", *args, held_back)


PROBLEM_LOG = web.AppKey("sign_in_problem_log", ProblemLog)


def add_oauth_routes(
    app: web.Application,
    oauth: Callable[[], OAuthService | None],
    on_linked: Callable[[LinkedBySignIn], Awaitable[None]],
) -> None:
    """``oauth`` gives the service once the bot has opened it (None before, or when sign-in
    is not configured: the routes then answer 404)."""
    app[OAUTH] = oauth
    app[ON_LINKED] = on_linked
    app[PROBLEM_LOG] = ProblemLog()
    app.router.add_get(START_PATH + "{state}", show_start)
    app.router.add_post(START_PATH + "{state}", start)
    app.router.add_get(CALLBACK_PATH, callback, allow_head=False)


def failure(kind: str, locale: str, *, again: str = AGAIN) -> web.Response:
    """The page for what went wrong; ``again``: how to start again (the command's msgid)."""
    title, text = FAILURES[kind]
    with using_locale(locale):
        message = _(text).format(again=_(again))
        body = result_page(ok=False, title=_(title), message=message, lang=locale)
    return html_response(body, status=STATUS.get(kind, 502), cache=False)


def _service(request: web.Request) -> OAuthService:
    oauth = request.app[OAUTH]()
    if oauth is None:
        raise web.HTTPNotFound()
    return oauth


class _Failures:
    """The failure pages for one state: in its person's language (else the browser's),
    naming the command that made it (``/server link`` or ``/account link``)."""

    def __init__(self, locale: str, *, for_server: bool) -> None:
        self.locale = locale
        self._again = SERVER_AGAIN if for_server else AGAIN

    def page(self, kind: str) -> web.Response:
        return failure(kind, self.locale, again=self._again)


async def _failures(request: web.Request, oauth: OAuthService, state: str) -> _Failures:
    whose = await oauth.states.whose(state) if state else None
    if whose is None:
        return _Failures(page_language(request.headers.get(hdrs.ACCEPT_LANGUAGE)), for_server=False)
    return _Failures(whose.locale, for_server=whose.for_server)


async def show_start(request: web.Request) -> web.Response:
    """GET (and HEAD): whose sign-in this is, and the button; nothing is changed."""
    oauth = _service(request)
    state = request.match_info["state"][:STATE_MAX]
    failures = await _failures(request, oauth, state)
    try:
        page = await oauth.start_page(state)
    except StateProblem as problem:
        return failures.page(problem.reason)
    except OAuthUnavailable as error:
        log.warning("sign-in could not start: %s", error)
        return failures.page("unavailable")
    action = oauth.config.start_url(state)
    if page.guild_name is not None:
        body = server_start_page(
            discord_name=page.discord_name,
            server_name=page.guild_name,
            action=action,
            lang=page.locale,
        )
    else:
        body = start_page(discord_name=page.discord_name, action=action, lang=page.locale)
    # The authorization server's origin, and any https origin: its sign-in may hand the browser
    # on to a login page elsewhere (a hosted identity provider) before anything loads, and
    # form-action would silently stop that hop. The page runs no script and shows no input.
    response = with_form_targets(html_response(body, cache=False), page.redirect_origin, "https:")
    # With no-referrer, browsers would send the form with "Origin: null" (bot.web.same_origin).
    response.headers[hdrs.REFERRER_POLICY] = "same-origin"
    return response


async def start(request: web.Request) -> web.Response:
    """POST, from the start page only: start the sign-in in this browser, once."""
    oauth = _service(request)
    state = request.match_info["state"][:STATE_MAX]
    failures = await _failures(request, oauth, state)
    if not sent_from(origin_of(oauth.config.public_base_url), request.headers):
        request.app[PROBLEM_LOG].info("refused a sign-in start sent from another site")
        return failures.page("cross_site")
    try:
        started = await oauth.start(state)
    except StateProblem as problem:
        return failures.page(problem.reason)
    except OAuthUnavailable as error:
        log.warning("sign-in could not start: %s", error)
        return failures.page("unavailable")
    response = web.Response(
        status=303,
        headers={
            hdrs.LOCATION: started.authorization_url,
            hdrs.CACHE_CONTROL: "no-store",
            hdrs.REFERRER_POLICY: "no-referrer",
        },
    )
    _bind_browser(response, oauth, started)
    return response


async def callback(request: web.Request) -> web.Response:
    oauth = _service(request)
    state = request.query.get("state", "")[:STATE_MAX]
    failures = await _failures(request, oauth, state)
    code, error = request.query.get("code"), request.query.get("error")
    cookie = request.cookies.get(_cookie_name(oauth))
    browser = SecretStr(cookie) if cookie else None
    try:
        if error or not code:
            declined = await oauth.decline(state, error or "invalid_request", browser)
            kind = "access_denied" if declined.error == "access_denied" else "refused"
            log.info("a sign-in came back with %s", declined.error[:40])
            return _unbind_browser(failures.page(kind), oauth)
        linked = await oauth.finish(state, code, browser)
    except StateProblem as problem:
        # Another browser's callback has used the state up, but leaves this browser's cookie:
        # it may belong to a sign-in of its own.
        request.app[PROBLEM_LOG].info("a sign-in callback had a %s state", problem.reason)
        return failures.page(problem.reason)
    except SignInFailed as failed:
        log.info("the authorization server refused a sign-in code (%s)", failed.error)
        return _unbind_browser(failures.page("refused"), oauth)
    except OAuthUnavailable as unreachable:
        log.warning("sign-in could not finish: %s", unreachable)
        return failures.page("unavailable")
    try:
        await request.app[ON_LINKED](linked)
    except Exception:  # the tokens are stored: a Discord hiccup must not turn this into an error
        log.exception("could not tell Discord that an account was linked")
    if linked.guild_id is not None:
        page = server_linked_page(
            lang=linked.locale,
            server_name=linked.guild_name or str(linked.guild_id),
            account_name=linked.account_name,
        )
    else:
        page = linked_page(
            lang=linked.locale, discord_name=linked.discord_name, account_name=linked.account_name
        )
    return _unbind_browser(html_response(page, cache=False), oauth)


def _secure(oauth: OAuthService) -> bool:
    return oauth.config.public_base_url.startswith("https://")


def _cookie_name(oauth: OAuthService) -> str:
    """``__Host-`` over https. Browsers refuse a ``__Host-`` cookie that is not Secure, and
    a Secure one over plain http (a localhost PUBLIC_BASE_URL): there it keeps its plain name."""
    return HOST_ONLY_COOKIE if _secure(oauth) else BROWSER_COOKIE


def _cookie_attributes(oauth: OAuthService) -> dict[str, Any]:
    """Sent back to this host only (no Domain), out of scripts' reach; Lax, so the callback's
    cross-site redirect carries it. Over https, Path=/ as ``__Host-`` requires; over http,
    only on the sign-in's addresses (PUBLIC_BASE_URL may have a path)."""
    secure = _secure(oauth)
    base_path = urlsplit(oauth.config.public_base_url).path.rstrip("/")
    return {
        "path": "/" if secure else base_path + "/oauth/",
        "secure": secure,
        "httponly": True,
        "samesite": "Lax",
    }


def _bind_browser(response: web.Response, oauth: OAuthService, started: StartedSignIn) -> None:
    seconds = max(1, int(started.lifetime.total_seconds()))
    secret = started.browser_secret.get_secret_value()
    response.set_cookie(_cookie_name(oauth), secret, max_age=seconds, **_cookie_attributes(oauth))


def _unbind_browser(response: web.Response, oauth: OAuthService) -> web.Response:
    """The sign-in is over (the state is used up): its cookie goes."""
    response.del_cookie(_cookie_name(oauth), **_cookie_attributes(oauth))
    return response

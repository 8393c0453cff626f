"""Serving the public pages (``/`` and the privacy notice) in the reader's language, with the
security headers every HTML page of the bot carries (:func:`html_response`)."""

from __future__ import annotations

import re

from aiohttp import hdrs, web
from babel.core import negotiate_locale, parse_locale

from bot.i18n import DEFAULT_LOCALE, LANGUAGES
from bot.web.pages import HOME_PATH, SiteInfo, bcp47, landing_page, privacy_page

SITE = web.AppKey("site", SiteInfo)

# An origin as a CSP source: scheme, host (or [IPv6]) and port, and nothing that could end it;
# or the scheme source "https:" alone.
_ORIGIN_SOURCE = re.compile(r"https:|https?://(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d+)?")


def content_security_policy(*form_targets: str) -> str:
    """Nothing runs and nothing loads from elsewhere: styles are inline, images only data: or
    ours; forms post to this site only. ``form_targets`` are origins a form's answer may
    redirect to: Chromium applies form-action to every redirect after a form is sent."""
    for origin in form_targets:
        if not _ORIGIN_SOURCE.fullmatch(origin):
            raise ValueError(f"not an origin: {origin!r}")
    targets = " ".join(("'self'", *form_targets))
    return (
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
        f"form-action {targets}; frame-ancestors 'none'"
    )


CONTENT_SECURITY_POLICY = content_security_policy()
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors, for browsers that predate it
}
# The pages change only when the bot learns its application id (the invite link appears).
CACHE_SECONDS = 300
# An Accept-Language header names a handful of languages; more is noise or abuse.
MAX_LANGUAGE_RANGES = 32

_CATALOGUE_CODES = {code.lower(): code for code in LANGUAGES}


def add_site_routes(app: web.Application, site: SiteInfo) -> None:
    """Serve ``/`` and ``site.privacy_path`` (GET and HEAD) from ``app``."""
    app[SITE] = site
    app.router.add_get(HOME_PATH, _landing)
    app.router.add_get(site.privacy_path, _privacy)


def html_response(body: str, *, status: int = 200, cache: bool = True) -> web.Response:
    """An HTML page with the security headers; ``cache=False`` for a page never to be kept
    (the sign-in's result)."""
    response = web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
    response.headers.update(SECURITY_HEADERS)
    response.headers[hdrs.CACHE_CONTROL] = f"max-age={CACHE_SECONDS}" if cache else "no-store"
    return response


def with_form_targets(response: web.Response, *origins: str) -> web.Response:
    """``response`` (from :func:`html_response`) with a policy that also lets its form's answer
    redirect to ``origins``."""
    response.headers["Content-Security-Policy"] = content_security_policy(*origins)
    return response


def page_language(accept_language: str | None) -> str:
    """The catalogue locale to answer an ``Accept-Language`` header in: the reader's first
    choice the bot speaks, English when none (or no header). Spanish from anywhere but Spain
    is Latin American Spanish; any Portuguese is Brazilian, the only one the bot has."""
    preferred = [
        candidate
        for tag in _ranked(accept_language or "")
        if (candidate := _candidate(tag)) is not None
    ]
    chosen = negotiate_locale(preferred, list(LANGUAGES), sep="_", aliases={})
    return _CATALOGUE_CODES.get((chosen or "").lower(), DEFAULT_LOCALE)


async def _landing(request: web.Request) -> web.Response:
    lang = page_language(request.headers.get(hdrs.ACCEPT_LANGUAGE))
    return _negotiated(landing_page(request.app[SITE], lang=lang), lang)


async def _privacy(request: web.Request) -> web.Response:
    lang = page_language(request.headers.get(hdrs.ACCEPT_LANGUAGE))
    return _negotiated(privacy_page(request.app[SITE], lang=lang), lang)


def _negotiated(body: str, lang: str) -> web.Response:
    response = html_response(body)
    response.headers[hdrs.CONTENT_LANGUAGE] = bcp47(lang)
    response.headers[hdrs.VARY] = hdrs.ACCEPT_LANGUAGE
    return response


def _ranked(header: str) -> list[str]:
    """The header's language tags, most wanted first (ties in the header's order); tags with
    q=0 (not wanted), a broken q, or ``*`` are left out."""
    weighted: list[tuple[float, str]] = []
    for item in header.split(",")[:MAX_LANGUAGE_RANGES]:
        tag, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and tag != "*" and 0 < quality <= 1:
            weighted.append((quality, tag))
    weighted.sort(key=lambda pair: -pair[0])  # stable: equal weights keep the header's order
    return [tag for _quality, tag in weighted]


def _candidate(tag: str) -> str | None:
    """A language tag as the catalogue locale that would serve it (``es-MX`` → ``es_419``),
    or as ``language_TERRITORY`` for :func:`negotiate_locale` to match by language."""
    try:
        language, territory, *_rest = parse_locale(tag, sep="-")
    except ValueError:  # private-use or grandfathered tags: the language subtag alone
        language, territory = tag.split("-", 1)[0].lower(), None
        if not language.isalpha():
            return None
    if language == "es":
        return "es_ES" if territory in (None, "ES") else "es_419"
    if language == "pt":
        return "pt_BR"
    return f"{language}_{territory}" if territory else language

"""Whether a form was sent from this site's own page: the browser says so in Sec-Fetch-Site
(every current browser) and in Origin (older ones too). A request that says neither is not a
browser's form, and is refused like a cross-site one.

The page whose form is checked must not have ``Referrer-Policy: no-referrer``: under it,
browsers send ``Origin: null`` with a form (Chromium still sends Sec-Fetch-Site)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.oauth.metadata import origin_of

SAME_ORIGIN = "same-origin"
NULL_ORIGIN = "null"


def sent_from(expected_origin: str, headers: Mapping[str, str]) -> bool:
    """Whether the request with ``headers`` came from a page of ``expected_origin``
    (``scheme://host[:port]``)."""
    fetch_site = headers.get("Sec-Fetch-Site")
    origin = headers.get("Origin")
    if fetch_site is not None and fetch_site != SAME_ORIGIN:
        return False
    if origin is not None and origin != NULL_ORIGIN:
        return _same(origin, expected_origin)
    # No usable Origin: only Sec-Fetch-Site can vouch for the request.
    return fetch_site == SAME_ORIGIN


def _same(origin: str, expected: str) -> bool:
    try:
        return origin_of(origin.strip().lower()) == expected.lower()
    except ValueError:  # a port that is not a number
        return False

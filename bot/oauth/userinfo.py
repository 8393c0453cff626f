"""Which Magisterium account signed in, for the confirmations: a name the token response
carries, else the one the userinfo endpoint (listed in the RFC 8414 metadata) gives. Only a
nicety: nothing here ever fails a sign-in.

The name is upstream text: control characters go, whitespace is collapsed, and it is clipped
to :data:`MAX_NAME` characters. Escaping it is the business of whoever shows it."""

from __future__ import annotations

import logging
import unicodedata

import httpx
from pydantic import SecretStr

log = logging.getLogger(__name__)

NAME_FIELDS = ("preferred_username", "name", "email")  # the first one present wins
MAX_NAME = 100
USERINFO_TIMEOUT = httpx.Timeout(5.0)


def account_name(claims: object) -> str | None:
    """The account's name in a JSON object (a token response, userinfo), cleaned; or None."""
    if not isinstance(claims, dict):
        return None
    for key in NAME_FIELDS:
        name = clean_name(claims.get(key))
        if name is not None:
            return name
    return None


def clean_name(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join("".join(map(_visible, value)).split())
    if not text:
        return None
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1].rstrip() + "…"


def _visible(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Cc":
        return " "  # line breaks and tabs
    if category.startswith("C"):
        return ""  # bidi overrides and other format characters, private use, unassigned
    return char


async def fetch_account_name(
    http: httpx.AsyncClient, endpoint: str, access_token: SecretStr
) -> str | None:
    """The name the userinfo endpoint gives for ``access_token``, or None (whatever fails)."""
    headers = {
        "Authorization": f"Bearer {access_token.get_secret_value()}",
        "Accept": "application/json",
    }
    try:
        response = await http.get(endpoint, headers=headers, timeout=USERINFO_TIMEOUT)
        if response.status_code != 200:
            log.info("the userinfo endpoint answered HTTP %d", response.status_code)
            return None
        return account_name(response.json())
    except (httpx.HTTPError, ValueError) as error:
        log.info("the userinfo endpoint gave no name: %s", type(error).__name__)
        return None

"""Binding a sign-in to the browser that started it: a random secret goes into that browser's
cookie, and only its SHA-256 is stored with the state. The callback finishes the sign-in only
for a browser that sends the secret back."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from pydantic import SecretStr

BROWSER_SECRET_BYTES = 32


def new_browser_secret() -> SecretStr:
    return SecretStr(secrets.token_urlsafe(BROWSER_SECRET_BYTES))


def browser_hash(secret: SecretStr) -> str:
    return hashlib.sha256(secret.get_secret_value().encode()).hexdigest()


def same_browser(secret: SecretStr | None, stored_hash: str | None) -> bool:
    """Whether ``secret`` is the one whose hash was stored (in constant time)."""
    if secret is None or stored_hash is None:
        return False
    return hmac.compare_digest(browser_hash(secret), stored_hash)

"""A stable public name for a token: the rate limiter's bucket key."""

from __future__ import annotations

import hashlib

from pydantic import SecretStr

# Domain separation, so this digest matches no other use of a SHA-256 over the same token.
_CONTEXT = b"magisterium-bot/token-key/v1\x00"


def token_key(token: SecretStr) -> str:
    """16 hex characters of SHA-256 over the token: the same token always gives the same key,
    and the key does not reveal the token.

    An unkeyed hash is enough: tokens are long random secrets, so the digest cannot be reversed
    by guessing, and it stays the same across restarts and processes (a shared Redis limiter)
    without another secret to configure. 64 bits make collisions between tokens negligible.
    """
    digest = hashlib.sha256(_CONTEXT + token.get_secret_value().encode("utf-8"))
    return digest.hexdigest()[:16]

"""Secrets out of log lines: shapes that are always secret, and the exact values in use.

Applied to a whole formatted line (message, arguments and traceback alike), so a secret is
caught wherever it ended up, even inside an exception's text.
"""

from __future__ import annotations

import re
import threading

from pydantic import SecretStr
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.settings import Settings

REDACTED = "[redacted]"

# Shorter values are not registered: replacing a short password everywhere would mangle
# ordinary words. A password inside a URL is still caught by its shape.
MIN_SECRET_LENGTH = 8

_B64 = r"A-Za-z0-9_\-"
# A Fernet key: 32 bytes in url-safe base64, 43 characters and one "=".
FERNET_KEY_SHAPE = re.compile(rf"(?<![{_B64}])[{_B64}]{{43}}=(?![{_B64}=])")
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    # Authorization headers, wherever they are quoted (8+ characters: not "bearer token").
    (re.compile(r"(\bBearer\s+)[A-Za-z0-9._~+/=\-]{8,}", re.IGNORECASE), rf"\1{REDACTED}"),
    # user:password@host in any URL.
    (re.compile(r"(\b[a-zA-Z][\w+.\-]*://[^\s:/@]*:)[^\s@/]+@"), rf"\1{REDACTED}@"),
    # Fernet ciphertexts: version byte 0x80 and a timestamp's zero high bytes.
    (re.compile(rf"\bgAAAAA[{_B64}]{{20,}}={{0,2}}"), REDACTED),
    # Discord bot tokens (and JWTs): three url-safe base64 parts joined by dots.
    (re.compile(rf"(?<![{_B64}.])[{_B64}]{{20,}}\.[{_B64}]{{6,}}\.[{_B64}]{{20,}}"), REDACTED),
    (FERNET_KEY_SHAPE, REDACTED),
)


class Redactor:
    """Replaces every secret-shaped string and every registered secret value with a mark."""

    def __init__(self) -> None:
        # Longest first, so that a secret containing another one is replaced whole.
        self._values: tuple[str, ...] = ()
        self._lock = threading.Lock()

    def register(self, *values: str | SecretStr | None) -> None:
        """Redact these exact values from now on (None, empty and short values are ignored)."""
        plain = {v.get_secret_value() if isinstance(v, SecretStr) else v for v in values}
        added = {v for v in plain if v and len(v) >= MIN_SECRET_LENGTH}
        with self._lock:
            self._values = tuple(sorted(added.union(self._values), key=len, reverse=True))

    @property
    def values(self) -> frozenset[str]:
        """The exact values registered so far."""
        return frozenset(self._values)

    def redact(self, text: str) -> str:
        for value in self._values:
            if value in text:
                text = text.replace(value, REDACTED)
        for pattern, replacement in _SHAPES:
            text = pattern.sub(replacement, text)
        return text


REDACTOR = Redactor()


def register_secrets(*values: str | SecretStr | None) -> None:
    """Redact these exact values from every log line of this process."""
    REDACTOR.register(*values)


def secrets_in(settings: Settings) -> list[str | SecretStr | None]:
    """Every secret value a running bot holds: tokens, encryption keys, database password,
    the OAuth client secret."""
    keys = settings.token_encryption_key.get_secret_value() if settings.token_encryption_key else ""
    return [
        settings.discord_token,
        settings.magisterium_token,
        settings.oauth_client_secret,
        *(key.strip() for key in keys.split(",")),
        _database_password(settings.database_url),
    ]


def register_settings_secrets(settings: Settings) -> None:
    register_secrets(*secrets_in(settings))


def _database_password(url: str) -> str | None:
    try:
        return make_url(url).password
    except ArgumentError:
        return None

"""Encryption of secrets at rest (Fernet, with key rotation), each bound to its owner and purpose.

The encrypted plaintext is ``mgb2:<purpose>:<owner>:<secret>`` and ``decrypt`` checks both the
owner (a Discord user id, a guild id for a server's account, or :data:`SERVICE_OWNER` for the
bot's own secrets) and the purpose (an access token, a refresh token, a PKCE verifier, a client
secret, a server's token). Fernet authenticates the whole payload (HMAC-SHA256), so neither can
be altered without the key: a ciphertext copied into another user's or server's row, or into
another column of the same row (an access token into the refresh column), fails with
``TokenBindingError`` instead of being read as something it is not.

This was chosen over per-user keys derived with HKDF because ``MultiFernet`` then decrypts any
row under any configured key, and the operator's keys stay plain Fernet keys.

Rows written before purposes existed (``mgb1:<owner>:<secret>``) are still read, for any
purpose; ``python -m bot rotate-keys`` rewrites them in the current format.
"""

from __future__ import annotations

from enum import StrEnum

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from pydantic import SecretStr

from bot.accounts.errors import InvalidEncryptionKey, TokenBindingError, TokenDecryptionError

SETTING_NAME = "TOKEN_ENCRYPTION_KEY"
# The owner of the bot's own secrets (a registered client's secret): no Discord id is 0.
SERVICE_OWNER = 0
_FORMAT = "mgb2"
_LEGACY_FORMAT = "mgb1"  # owner only, no purpose


class Purpose(StrEnum):
    """What a ciphertext holds; part of what it is bound to (names of kinds, not secrets)."""

    ACCESS_TOKEN = "access"  # noqa: S105
    REFRESH_TOKEN = "refresh"  # noqa: S105
    PKCE_VERIFIER = "pkce-verifier"
    CLIENT_SECRET = "client-secret"  # noqa: S105
    # A server's own token: the owner is the guild id, so it never reads as a person's token.
    SERVER_ACCESS_TOKEN = "server-access"  # noqa: S105
    SERVER_REFRESH_TOKEN = "server-refresh"  # noqa: S105


def generate_key() -> str:
    """A new random Fernet key (32 url-safe base64-encoded bytes)."""
    return Fernet.generate_key().decode("ascii")


class TokenCipher:
    """Encrypts with the first key; decrypts with any of them."""

    __slots__ = ("_fernet", "_key_count")

    def __init__(self, keys: list[str]) -> None:
        if not keys:
            raise InvalidEncryptionKey(f"{SETTING_NAME} contains no key")
        fernets: list[Fernet] = []
        for position, key in enumerate(keys, start=1):
            try:
                fernets.append(Fernet(key.encode("ascii")))
            except (ValueError, UnicodeEncodeError):
                raise InvalidEncryptionKey(
                    f"{SETTING_NAME}: key {position} of {len(keys)} is not a valid Fernet key "
                    "(32 url-safe base64-encoded bytes; make one with `python -m bot genkey`)"
                ) from None
        self._fernet = MultiFernet(fernets)
        self._key_count = len(fernets)

    @classmethod
    def from_setting(cls, value: SecretStr | str | None) -> TokenCipher | None:
        """The cipher for a comma-separated key list; None when the setting is unset or empty."""
        raw = value.get_secret_value() if isinstance(value, SecretStr) else value
        keys = [key.strip() for key in (raw or "").split(",") if key.strip()]
        return cls(keys) if keys else None

    @property
    def key_count(self) -> int:
        return self._key_count

    def __repr__(self) -> str:
        return f"TokenCipher(keys={self._key_count})"

    def encrypt(self, owner: int, secret: SecretStr, purpose: Purpose) -> str:
        plaintext = f"{_FORMAT}:{purpose.value}:{owner}:{secret.get_secret_value()}"
        return self._fernet.encrypt(plaintext.encode("utf-8")).decode("ascii")

    def decrypt(self, owner: int, ciphertext: str, purpose: Purpose) -> SecretStr:
        """The secret, if ``ciphertext`` was encrypted for ``owner`` and ``purpose`` under one
        of the keys."""
        found_purpose, found_owner, secret = _parse(self._plaintext(ciphertext))
        if found_owner != str(owner):
            raise TokenBindingError("the stored secret belongs to someone else")
        if found_purpose is not None and found_purpose != purpose.value:
            raise TokenBindingError(f"the stored secret is not a {purpose.value} secret")
        return SecretStr(secret)

    def reencrypt(self, owner: int, ciphertext: str, purpose: Purpose) -> str:
        """The same secret encrypted again under the first key, in the current format."""
        return self.encrypt(owner, self.decrypt(owner, ciphertext, purpose), purpose)

    def _plaintext(self, ciphertext: str) -> str:
        try:
            return self._fernet.decrypt(ciphertext.encode("ascii")).decode("utf-8")
        except (InvalidToken, UnicodeError):
            raise TokenDecryptionError(
                f"a stored secret cannot be decrypted with any key in {SETTING_NAME}"
            ) from None


def _parse(plaintext: str) -> tuple[str | None, str, str]:
    """(purpose or None for a legacy row, owner, secret)."""
    version, _, rest = plaintext.partition(":")
    if version == _FORMAT:
        parts = rest.split(":", 2)
        if len(parts) == 3:
            return parts[0], parts[1], parts[2]
    elif version == _LEGACY_FORMAT:
        owner, separator, secret = rest.partition(":")
        if separator:
            return None, owner, secret
    raise TokenBindingError("the stored secret has no owner")

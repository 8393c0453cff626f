"""Encryption of users' Magisterium tokens at rest (Fernet, with key rotation).

Binding a ciphertext to its owner: the encrypted plaintext is ``mgb1:<user id>:<token>`` and
``decrypt`` checks the user id. Fernet authenticates the whole payload (HMAC-SHA256), so the id
cannot be altered without the key, and a ciphertext copied into another user's row fails with
``TokenBindingError`` instead of handing that user someone else's token. This was chosen over
per-user keys derived with HKDF because ``MultiFernet.rotate`` can then re-encrypt any row
without knowing whose it is, and the operator's keys stay plain Fernet keys.
"""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from pydantic import SecretStr

from bot.accounts.errors import InvalidEncryptionKey, TokenBindingError, TokenDecryptionError

SETTING_NAME = "TOKEN_ENCRYPTION_KEY"
_FORMAT = "mgb1"


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

    def encrypt(self, user_id: int, token: SecretStr) -> str:
        plaintext = f"{_FORMAT}:{user_id}:{token.get_secret_value()}"
        return self._fernet.encrypt(plaintext.encode("utf-8")).decode("ascii")

    def decrypt(self, user_id: int, ciphertext: str) -> SecretStr:
        """The token, if ``ciphertext`` was encrypted for ``user_id`` under one of the keys."""
        plaintext = self._plaintext(ciphertext)
        prefix, owner, token = _split(plaintext)
        if prefix != _FORMAT or owner != str(user_id):
            raise TokenBindingError("the stored token belongs to another user")
        return SecretStr(token)

    def rotate(self, ciphertext: str) -> str:
        """The same plaintext re-encrypted under the first key (owner binding unchanged)."""
        try:
            return self._fernet.rotate(ciphertext.encode("ascii")).decode("ascii")
        except (InvalidToken, UnicodeEncodeError):
            raise TokenDecryptionError(
                f"a stored token cannot be decrypted with any key in {SETTING_NAME}"
            ) from None

    def _plaintext(self, ciphertext: str) -> str:
        try:
            return self._fernet.decrypt(ciphertext.encode("ascii")).decode("utf-8")
        except (InvalidToken, UnicodeError):
            raise TokenDecryptionError(
                f"a stored token cannot be decrypted with any key in {SETTING_NAME}"
            ) from None


def _split(plaintext: str) -> tuple[str, str, str]:
    parts = plaintext.split(":", 2)
    if len(parts) != 3:
        raise TokenBindingError("the stored token has no owner")
    return parts[0], parts[1], parts[2]

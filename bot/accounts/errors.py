"""Errors of the accounts layer. None of their messages ever contains a token or a key."""

from __future__ import annotations

from typing import Literal

QuotaPool = Literal["all", "qa"]


class AccountsError(Exception):
    """Base of every accounts error."""


class EncryptionKeyError(AccountsError):
    """TOKEN_ENCRYPTION_KEY is missing, malformed or does not fit the stored tokens: an operator
    problem, reported at startup."""


class InvalidEncryptionKey(EncryptionKeyError):
    """A key in TOKEN_ENCRYPTION_KEY is not a Fernet key."""


class MissingEncryptionKey(EncryptionKeyError):
    """Tokens are stored (or about to be) but TOKEN_ENCRYPTION_KEY is not set."""


class StoredTokensNeedTheirKey(MissingEncryptionKey):
    """Tokens are stored, and TOKEN_ENCRYPTION_KEY is not set: only their own key reads them."""


class WrongEncryptionKey(EncryptionKeyError):
    """None of the configured keys decrypts the stored tokens."""


class TokenDecryptionError(AccountsError):
    """A stored token cannot be decrypted with the configured keys."""


class TokenBindingError(TokenDecryptionError):
    """A ciphertext decrypted, but it was encrypted for another user (a copied row)."""


class QuotaExceeded(AccountsError):
    """The user's hourly allowance on the operator's shared token is used up."""

    def __init__(self, retry_after_seconds: int, pool: QuotaPool) -> None:
        super().__init__(f"shared-token quota '{pool}' used up; retry in {retry_after_seconds} s")
        self.retry_after_seconds = retry_after_seconds
        self.pool: QuotaPool = pool


class ServerQuotaExceeded(QuotaExceeded):
    """The member's hourly allowance on their server's account is used up. ``shared_too``: the
    operator's shared token could not serve instead (unset, or that allowance is used up too)."""

    def __init__(self, retry_after_seconds: int, pool: QuotaPool, *, shared_too: bool) -> None:
        super().__init__(retry_after_seconds, pool)
        self.shared_too = shared_too

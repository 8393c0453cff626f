"""Accounts: users' own Magisterium tokens (encrypted at rest) and the shared-token quota."""

from bot.accounts.account_cache import AccountCache, RedisVersions
from bot.accounts.crypto import SERVICE_OWNER, Purpose, TokenCipher, generate_key
from bot.accounts.errors import (
    AccountsError,
    EncryptionKeyError,
    InvalidEncryptionKey,
    MissingEncryptionKey,
    QuotaExceeded,
    QuotaPool,
    TokenBindingError,
    TokenDecryptionError,
    WrongEncryptionKey,
)
from bot.accounts.keys import token_key
from bot.accounts.quota import SharedTokenQuota
from bot.accounts.registry import AccountStatus, LinkedAccount, TokenRegistry

__all__ = [
    "SERVICE_OWNER",
    "AccountCache",
    "AccountStatus",
    "AccountsError",
    "EncryptionKeyError",
    "InvalidEncryptionKey",
    "LinkedAccount",
    "MissingEncryptionKey",
    "Purpose",
    "QuotaExceeded",
    "QuotaPool",
    "RedisVersions",
    "SharedTokenQuota",
    "TokenBindingError",
    "TokenCipher",
    "TokenDecryptionError",
    "TokenRegistry",
    "WrongEncryptionKey",
    "generate_key",
    "token_key",
]

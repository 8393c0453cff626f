"""Accounts: users' and servers' own Magisterium tokens (encrypted at rest) and the quotas on
the shared token and on servers' tokens."""

from bot.accounts.account_cache import AccountCache, RedisVersions, ServerAccountCache
from bot.accounts.crypto import SERVICE_OWNER, Purpose, TokenCipher, generate_key
from bot.accounts.errors import (
    AccountsError,
    EncryptionKeyError,
    InvalidEncryptionKey,
    MissingEncryptionKey,
    QuotaExceeded,
    QuotaPool,
    ServerQuotaExceeded,
    StoredTokensNeedTheirKey,
    TokenBindingError,
    TokenDecryptionError,
    WrongEncryptionKey,
)
from bot.accounts.keys import token_key
from bot.accounts.quota import SharedTokenQuota
from bot.accounts.registry import AccountStatus, LinkedAccount, TokenRegistry
from bot.accounts.server_quota import ServerTokenQuota, ServerUsage
from bot.accounts.server_registry import Allowance, ServerAccount, ServerRegistry

__all__ = [
    "SERVICE_OWNER",
    "AccountCache",
    "AccountStatus",
    "AccountsError",
    "Allowance",
    "EncryptionKeyError",
    "InvalidEncryptionKey",
    "LinkedAccount",
    "MissingEncryptionKey",
    "Purpose",
    "QuotaExceeded",
    "QuotaPool",
    "RedisVersions",
    "ServerAccount",
    "ServerAccountCache",
    "ServerQuotaExceeded",
    "ServerRegistry",
    "ServerTokenQuota",
    "ServerUsage",
    "SharedTokenQuota",
    "StoredTokensNeedTheirKey",
    "TokenBindingError",
    "TokenCipher",
    "TokenDecryptionError",
    "TokenRegistry",
    "WrongEncryptionKey",
    "generate_key",
    "token_key",
]

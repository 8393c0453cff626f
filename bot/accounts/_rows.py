"""What :class:`TokenRegistry` and :class:`ServerRegistry` share: one encrypted account row per
owner (a Discord user, or a guild), read through a :class:`VersionedCache`, refreshed only if
nobody changed it meanwhile, and every write followed by a cache invalidation."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import SecretStr
from sqlalchemy import Update, update

from bot.accounts.account_cache import VersionedCache
from bot.accounts.crypto import SETTING_NAME, Purpose, TokenCipher
from bot.accounts.errors import MissingEncryptionKey
from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database
from bot.storage.deletion import UserDataDeleters
from bot.storage.housekeeping import rowcount


class _Account(Protocol):
    @property
    def token(self) -> SecretStr: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def refresh_token(self) -> SecretStr | None: ...


class _TokenColumns(Protocol):
    """The columns of an account row that hold its tokens (a row read from the database)."""

    token_ciphertext: str
    refresh_ciphertext: str | None


AccountT = TypeVar("AccountT", bound=_Account)


class AccountRows(Generic[AccountT]):
    """One table of accounts (``_row``) keyed by the column named ``_owner``, their tokens
    encrypted for the owner id and ``_access`` / ``_refresh``. A subclass sets those, reads its
    row in :meth:`_read` and registers its user-data deleters in :meth:`_register_deleters`."""

    _row: ClassVar[type[Any]]
    _owner: ClassVar[str]
    _access: ClassVar[Purpose]
    _refresh: ClassVar[Purpose]

    def __init__(
        self,
        db: Database,
        cipher: TokenCipher | None,
        *,
        clock: Clock = utcnow,
        cache: VersionedCache[AccountT] | None = None,
    ) -> None:
        self._db = db
        self._cipher = cipher
        self._clock = clock
        self._cache = cache
        self._register_deleters(db.user_data)

    async def refreshed(
        self,
        owner_id: int,
        *,
        old_refresh_token: SecretStr,
        token: SecretStr,
        refresh_token: SecretStr | None,
        expires_at: datetime | None,
    ) -> bool:
        """Store tokens from a refresh, unless the account changed meanwhile (unlinked, relinked
        or refreshed by another process): False then, and nothing is written."""
        cipher = self._require_cipher()
        current = await self.get(owner_id, fresh=True)
        if current is None or current.refresh_token is None:
            return False
        if current.refresh_token.get_secret_value() != old_refresh_token.get_secret_value():
            return False
        kept = refresh_token or old_refresh_token  # a server may keep the refresh token
        statement = (
            update(self._row)
            .where(
                getattr(self._row, self._owner) == owner_id,
                self._row.updated_at == current.updated_at,
            )
            .values(
                token_ciphertext=cipher.encrypt(owner_id, token, self._access),
                refresh_ciphertext=cipher.encrypt(owner_id, kept, self._refresh),
                expires_at=expires_at,
                status="valid",
                note=None,
                updated_at=self._clock(),
            )
        )
        return await self._update(owner_id, statement)

    async def close(self) -> None:
        if self._cache is not None:
            await self._cache.close()

    async def get(self, owner_id: int, *, fresh: bool = False) -> AccountT | None:
        """The owner's account; ``fresh``: from the database, and the cache forgets it."""
        if self._cache is None:
            return await self._read(owner_id)
        if fresh:
            self._cache.forget(owner_id)
            return await self._read(owner_id)
        return await self._cache.lookup(owner_id, partial(self._read, owner_id))

    async def _read(self, owner_id: int) -> AccountT | None:
        raise NotImplementedError

    def _register_deleters(self, user_data: UserDataDeleters) -> None:
        raise NotImplementedError

    def _encrypt(
        self, owner_id: int, token: SecretStr, refresh_token: SecretStr | None
    ) -> tuple[str, str | None]:
        """The ciphertexts of a token and of its refresh token (None without one)."""
        cipher = self._require_cipher()
        ciphertext = cipher.encrypt(owner_id, token, self._access)
        refresh = cipher.encrypt(owner_id, refresh_token, self._refresh) if refresh_token else None
        return ciphertext, refresh

    def _decrypt(self, owner_id: int, row: _TokenColumns) -> tuple[SecretStr, SecretStr | None]:
        """A row's token and refresh token (None without one)."""
        cipher = self._require_cipher()
        token = cipher.decrypt(owner_id, row.token_ciphertext, self._access)
        refresh = (
            cipher.decrypt(owner_id, row.refresh_ciphertext, self._refresh)
            if row.refresh_ciphertext
            else None
        )
        return token, refresh

    async def _update(self, owner_id: int, statement: Update) -> bool:
        """Run an UPDATE of the owner's row; True when it matched."""
        try:
            async with self._db.session() as session:
                result = await session.execute(statement)
        finally:
            await self._changed(owner_id)
        return rowcount(result) > 0

    async def _changed(self, owner_id: int) -> None:
        """After a write (committed, failed or in doubt): no cache serves what was there."""
        if self._cache is not None:
            await self._cache.changed(owner_id)

    def _require_cipher(self) -> TokenCipher:
        if self._cipher is None:
            raise MissingEncryptionKey(
                f"{SETTING_NAME} is not set: tokens cannot be stored or read"
            )
        return self._cipher

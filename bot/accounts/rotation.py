"""``rotate-keys``: every encrypted column re-encrypted under the first key, in one transaction.

:data:`ENCRYPTED_COLUMNS` names each column that holds a ciphertext, with whose it is and what
it holds; a test checks that no ``*_ciphertext`` column of the schema is missing from it, so a
new secret cannot be added without being rotated. Rotation also rewrites rows of the format
before purposes existed in the current one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import ColumnElement, and_, or_, select, update
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from bot.accounts.crypto import SERVICE_OWNER, SETTING_NAME, Purpose, TokenCipher
from bot.accounts.errors import TokenBindingError, TokenDecryptionError
from bot.storage import Database
from bot.storage.models import (
    Base,
    LinkedAccountRow,
    OAuthClientRow,
    OAuthStateRow,
    ServerAccountRow,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EncryptedColumn:
    """``model.column`` holds ``purpose`` secrets of the Discord user (or server) in
    ``owner_column``, or of the bot itself (:data:`SERVICE_OWNER`) when that is None."""

    model: type[Base]
    column: str
    purpose: Purpose
    owner_column: str | None

    @property
    def name(self) -> str:
        return f"{self.model.__tablename__}.{self.column}"


ENCRYPTED_COLUMNS: tuple[EncryptedColumn, ...] = (
    EncryptedColumn(LinkedAccountRow, "token_ciphertext", Purpose.ACCESS_TOKEN, "discord_user_id"),
    EncryptedColumn(
        LinkedAccountRow, "refresh_ciphertext", Purpose.REFRESH_TOKEN, "discord_user_id"
    ),
    EncryptedColumn(OAuthStateRow, "verifier_ciphertext", Purpose.PKCE_VERIFIER, "discord_user_id"),
    EncryptedColumn(OAuthClientRow, "secret_ciphertext", Purpose.CLIENT_SECRET, None),
    EncryptedColumn(ServerAccountRow, "token_ciphertext", Purpose.SERVER_ACCESS_TOKEN, "guild_id"),
    EncryptedColumn(
        ServerAccountRow, "refresh_ciphertext", Purpose.SERVER_REFRESH_TOKEN, "guild_id"
    ),
)


async def rotate_every_secret(
    db: Database, cipher: TokenCipher, *, batch_size: int = 500
) -> dict[str, int]:
    """Re-encrypt every stored secret under the first key; how many per column.

    All columns in one transaction: one secret no key decrypts raises
    :class:`TokenDecryptionError` naming its row, and nothing is changed. Rows are read in
    batches by primary key, so memory stays flat. A row changed meanwhile (a new link, a
    refresh) is left alone: the update matches the old ciphertext, so it never writes a stale
    secret back.
    """
    counts: dict[str, int] = {}
    async with db.session() as session:
        for column in ENCRYPTED_COLUMNS:
            counts[column.name] = await _rotate_column(session, cipher, column, batch_size)
    for name, count in counts.items():
        log.info("re-encrypted %d secrets in %s under the first key", count, name)
    return counts


async def _rotate_column(
    session: AsyncSession, cipher: TokenCipher, column: EncryptedColumn, batch_size: int
) -> int:
    keys = [cast(InstrumentedAttribute[Any], attribute) for attribute in _primary_key(column)]
    ciphertext = cast(InstrumentedAttribute[str | None], getattr(column.model, column.column))
    owner = getattr(column.model, column.owner_column) if column.owner_column else None
    selected = [*keys, ciphertext] + ([owner] if owner is not None else [])
    rotated = 0
    last: tuple[Any, ...] | None = None
    while True:
        query = select(*selected).where(ciphertext.is_not(None))
        if last is not None:
            query = query.where(_after(keys, last))
        batch = (await session.execute(query.order_by(*keys).limit(batch_size))).all()
        if not batch:
            return rotated
        for row in batch:
            key = tuple(row[: len(keys)])
            old = row[len(keys)]
            owner_id = int(row[len(keys) + 1]) if owner is not None else SERVICE_OWNER
            new = _reencrypted(cipher, column, owner_id, old)
            if new is None:
                continue
            matches = [attribute == value for attribute, value in zip(keys, key, strict=True)]
            result = await session.execute(
                update(column.model).where(*matches, ciphertext == old).values({column.column: new})
            )
            rotated += cast("CursorResult[Any]", result).rowcount
        last = tuple(batch[-1][: len(keys)])


def _primary_key(column: EncryptedColumn) -> list[Any]:
    return [getattr(column.model, key.name) for key in sa_inspect(column.model).primary_key]


def _after(keys: list[InstrumentedAttribute[Any]], last: tuple[Any, ...]) -> ColumnElement[bool]:
    """Keyset pagination over a (possibly composite) primary key: rows after ``last``."""
    clauses = []
    for position, attribute in enumerate(keys):
        equal = [keys[i] == last[i] for i in range(position)]
        clauses.append(and_(*equal, attribute > last[position]))
    return or_(*clauses)


def _reencrypted(
    cipher: TokenCipher, column: EncryptedColumn, owner: int, ciphertext: str
) -> str | None:
    """The new ciphertext; None for a row bound to someone or something else (copied there):
    it reads for nobody, and is left as it is."""
    try:
        return cipher.reencrypt(owner, ciphertext, column.purpose)
    except TokenBindingError:
        log.warning("a secret in %s is bound to another row: left as it is", column.name)
        return None
    except TokenDecryptionError:
        owner_kind = "server" if column.owner_column == "guild_id" else "user"
        whose = f"{owner_kind} {owner}" if column.owner_column else "the bot"
        raise TokenDecryptionError(
            f"a secret in {column.name} (of {whose}) cannot be decrypted with any key in "
            f"{SETTING_NAME}; nothing was re-encrypted"
        ) from None

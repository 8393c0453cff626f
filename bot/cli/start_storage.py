"""Before ``run`` contacts Discord: TOKEN_ENCRYPTION_KEY parses, the database answers, is
migrated to this version's revision, and the key reads the tokens it stores. Each problem is a
:class:`StartFailure` naming what to fix."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from bot.accounts import EncryptionKeyError, InvalidEncryptionKey, TokenCipher, TokenRegistry
from bot.cli.quiet_logs import held_back
from bot.cli.start_failures import StartFailure, key_failure
from bot.settings import Settings
from bot.storage import Database, StorageUnavailable
from bot.storage.migrate import script_revisions, scripts_head

CHECK = "`python -m bot check`"
# Logs each failure to reach the database at WARNING: the StartFailure's line says it already.
STORAGE_ERRORS_LOGGER = "bot.storage.errors"
_REACHABLE = {
    "postgresql": "that the database server is up and takes connections from here",
    "sqlite": "that this process may write the file and its directory",
}


async def check_storage(settings: Settings) -> None:
    """Migrate the database and check the key, or raise the StartFailure that says why not."""
    try:
        cipher = TokenCipher.from_setting(settings.token_encryption_key)
    except InvalidEncryptionKey as error:
        raise StartFailure(str(error)) from error
    try:
        database = Database(settings.database_url)
    except ValueError as error:  # a URL of no supported driver
        raise StartFailure(str(error)) from error
    with held_back(STORAGE_ERRORS_LOGGER):
        async with database as db:
            await _migrate(db)
            await _check_key(db, cipher)


async def _migrate(db: Database) -> None:
    try:
        before = await db.revision()
    except StorageUnavailable as error:
        raise StartFailure(
            f"cannot use the database at {db.display_url} (DATABASE_URL): {_cause(error)}; "
            f"check DATABASE_URL, and {_REACHABLE[db.dialect_name]}"
        ) from error
    head = scripts_head()
    if before is not None and before != head and before not in script_revisions():
        raise StartFailure(
            f"the database at {db.display_url} is at revision {before}, which this version of "
            f"the bot does not know (its newest is {head}): run the version that migrated it, "
            "or point DATABASE_URL at a database of this version"
        )
    try:
        await db.migrate()
    except (SQLAlchemyError, StorageUnavailable) as error:
        raise StartFailure(
            f"migrating the database at {db.display_url} from revision {before or '(none)'} to "
            f"{head} failed, and changed nothing: {_cause(error)}; {CHECK} shows the database's "
            "state, and LOG_LEVEL=DEBUG the failure's traceback"
        ) from error


async def _check_key(db: Database, cipher: TokenCipher | None) -> None:
    try:
        await TokenRegistry(db, cipher).check_startup()
    except EncryptionKeyError as error:
        raise key_failure(error) from error
    except StorageUnavailable as error:
        raise StartFailure(
            f"cannot read the stored tokens from {db.display_url}: {_cause(error)}"
        ) from error


def _cause(error: BaseException) -> str:
    """What the database or its driver said, without the SQL (which may hold values)."""
    cause = error.__cause__ if isinstance(error, StorageUnavailable) else error
    if isinstance(cause, DBAPIError):
        return str(cause.orig)
    if isinstance(cause, OSError) and cause.strerror:
        return cause.strerror
    return str(cause or error)

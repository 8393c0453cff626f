"""What the accounts layer promises, case by case: refreshing a signed-in token, the startup
check an operator reads, the messages of its errors, the hourly window of the shared quota, and
key rotation over every row (composite keys, copied rows). On SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from pydantic import SecretStr

from bot.accounts import (
    InvalidEncryptionKey,
    MissingEncryptionKey,
    Purpose,
    QuotaExceeded,
    SharedTokenQuota,
    TokenBindingError,
    TokenCipher,
    TokenDecryptionError,
    TokenRegistry,
    WrongEncryptionKey,
    generate_key,
)
from bot.accounts.quota import window_start
from bot.accounts.registry import LinkedAccount
from bot.accounts.rotation import _after, rotate_every_secret
from bot.storage import Database, LinkedAccountRow, SharedTokenUsageRow
from bot.storage.models import OAuthClientRow
from tests.support.fakes import FakeWallClock

USER = 4242
OTHER = 5151
EXPIRES = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def two_keys(*keys: str) -> TokenCipher:
    cipher = TokenCipher.from_setting(",".join(keys))
    assert cipher is not None
    return cipher


async def stored_ciphertexts(db: Database, user_id: int) -> tuple[str, str | None]:
    async with db.session() as session:
        row = await session.get(LinkedAccountRow, user_id)
        assert row is not None
        return row.token_ciphertext, row.refresh_ciphertext


def warnings_of(caplog: pytest.LogCaptureFixture, logger: str) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name == logger and r.levelno >= logging.WARNING
    ]


# --- refreshing a signed-in account's tokens ----------------------------------------------------


async def signed_in(registry: TokenRegistry) -> LinkedAccount:
    return await registry.link(
        USER,
        SecretStr("access-1"),
        refresh_token=SecretStr("refresh-1"),
        expires_at=EXPIRES,
    )


async def test_linking_a_signed_in_account_keeps_its_refresh_token_and_expiry(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    linked = await signed_in(registry)
    assert linked.refresh_token is not None
    assert linked.refresh_token.get_secret_value() == "refresh-1"
    assert linked.expires_at == EXPIRES
    stored = await registry.get(USER)
    assert stored == linked


async def test_a_refresh_stores_the_new_tokens_and_makes_the_account_valid(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    await signed_in(registry)
    await registry.mark_invalid(USER, "refused")
    clock.advance(minutes=5)
    later = EXPIRES + timedelta(hours=1)

    assert await registry.refreshed(
        USER,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("access-2"),
        refresh_token=SecretStr("refresh-2"),
        expires_at=later,
    )

    account = await registry.get(USER)
    assert account is not None and account.refresh_token is not None
    assert account.token.get_secret_value() == "access-2"
    assert account.refresh_token.get_secret_value() == "refresh-2"
    assert (account.status, account.note, account.expires_at) == ("valid", None, later)
    assert account.updated_at == clock.now
    # Each secret is encrypted for its own purpose, never the other's.
    token_ciphertext, refresh_ciphertext = await stored_ciphertexts(database, USER)
    assert refresh_ciphertext is not None
    access = cipher.decrypt(USER, token_ciphertext, Purpose.ACCESS_TOKEN)
    assert access.get_secret_value() == "access-2"
    refresh = cipher.decrypt(USER, refresh_ciphertext, Purpose.REFRESH_TOKEN)
    assert refresh.get_secret_value() == "refresh-2"


async def test_a_refresh_changes_only_that_persons_account(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    await signed_in(registry)
    # Linked in the same instant: the same updated_at, so only the user id tells them apart.
    await registry.link(OTHER, SecretStr("other-access"), refresh_token=SecretStr("other-r"))
    assert await registry.refreshed(
        USER,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("access-2"),
        refresh_token=None,
        expires_at=None,
    )
    other = await registry.get(OTHER)
    assert other is not None and other.token.get_secret_value() == "other-access"


async def test_linking_logs_the_status_and_whether_a_refresh_token_came_with_it(
    database: Database, cipher: TokenCipher, caplog: pytest.LogCaptureFixture
) -> None:
    registry = TokenRegistry(database, cipher)
    with caplog.at_level(logging.INFO, logger="bot.accounts.registry"):
        await registry.link(USER, SecretStr("pasted"), status="rate_limited")
        await signed_in(registry)
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.accounts.registry"]
    assert logged == [
        "linked a token (rate_limited)",
        "linked a token (valid, with a refresh token)",
    ]


async def test_a_refresh_without_a_new_refresh_token_keeps_the_old_one(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    await signed_in(registry)
    assert await registry.refreshed(
        USER,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("access-2"),
        refresh_token=None,
        expires_at=None,
    )
    account = await registry.get(USER)
    assert account is not None and account.refresh_token is not None
    assert account.refresh_token.get_secret_value() == "refresh-1"
    assert account.expires_at is None


async def test_a_refresh_for_an_account_that_changed_meanwhile_writes_nothing(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    new = {"token": SecretStr("access-2"), "refresh_token": None, "expires_at": None}
    # Unlinked: nothing to refresh.
    assert not await registry.refreshed(USER, old_refresh_token=SecretStr("refresh-1"), **new)
    # Linked by pasting a token: no refresh token to refresh with.
    await registry.link(USER, SecretStr("pasted"))
    assert not await registry.refreshed(USER, old_refresh_token=SecretStr("refresh-1"), **new)
    # Refreshed by another process already: its refresh token is not the one we used.
    await signed_in(registry)
    assert not await registry.refreshed(USER, old_refresh_token=SecretStr("refresh-0"), **new)
    account = await registry.get(USER)
    assert account is not None and account.token.get_secret_value() == "access-1"


class RacingRegistry(TokenRegistry):
    """Another process updates the account between the read and the write of a refresh."""

    def __init__(self, *args: object, clock: FakeWallClock, **kwargs: object) -> None:
        super().__init__(*args, clock=clock, **kwargs)  # type: ignore[arg-type]
        self.fake_clock = clock

    async def get(self, user_id: int, *, fresh: bool = False) -> LinkedAccount | None:
        account = await super().get(user_id, fresh=fresh)
        self.fake_clock.advance(seconds=1)
        await self.set_status(user_id, "rate_limited")
        return account


async def test_a_refresh_racing_another_update_writes_nothing(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    await signed_in(TokenRegistry(database, cipher, clock=clock))
    racing = RacingRegistry(database, cipher, clock=clock)
    assert not await racing.refreshed(
        USER,
        old_refresh_token=SecretStr("refresh-1"),
        token=SecretStr("access-2"),
        refresh_token=None,
        expires_at=None,
    )
    account = await TokenRegistry(database, cipher).get(USER)
    assert account is not None
    assert (account.token.get_secret_value(), account.status) == ("access-1", "rate_limited")


async def test_a_refresh_needs_the_encryption_key(database: Database) -> None:
    with pytest.raises(MissingEncryptionKey):
        await TokenRegistry(database, None).refreshed(
            USER,
            old_refresh_token=SecretStr("refresh-1"),
            token=SecretStr("access-2"),
            refresh_token=None,
            expires_at=None,
        )


async def test_a_note_given_with_invalid_is_kept(
    database: Database, cipher: TokenCipher, clock: FakeWallClock
) -> None:
    registry = TokenRegistry(database, cipher, clock=clock)
    await registry.link(USER, SecretStr("t"))
    assert await registry.mark_invalid(USER, "401 from Magisterium")
    account = await registry.get(USER)
    assert account is not None
    assert (account.status, account.note) == ("invalid", "401 from Magisterium")


async def test_statuses_answers_for_linked_users_only(
    database: Database, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    assert await registry.statuses([]) == {}
    await registry.link(USER, SecretStr("a"))
    await registry.link(OTHER, SecretStr("b"), status="rate_limited")
    assert await registry.statuses([USER, OTHER, 1]) == {USER: "valid", OTHER: "rate_limited"}
    assert await registry.statuses(iter([OTHER])) == {OTHER: "rate_limited"}


# --- the startup check, as the operator reads it ------------------------------------------------


async def test_startup_logs_how_many_tokens_it_checked(
    database: Database, cipher: TokenCipher, caplog: pytest.LogCaptureFixture
) -> None:
    registry = TokenRegistry(database, cipher)
    await registry.link(USER, SecretStr("a"))
    with caplog.at_level(logging.INFO, logger="bot.accounts.registry"):
        assert await registry.check_startup() == 1
    assert "1 token is stored; encryption key checked" in caplog.messages
    await registry.link(OTHER, SecretStr("b"))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.accounts.registry"):
        assert await registry.check_startup() == 2
    assert "2 tokens are stored; encryption key checked" in caplog.messages
    assert warnings_of(caplog, "bot.accounts.registry") == []


async def test_startup_warns_about_the_tokens_no_key_decrypts(
    database: Database, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    await TokenRegistry(database, two_keys(generate_key())).link(USER, SecretStr("lost"))
    registry = TokenRegistry(database, two_keys(key))
    for user_id in (1, 2):
        await registry.link(user_id, SecretStr("kept"))
    with caplog.at_level(logging.INFO, logger="bot.accounts.registry"):
        assert await registry.check_startup() == 3
    assert (
        "1 of 3 stored tokens checked cannot be decrypted with TOKEN_ENCRYPTION_KEY"
        in caplog.messages
    )


async def test_startup_counts_a_row_copied_from_another_user_as_readable(
    database: Database, cipher: TokenCipher, caplog: pytest.LogCaptureFixture
) -> None:
    registry = TokenRegistry(database, cipher)
    await registry.link(USER, SecretStr("a"))
    await registry.link(OTHER, SecretStr("b"))
    copied = (await stored_ciphertexts(database, USER))[0]
    async with database.session() as session:
        await session.execute(
            sa.update(LinkedAccountRow)
            .where(LinkedAccountRow.discord_user_id == OTHER)
            .values(token_ciphertext=copied)
        )
    # The key fits every row; the copied row reads for nobody, but it is no key problem.
    with caplog.at_level(logging.WARNING, logger="bot.accounts.registry"):
        assert await registry.check_startup() == 2
    assert warnings_of(caplog, "bot.accounts.registry") == []


async def test_the_wrong_key_error_says_how_many_were_checked_and_stored(
    database: Database, key: str
) -> None:
    writer = TokenRegistry(database, two_keys(key))
    for user_id in (1, 2, 3):
        await writer.link(user_id, SecretStr("t"))
    with pytest.raises(WrongEncryptionKey) as caught:
        await TokenRegistry(database, two_keys(generate_key())).check_startup()
    assert str(caught.value) == (
        "TOKEN_ENCRYPTION_KEY decrypts none of the 3 stored tokens checked (3 tokens are "
        "stored). Was the key replaced? List the new key first and the old one after it, "
        "comma-separated, then run `python -m bot rotate-keys`."
    )


async def test_startup_checks_the_twenty_most_recently_updated_tokens(
    database: Database, key: str, clock: FakeWallClock, caplog: pytest.LogCaptureFixture
) -> None:
    # The oldest token is one no key decrypts; the 20 newer ones are what startup reads.
    await TokenRegistry(database, two_keys(generate_key()), clock=clock).link(1, SecretStr("x"))
    registry = TokenRegistry(database, two_keys(key), clock=clock)
    for user_id in range(2, 23):
        clock.advance(seconds=1)
        await registry.link(user_id, SecretStr("t"))
    with caplog.at_level(logging.WARNING, logger="bot.accounts.registry"):
        assert await registry.check_startup() == 22
    assert warnings_of(caplog, "bot.accounts.registry") == []


# --- the errors' own words ---------------------------------------------------------------------


def test_an_empty_key_list_says_so() -> None:
    with pytest.raises(InvalidEncryptionKey, match=r"^TOKEN_ENCRYPTION_KEY contains no key$"):
        TokenCipher([])


def test_a_bad_key_says_how_to_make_a_good_one() -> None:
    with pytest.raises(InvalidEncryptionKey) as caught:
        TokenCipher([generate_key(), "not-a-key"])
    assert str(caught.value) == (
        "TOKEN_ENCRYPTION_KEY: key 2 of 2 is not a valid Fernet key (32 url-safe "
        "base64-encoded bytes; make one with `python -m bot genkey`)"
    )


def test_binding_errors_say_what_is_wrong_with_the_secret(cipher: TokenCipher) -> None:
    ciphertext = cipher.encrypt(USER, SecretStr("s"), Purpose.ACCESS_TOKEN)
    with pytest.raises(TokenBindingError, match=r"^the stored secret belongs to someone else$"):
        cipher.decrypt(OTHER, ciphertext, Purpose.ACCESS_TOKEN)
    with pytest.raises(TokenBindingError, match=r"^the stored secret is not a refresh secret$"):
        cipher.decrypt(USER, ciphertext, Purpose.REFRESH_TOKEN)
    ownerless = cipher._fernet.encrypt(b"mgb2:access").decode("ascii")
    with pytest.raises(TokenBindingError, match=r"^the stored secret has no owner$"):
        cipher.decrypt(USER, ownerless, Purpose.ACCESS_TOKEN)


def test_an_undecryptable_secret_names_the_setting(cipher: TokenCipher) -> None:
    foreign = two_keys(generate_key()).encrypt(USER, SecretStr("s"), Purpose.ACCESS_TOKEN)
    with pytest.raises(TokenDecryptionError) as caught:
        cipher.decrypt(USER, foreign, Purpose.ACCESS_TOKEN)
    assert str(caught.value) == "a stored secret cannot be decrypted with any key in " + (
        "TOKEN_ENCRYPTION_KEY"
    )


def test_a_used_up_quota_says_which_pool_and_when() -> None:
    error = QuotaExceeded(45, "qa")
    assert str(error) == "shared-token quota 'qa' used up; retry in 45 s"
    assert (error.retry_after_seconds, error.pool) == (45, "qa")


# --- the shared quota's hourly window -------------------------------------------------------------


@pytest.fixture
def server_in_kolkata() -> Iterator[None]:
    """The process's local time zone is UTC+05:30, as on a server set up in India."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", "Asia/Kolkata")
        time.tzset()
        yield
    time.tzset()


def test_the_hourly_window_starts_on_the_utc_hour(server_in_kolkata: None) -> None:
    now = datetime(2025, 3, 1, 10, 59, 30, 123456, tzinfo=UTC)
    assert window_start(now) == datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
    assert window_start(now).utcoffset() == timedelta(0)
    # An instant given in another zone falls in the same UTC hour.
    assert window_start(now.astimezone()) == datetime(2025, 3, 1, 10, 0, tzinfo=UTC)


async def test_a_refusal_at_the_end_of_the_hour_says_retry_in_one_second(
    database: Database,
) -> None:
    clock = FakeWallClock(datetime(2025, 3, 1, 10, 59, 59, 500000, tzinfo=UTC))
    quota = SharedTokenQuota(database, per_hour=1, qa_per_hour=0, clock=clock)
    with pytest.raises(QuotaExceeded) as no_qa:
        await quota.consume(USER, expensive=True)
    assert (no_qa.value.retry_after_seconds, no_qa.value.pool) == (1, "qa")
    await quota.consume(USER, expensive=False)
    with pytest.raises(QuotaExceeded) as used:
        await quota.consume(USER, expensive=False)
    assert (used.value.retry_after_seconds, used.value.pool) == (1, "all")


async def test_a_zero_limit_still_says_when_to_retry(
    database: Database, clock: FakeWallClock
) -> None:
    quota = SharedTokenQuota(database, per_hour=0, qa_per_hour=0, clock=clock)
    with pytest.raises(QuotaExceeded) as caught:
        await quota.consume(USER, expensive=False)
    assert caught.value.retry_after_seconds == 30  # the clock reads 10:59:30


# --- key rotation over every row -----------------------------------------------------------------


async def add_clients(db: Database, cipher: TokenCipher, keys: list[tuple[str, str]]) -> None:
    async with db.session() as session:
        for issuer, redirect_uri in keys:
            session.add(
                OAuthClientRow(
                    issuer=issuer,
                    redirect_uri=redirect_uri,
                    client_id=f"{issuer} {redirect_uri}",
                    secret_ciphertext=cipher.encrypt(0, SecretStr("s"), Purpose.CLIENT_SECRET),
                    registered_at=EXPIRES,
                )
            )


async def test_rotation_pages_through_a_composite_primary_key(database: Database, key: str) -> None:
    old = two_keys(key)
    clients = [("https://a", "/1"), ("https://a", "/2"), ("https://b", "/1"), ("https://b", "/3")]
    await add_clients(database, old, clients)
    new_key = generate_key()
    counts = await rotate_every_secret(database, two_keys(new_key, key), batch_size=1)
    assert counts["oauth_clients.secret_ciphertext"] == 4
    only_new = two_keys(new_key)
    async with database.session() as session:
        for row in (await session.execute(sa.select(OAuthClientRow))).scalars():
            assert row.secret_ciphertext is not None
            only_new.decrypt(0, row.secret_ciphertext, Purpose.CLIENT_SECRET)


async def test_keyset_pages_are_the_rows_after_the_last_one(database: Database) -> None:
    keys = [SharedTokenUsageRow.discord_user_id, SharedTokenUsageRow.pool]
    async with database.session() as session:
        for user_id in (1, 2):
            for pool in ("all", "qa"):
                session.add(
                    SharedTokenUsageRow(
                        discord_user_id=user_id, window_start=EXPIRES, pool=pool, count=1
                    )
                )
    async with database.session() as session:
        after = sa.select(*keys).where(_after(keys, (1, "all"))).order_by(*keys)
        assert [tuple(row) for row in await session.execute(after)] == [
            (1, "qa"),
            (2, "all"),
            (2, "qa"),
        ]


async def test_a_row_bound_elsewhere_does_not_stop_the_rows_after_it(
    database: Database, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    old = two_keys(key)
    registry = TokenRegistry(database, old)
    for user_id in (1, 2, 3):
        await registry.link(user_id, SecretStr(f"token-{user_id}"))
    # User 1's row holds a copy of user 3's ciphertext: it reads for nobody.
    copied = (await stored_ciphertexts(database, 3))[0]
    async with database.session() as session:
        await session.execute(
            sa.update(LinkedAccountRow)
            .where(LinkedAccountRow.discord_user_id == 1)
            .values(token_ciphertext=copied)
        )
    new_key = generate_key()
    with caplog.at_level(logging.WARNING, logger="bot.accounts.rotation"):
        counts = await rotate_every_secret(database, two_keys(new_key, key), batch_size=10)
    assert counts["linked_accounts.token_ciphertext"] == 2
    assert (
        "a secret in linked_accounts.token_ciphertext is bound to another row: left as it is"
        in caplog.messages
    )
    # The copy is left exactly as it was; the others moved to the new key.
    assert (await stored_ciphertexts(database, 1))[0] == copied
    for user_id in (2, 3):
        account = await TokenRegistry(database, two_keys(new_key)).get(user_id)
        assert account is not None and account.token.get_secret_value() == f"token-{user_id}"


async def test_rotation_logs_how_many_secrets_moved_per_column(
    database: Database, key: str, caplog: pytest.LogCaptureFixture
) -> None:
    await TokenRegistry(database, two_keys(key)).link(USER, SecretStr("t"))
    with caplog.at_level(logging.INFO, logger="bot.accounts.rotation"):
        await rotate_every_secret(database, two_keys(generate_key(), key))
    assert (
        "re-encrypted 1 secrets in linked_accounts.token_ciphertext under the first key"
        in caplog.messages
    )


async def test_an_undecryptable_client_secret_is_named_as_the_bots(database: Database) -> None:
    await add_clients(database, two_keys(generate_key()), [("https://a", "/1")])
    with pytest.raises(TokenDecryptionError) as caught:
        await rotate_every_secret(database, two_keys(generate_key()))
    assert str(caught.value) == (
        "a secret in oauth_clients.secret_ciphertext (of the bot) cannot be decrypted with any "
        "key in TOKEN_ENCRYPTION_KEY; nothing was re-encrypted"
    )


async def test_an_undecryptable_user_secret_is_named_as_that_users(
    database: Database, key: str
) -> None:
    await TokenRegistry(database, two_keys(key)).link(USER, SecretStr("t"))
    with pytest.raises(TokenDecryptionError, match=rf"\(of user {USER}\)"):
        await rotate_every_secret(database, two_keys(generate_key()))

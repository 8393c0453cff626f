"""Sign-in storage on SQLite and PostgreSQL: one-time states (started once, by one browser,
finished only by it; one live state per person), refresh tokens encrypted like tokens, key
rotation, the registered client, and migrations 0005 and 0006 on existing data."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from pydantic import SecretStr
from sqlalchemy import text

from bot.accounts import Purpose, TokenCipher, TokenRegistry
from bot.accounts.rotation import rotate_every_secret
from bot.oauth.binding import browser_hash, new_browser_secret
from bot.oauth.config import OAuthConfig
from bot.oauth.errors import StateProblem
from bot.oauth.metadata import metadata_url
from bot.oauth.states import StateStore, state_hash
from bot.settings import Settings, checked_base_url
from bot.storage import Database
from bot.storage.migrate import HEAD_REVISION
from bot.storage.types import UTCDateTime
from tests.bot.daily.test_store import _alembic
from tests.support.fakes import FakeWallClock

USER = 4242


@pytest.fixture
def states(database: Database, cipher: TokenCipher, clock: FakeWallClock) -> StateStore:
    return StateStore(database, cipher, clock=clock)


async def test_a_state_is_bound_to_its_person_and_works_once(states: StateStore) -> None:
    state = await states.create(USER, "de", "jeanne")
    peeked = await states.peek(state)
    assert (peeked.user_id, peeked.locale, peeked.discord_name) == (USER, "de", "jeanne")
    assert not peeked.started
    assert len(peeked.verifier.get_secret_value()) >= 43
    browser = new_browser_secret()
    await states.start(state, browser)
    assert (await states.peek(state)).started
    taken = await states.take(state, browser)
    assert taken.verifier.get_secret_value() == peeked.verifier.get_secret_value()
    with pytest.raises(StateProblem) as again:
        await states.take(state, browser)
    assert again.value.reason == "replayed"


async def test_a_state_starts_once(states: StateStore) -> None:
    state = await states.create(USER, "en", "jeanne")
    await states.start(state, new_browser_secret())
    for attempt in (states.startable(state), states.start(state, new_browser_secret())):
        with pytest.raises(StateProblem) as refused:
            await attempt
        assert refused.value.reason == "replayed"


async def test_two_browsers_starting_at_once_start_it_once(states: StateStore) -> None:
    state = await states.create(USER, "en", "jeanne")
    outcomes = await asyncio.gather(
        *(states.start(state, new_browser_secret()) for _ in range(5)), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, StateProblem)]
    assert len(refused) == 4 and {r.reason for r in refused} == {"replayed"}


async def test_only_the_browser_that_started_it_can_take_it(states: StateStore) -> None:
    browser = new_browser_secret()
    for other in (None, new_browser_secret(), SecretStr("")):
        state = await states.create(USER, "en", "jeanne")
        await states.start(state, browser)
        with pytest.raises(StateProblem) as refused:
            await states.take(state, other)
        assert refused.value.reason == "other_browser"
        # Used up by that attempt: not even the right browser may take it now.
        with pytest.raises(StateProblem) as again:
            await states.take(state, browser)
        assert again.value.reason == "replayed"
    state = await states.create(USER, "en", "jeanne")
    await states.start(state, browser)
    assert (await states.take(state, browser)).user_id == USER


async def test_a_callback_before_any_browser_started_it_uses_it_up(states: StateStore) -> None:
    state = await states.create(USER, "en", "jeanne")
    with pytest.raises(StateProblem) as unstarted:
        await states.take(state, new_browser_secret())
    assert unstarted.value.reason == "other_browser"
    with pytest.raises(StateProblem) as replayed:
        await states.start(state, new_browser_secret())
    assert replayed.value.reason == "replayed"


async def test_a_new_state_replaces_the_persons_others(states: StateStore) -> None:
    first = await states.create(USER, "en", "jeanne")
    started = await states.create(USER, "en", "jeanne")
    await states.start(started, new_browser_secret())
    someone_else = await states.create(USER + 1, "en", "paul")
    newest = await states.create(USER, "en", "jeanne")
    for gone in (first, started):
        with pytest.raises(StateProblem) as unknown:
            await states.peek(gone)
        assert unknown.value.reason == "unknown"
    assert (await states.peek(newest)).user_id == USER
    assert (await states.peek(someone_else)).user_id == USER + 1


async def test_end_others_keeps_only_the_given_state(
    states: StateStore, database: Database
) -> None:
    kept = await states.create(USER, "en", "jeanne")
    # A second process's state, made at the same moment (create() alone would replace it).
    racing = await states.create(USER + 1, "en", "jeanne")
    async with database.session() as session:
        await session.execute(
            text("UPDATE oauth_states SET discord_user_id = :user WHERE state_hash = :hash"),
            {"user": USER, "hash": state_hash(racing)},
        )
    other_person = await states.create(USER + 2, "en", "paul")
    await states.end_others(USER, kept)
    with pytest.raises(StateProblem):
        await states.peek(racing)
    await states.peek(kept)
    await states.peek(other_person)


async def test_a_state_without_a_discord_name_cannot_start(states: StateStore) -> None:
    """States made before revision 0006 have no name for their page to show."""
    state = await states.create(USER, "en")
    await states.peek(state)  # usable otherwise
    with pytest.raises(StateProblem) as refused:
        await states.startable(state)
    assert refused.value.reason == "unknown"


async def test_an_unknown_or_expired_state_is_refused(
    states: StateStore, clock: FakeWallClock
) -> None:
    with pytest.raises(StateProblem) as unknown:
        await states.peek("not-a-state")
    assert unknown.value.reason == "unknown"
    state = await states.create(USER, "en", "jeanne")
    browser = new_browser_secret()
    await states.start(state, browser)
    clock.advance(minutes=10)
    for attempt in (states.take(state, browser), states.start(state, browser)):
        with pytest.raises(StateProblem) as expired:
            await attempt
        assert expired.value.reason == "expired"


async def test_only_hashes_of_the_state_and_the_browser_secret_are_stored(
    states: StateStore, database: Database
) -> None:
    state = await states.create(USER, "en", "jeanne")
    browser = new_browser_secret()
    await states.start(state, browser)
    async with database.session() as session:
        stored = (await session.execute(text("SELECT * FROM oauth_states"))).mappings().one()
    assert stored["state_hash"] == state_hash(state) != state
    assert stored["browser_hash"] == browser_hash(browser) != browser.get_secret_value()
    assert state not in str(dict(stored))
    assert browser.get_secret_value() not in str(dict(stored))


async def test_unlinking_ends_a_sign_in_in_progress(
    states: StateStore, database: Database, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    state = await states.create(USER, "en")
    await registry.unlink(USER)
    with pytest.raises(StateProblem):
        await states.peek(state)


async def test_refresh_tokens_are_encrypted_rotated_and_replaced(
    database: Database, key: str, clock: FakeWallClock
) -> None:
    cipher = TokenCipher.from_setting(key)
    assert cipher is not None
    registry = TokenRegistry(database, cipher, clock=clock)
    expires = clock() + timedelta(hours=1)
    await registry.link(
        USER, SecretStr("oauth-at-1"), refresh_token=SecretStr("oauth-rt-1"), expires_at=expires
    )
    async with database.session() as session:
        row = (await session.execute(text("SELECT * FROM linked_accounts"))).mappings().one()
    assert "oauth-rt-1" not in str(dict(row)) and row["refresh_ciphertext"]

    account = await registry.get(USER)
    assert account is not None and account.refresh_token is not None
    assert account.refresh_token.get_secret_value() == "oauth-rt-1"
    assert account.expires_at == expires

    clock.advance(seconds=1)
    stored = await registry.refreshed(
        USER,
        old_refresh_token=SecretStr("oauth-rt-1"),
        token=SecretStr("oauth-at-2"),
        refresh_token=SecretStr("oauth-rt-2"),
        expires_at=expires + timedelta(hours=1),
    )
    assert stored
    # A second process refreshing with the old refresh token must not overwrite the new one.
    assert not await registry.refreshed(
        USER,
        old_refresh_token=SecretStr("oauth-rt-1"),
        token=SecretStr("stale"),
        refresh_token=None,
        expires_at=None,
    )

    both = TokenCipher.from_setting(f"{_new_key()},{key}")
    assert both is not None
    rotated = await rotate_every_secret(database, both)
    assert rotated["linked_accounts.token_ciphertext"] == 1
    assert rotated["linked_accounts.refresh_ciphertext"] == 1
    only_new = TokenRegistry(database, TokenCipher.from_setting(_KEYS[-1]))
    account = await only_new.get(USER)
    assert account is not None and account.refresh_token is not None
    assert (account.token.get_secret_value(), account.refresh_token.get_secret_value()) == (
        "oauth-at-2",
        "oauth-rt-2",
    )

    await only_new.link(USER, SecretStr("pasted-token"))  # pasting replaces the sign-in
    account = await only_new.get(USER)
    assert account is not None
    assert (account.refresh_token, account.expires_at) == (None, None)


_KEYS: list[str] = []


def _new_key() -> str:
    from bot.accounts.crypto import generate_key

    _KEYS.append(generate_key())
    return _KEYS[-1]


async def test_migration_0005_keeps_existing_accounts(database_url: str, key: str) -> None:
    cipher = TokenCipher.from_setting(key)
    assert cipher is not None
    await _alembic(database_url, "upgrade", "0004")
    async with Database(database_url) as database:
        old_table = sa.table(  # linked_accounts as revision 0004 has it
            "linked_accounts",
            sa.column("discord_user_id"),
            sa.column("token_ciphertext"),
            sa.column("status"),
            sa.column("linked_at", UTCDateTime()),
            sa.column("updated_at", UTCDateTime()),
        )
        when = datetime(2026, 1, 1, tzinfo=UTC)
        async with database.session() as session:
            await session.execute(
                old_table.insert().values(
                    discord_user_id=USER,
                    token_ciphertext=cipher.encrypt(
                        USER, SecretStr("old-token"), Purpose.ACCESS_TOKEN
                    ),
                    status="valid",
                    linked_at=when,
                    updated_at=when,
                )
            )
        assert await database.migrate() == HEAD_REVISION
        account = await TokenRegistry(database, cipher).get(USER)
        assert account is not None and account.token.get_secret_value() == "old-token"
        assert (account.refresh_token, account.expires_at) == (None, None)
    await _alembic(database_url, "downgrade", "0004")
    async with Database(database_url) as database:
        assert await database.revision() == "0004"
        async with database.session() as session:
            count = await session.execute(text("SELECT count(*) FROM linked_accounts"))
            assert count.scalar_one() == 1


async def test_migration_0006_keeps_a_sign_in_in_progress(
    database_url: str, key: str, clock: FakeWallClock
) -> None:
    """A state made before 0006 survives it (without a name its page cannot start it), and a
    downgrade keeps the states made after."""
    cipher = TokenCipher.from_setting(key)
    assert cipher is not None
    await _alembic(database_url, "upgrade", "0005")
    when = clock()
    async with Database(database_url) as database:
        old_table = sa.table(  # oauth_states as revision 0005 has it
            "oauth_states",
            sa.column("state_hash"),
            sa.column("discord_user_id"),
            sa.column("verifier_ciphertext"),
            sa.column("locale"),
            sa.column("created_at", UTCDateTime()),
            sa.column("expires_at", UTCDateTime()),
        )
        verifier = cipher.encrypt(USER, SecretStr("v" * 43), Purpose.PKCE_VERIFIER)
        async with database.session() as session:
            await session.execute(
                old_table.insert().values(
                    state_hash=state_hash("old-state"),
                    discord_user_id=USER,
                    verifier_ciphertext=verifier,
                    locale="fr",
                    created_at=when,
                    expires_at=when + timedelta(minutes=10),
                )
            )
        assert await database.migrate() == HEAD_REVISION
        states = StateStore(database, cipher, clock=clock)
        old = await states.peek("old-state")
        assert (old.locale, old.discord_name, old.started) == ("fr", None, False)
        with pytest.raises(StateProblem):
            await states.startable("old-state")
        new = await states.create(USER + 1, "en", "paul")
        await states.start(new, new_browser_secret())
    await _alembic(database_url, "downgrade", "0005")
    async with Database(database_url) as database, database.session() as session:
        count = await session.execute(text("SELECT count(*) FROM oauth_states"))
        assert count.scalar_one() == 2


# --- settings and URLs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://bot.example.org", True),
        ("https://bot.example.org/", True),
        ("http://127.0.0.1:8080", True),
        ("http://localhost:8080", True),
        ("http://bot.example.org", False),  # codes and tokens would travel in clear
        ("ftp://bot.example.org", False),
        ("bot.example.org", False),
        ("https://bot.example.org/?x=1", False),
    ],
)
def test_public_base_url_must_be_https_except_for_localhost(url: str, ok: bool) -> None:
    if ok:
        assert checked_base_url(url) == url.rstrip("/")
    else:
        with pytest.raises(ValueError):
            checked_base_url(url)


def test_sign_in_is_on_only_with_a_public_url_and_a_web_server() -> None:
    base = {"_env_file": None, "public_base_url": "https://bot.example.org"}
    assert OAuthConfig.from_settings(Settings(**base)) is None  # type: ignore[arg-type]
    config = OAuthConfig.from_settings(Settings(**base, web_port=8080))  # type: ignore[arg-type]
    assert config is not None
    assert config.redirect_uri == "https://bot.example.org/oauth/callback"
    assert config.issuer == "https://www.magisterium.com"
    assert config.start_url("abc") == "https://bot.example.org/oauth/start/abc"


@pytest.mark.parametrize(
    ("issuer", "url"),
    [
        (
            "https://www.magisterium.com",
            "https://www.magisterium.com/.well-known/oauth-authorization-server",
        ),
        (
            "https://auth.example.org/tenant/one",
            "https://auth.example.org/.well-known/oauth-authorization-server/tenant/one",
        ),
    ],
)
def test_metadata_is_looked_up_where_rfc_8414_puts_it(issuer: str, url: str) -> None:
    assert metadata_url(issuer) == url

"""Token encryption: owner binding, key rotation, bad keys; and the limiter's token key."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet
from pydantic import SecretStr

from bot.accounts import (
    InvalidEncryptionKey,
    LinkedAccount,
    Purpose,
    TokenBindingError,
    TokenCipher,
    TokenDecryptionError,
    generate_key,
    token_key,
)

TOKEN = SecretStr("mag-live-7f3a9c2e1b")


def cipher_for(*keys: str) -> TokenCipher:
    cipher = TokenCipher.from_setting(",".join(keys))
    assert cipher is not None
    return cipher


ACCESS = Purpose.ACCESS_TOKEN


def test_a_token_round_trips_for_its_owner(cipher: TokenCipher) -> None:
    ciphertext = cipher.encrypt(42, TOKEN, ACCESS)
    assert TOKEN.get_secret_value() not in ciphertext
    assert cipher.decrypt(42, ciphertext, ACCESS) == TOKEN


def test_a_token_may_contain_the_separator(cipher: TokenCipher) -> None:
    token = SecretStr("a:b:c")
    assert cipher.decrypt(7, cipher.encrypt(7, token, ACCESS), ACCESS) == token


def test_a_ciphertext_does_not_decrypt_for_another_user(cipher: TokenCipher) -> None:
    ciphertext = cipher.encrypt(42, TOKEN, ACCESS)
    with pytest.raises(TokenBindingError) as raised:
        cipher.decrypt(43, ciphertext, ACCESS)
    assert TOKEN.get_secret_value() not in str(raised.value)


@pytest.mark.parametrize("written", list(Purpose))
def test_a_ciphertext_reads_back_only_as_what_it_was_written_for(
    cipher: TokenCipher, written: Purpose
) -> None:
    """An access token copied into the refresh column of the same row is not a refresh token."""
    ciphertext = cipher.encrypt(42, TOKEN, written)
    assert cipher.decrypt(42, ciphertext, written) == TOKEN
    for other in set(Purpose) - {written}:
        with pytest.raises(TokenBindingError) as raised:
            cipher.decrypt(42, ciphertext, other)
        assert TOKEN.get_secret_value() not in str(raised.value)


def legacy_ciphertext(key: str, owner: int, secret: str) -> str:
    """A row as the bot wrote it before purposes existed: ``mgb1:<owner>:<secret>``."""
    return Fernet(key.encode()).encrypt(f"mgb1:{owner}:{secret}".encode()).decode()


def test_a_row_written_before_purposes_still_reads_for_its_owner(
    key: str, cipher: TokenCipher
) -> None:
    old = legacy_ciphertext(key, 42, "a:b")
    assert cipher.decrypt(42, old, Purpose.REFRESH_TOKEN).get_secret_value() == "a:b"
    with pytest.raises(TokenBindingError):
        cipher.decrypt(43, old, Purpose.REFRESH_TOKEN)


def test_reencrypting_upgrades_a_legacy_row_and_binds_its_purpose(
    key: str, cipher: TokenCipher
) -> None:
    upgraded = cipher.reencrypt(42, legacy_ciphertext(key, 42, "tok"), ACCESS)
    assert cipher.decrypt(42, upgraded, ACCESS).get_secret_value() == "tok"
    with pytest.raises(TokenBindingError):
        cipher.decrypt(42, upgraded, Purpose.REFRESH_TOKEN)


def test_a_ciphertext_from_another_key_does_not_decrypt(cipher: TokenCipher) -> None:
    foreign = cipher_for(generate_key()).encrypt(42, TOKEN, ACCESS)
    with pytest.raises(TokenDecryptionError) as raised:
        cipher.decrypt(42, foreign, ACCESS)
    assert not isinstance(raised.value, TokenBindingError)


@pytest.mark.parametrize("plaintext", ["mag-live-7f3a9c2e1b", "mgb2:access:42", "mgb3:access:42:x"])
def test_a_payload_without_an_owner_is_refused(
    key: str, cipher: TokenCipher, plaintext: str
) -> None:
    unbound = Fernet(key.encode()).encrypt(plaintext.encode()).decode()
    with pytest.raises(TokenBindingError) as raised:
        cipher.decrypt(42, unbound, ACCESS)
    assert TOKEN.get_secret_value() not in str(raised.value)


def test_reencrypting_moves_a_ciphertext_to_the_first_key() -> None:
    old_key, new_key = generate_key(), generate_key()
    ciphertext = cipher_for(old_key).encrypt(42, TOKEN, ACCESS)

    rotated = cipher_for(new_key, old_key).reencrypt(42, ciphertext, ACCESS)

    assert cipher_for(new_key).decrypt(42, rotated, ACCESS) == TOKEN
    with pytest.raises(TokenDecryptionError):
        cipher_for(old_key).decrypt(42, rotated, ACCESS)
    with pytest.raises(TokenBindingError):  # the binding survives rotation
        cipher_for(new_key).decrypt(43, rotated, ACCESS)


def test_reencrypting_a_ciphertext_of_an_unknown_key_fails(cipher: TokenCipher) -> None:
    with pytest.raises(TokenDecryptionError):
        cipher.reencrypt(1, cipher_for(generate_key()).encrypt(1, TOKEN, ACCESS), ACCESS)


def test_the_first_key_encrypts() -> None:
    first, second = generate_key(), generate_key()
    ciphertext = cipher_for(first, second).encrypt(1, TOKEN, ACCESS)
    assert cipher_for(first).decrypt(1, ciphertext, ACCESS) == TOKEN


@pytest.mark.parametrize("value", [None, "", "  ", " , ", SecretStr("")])
def test_an_unset_setting_gives_no_cipher(value: str | SecretStr | None) -> None:
    assert TokenCipher.from_setting(value) is None


def test_keys_are_read_from_a_secret_with_spaces_around_commas() -> None:
    first, second = generate_key(), generate_key()
    cipher = TokenCipher.from_setting(SecretStr(f" {first} , {second} "))
    assert cipher is not None
    assert cipher.key_count == 2


@pytest.mark.parametrize(
    ("keys", "position"),
    [
        (["not-a-key-hunter2"], "key 1 of 1"),
        ([generate_key(), "c2hvcnQta2V5LWh1bnRlcjI="], "key 2 of 2"),
        ([generate_key(), generate_key(), "ключ-hunter2"], "key 3 of 3"),
    ],
)
def test_a_bad_key_names_its_position_without_echoing_it(keys: list[str], position: str) -> None:
    with pytest.raises(InvalidEncryptionKey, match=position) as raised:
        TokenCipher.from_setting(",".join(keys))
    shown = str(raised.value)
    assert "TOKEN_ENCRYPTION_KEY" in shown
    assert all(key not in shown for key in keys)
    assert "hunter2" not in shown
    assert raised.value.__cause__ is None
    assert raised.value.__suppress_context__


def test_nothing_secret_shows_in_reprs(key: str, cipher: TokenCipher) -> None:
    assert key not in repr(cipher)
    assert repr(cipher) == "TokenCipher(keys=1)"
    account = LinkedAccount(1, TOKEN, "valid", None, None, None)  # type: ignore[arg-type]
    assert TOKEN.get_secret_value() not in repr(account)
    assert TOKEN.get_secret_value() not in str(account)


def test_generated_keys_are_fresh_fernet_keys() -> None:
    first, second = generate_key(), generate_key()
    assert first != second
    Fernet(first.encode())


def test_token_key_is_stable_short_and_reveals_nothing() -> None:
    key = token_key(TOKEN)
    assert key == token_key(SecretStr(TOKEN.get_secret_value()))
    assert len(key) == 16
    assert int(key, 16) >= 0
    assert TOKEN.get_secret_value() not in key
    assert key != token_key(SecretStr(TOKEN.get_secret_value() + "x"))


def test_token_key_does_not_change_between_versions() -> None:
    # Limiter buckets can outlive a deploy (Redis): the same token must keep its bucket.
    assert token_key(SecretStr("example-token")) == "8d99570ffac9870b"

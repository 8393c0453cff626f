"""Each xdist worker gets a Redis database of its own (tests/support/workers.py)."""

from __future__ import annotations

import pytest

from tests.support.workers import redis_url, worker_number


@pytest.mark.parametrize(
    ("worker", "number", "database"),
    [(None, 0, 1), ("gw0", 0, 1), ("gw1", 1, 2), ("gw14", 14, 15), ("gw15", 15, 1)],
)
def test_a_worker_has_its_own_redis_database(
    monkeypatch: pytest.MonkeyPatch, worker: str | None, number: int, database: int
) -> None:
    if worker is None:
        monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    else:
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    assert worker_number() == number
    assert redis_url() == f"redis://127.0.0.1:6379/{database}"

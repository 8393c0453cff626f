"""The "Was it helpful?" store on SQLite and PostgreSQL: the keyed voter hash and its key, one
vote per person per answer (recorded, changed, withdrawn), the counts per server, retention,
the counter, and deletion by /account unlink."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac

import pytest
from sqlalchemy import func, select, text

from bot.accounts import TokenCipher, TokenRegistry
from bot.observability.metrics import Metrics
from bot.services.feedback import (
    RETENTION,
    VOTER_KEY_NAME,
    FeedbackCounts,
    FeedbackStore,
    VoteOutcome,
    voter_hash,
)
from bot.storage import Database
from bot.storage.housekeeping import PURGE_EVERY
from bot.storage.models import AnswerFeedbackRow, InstallSecretRow
from tests.support.fakes import FakeWallClock

T0 = dt.datetime(2026, 3, 1, 9, tzinfo=dt.UTC)
ALICE, BOB = 1_234_567_890_123_456_789, 11
PARISH, ABBEY = 900, 901
ANSWER, OTHER_ANSWER = "0b4c7a52-8d57-4d0e-9a1e-3f1f2c1d9e01", "task-2"


@pytest.fixture
def clock() -> FakeWallClock:
    return FakeWallClock(T0)


@pytest.fixture
def metrics() -> Metrics:
    return Metrics()


@pytest.fixture
def store(database: Database, clock: FakeWallClock, metrics: Metrics) -> FeedbackStore:
    return FeedbackStore(database, metrics=metrics, clock=clock)


async def rows(database: Database) -> list[tuple[str, str, int | None, str, dt.datetime]]:
    async with database.session() as session:
        found = await session.execute(
            select(
                AnswerFeedbackRow.answer_id,
                AnswerFeedbackRow.voter,
                AnswerFeedbackRow.guild_id,
                AnswerFeedbackRow.verdict,
                AnswerFeedbackRow.voted_at,
            ).order_by(AnswerFeedbackRow.answer_id, AnswerFeedbackRow.voter)
        )
        return [tuple(row) for row in found.all()]  # type: ignore[misc]


def counted(metrics: Metrics, verdict: str) -> float:
    value = metrics.registry.get_sample_value(
        "magisterium_bot_answer_feedback_total", {"verdict": verdict}
    )
    assert value is not None
    return value


# --- the voter hash and its key --------------------------------------------------------------


def test_the_voter_is_hmac_sha256_of_the_user_id_under_the_key() -> None:
    key = bytes(range(32))
    expected = hmac.new(key, str(ALICE).encode(), hashlib.sha256).hexdigest()
    assert voter_hash(key, ALICE) == expected
    assert len(expected) == 64 and int(expected, 16) >= 0
    assert voter_hash(key, ALICE) != voter_hash(key, BOB)
    assert voter_hash(bytes(32), ALICE) != expected  # another install: another hash
    # Not a plain hash of the id: without the key, nobody can test ids against it.
    assert expected != hashlib.sha256(str(ALICE).encode()).hexdigest()


async def test_the_key_is_made_on_first_use_kept_and_reused(
    database: Database, store: FeedbackStore, clock: FakeWallClock
) -> None:
    key = await store.voter_key()
    assert len(key) == 32
    async with database.session() as session:
        [row] = (await session.execute(select(InstallSecretRow))).scalars().all()
    assert row.name == VOTER_KEY_NAME
    assert bytes.fromhex(row.value) == key and row.created_at == T0
    # Another process (a new store on the same database) finds the same key.
    assert await FeedbackStore(database, clock=clock).voter_key() == key


async def test_two_processes_racing_to_make_the_key_end_with_one(
    migrated_database_url: str, clock: FakeWallClock
) -> None:
    async with Database(migrated_database_url) as one, Database(migrated_database_url) as two:
        stores = [FeedbackStore(db, clock=clock) for db in (one, two, one, two)]
        keys = await asyncio.gather(*(s.voter_key() for s in stores))
        async with one.session() as session:
            stored = await session.scalar(select(func.count()).select_from(InstallSecretRow))
    assert len(set(keys)) == 1 and stored == 1


async def test_a_key_stored_meanwhile_wins_over_the_one_made_here(
    database: Database, store: FeedbackStore
) -> None:
    # Another process inserted between this one's decision to make a key and its insert.
    async with database.session() as session:
        session.add(InstallSecretRow(name=VOTER_KEY_NAME, value="ab" * 32, created_at=T0))
    assert await store.voter_key() == bytes.fromhex("ab" * 32)


# --- one vote per person per answer ----------------------------------------------------------


async def test_a_vote_is_recorded_changed_and_withdrawn(
    database: Database, store: FeedbackStore, clock: FakeWallClock
) -> None:
    voter = await store.voter(ALICE)

    vote = {"answer_id": ANSWER, "user_id": ALICE, "guild_id": PARISH}
    assert await store.vote(**vote, verdict="helpful") is VoteOutcome.RECORDED
    assert await rows(database) == [(ANSWER, voter, PARISH, "helpful", T0)]

    clock.advance(minutes=5)
    assert await store.vote(**vote, verdict="not_helpful") is VoteOutcome.CHANGED
    assert await rows(database) == [(ANSWER, voter, PARISH, "not_helpful", clock.now)]

    assert await store.vote(**vote, verdict="not_helpful") is VoteOutcome.WITHDRAWN
    assert await rows(database) == []

    assert await store.vote(**vote, verdict="not_helpful") is VoteOutcome.RECORDED
    assert len(await rows(database)) == 1


async def test_one_vote_per_person_per_answer(database: Database, store: FeedbackStore) -> None:
    await store.vote(answer_id=ANSWER, user_id=ALICE, guild_id=PARISH, verdict="helpful")
    await store.vote(answer_id=ANSWER, user_id=BOB, guild_id=PARISH, verdict="helpful")
    await store.vote(answer_id=OTHER_ANSWER, user_id=ALICE, guild_id=PARISH, verdict="helpful")
    stored = await rows(database)
    assert len(stored) == 3
    assert {(answer, voter) for answer, voter, *_ in stored} == {
        (ANSWER, await store.voter(ALICE)),
        (ANSWER, await store.voter(BOB)),
        (OTHER_ANSWER, await store.voter(ALICE)),
    }


async def test_a_double_press_at_once_leaves_one_consistent_vote(
    database: Database, store: FeedbackStore
) -> None:
    vote = {"answer_id": ANSWER, "user_id": ALICE, "guild_id": PARISH, "verdict": "helpful"}
    outcomes = await asyncio.gather(store.vote(**vote), store.vote(**vote))  # type: ignore[arg-type]
    # Two presses of the same button: a vote, then its withdrawal, in some order.
    assert sorted(outcomes) == [VoteOutcome.RECORDED, VoteOutcome.WITHDRAWN]
    assert await rows(database) == []


async def test_nothing_stored_names_the_voter(database: Database, store: FeedbackStore) -> None:
    await store.vote(answer_id=ANSWER, user_id=ALICE, guild_id=None, verdict="helpful")
    async with database.session() as session:
        stored = (await session.execute(text("SELECT * FROM answer_feedback"))).all()
    everything = " ".join(str(value) for row in stored for value in row)
    assert str(ALICE) not in everything
    assert hashlib.sha256(str(ALICE).encode()).hexdigest() not in everything


async def test_an_unknown_verdict_is_refused(store: FeedbackStore) -> None:
    with pytest.raises(ValueError, match="verdict"):
        await store.vote(answer_id=ANSWER, user_id=ALICE, guild_id=None, verdict="meh")  # type: ignore[arg-type]


# --- counts, the counter and retention -------------------------------------------------------


async def test_counts_are_per_server_over_the_last_30_days(
    store: FeedbackStore, clock: FakeWallClock
) -> None:
    assert await store.counts(PARISH) == FeedbackCounts(0, 0)
    await store.vote(answer_id="old", user_id=ALICE, guild_id=PARISH, verdict="helpful")
    clock.advance(days=10)
    for user in range(5):
        verdict = "helpful" if user < 3 else "not_helpful"
        await store.vote(answer_id=ANSWER, user_id=user, guild_id=PARISH, verdict=verdict)
    await store.vote(answer_id=ANSWER, user_id=99, guild_id=ABBEY, verdict="not_helpful")
    await store.vote(answer_id=ANSWER, user_id=98, guild_id=None, verdict="helpful")  # a DM
    assert await store.counts(PARISH) == FeedbackCounts(helpful=4, not_helpful=2)
    assert await store.counts(ABBEY) == FeedbackCounts(helpful=0, not_helpful=1)
    clock.advance(days=21)  # the first vote is now 31 days old
    assert await store.counts(PARISH) == FeedbackCounts(helpful=3, not_helpful=2)
    # A withdrawn vote no longer counts; a changed one counts as what it is now.
    await store.vote(answer_id=ANSWER, user_id=0, guild_id=PARISH, verdict="helpful")
    await store.vote(answer_id=ANSWER, user_id=3, guild_id=PARISH, verdict="helpful")
    assert await store.counts(PARISH) == FeedbackCounts(helpful=3, not_helpful=1)


async def test_the_counter_counts_each_verdict_cast_never_a_withdrawal(
    store: FeedbackStore, metrics: Metrics
) -> None:
    assert counted(metrics, "helpful") == counted(metrics, "not_helpful") == 0
    vote = {"answer_id": ANSWER, "user_id": ALICE, "guild_id": PARISH}
    await store.vote(**vote, verdict="helpful")  # recorded
    await store.vote(**vote, verdict="not_helpful")  # changed
    await store.vote(**vote, verdict="not_helpful")  # withdrawn
    await store.vote(**vote, verdict="not_helpful")  # recorded again
    assert counted(metrics, "helpful") == 1
    assert counted(metrics, "not_helpful") == 2


async def test_votes_older_than_30_days_are_purged_as_new_ones_come(
    database: Database, store: FeedbackStore, clock: FakeWallClock
) -> None:
    assert dt.timedelta(days=30) == RETENTION
    await store.vote(answer_id="a", user_id=ALICE, guild_id=PARISH, verdict="helpful")
    clock.advance(days=29, hours=23)
    await store.vote(answer_id="b", user_id=ALICE, guild_id=PARISH, verdict="helpful")
    assert len(await rows(database)) == 2  # "a" is not 30 days old yet
    clock.advance(hours=2)
    await store.vote(answer_id="c", user_id=ALICE, guild_id=None, verdict="helpful")
    assert [row[0] for row in await rows(database)] == ["b", "c"]


async def test_the_purge_runs_at_most_once_an_hour(
    database: Database, store: FeedbackStore, clock: FakeWallClock
) -> None:
    async def stale_vote(answer_id: str) -> None:
        """A vote from long ago, written straight into the table."""
        async with database.session() as session:
            session.add(
                AnswerFeedbackRow(
                    answer_id=answer_id,
                    voter="0" * 64,
                    guild_id=PARISH,
                    verdict="helpful",
                    voted_at=clock.now - RETENTION - dt.timedelta(days=1),
                )
            )

    await stale_vote("stale-1")
    await store.vote(answer_id="a", user_id=ALICE, guild_id=PARISH, verdict="helpful")
    assert [row[0] for row in await rows(database)] == ["a"]  # the first vote purges
    await stale_vote("stale-2")
    clock.advance(seconds=PURGE_EVERY.total_seconds() - 1)
    await store.vote(answer_id="b", user_id=ALICE, guild_id=PARISH, verdict="helpful")
    assert [row[0] for row in await rows(database)] == ["a", "b", "stale-2"]  # not yet
    clock.advance(seconds=1)
    await store.vote(answer_id="c", user_id=ALICE, guild_id=PARISH, verdict="helpful")
    assert [row[0] for row in await rows(database)] == ["a", "b", "c"]


# --- /account unlink -------------------------------------------------------------------------


async def test_unlink_deletes_the_persons_votes_and_nobody_elses(
    database: Database, store: FeedbackStore, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    await store.vote(answer_id=ANSWER, user_id=ALICE, guild_id=PARISH, verdict="helpful")
    await store.vote(answer_id=OTHER_ANSWER, user_id=ALICE, guild_id=None, verdict="not_helpful")
    await store.vote(answer_id=ANSWER, user_id=BOB, guild_id=PARISH, verdict="helpful")
    assert await registry.unlink(ALICE) is False  # no token linked; the rest goes all the same
    bob = await store.voter(BOB)
    assert [(answer, voter) for answer, voter, *_ in await rows(database)] == [(ANSWER, bob)]
    assert await store.counts(PARISH) == FeedbackCounts(helpful=1, not_helpful=0)


async def test_what_unlink_deleted_counts_the_votes(
    database: Database, store: FeedbackStore, cipher: TokenCipher
) -> None:
    registry = TokenRegistry(database, cipher)
    await store.vote(answer_id=ANSWER, user_id=ALICE, guild_id=PARISH, verdict="helpful")
    await store.vote(answer_id=OTHER_ANSWER, user_id=ALICE, guild_id=None, verdict="helpful")
    await store.vote(answer_id=ANSWER, user_id=BOB, guild_id=PARISH, verdict="helpful")
    deleted = await registry.delete_everything(ALICE)
    assert deleted.count(AnswerFeedbackRow.__tablename__) == 2  # not Bob's
    assert deleted.anything and not deleted.token  # votes, no token
    assert not (await registry.delete_everything(ALICE)).anything


async def test_unlink_before_any_vote_makes_no_key(
    database: Database, clock: FakeWallClock
) -> None:
    FeedbackStore(database, clock=clock)
    assert await database.delete_user_data(ALICE) == {"answer_feedback": 0}
    async with database.session() as session:
        assert await session.scalar(select(func.count()).select_from(InstallSecretRow)) == 0

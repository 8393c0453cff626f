"""“Was it helpful?”: one vote per person per answer, stored without naming anyone.

A vote is a row of ``answer_feedback``: the answer's id (its task id), the voter, the server
(None in a DM), the verdict and when. The voter is HMAC-SHA256 of the Discord user id under a
key this installation makes on first use and keeps in ``install_secrets``: the same person gets
the same hash on every answer (one vote each), yet the rows name nobody to whoever reads them
without the key. ``/account unlink`` recomputes the hash to delete the person's votes.

Voting (:meth:`FeedbackStore.vote`):

* no vote yet: the verdict is **recorded**;
* the other verdict: the vote is **changed** to it (and dated now);
* the same verdict again: the vote is **withdrawn** (deleted).

``magisterium_bot_answer_feedback_total{verdict}`` counts each verdict cast: a new vote and a
changed one count their (new) verdict; a withdrawal counts nothing (a counter never goes down;
the stored votes, which ``/server status`` reads, are what stands now).

Votes are kept ``RETENTION`` (30 days, the window ``/server status`` shows), then deleted: the
first vote a process records, and then at most one an hour (:mod:`bot.storage.housekeeping`),
deletes every vote older than that.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.accounts.wall_clock import Clock, utcnow
from bot.storage import Database, StorageUnavailable
from bot.storage.housekeeping import OccasionalPurge, rowcount
from bot.storage.models import AnswerFeedbackRow as Row
from bot.storage.models import InstallSecretRow
from bot.storage.upsert import dialect_insert

if TYPE_CHECKING:
    from bot.observability.metrics import Metrics

log = logging.getLogger(__name__)

Verdict = Literal["helpful", "not_helpful"]
VERDICTS: tuple[Verdict, ...] = ("helpful", "not_helpful")
RETENTION = timedelta(days=30)
VOTER_KEY_NAME = "answer_feedback_voter_key"
VOTER_KEY_BYTES = 32
# A vote is one of three writes; a concurrent press of the same person can make the one tried
# find nothing (another withdrew or cast it meanwhile): try again, a few times at most.
_ATTEMPTS = 3


class VoteOutcome(StrEnum):
    RECORDED = "recorded"
    CHANGED = "changed"
    WITHDRAWN = "withdrawn"


@dataclass(frozen=True)
class FeedbackCounts:
    """The votes standing now, cast in a window (per server)."""

    helpful: int = 0
    not_helpful: int = 0


def voter_hash(key: bytes, user_id: int) -> str:
    """The voter column for ``user_id``: HMAC-SHA256 under ``key``, 64 hex digits."""
    return hmac.new(key, str(user_id).encode("ascii"), hashlib.sha256).hexdigest()


class FeedbackStore:
    def __init__(
        self,
        db: Database,
        *,
        metrics: Metrics | None = None,
        clock: Clock = utcnow,
        retention: timedelta = RETENTION,
    ) -> None:
        self._db = db
        self._metrics = metrics
        self.clock = clock
        self.retention = retention
        self._key: bytes | None = None
        self._key_lock = asyncio.Lock()
        self._purges = OccasionalPurge(
            self.purge, rows="answer feedback votes past their retention"
        )
        db.user_data.register(Row.__tablename__, self._delete_votes_of)

    # --- the key ---------------------------------------------------------------------------

    async def voter_key(self) -> bytes:
        """This installation's key, made on first use: every process ends with the same one
        (the first insert wins; everyone reads what is stored)."""
        if self._key is not None:
            return self._key
        async with self._key_lock:
            if self._key is None:
                self._key = await self._stored_or_new_key()
        return self._key

    async def _stored_or_new_key(self) -> bytes:
        insert = (
            dialect_insert(self._db.dialect_name, InstallSecretRow)
            .values(
                name=VOTER_KEY_NAME,
                value=secrets.token_hex(VOTER_KEY_BYTES),
                created_at=self.clock(),
            )
            .on_conflict_do_nothing(index_elements=[InstallSecretRow.name])
        )
        async with self._db.session() as session:
            await session.execute(insert)
        async with self._db.session() as session:
            stored = await session.scalar(_key_query())
        if stored is None:  # pragma: no cover - inserted or already there just above
            raise RuntimeError("the voters' key was neither stored nor found")
        return bytes.fromhex(stored)

    async def voter(self, user_id: int) -> str:
        return voter_hash(await self.voter_key(), user_id)

    # --- voting ----------------------------------------------------------------------------

    async def vote(
        self, *, answer_id: str, user_id: int, guild_id: int | None, verdict: Verdict
    ) -> VoteOutcome:
        """Record, change or withdraw ``user_id``'s vote on ``answer_id`` (see the module)."""
        if verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}")
        voter = await self.voter(user_id)
        now = self.clock()
        async with self._db.session() as session:
            outcome = await self._cast(
                session,
                answer_id=answer_id,
                voter=voter,
                guild_id=guild_id,
                verdict=verdict,
                now=now,
            )
        if outcome is not VoteOutcome.WITHDRAWN and self._metrics is not None:
            self._metrics.answer_feedback_given(verdict)
        await self._purges.after_write(now)
        return outcome

    async def _cast(
        self,
        session: AsyncSession,
        *,
        answer_id: str,
        voter: str,
        guild_id: int | None,
        verdict: Verdict,
        now: datetime,
    ) -> VoteOutcome:
        """One transaction: the first of insert, change, withdraw that finds its row."""
        this = and_(Row.answer_id == answer_id, Row.voter == voter)
        for _attempt in range(_ATTEMPTS):
            insert = (
                dialect_insert(self._db.dialect_name, Row)
                .values(
                    answer_id=answer_id,
                    voter=voter,
                    guild_id=guild_id,
                    verdict=verdict,
                    voted_at=now,
                )
                .on_conflict_do_nothing(index_elements=[Row.answer_id, Row.voter])
                .returning(Row.answer_id)
            )
            if (await session.execute(insert)).first() is not None:
                return VoteOutcome.RECORDED
            change = (
                update(Row)
                .where(this, Row.verdict != verdict)
                .values(verdict=verdict, voted_at=now, guild_id=guild_id)
            )
            if rowcount(await session.execute(change)):
                return VoteOutcome.CHANGED
            withdraw = delete(Row).where(this, Row.verdict == verdict)
            if rowcount(await session.execute(withdraw)):
                return VoteOutcome.WITHDRAWN
        raise StorageUnavailable("the vote kept changing under a concurrent press")

    # --- counts and retention --------------------------------------------------------------

    async def counts(self, guild_id: int, *, window: timedelta | None = None) -> FeedbackCounts:
        """The votes cast in server ``guild_id`` in the last ``window`` (the retention) that
        stand now."""
        since = self.clock() - (window or self.retention)
        query = (
            select(Row.verdict, func.count())
            .where(Row.guild_id == guild_id, Row.voted_at >= since)
            .group_by(Row.verdict)
        )
        async with self._db.session() as session:
            found = {verdict: count for verdict, count in (await session.execute(query)).all()}
        return FeedbackCounts(
            helpful=int(found.get("helpful", 0)), not_helpful=int(found.get("not_helpful", 0))
        )

    async def purge(self, now: datetime | None = None) -> int:
        """Delete every vote older than the retention; how many went."""
        cutoff = (now or self.clock()) - self.retention
        async with self._db.session() as session:
            result = await session.execute(delete(Row).where(Row.voted_at < cutoff))
        return rowcount(result)

    # --- /account unlink -------------------------------------------------------------------

    async def _delete_votes_of(self, session: AsyncSession, user_id: int) -> int:
        """The person's votes, found by recomputing their hash (no key yet: no votes)."""
        stored = await session.scalar(_key_query())
        if stored is None:
            return 0
        voter = voter_hash(bytes.fromhex(stored), user_id)
        return rowcount(await session.execute(delete(Row).where(Row.voter == voter)))


def _key_query() -> Any:
    return select(InstallSecretRow.value).where(InstallSecretRow.name == VOTER_KEY_NAME)

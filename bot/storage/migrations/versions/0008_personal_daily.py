"""Personal daily posts (/mydaily): one schedule per (person, feed), sent to their DMs, and the
per-local-date claims that make each day post exactly once.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.storage.types import UTCDateTime

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "personal_daily_schedules",
        sa.Column("discord_user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("feed", sa.String(length=16), nullable=False),
        sa.Column("post_time", sa.String(length=5), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("dm_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("status_reason", sa.String(length=300), nullable=True),
        sa.Column("active_since", UTCDateTime(), nullable=False),
        sa.Column("last_posted_date", sa.Date(), nullable=True),
        sa.Column("last_posted_at", UTCDateTime(), nullable=True),
        sa.Column("last_message_id", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.Column("last_error_at", UTCDateTime(), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("retry_at", UTCDateTime(), nullable=True),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint(
            "feed IN ('saints', 'readings')", name=op.f("ck_personal_daily_schedules_feed")
        ),
        sa.CheckConstraint(
            "status IN ('active', 'paused', 'disabled')",
            name=op.f("ck_personal_daily_schedules_status"),
        ),
        sa.PrimaryKeyConstraint(
            "discord_user_id", "feed", name=op.f("pk_personal_daily_schedules")
        ),
    )
    op.create_table(
        "personal_daily_claims",
        sa.Column("discord_user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("feed", sa.String(length=16), nullable=False),
        sa.Column("local_date", sa.Date(), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("claimed_by", sa.String(length=100), nullable=False),
        sa.Column("claimed_at", UTCDateTime(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint(
            "state IN ('sending', 'posted')", name=op.f("ck_personal_daily_claims_state")
        ),
        sa.PrimaryKeyConstraint(
            "discord_user_id", "feed", "local_date", name=op.f("pk_personal_daily_claims")
        ),
    )
    op.create_index(
        op.f("ix_personal_daily_claims_local_date"), "personal_daily_claims", ["local_date"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_personal_daily_claims_local_date"), table_name="personal_daily_claims")
    op.drop_table("personal_daily_claims")
    op.drop_table("personal_daily_schedules")

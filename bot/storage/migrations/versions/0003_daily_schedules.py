"""Daily posts: one schedule per (server, feed) and the per-local-date claims that make each
day post exactly once.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "daily_schedules",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("feed", sa.String(length=16), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("post_time", sa.String(length=5), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("role_id", sa.BigInteger(), nullable=True),
        sa.Column("discord_user_id", sa.BigInteger(), nullable=True),
        sa.Column("token_source", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("status_reason", sa.String(length=300), nullable=True),
        sa.Column("active_since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_posted_date", sa.Date(), nullable=True),
        sa.Column("last_posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_message_id", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.Column("last_error_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("feed IN ('saints', 'readings')", name="ck_daily_schedules_feed"),
        sa.CheckConstraint(
            "token_source IN ('own', 'shared')", name="ck_daily_schedules_token_source"
        ),
        sa.CheckConstraint(
            "status IN ('active', 'paused', 'disabled')", name="ck_daily_schedules_status"
        ),
        sa.PrimaryKeyConstraint("guild_id", "feed", name="pk_daily_schedules"),
    )
    op.create_table(
        "daily_claims",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("feed", sa.String(length=16), nullable=False),
        sa.Column("local_date", sa.Date(), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("claimed_by", sa.String(length=100), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("state IN ('sending', 'posted')", name="ck_daily_claims_state"),
        sa.PrimaryKeyConstraint("guild_id", "feed", "local_date", name="pk_daily_claims"),
    )
    op.create_index("ix_daily_claims_local_date", "daily_claims", ["local_date"])


def downgrade() -> None:
    op.drop_index("ix_daily_claims_local_date", table_name="daily_claims")
    op.drop_table("daily_claims")
    op.drop_table("daily_schedules")

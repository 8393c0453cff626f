"""Linked accounts and the shared-token quota.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "linked_accounts",
        sa.Column("discord_user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("token_ciphertext", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('valid', 'invalid', 'rate_limited')", name="ck_linked_accounts_status"
        ),
        sa.PrimaryKeyConstraint("discord_user_id", name="pk_linked_accounts"),
    )
    op.create_table(
        "shared_token_usage",
        sa.Column("discord_user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pool", sa.String(length=8), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.CheckConstraint("pool IN ('all', 'qa')", name="ck_shared_token_usage_pool"),
        sa.PrimaryKeyConstraint(
            "discord_user_id", "window_start", "pool", name="pk_shared_token_usage"
        ),
    )


def downgrade() -> None:
    op.drop_table("shared_token_usage")
    op.drop_table("linked_accounts")

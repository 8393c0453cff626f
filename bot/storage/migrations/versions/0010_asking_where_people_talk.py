"""Asking where people talk: servers' mention setting and ask channels, the conversations that
answers and threads continue, and "Was it helpful?" votes (with the key of their voter hash).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.storage.types import UTCDateTime

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "server_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mentions_enabled", sa.Boolean(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_server_settings")),
    )
    op.create_table(
        "ask_channels",
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint("kind IN ('text', 'forum')", name=op.f("ck_ask_channels_kind")),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_ask_channels")),
    )
    op.create_index(op.f("ix_ask_channels_guild_id"), "ask_channels", ["guild_id"])
    op.create_table(
        "answer_conversations",
        sa.Column("message_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("context_id", sa.String(length=128), nullable=False),
        sa.Column("task_id", sa.String(length=128), nullable=True),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint(
            "kind IN ('message', 'thread')", name=op.f("ck_answer_conversations_kind")
        ),
        sa.PrimaryKeyConstraint("message_id", name=op.f("pk_answer_conversations")),
    )
    op.create_index(
        op.f("ix_answer_conversations_expires_at"), "answer_conversations", ["expires_at"]
    )
    op.create_table(
        "answer_feedback",
        sa.Column("answer_id", sa.String(length=128), nullable=False),
        sa.Column("voter", sa.String(length=64), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("verdict", sa.String(length=16), nullable=False),
        sa.Column("voted_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint(
            "verdict IN ('helpful', 'not_helpful')", name=op.f("ck_answer_feedback_verdict")
        ),
        sa.PrimaryKeyConstraint("answer_id", "voter", name=op.f("pk_answer_feedback")),
    )
    op.create_index("ix_answer_feedback_guild_voted", "answer_feedback", ["guild_id", "voted_at"])
    op.create_table(
        "install_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=256), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_install_secrets")),
    )


def downgrade() -> None:
    op.drop_table("install_secrets")
    op.drop_index("ix_answer_feedback_guild_voted", table_name="answer_feedback")
    op.drop_table("answer_feedback")
    op.drop_index(op.f("ix_answer_conversations_expires_at"), table_name="answer_conversations")
    op.drop_table("answer_conversations")
    op.drop_index(op.f("ix_ask_channels_guild_id"), table_name="ask_channels")
    op.drop_table("ask_channels")
    op.drop_table("server_settings")

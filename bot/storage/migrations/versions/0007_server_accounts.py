"""Server accounts: a server's own Magisterium token (encrypted, bound to the server), the
admin who linked it and its per-member hourly allowances; and each member's use of it per
hourly window (counts only). A server's account may be signed in with Magisterium (its refresh
token and expiry), and a sign-in in progress may be a server's (``oauth_states.guild_id``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.storage.types import UTCDateTime

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "server_accounts",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("token_ciphertext", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.Column("discord_user_id", sa.BigInteger(), nullable=True),
        sa.Column("linked_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.Column("per_hour", sa.Integer(), nullable=False),
        sa.Column("qa_per_hour", sa.Integer(), nullable=False),
        sa.Column("refresh_ciphertext", sa.Text(), nullable=True),
        sa.Column("expires_at", UTCDateTime(), nullable=True),
        sa.CheckConstraint(
            "status IN ('valid', 'invalid', 'rate_limited')", name=op.f("ck_server_accounts_status")
        ),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_server_accounts")),
    )
    op.create_table(
        "server_token_usage",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("discord_user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("window_start", UTCDateTime(), nullable=False),
        sa.Column("pool", sa.String(length=8), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.CheckConstraint("pool IN ('all', 'qa')", name=op.f("ck_server_token_usage_pool")),
        sa.PrimaryKeyConstraint(
            "guild_id",
            "discord_user_id",
            "window_start",
            "pool",
            name=op.f("pk_server_token_usage"),
        ),
    )
    op.create_index(
        op.f("ix_server_token_usage_discord_user_id"), "server_token_usage", ["discord_user_id"]
    )
    with op.batch_alter_table("oauth_states") as batch:
        batch.add_column(sa.Column("guild_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("guild_name", sa.String(length=100), nullable=True))
        batch.create_index(batch.f("ix_oauth_states_guild_id"), ["guild_id"])


def downgrade() -> None:
    with op.batch_alter_table("oauth_states") as batch:
        batch.drop_index(batch.f("ix_oauth_states_guild_id"))
        batch.drop_column("guild_name")
        batch.drop_column("guild_id")
    op.drop_index(op.f("ix_server_token_usage_discord_user_id"), table_name="server_token_usage")
    op.drop_table("server_token_usage")
    op.drop_table("server_accounts")

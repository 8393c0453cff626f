"""Sign in with Magisterium: a linked token's refresh token and expiry, the OAuth client the bot
registered, and the one-time states of sign-ins in progress.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.storage.types import UTCDateTime

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("linked_accounts") as batch:
        batch.add_column(sa.Column("refresh_ciphertext", sa.Text(), nullable=True))
        batch.add_column(sa.Column("expires_at", UTCDateTime(), nullable=True))
    op.create_table(
        "oauth_clients",
        sa.Column("issuer", sa.String(length=500), nullable=False),
        sa.Column("redirect_uri", sa.String(length=500), nullable=False),
        sa.Column("client_id", sa.Text(), nullable=False),
        sa.Column("secret_ciphertext", sa.Text(), nullable=True),
        sa.Column("registered_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("issuer", "redirect_uri", name=op.f("pk_oauth_clients")),
    )
    op.create_table(
        "oauth_states",
        sa.Column("state_hash", sa.String(length=64), nullable=False),
        sa.Column("discord_user_id", sa.BigInteger(), nullable=False),
        sa.Column("verifier_ciphertext", sa.Text(), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("used_at", UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("state_hash", name=op.f("pk_oauth_states")),
    )
    op.create_index(op.f("ix_oauth_states_discord_user_id"), "oauth_states", ["discord_user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_oauth_states_discord_user_id"), table_name="oauth_states")
    op.drop_table("oauth_states")
    op.drop_table("oauth_clients")
    with op.batch_alter_table("linked_accounts") as batch:
        batch.drop_column("expires_at")
        batch.drop_column("refresh_ciphertext")

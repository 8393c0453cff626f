"""Sign-in binding: the Discord name a sign-in's start page shows, when the sign-in was started,
and the SHA-256 of the cookie of the browser that started it.

All three stay empty on states made before this revision: such a state has no name to show, so
its start page answers "not valid" (it would have expired ten minutes later anyway).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.storage.types import UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("oauth_states") as batch:
        batch.add_column(sa.Column("discord_name", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("started_at", UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("browser_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("oauth_states") as batch:
        batch.drop_column("browser_hash")
        batch.drop_column("started_at")
        batch.drop_column("discord_name")

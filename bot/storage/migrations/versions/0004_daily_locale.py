"""Daily posts in a chosen language: ``daily_schedules.locale``, a catalogue code such as
``pl`` or ``es_419``; NULL (every existing schedule) posts in the server's language.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("daily_schedules") as batch:
        batch.add_column(sa.Column("locale", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("daily_schedules") as batch:
        batch.drop_column("locale")

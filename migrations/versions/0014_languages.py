"""languages: a user's language, the installation's language and currency (issue 19)

Revision ID: 0014_languages
Revises: 0013_jobs
Create Date: 2026-12-03 15:10:00

The installation's language, currency and card letters are rows of
installation_settings (key, value), so only the users' own language is a column.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014_languages"
down_revision = "0013_jobs"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("language")

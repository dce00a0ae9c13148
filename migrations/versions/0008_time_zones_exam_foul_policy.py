"""time zones: the installation's settings table and each user's zone; an exam keeps its foul policy

Revision ID: 0008_time_zones_exam_foul_policy
Revises: 0007_account_security
Create Date: 2026-12-03 12:30:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008_time_zones_exam_foul_policy"
down_revision = "0007_account_security"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "installation_settings",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=255), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_installation_settings")),
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
    with op.batch_alter_table("certification_exams", schema=None) as batch_op:
        batch_op.add_column(sa.Column("foul_policy", sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table("certification_exams", schema=None) as batch_op:
        batch_op.drop_column("foul_policy")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("time_zone")
    op.drop_table("installation_settings")

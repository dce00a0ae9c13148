"""security: session versions that end other sessions, and failed sign-ins

Revision ID: 0004_security
Revises: 0003_supervisor
Create Date: 2026-12-02 18:30:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004_security"
down_revision = "0003_supervisor"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("session_version", sa.Integer(), server_default="0", nullable=False)
        )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("login", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index("ix_login_failures_login_at", "login_failures", ["login", "at"])
    op.create_index("ix_login_failures_address_at", "login_failures", ["address", "at"])


def downgrade():
    op.drop_index("ix_login_failures_address_at", table_name="login_failures")
    op.drop_index("ix_login_failures_login_at", table_name="login_failures")
    op.drop_table("login_failures")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("session_version")

"""session tokens stored as hashes, lifetimes (issue 24)

Revision ID: 0016_session_hashes
Revises: 0015_sign_in_devices_passwords
Create Date: 2026-12-07 14:00:00

``user_sessions.token`` (the plain token) becomes ``token_hash`` (its SHA-256,
64 hex digits), and ``last_seen_at`` is added for the idle timeout. The rows
there are deleted: their plain tokens must not stay in the database (nor reach a
later backup), so everyone signs in again after this upgrade (docs/operations.md,
"Sessions end, tokens hashed, private backups"). The downgrade deletes them too.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016_session_hashes"
down_revision = "0015_sign_in_devices_passwords"
branch_labels = None
depends_on = None


def upgrade():
    op.execute("DELETE FROM user_sessions")
    with op.batch_alter_table("user_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_user_sessions_token"), type_="unique")
        batch_op.drop_column("token")
        batch_op.add_column(sa.Column("token_hash", sa.String(length=64), nullable=False))
        batch_op.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False))
        batch_op.create_unique_constraint(batch_op.f("uq_user_sessions_token_hash"), ["token_hash"])


def downgrade():
    op.execute("DELETE FROM user_sessions")
    with op.batch_alter_table("user_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_user_sessions_token_hash"), type_="unique")
        batch_op.drop_column("last_seen_at")
        batch_op.drop_column("token_hash")
        batch_op.add_column(sa.Column("token", sa.String(length=64), nullable=False))
        batch_op.create_unique_constraint(batch_op.f("uq_user_sessions_token"), ["token"])

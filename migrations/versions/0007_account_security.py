"""account security: one row per sign-in (sign-out revokes it), who deactivated an account

Revision ID: 0007_account_security
Revises: 0006_dashboard_indexes
Create Date: 2026-12-03 10:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007_account_security"
down_revision = "0006_dashboard_indexes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_user_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_sessions")),
        sa.UniqueConstraint("token", name=op.f("uq_user_sessions_token")),
    )
    with op.batch_alter_table("user_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_user_sessions_user_id"), ["user_id"], unique=False)
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deactivated_by_role", sa.String(length=16), nullable=True))
    # Accounts already inactive: the role of the last deactivation in the audit
    # log (none found: only an admin may reactivate, see User.may_be_reactivated_by).
    op.execute(
        """
        UPDATE users SET deactivated_by_role = (
            SELECT actor.role FROM audit_log
            JOIN users AS actor ON actor.id = audit_log.actor_id
            WHERE audit_log.target_type = 'user' AND audit_log.target_id = users.id
              AND audit_log.action = 'account.deactivate'
            ORDER BY audit_log.at DESC, audit_log.id DESC
            LIMIT 1
        )
        WHERE NOT users.active
        """
    )


def downgrade():
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("deactivated_by_role")
    with op.batch_alter_table("user_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_user_sessions_user_id"))
    op.drop_table("user_sessions")

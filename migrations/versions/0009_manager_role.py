"""manager role: the table-games manager joins the roles allowed on an account

Revision ID: 0009_manager_role
Revises: 0008_time_zones_exam_foul_policy
Create Date: 2026-12-03 13:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009_manager_role"
down_revision = "0008_time_zones_exam_foul_policy"
branch_labels = None
depends_on = None

WITH_MANAGER = "role IN ('trainee', 'supervisor', 'manager', 'admin')"
WITHOUT_MANAGER = "role IN ('trainee', 'supervisor', 'admin')"


def _replace_role_check(sqltext):
    # SQLite cannot alter a CHECK constraint: batch mode rebuilds the table.
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_users_role"), type_="check")
        batch_op.create_check_constraint(op.f("ck_users_role"), sqltext)


def upgrade():
    _replace_role_check(WITH_MANAGER)


def downgrade():
    # A manager cannot stay a manager, and must not become a supervisor who can change
    # groups: the account becomes an inactive supervisor (signed out everywhere) that
    # only an admin may reactivate.
    op.get_bind().execute(
        sa.text("UPDATE users SET role = 'supervisor', active = :off, "
                "deactivated_by_role = 'admin', session_version = session_version + 1 "
                "WHERE role = 'manager'"),
        {"off": False},
    )
    _replace_role_check(WITHOUT_MANAGER)

"""dashboard indexes: per-rule counts without a sort, medians from the middle rows

Revision ID: 0006_dashboard_indexes
Revises: 0005_table
Create Date: 2026-12-03 07:00:00

"""
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006_dashboard_indexes"
down_revision = "0005_table"
branch_labels = None
depends_on = None


def upgrade():
    # The supervisor overview on SQLite (trainer/services/reports/pages.py): answer_counts
    # groups by (user_id, kind, rule_id) in the order of the first index, and
    # _middle_elapsed walks the second to each trainee's middle answers per drill.
    with op.batch_alter_table("attempts", schema=None) as batch_op:
        batch_op.create_index(
            "ix_attempts_user_id_kind_rule_id",
            ["user_id", "kind", "rule_id", "answered_at", "correct", "timed_out"],
            unique=False,
        )
        batch_op.create_index(
            "ix_attempts_user_id_kind_elapsed_ms",
            ["user_id", "kind", "elapsed_ms", "answered_at"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("attempts", schema=None) as batch_op:
        batch_op.drop_index("ix_attempts_user_id_kind_elapsed_ms")
        batch_op.drop_index("ix_attempts_user_id_kind_rule_id")

"""drills: issued questions, and the sealed exam mode for drill sessions

Revision ID: 0002_drills
Revises: 2599e80be60e
Create Date: 2026-12-02 18:15:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002_drills"
down_revision = "2599e80be60e"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "issued_questions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("question", sa.JSON(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("rule_id", sa.String(length=64), nullable=True),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["session_id"], ["drill_sessions.id"],
            name=op.f("fk_issued_questions_session_id_drill_sessions"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_issued_questions")),
        sa.UniqueConstraint(
            "session_id", "position", name=op.f("uq_issued_questions_session_id_position")
        ),
    )
    # SQLite cannot alter a CHECK constraint: batch mode rebuilds the table.
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_drill_sessions_mode"), type_="check")
        batch_op.create_check_constraint(
            op.f("ck_drill_sessions_mode"), "mode IN ('practice', 'timed', 'exam')"
        )


def downgrade():
    op.execute("UPDATE drill_sessions SET mode = 'timed' WHERE mode = 'exam'")
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_drill_sessions_mode"), type_="check")
        batch_op.create_check_constraint(
            op.f("ck_drill_sessions_mode"), "mode IN ('practice', 'timed')"
        )
    op.drop_table("issued_questions")

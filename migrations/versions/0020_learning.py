"""practice that adapts: skill memories, assignments, targeted sessions (issue 30)

Revision ID: 0020_learning
Revises: 0019_classroom
Create Date: 2026-12-08 09:00:00

- ``skill_memory``: each trainee's FSRS memory of each skill (the drill kind, the rule id
  and, for a house way's rule, the way's ref and rules digest); ``record`` is the memory
  as JSON text, the other columns repeat what queries use.
- ``learning_assignments``: a rule or family a supervisor assigned to a trainee or group.
- ``drill_sessions.rating_time_ms``: the answer time a session's right answers are rated
  Hard above and Easy under half of (None on sessions started before it: worked out when
  a memory is rebuilt from them).
- ``drill_sessions.dealt`` takes ``targeted``: practice that adapts, practice only. The
  downgrade turns those sessions into ``focused`` sessions, which are practice only too.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020_learning"
down_revision = "0019_classroom"
branch_labels = None
depends_on = None

DEALT_BEFORE = "dealt IN ('balanced', 'mistakes', 'focused', 'class')"
DEALT = "dealt IN ('balanced', 'mistakes', 'focused', 'class', 'targeted')"


def _skill_memory():
    op.create_table(
        "skill_memory",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("skill", sa.String(length=64), nullable=False),
        sa.Column("way", sa.String(length=64), server_default="", nullable=False),
        sa.Column("digest", sa.String(length=64), server_default="", nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("reviews", sa.Integer(), nullable=False),
        sa.Column("lapses", sa.Integer(), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_review", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("reviews >= 1 AND lapses >= 0 AND lapses <= reviews",
                           name=op.f("ck_skill_memory_counts")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_skill_memory_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_skill_memory")),
        sa.UniqueConstraint("user_id", "kind", "skill", "way", "digest",
                            name=op.f("uq_skill_memory_user_id_kind_skill_way_digest")),
    )


def _assignments():
    op.create_table(
        "learning_assignments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("trainee_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("target_type", sa.String(length=8), nullable=False),
        sa.Column("target", sa.String(length=64), nullable=False),
        sa.Column("assigned_by_id", sa.Integer(), nullable=True),
        sa.Column("assigned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_by_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("target_type IN ('rule', 'family')",
                           name=op.f("ck_learning_assignments_target_type")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"],
                                name=op.f("fk_learning_assignments_group_id_groups"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["trainee_id"], ["users.id"],
                                name=op.f("fk_learning_assignments_trainee_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["assigned_by_id"], ["users.id"],
                                name=op.f("fk_learning_assignments_assigned_by_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["ended_by_id"], ["users.id"],
                                name=op.f("fk_learning_assignments_ended_by_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_learning_assignments")),
    )
    op.create_index("ix_learning_assignments_group_id_ended_at", "learning_assignments",
                    ["group_id", "ended_at"], unique=False)
    op.create_index(op.f("ix_learning_assignments_trainee_id"), "learning_assignments",
                    ["trainee_id"], unique=False)


def upgrade():
    _skill_memory()
    _assignments()
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rating_time_ms", sa.Integer(), nullable=True))
        batch_op.drop_constraint(op.f("ck_drill_sessions_dealt"), type_="check")
        batch_op.create_check_constraint(op.f("ck_drill_sessions_dealt"), DEALT)


def downgrade():
    op.execute("UPDATE drill_sessions SET dealt = 'focused' WHERE dealt = 'targeted'")
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_drill_sessions_dealt"), type_="check")
        batch_op.create_check_constraint(op.f("ck_drill_sessions_dealt"), DEALT_BEFORE)
        batch_op.drop_column("rating_time_ms")
    op.drop_index(op.f("ix_learning_assignments_trainee_id"), table_name="learning_assignments")
    op.drop_index("ix_learning_assignments_group_id_ended_at", table_name="learning_assignments")
    op.drop_table("learning_assignments")
    op.drop_table("skill_memory")

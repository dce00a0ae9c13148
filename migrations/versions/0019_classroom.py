"""classroom mode: live classes, their hands, presence and answers (issue 31)

Revision ID: 0019_classroom
Revises: 0018_job_workers
Create Date: 2026-12-07 18:00:00

- ``live_classes``: a group's live class, its state, change counters and current hand;
  ``running_group_id`` (unique) keeps a group to one running class.
- ``class_hands``: the hands dealt to a class (kind, seed, question and context JSON, how
  dealt, the deciding rule, the timer, the key worked out at the lock).
- ``class_presence``: the trainees who joined, and when a device of theirs last asked.
- ``class_answers``: one per trainee and hand, from its first delivery; graded at the lock
  and recorded as an attempt.
- ``drill_sessions.dealt`` takes ``class``: the sessions a class's answers are recorded
  in, practice only like "my mistakes" (never in a criterion window). The downgrade
  turns them into ``focused`` sessions, which are practice only too.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019_classroom"
down_revision = "0018_job_workers"
branch_labels = None
depends_on = None

DEALT_BEFORE = "dealt IN ('balanced', 'mistakes', 'focused')"
DEALT = "dealt IN ('balanced', 'mistakes', 'focused', 'class')"


def _live_classes():
    op.create_table(
        "live_classes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("instructor_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("running_group_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("roster", sa.Integer(), server_default="0", nullable=False),
        sa.Column("current_number", sa.Integer(), server_default="0", nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("state IN ('running', 'ended')", name=op.f("ck_live_classes_state")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"],
                                name=op.f("fk_live_classes_group_id_groups"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["instructor_id"], ["users.id"],
                                name=op.f("fk_live_classes_instructor_id_users"),
                                ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_classes")),
        sa.UniqueConstraint("running_group_id", name=op.f("uq_live_classes_running_group_id")),
    )
    op.create_index(op.f("ix_live_classes_group_id"), "live_classes", ["group_id"], unique=False)


def _class_hands():
    op.create_table(
        "class_hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("dealt", sa.String(length=16), nullable=False),
        sa.Column("asked_rule", sa.String(length=64), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("question", sa.JSON(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("rule_id", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("revision", sa.Integer(), server_default="0", nullable=False),
        sa.Column("timer_s", sa.Integer(), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("key", sa.JSON(), nullable=True),
        sa.Column("dealt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("dealt IN ('random', 'rule', 'weakest', 'typed')",
                           name=op.f("ck_class_hands_dealt")),
        sa.CheckConstraint("state IN ('open', 'locked', 'revealed')",
                           name=op.f("ck_class_hands_state")),
        sa.ForeignKeyConstraint(["class_id"], ["live_classes.id"],
                                name=op.f("fk_class_hands_class_id_live_classes"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_class_hands")),
        sa.UniqueConstraint("class_id", "number", name=op.f("uq_class_hands_class_id_number")),
    )


def _class_presence():
    op.create_table(
        "class_presence",
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["live_classes.id"],
                                name=op.f("fk_class_presence_class_id_live_classes"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_class_presence_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("class_id", "user_id", name=op.f("pk_class_presence")),
    )
    op.create_index(op.f("ix_class_presence_user_id"), "class_presence", ["user_id"],
                    unique=False)


def _class_answers():
    op.create_table(
        "class_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("changes", sa.Integer(), server_default="0", nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=True),
        sa.Column("attempt_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["attempt_id"], ["attempts.id"],
                                name=op.f("fk_class_answers_attempt_id_attempts"),
                                ondelete="RESTRICT"),
        sa.ForeignKeyConstraint(["hand_id"], ["class_hands.id"],
                                name=op.f("fk_class_answers_hand_id_class_hands"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_class_answers_user_id_users"), ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_class_answers")),
        sa.UniqueConstraint("attempt_id", name=op.f("uq_class_answers_attempt_id")),
        sa.UniqueConstraint("hand_id", "user_id", name=op.f("uq_class_answers_hand_id_user_id")),
    )
    op.create_index(op.f("ix_class_answers_user_id"), "class_answers", ["user_id"], unique=False)


def upgrade():
    _live_classes()
    _class_hands()
    _class_presence()
    _class_answers()
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_drill_sessions_dealt"), type_="check")
        batch_op.create_check_constraint(op.f("ck_drill_sessions_dealt"), DEALT)


def downgrade():
    # A class's sessions stay practice only, as focused practice (the old constraint's).
    op.execute("UPDATE drill_sessions SET dealt = 'focused' WHERE dealt = 'class'")
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_drill_sessions_dealt"), type_="check")
        batch_op.create_check_constraint(op.f("ck_drill_sessions_dealt"), DEALT_BEFORE)
    op.drop_index(op.f("ix_class_answers_user_id"), table_name="class_answers")
    op.drop_table("class_answers")
    op.drop_index(op.f("ix_class_presence_user_id"), table_name="class_presence")
    op.drop_table("class_presence")
    op.drop_table("class_hands")
    op.drop_index(op.f("ix_live_classes_group_id"), table_name="live_classes")
    op.drop_table("live_classes")

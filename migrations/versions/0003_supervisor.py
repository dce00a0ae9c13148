"""supervisor: certification exams, the audit log, and the dashboards' index on attempts

Revision ID: 0003_supervisor
Revises: 0002_drills
Create Date: 2026-12-02 18:25:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003_supervisor"
down_revision = "0002_drills"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "certification_exams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("trainee_id", sa.Integer(), nullable=False),
        sa.Column("scheduled_by_id", sa.Integer(), nullable=False),
        sa.Column("scheduled_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("time_limit_ms", sa.Integer(), nullable=False),
        sa.Column("criteria", sa.JSON(), nullable=False),
        sa.Column("house_way", sa.String(length=64), nullable=False),
        sa.Column("profile", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=True),
        sa.Column("counted", sa.Integer(), nullable=True),
        sa.Column("right", sa.Integer(), nullable=True),
        sa.Column("median_ms", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "status IN ('scheduled', 'started', 'finished')",
            name=op.f("ck_certification_exams_status"),
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"],
            name=op.f("fk_certification_exams_group_id_groups"), ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["trainee_id"], ["users.id"],
            name=op.f("fk_certification_exams_trainee_id_users"), ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["scheduled_by_id"], ["users.id"],
            name=op.f("fk_certification_exams_scheduled_by_id_users"), ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"], ["drill_sessions.id"],
            name=op.f("fk_certification_exams_session_id_drill_sessions"), ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_certification_exams")),
        sa.UniqueConstraint("session_id", name=op.f("uq_certification_exams_session_id")),
    )
    with op.batch_alter_table("certification_exams", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_certification_exams_group_id"), ["group_id"], unique=False
        )
        batch_op.create_index(
            "ix_certification_exams_trainee_id_status", ["trainee_id", "status"], unique=False
        )

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target_type", sa.String(length=32), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("old", sa.JSON(), nullable=True),
        sa.Column("new", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"],
            name=op.f("fk_audit_log_actor_id_users"), ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(
            "ix_audit_log_target_type_target_id_at",
            ["target_type", "target_id", "at"], unique=False,
        )

    # Covers the dashboards' per-trainee, per-drill, per-period aggregates.
    with op.batch_alter_table("attempts", schema=None) as batch_op:
        batch_op.create_index(
            "ix_attempts_user_id_kind_answered_at",
            ["user_id", "kind", "answered_at", "correct", "timed_out", "elapsed_ms", "session_id",
             "rule_id"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("attempts", schema=None) as batch_op:
        batch_op.drop_index("ix_attempts_user_id_kind_answered_at")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_target_type_target_id_at")
    op.drop_table("audit_log")
    with op.batch_alter_table("certification_exams", schema=None) as batch_op:
        batch_op.drop_index("ix_certification_exams_trainee_id_status")
        batch_op.drop_index(batch_op.f("ix_certification_exams_group_id"))
    op.drop_table("certification_exams")

"""background jobs: the house-way check, diff, simulation and class table, with progress (issue 18)

Revision ID: 0013_jobs
Revises: 0012_house_way_versions
Create Date: 2026-12-03 15:10:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013_jobs"
down_revision = "0012_house_way_versions"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("active_key", sa.String(length=400), nullable=True),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False),
        sa.Column("message", sa.String(length=200), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("worker", sa.String(length=64), nullable=True),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed')", name=op.f("ck_jobs_status")),
        sa.CheckConstraint(
            "progress >= 0 AND progress <= 1000", name=op.f("ck_jobs_progress")),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"],
            name=op.f("fk_jobs_created_by_id_users"), ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_jobs")),
        sa.UniqueConstraint("active_key", name=op.f("uq_jobs_active_key")),
    )
    op.create_index("ix_jobs_key_id", "jobs", ["key", "id"], unique=False)


def downgrade():
    # Job rows are a record of past runs only: the results that matter (check reports,
    # class tables) are stored by the house-way service on their own rows.
    op.drop_index("ix_jobs_key_id", table_name="jobs")
    op.drop_table("jobs")

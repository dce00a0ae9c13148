"""job workers, queues and owners (issue 25)

Revision ID: 0018_job_workers
Revises: 0017_exam_rules_practice
Create Date: 2026-12-07 14:00:00
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0018_job_workers"
down_revision = "0017_exam_rules_practice"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("queue", sa.String(length=8), server_default="long",
                                   nullable=False))
        batch.add_column(sa.Column("attempts", sa.Integer(), server_default="0", nullable=False))
        batch.create_check_constraint(op.f("ck_jobs_queue"), "queue IN ('short', 'long')")
        batch.create_index("ix_jobs_status_queue_id", ["status", "queue", "id"], unique=False)
        batch.create_index("ix_jobs_created_by_id_status", ["created_by_id", "status"],
                           unique=False)
    op.create_table(
        "pdf_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("stem", sa.String(length=200), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pdf_files")),
        sa.UniqueConstraint("digest", name=op.f("uq_pdf_files_digest")),
    )
    op.create_index(op.f("ix_pdf_files_stem"), "pdf_files", ["stem"], unique=False)


def downgrade():
    # The PDFs are a cache: a worker prints them again when asked.
    op.drop_index(op.f("ix_pdf_files_stem"), table_name="pdf_files")
    op.drop_table("pdf_files")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_index("ix_jobs_created_by_id_status")
        batch.drop_index("ix_jobs_status_queue_id")
        batch.drop_constraint(op.f("ck_jobs_queue"), type_="check")
        batch.drop_column("attempts")
        batch.drop_column("queue")

"""Background jobs: long work run off the request, with its progress and result (issue 18).

``trainer/services/jobs/`` starts and runs them; this module holds the row only.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

PROGRESS_FULL = 1000  # progress is stored in thousandths


class Job(Model):
    """One run of a job kind on its parameters.

    ``key`` names the work (``check:<digest>``): the same key is the same work.
    ``active_key`` holds the key while the job is queued or running and is NULL
    after; it is unique, so one piece of work is never started twice at once.
    ``progress`` runs 0..1000; ``heartbeat_at`` is written by the worker while it
    runs; ``worker`` names it (host and process id). ``result`` (JSON) and the
    status ``done`` are written in one transaction, as are ``error`` and ``failed``.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed')", name="status"),
        CheckConstraint("progress >= 0 AND progress <= 1000", name="progress"),
        CheckConstraint("queue IN ('short', 'long')", name="queue"),
        Index("ix_jobs_key_id", "key", "id"),
        # A worker claims the oldest queued job of its lane; limits count a user's jobs.
        Index("ix_jobs_status_queue_id", "status", "queue", "id"),
        Index("ix_jobs_created_by_id_status", "created_by_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(400))
    active_key: Mapped[str | None] = mapped_column(String(400), unique=True, nullable=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    progress: Mapped[int] = mapped_column(default=0)
    message: Mapped[str | None] = mapped_column(String(200), nullable=True)
    result: Mapped[Any | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The lane a worker runs it in (issue 25): "short" (PDFs) never waits behind "long".
    queue: Mapped[str] = mapped_column(String(8), default="long", server_default="long")
    # How many times a worker claimed it: a job whose worker died is retried once, then failed.
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")

    def __repr__(self) -> str:
        return f"<Job {self.id} {self.kind} {self.status}>"


class PdfFile(Model):
    """A printed PDF (issue 25): made by a job worker, read by every web server.

    Kept in the database, not on one machine's disk, so a worker on any machine
    serves every web server; ``digest`` is the hash of everything that changes what
    is printed (``services/pdf_cache.key_digest``), ``stem`` its readable name. A web
    server keeps a copy on its own disk (``instance/pdf-cache``) once read.
    """

    __tablename__ = "pdf_files"

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    stem: Mapped[str] = mapped_column(String(200), index=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"<PdfFile {self.stem} {self.digest}>"

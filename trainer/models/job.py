"""Background jobs: long work run off the request, with its progress and result (issue 18).

``trainer/services/jobs.py`` starts and runs them; this module holds the row only.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow

JOB_STATUSES = ("queued", "running", "done", "failed")
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
        Index("ix_jobs_key_id", "key", "id"),
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

    def __repr__(self) -> str:
        return f"<Job {self.id} {self.kind} {self.status}>"

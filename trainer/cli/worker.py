"""``trainer worker``: run one job worker (issue 25; ``services/job_worker.py``)."""
from __future__ import annotations

import logging
import signal
import threading
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext

from trainer.services import jobs
from trainer.services.job_worker import DEFAULT_CPU_SHARE, Worker, lower_priority
from trainer.services.jobs import QUEUES


@click.command("worker")
@click.option("--lane", "lanes", multiple=True, type=click.Choice(QUEUES),
              help="Run only this lane (repeat for both; default: short and long).")
@click.option("--once", is_flag=True, help="Run the queued jobs, then exit (no waiting).")
@click.option("--nice", type=click.IntRange(0, 19), default=10, show_default=True,
              help="Lower this process's CPU priority (and, on Linux, its session's CPU "
                   "group's), so the web servers on the same machine answer first.")
@with_appcontext
def worker_command(lanes: tuple[str, ...], once: bool, nice: int) -> None:
    """Run a job worker: claim queued jobs from the database and run them until stopped."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app: Any = current_app._get_current_object()  # type: ignore[attr-defined]
    lowered = lower_priority(nice)
    if lowered:
        logging.getLogger("trainer.worker").info("CPU priority: %s", "; ".join(lowered))
    worker = Worker(str(app.config["SQLALCHEMY_DATABASE_URI"]), lanes=lanes or QUEUES,
                    stale_seconds=int(app.config.get("JOB_STALE_SECONDS",
                                                     jobs.DEFAULT_STALE_SECONDS)),
                    poll_seconds=float(app.config.get("JOB_POLL_SECONDS", 1.0)),
                    around=app.app_context,
                    cpu_share=float(app.config.get("JOB_CPU_SHARE", DEFAULT_CPU_SHARE)))
    if once:
        ran = worker.run_all()
        click.echo(f"Ran {len(ran)} job(s).")
        return
    stop = threading.Event()

    def stopping(signum: int, _frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    click.echo(f"Job worker {worker.name}: lanes {', '.join(worker.lanes)} "
               f"(Ctrl-C or SIGTERM stops it).")
    worker.serve(stop)

"""gunicorn settings for the trainer (issue 25): ``gunicorn -c python:trainer.cli.gunicorn_conf``.

Every web worker dies with its master: ``post_fork`` asks the kernel to SIGKILL the
worker when the master exits, however it exits (``kill -9`` included). Without it a
worker whose master was killed kept serving for about 20 s (until gunicorn's own
parent check) and held the port, so a restart right after failed to bind. No
``SO_REUSEPORT`` (``reuse_port`` stays False): a second server never shares the
port with orphans. ``when_ready`` (under ``--preload``, in the master) or
``post_worker_init`` (without it, in each worker) builds the dealing-by-rule indexes of the
ways the groups train under before any request (``services/classroom.warm_dealing``).
Other settings (``-w``, ``-b``, ``--preload``) come from the command line or
``GUNICORN_CMD_ARGS`` as usual (docs/deployment.md).
"""
from __future__ import annotations

from typing import Any

from flask import Flask

from trainer.services.processes import die_with_parent

reuse_port = False


def post_fork(server: Any, worker: Any) -> None:
    """In the new web worker: die with the master (``server.pid``)."""
    die_with_parent(parent=server.pid)


def when_ready(server: Any) -> None:
    """In the master, the app loaded (``--preload``): build the dealing indexes now, once,
    so the workers share them and no request builds one (a class's first hand for a rule)."""
    if server.cfg.preload_app:
        warm_dealing(server.app.wsgi())


def post_worker_init(worker: Any) -> None:
    """In a worker that loaded the app itself (no ``--preload``): the same, before it serves."""
    if not worker.cfg.preload_app:
        warm_dealing(worker.wsgi)


def warm_dealing(app: Any) -> None:
    """Build the dealing-by-rule indexes of the ways the groups train under
    (``services/classroom.warm_dealing``), then close the database connections it opened:
    in the master they must not reach the workers it forks."""
    if not isinstance(app, Flask):
        return
    from trainer.extensions import db
    from trainer.services.classroom import warm_dealing as warm

    with app.app_context():
        try:
            warm()
        finally:
            db.session.remove()
            db.engine.dispose()

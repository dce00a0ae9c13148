"""gunicorn settings for the trainer (issue 25): ``gunicorn -c python:trainer.cli.gunicorn_conf``.

Every web worker dies with its master: ``post_fork`` asks the kernel to SIGKILL the
worker when the master exits, however it exits (``kill -9`` included). Without it a
worker whose master was killed kept serving for about 20 s (until gunicorn's own
parent check) and held the port, so a restart right after failed to bind. No
``SO_REUSEPORT`` (``reuse_port`` stays False): a second server never shares the
port with orphans. Other settings (``-w``, ``-b``, ``--preload``) come from the
command line or ``GUNICORN_CMD_ARGS`` as usual (docs/deployment.md).
"""
from __future__ import annotations

from typing import Any

from trainer.services.processes import die_with_parent

reuse_port = False


def post_fork(server: Any, worker: Any) -> None:
    """In the new web worker: die with the master (``server.pid``)."""
    die_with_parent(parent=server.pid)

"""Child processes that never outlive their parent (issue 25).

Linux's ``prctl(PR_SET_PDEATHSIG)`` asks the kernel to signal a process when the
thread that started it exits, however it exits (``kill -9`` included). Used by:

- the gunicorn config (``trainer/cli/gunicorn_conf.py``): each web worker is killed with
  its master, so nothing keeps serving or holds the port after the master dies;
- the job worker: Chromium, started to print a PDF, is killed with the worker.

Elsewhere than Linux it does nothing (``available()`` says so).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

PR_SET_PDEATHSIG = 1
_libc: Any = None


def _prctl() -> Any:
    """Return libc's ``prctl``, loaded once in the parent (never in a child between fork and
    exec, where loading a library may deadlock on a lock another thread held)."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return _libc.prctl


def available() -> bool:
    """Tell whether this system can tie a child's life to its parent's (Linux)."""
    return sys.platform.startswith("linux")


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> None:
    """Have the kernel send ``sig`` to this process when its parent dies.

    ``parent``: the pid the caller expects as its parent; if it already died before
    the request took effect (this process was re-parented), exit now.
    """
    if not available():
        return
    if _prctl()(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def child_preexec() -> Callable[[], None] | None:
    """Return the ``preexec_fn`` of a subprocess that dies with this process (None off Linux)."""
    if not available():
        return None
    _prctl()  # loaded here, before the fork
    parent = os.getpid()

    def preexec() -> None:
        die_with_parent(signal.SIGKILL, parent)

    return preexec

"""Printed PDFs: made by a job worker, stored in the database, copied to each web server's disk.

A PDF is stored under a name made of a readable stem (``trump-plaza-letter-en``)
and a hash of its key: everything that changes what is printed. A different key
is a different PDF, so a change to any part prints anew, and the older PDF of the
same stem is removed. A web request never prints (issue 25): it reads this
machine's copy under ``instance/pdf-cache``, else the database's (``PdfFile``,
written by the worker that printed it, on whatever machine), else queues a job
(``trainer/web/platform/pdf_jobs.py``). The disk copy is written to a temporary name and
renamed (``os.replace``) under an exclusive ``flock``, so no reader ever sees half
a PDF.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, TemplateNotFound
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, scoped_session

from trainer.models import utcnow
from trainer.models.job import PdfFile

LOCK_NAME = ".generate.lock"
_TEMPLATE_NAME = re.compile(r"""["']([\w./-]+\.html)["']""")
_STATIC_NAME = re.compile(r"""static_url\(\s*["']([^"']+)["']\s*\)""")


def key_digest(key: Mapping[str, Any]) -> str:
    """Hash a cache key (a flat mapping of JSON values) into a short file-name part."""
    return hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:24]


def template_version(env: Environment, name: str, static_folder: Path,
                     sources: Iterable[Path] = ()) -> str:
    """Hash template ``name``, every template it names, the static files they link, and ``sources``.

    Templates are found by their quoted ``*.html`` names (both branches of a
    conditional ``extends`` included) and static files by ``static_url('...')``;
    ``sources`` are the Python files that fill the template in.
    """
    digest = hashlib.sha256()
    seen: set[str] = set()
    pending = [name]
    statics: set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            source, _filename, _uptodate = env.loader.get_source(env, current)  # type: ignore[union-attr]
        except TemplateNotFound:
            continue
        digest.update(f"template {current}\n{source}\n".encode())
        pending.extend(_TEMPLATE_NAME.findall(source))
        statics.update(_STATIC_NAME.findall(source))
    for static in sorted(statics):
        path = static_folder / static
        digest.update(f"static {static}\n".encode())
        if path.is_file():
            digest.update(path.read_bytes())
    for path in sorted(Path(p) for p in sources):
        digest.update(f"source {path.name}\n".encode() + path.read_bytes())
    return digest.hexdigest()[:24]


def _same_stem_others(cache_dir: Path, stem: str, keep: Path) -> list[Path]:
    """Return the older files of ``stem`` (same stem, another key digest)."""
    others = []
    for path in cache_dir.glob(f"{stem}-*.pdf"):
        digest = path.name[len(stem) + 1:-len(".pdf")]
        if path != keep and re.fullmatch(r"[0-9a-f]+", digest):
            others.append(path)
    return others


def disk_path(cache_dir: Path, stem: str, digest: str) -> Path:
    """Return where a web server keeps its copy of the PDF ``stem`` of key ``digest``."""
    return cache_dir / f"{stem}-{digest}.pdf"


def write_disk(cache_dir: Path, stem: str, digest: str, data: bytes) -> None:
    """Keep a copy on this machine's disk: written to a temporary name and renamed, so no
    reader sees half a PDF; older files of the same stem removed (under the lock)."""
    path = disk_path(cache_dir, stem, digest)
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / LOCK_NAME, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            fd, temporary = tempfile.mkstemp(dir=cache_dir, prefix=".partial-", suffix=".pdf")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
            for older in _same_stem_others(cache_dir, stem, path):
                older.unlink(missing_ok=True)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def stored(session: Session | scoped_session[Any], digest: str) -> bytes | None:
    """Return the PDF of key ``digest`` a worker stored in the database, or None."""
    data: bytes | None = session.execute(
        select(PdfFile.data).where(PdfFile.digest == digest)).scalar_one_or_none()
    return data


def store(session: Session | scoped_session[Any], stem: str, digest: str, data: bytes) -> None:
    """Store a printed PDF (the caller commits): the older PDFs of the same stem go."""
    session.execute(delete(PdfFile).where(PdfFile.stem == stem, PdfFile.digest != digest),
                    execution_options={"synchronize_session": False})
    if stored(session, digest) is None:
        session.add(PdfFile(stem=stem, digest=digest, data=data, created_at=utcnow()))


def fetch(session: Session | scoped_session[Any], cache_dir: Path, stem: str,
          digest: str) -> bytes | None:
    """Return the PDF of key ``digest``: this machine's copy, else the database's (copied to
    disk for the next request), else None (not printed yet)."""
    try:
        return disk_path(cache_dir, stem, digest).read_bytes()
    except FileNotFoundError:
        pass
    data = stored(session, digest)
    if data is not None:
        write_disk(cache_dir, stem, digest, data)
    return data

"""Printed PDFs kept on disk under ``instance/``: each made once, one at a time.

A PDF is stored under a name made of a readable stem (``trump-plaza-letter-en``)
and a hash of its key: everything that changes what is printed. A different key
is a different file, so a change to any part prints anew, and the older file of
the same stem is removed. Generation holds an exclusive ``flock`` on one lock
file, so parallel first requests, in any thread or gunicorn worker, print once
and the rest read what was printed; the file is written to a temporary name and
renamed (``os.replace``), so no reader ever sees half a PDF.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, TemplateNotFound

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


def cached_file(cache_dir: Path, stem: str, key: Mapping[str, Any],
                generate: Callable[[], bytes]) -> bytes:
    """Return the bytes stored for ``key``, calling ``generate`` only when there are none.

    ``generate`` runs under the cache's lock, once per key however many requests
    ask at the same moment; if it raises, nothing is stored and the next request
    tries again.
    """
    path = cache_dir / f"{stem}-{key_digest(key)}.pdf"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / LOCK_NAME, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            try:
                # Another request may have made it while this one waited.
                return path.read_bytes()
            except FileNotFoundError:
                pass
            data = generate()
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
            return data
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)

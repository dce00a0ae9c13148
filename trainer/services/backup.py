"""Consistent copies of the database, for ``trainer backup`` and ``trainer restore``.

SQLite: SQLite's online backup API copies a consistent snapshot while the app
keeps running (readers and writers continue; WAL mode). PostgreSQL: ``pg_dump``
in its custom format, restored with ``pg_restore``.

A backup file, and the partial file it is written as, is mode 0600 (its owner
only) whatever the umask: it holds every password hash and the audit log. It
holds no usable session: session tokens are kept only as hashes (issue 24).
"""
from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

REQUIRED_TABLES = {"users", "alembic_version"}
# A backup holds every account's password hash and the audit log: only its owner reads
# it. The partial file is created with this mode before anything is written into it
# (SQLite gives its -journal the database file's mode), and the finished file keeps it.
PRIVATE_MODE = 0o600


class BackupError(Exception):
    """A backup or restore refused, with a sentence the operator can read (the CLI shows it)."""


def sqlite_path(url: str) -> Path | None:
    """Return the file of a SQLite URL, or None for another database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("An in-memory database cannot be backed up.")
    return Path(parsed.database)


def libpq_url(url: str) -> str:
    """Return a URL ``pg_dump`` understands (no SQLAlchemy driver suffix)."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


SIDECAR_SUFFIXES = ("-wal", "-shm", "-journal")


def _remove_with_sidecars(path: Path) -> None:
    """Delete a database file and any -wal, -shm or -journal file SQLite left beside it."""
    for name in (path.name, *(path.name + suffix for suffix in SIDECAR_SUFFIXES)):
        path.with_name(name).unlink(missing_ok=True)


def create_private(path: Path) -> int:
    """Create ``path`` new and empty, readable and writable by its owner only; return its descriptor.

    ``O_EXCL`` refuses a file (or a link planted by someone else) already there;
    ``fchmod`` sets the mode whatever the process's umask.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    try:
        os.fchmod(fd, PRIVATE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def backup_postgres(pg_dump: str, url: str, target: Path) -> None:
    """Write ``pg_dump --format=custom`` of the database to ``target``, mode 0600.

    The dump goes to ``target.partial`` (created private before pg_dump writes a
    byte) and is renamed when pg_dump succeeded; a failure leaves no file.
    """
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    fd = create_private(partial)
    try:
        with os.fdopen(fd, "wb") as handle:
            result = subprocess.run([pg_dump, "--format=custom", "--no-owner", libpq_url(url)],
                                    stdout=handle, stderr=subprocess.PIPE, check=False)
        if result.returncode != 0:
            detail = result.stderr.decode("utf-8", "replace").strip()
            # The password in the URL is never shown (pg_dump names the database, not it).
            raise BackupError(f"pg_dump failed (exit status {result.returncode}): {detail}")
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def backup_sqlite(source: Path, target: Path) -> int:
    """Copy a live SQLite database to ``target`` with the online backup API.

    The copy is one plain file in rollback-journal mode (``journal_mode=DELETE``,
    header bytes 18-19 both 1), not WAL like the live database, so it can be
    copied, mailed or opened read-only with nothing beside it. It is written to
    ``target.partial`` and renamed when verified; on success or failure no
    partial file, -wal, -shm or -journal file is left behind.
    """
    if not source.exists():
        raise BackupError(f"There is no database at {source}.")
    partial = target.with_name(target.name + ".partial")
    _remove_with_sidecars(partial)
    try:
        # Private before the first page is copied into it (SQLite keeps an existing file's mode).
        os.close(create_private(partial))
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                # The copied header says WAL, as the live database is; make it plain.
                mode = dst.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
                if mode != "delete":
                    raise BackupError(f"The copy stayed in {mode} journal mode.")
                pages: int = dst.execute("PRAGMA page_count").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        verify_sqlite(partial)
        # A stale -wal beside the target would be replayed into the new copy.
        for suffix in SIDECAR_SUFFIXES:
            target.with_name(target.name + suffix).unlink(missing_ok=True)
        # The finished copy appears under its name only once complete.
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        for suffix in SIDECAR_SUFFIXES:
            partial.with_name(partial.name + suffix).unlink(missing_ok=True)
    return pages


def verify_sqlite(path: Path) -> None:
    """Raise BackupError unless ``path`` is a sound trainer database."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = con.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a SQLite database ({exc}).") from exc
    if ok != "ok":
        raise BackupError(f"{path} failed its integrity check: {ok}.")
    missing = REQUIRED_TABLES - tables
    if missing:
        raise BackupError(
            f"{path} is not a trainer database (missing {', '.join(sorted(missing))}).")


def restore_sqlite(backup: Path, target: Path) -> None:
    """Replace the database's content with the backup's, in one step."""
    verify_sqlite(backup)
    src = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    dst = sqlite3.connect(target, timeout=30)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()

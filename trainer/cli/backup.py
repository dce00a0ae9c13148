"""``trainer backup`` and ``trainer restore``: the commands around ``trainer.services.backup``."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from trainer.services import backup


@contextmanager
def _refusals() -> Iterator[None]:
    """Show a refused backup or restore as the command's error (exit code 1)."""
    try:
        yield
    except backup.BackupError as error:
        raise click.ClickException(str(error)) from error


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Write a consistent copy of the database to PATH while the app runs (mode 0600)."""
    url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    with _refusals():
        source = backup.sqlite_path(url)
    # A folder made here is its owner's only; the backup file is mode 0600 either way.
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if source is not None:
        with _refusals():
            pages = backup.backup_sqlite(source, path)
        click.echo(f"Backed up {source} to {path} ({pages} pages, integrity ok).")
        return
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise click.ClickException("pg_dump is not installed (apt-get install postgresql-client).")
    with _refusals():
        backup.backup_postgres(pg_dump, url, path)
    click.echo(f"Backed up the PostgreSQL database to {path} (pg_dump custom format).")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def restore_command(path: Path, yes: bool) -> None:
    """Replace the database with the backup at PATH (stop the app first)."""
    url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    with _refusals():
        target = backup.sqlite_path(url)
    if not yes:
        click.confirm(f"Replace every record in the database with {path}?", abort=True)
    if target is not None:
        with _refusals():
            backup.restore_sqlite(path, target)
        click.echo(f"Restored {target} from {path}.")
        return
    pg_restore = shutil.which("pg_restore")
    if pg_restore is None:
        raise click.ClickException("pg_restore is not installed (apt-get install postgresql-client).")
    subprocess.run([pg_restore, "--clean", "--if-exists", "--no-owner", "--single-transaction",
                    f"--dbname={backup.libpq_url(url)}", str(path)], check=True)
    click.echo(f"Restored the PostgreSQL database from {path}.")

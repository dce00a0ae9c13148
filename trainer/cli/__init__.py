"""The ``trainer`` console script: the engine's commands and the app's own.

The engine commands (``hand``, ``settle``, ``dice``, ``house-way``; ``engine.py``,
``house_way.py``) need neither Flask nor a database, and ``main`` runs them
without importing either. Every other command (``run``, ``routes``, ``db ...``,
``create-user``, ``backup`` ...) goes through Flask's command group, which loads
the app; the app's own commands (``accounts.py``, ``backup.py``) are added to that
group here, so the factory never reaches up to this floor.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from trainer.cli import engine

if TYPE_CHECKING:
    from flask import Flask

HELP = "Pai Gow house-way trainer: engine commands and app administration."


@click.group(help=HELP)
def cli() -> None:
    """Run the engine commands (the app's commands come with ``app_cli``)."""


engine.register(cli)


def _create_app() -> Flask:
    from trainer import create_app

    return create_app()


def app_cli() -> click.Group:
    """Return the whole ``trainer`` group: Flask's commands, the app's and the engine's."""
    from flask.cli import FlaskGroup

    from trainer.cli import accounts, backup, worker

    group = FlaskGroup(name="trainer", help=HELP, create_app=_create_app,
                       add_version_option=False, load_dotenv=False, set_debug_flag=False)
    engine.register(group)
    for command in (accounts.create_user, accounts.seed_demo, accounts.sweep_timeouts,
                    backup.backup_command, backup.restore_command, worker.worker_command):
        group.add_command(command)
    return group


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ``trainer`` console script; an engine command runs without loading Flask."""
    args = list(sys.argv[1:] if argv is None else argv)
    group = cli if args and args[0] in cli.commands else app_cli()
    group(args, prog_name="trainer")

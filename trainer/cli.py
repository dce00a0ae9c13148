"""The ``trainer`` console script: engine commands plus the app's own commands."""
from __future__ import annotations

import click
from flask.cli import FlaskGroup


def _create_app():
    from trainer import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app, add_version_option=False,
             load_dotenv=False, set_debug_flag=False)
def cli() -> None:
    """Pai Gow house-way trainer: engine commands and app administration."""


def main() -> None:
    """Run the ``trainer`` console script."""
    from trainer import engine_cli

    engine_cli.register(cli)
    cli(prog_name="trainer")

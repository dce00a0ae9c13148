"""The app's extension objects, created unbound and initialised in ``create_app``.

Also the SQLite connection settings (foreign keys, WAL, busy timeout), set on
every connection by the time any model is imported.
"""
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from flask_babel import Babel
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

# Named constraints from the first migration, so later migrations can drop or
# alter them by name on every backend (SQLite batch mode needs the names).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base whose metadata carries the naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)

# The models' base class is ``db.Model``, which Flask-SQLAlchemy builds from ``Base``
# at run time; type checkers cannot follow that, so they are shown ``Base`` itself.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()
login_manager = LoginManager()
csrf = CSRFProtect()
babel = Babel()


@event.listens_for(Engine, "connect")
def _configure_sqlite(dbapi_connection: Any, connection_record: Any) -> None:
    """Turn on foreign keys, WAL and a busy timeout for every SQLite connection."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    # synchronous stays FULL (the default): an answer once recorded survives a power
    # cut (docs/operations.md, "Decision: SQLite commits stay durable").
    cursor.close()


def commit_keeping_state() -> None:
    """Commit without expiring what the ORM session holds, so a request that goes on reads
    what it just read or wrote without reloading it (a statement each, telling nothing new)."""
    session = db.session()
    keep = session.expire_on_commit
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = keep

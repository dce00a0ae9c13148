"""The class tables of a checked way, stored by rules digest (one per wheel setting).

A check job stores them (``store_tables``, in its own session); a custom version or a
preset's snapshot is built with them attached (``load_tables``), so it sets hands by
table look-up like a preset.
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from trainer.engine.house_way.classes import ClassTable, class_keys
from trainer.extensions import db
from trainer.models import HouseWayTable, utcnow


def insert_ignoring_duplicates(session: Any, table: Any, values: Mapping[str, Any]) -> None:
    """INSERT a row unless one with the same unique key is there (no race between processes)."""
    dialect = session.get_bind().dialect.name
    maker = pg_insert if dialect == "postgresql" else sqlite_insert
    session.execute(maker(table).values(**values).on_conflict_do_nothing())



def store_tables(rules_digest: str, tables: Mapping[str, ClassTable] | Iterable[ClassTable],
                 session: Session | None = None) -> None:
    """Keep the class tables of a checked way (one per wheel setting), by rules digest.

    A table already stored for the digest and wheel is kept as it is. With ``session``
    (a job worker's own), the rows join its transaction and the caller commits;
    otherwise they are committed here.
    """
    own = session is None
    target: Any = db.session if session is None else session
    items = tables.values() if isinstance(tables, Mapping) else tables
    for table in items:
        if table.rules_digest != rules_digest:
            raise ValueError("This class table was built from other rules.")
        insert_ignoring_duplicates(target, HouseWayTable.__table__, {
            "rules_digest": rules_digest, "wheel": table.wheel,
            "rule_ids": list(table.rule_ids), "split": zlib.compress(table.split, 6),
            "rule": zlib.compress(table.rule, 6), "created_at": utcnow()})
    if own:
        db.session.commit()


def load_tables(rules_digest: str, session: Session | None = None) -> dict[str, ClassTable]:
    """Return the stored class tables of a rules digest by wheel setting (none: {}).

    ``session``: a job worker's own (default: the app's).
    """
    source: Any = db.session if session is None else session
    rows = source.execute(
        select(HouseWayTable).where(HouseWayTable.rules_digest == rules_digest)).scalars()
    keys = class_keys()
    n = len(keys.keys)
    tables = {}
    for row in rows:
        try:
            split, rule = zlib.decompress(row.split), zlib.decompress(row.rule)
        except zlib.error:
            continue
        if len(split) != n or len(rule) != n:
            continue
        tables[row.wheel] = ClassTable("", row.wheel, rules_digest, tuple(row.rule_ids),
                                       keys, split, rule)
    return tables

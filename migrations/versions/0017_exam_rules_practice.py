"""an exam keeps its table rules; practice-only sessions (issue 24)

Revision ID: 0017_exam_rules_practice
Revises: 0016_session_hashes
Create Date: 2026-12-07 14:00:00

- ``drill_sessions.dealt``: how a session's questions were dealt. ``balanced`` (the
  normal generator) is the only kind whose timed answers count toward readiness and
  certification; ``mistakes`` ("my mistakes") and ``focused`` are practice only. The
  sessions already recorded with focus rules in their context (only "my mistakes" set
  them) become ``mistakes``, so they leave the criterion windows too.
- ``certification_exams.table_rules``: the table-rules profile's data at scheduling.
  Existing exams are filled from the profile's current data: a preset's from the
  engine, a manager's custom profile's from ``table_profiles``; an unknown name stays
  NULL (the exam then reads the profile by name, as before).
"""
import json

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017_exam_rules_practice"
down_revision = "0016_session_hashes"
branch_labels = None
depends_on = None

DEALT = "dealt IN ('balanced', 'mistakes', 'focused')"


def _mark_mistakes_sessions(bind):
    """Mark the sessions whose first question's context has focus rules as "my mistakes"."""
    if bind.dialect.name == "postgresql":
        focused = ("CASE WHEN json_typeof(context -> 'focus_rules') = 'array' "
                   "THEN json_array_length(context -> 'focus_rules') ELSE 0 END > 0")
    else:
        focused = "coalesce(json_array_length(context, '$.focus_rules'), 0) > 0"
    bind.execute(sa.text(
        "UPDATE drill_sessions SET dealt = 'mistakes' WHERE mode <> 'exam' AND id IN "
        f"(SELECT session_id FROM issued_questions WHERE position = 1 AND {focused})"
    ))


def _profile_data(bind, name):
    """Return a profile's current data (``TableProfile.as_dict()``), or None if unknown."""
    # The engine's presets are plain data with no database or app (docs/architecture.md).
    from trainer.engine.profiles import PROFILES

    if name in PROFILES:
        return PROFILES[name].as_dict()
    row = bind.execute(
        sa.text("SELECT title, settings FROM table_profiles WHERE name = :name"),
        {"name": name},
    ).first()
    if row is None:
        return None
    settings = row.settings
    if isinstance(settings, str):
        settings = json.loads(settings)
    if not isinstance(settings, dict):
        return None
    return {**settings, "name": name, "title": row.title}


def _fill_exam_rules(bind):
    exams = sa.table("certification_exams", sa.column("id", sa.Integer),
                     sa.column("profile", sa.String), sa.column("table_rules", sa.JSON))
    names = bind.execute(sa.select(exams.c.profile).distinct()).scalars().all()
    for name in names:
        data = _profile_data(bind, name)
        if data is not None:
            bind.execute(exams.update().where(exams.c.profile == name,
                                              exams.c.table_rules.is_(None))
                         .values(table_rules=data))


def upgrade():
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dealt", sa.String(length=16), nullable=False,
                                      server_default="balanced"))
        batch_op.create_check_constraint(op.f("ck_drill_sessions_dealt"), DEALT)
    with op.batch_alter_table("certification_exams", schema=None) as batch_op:
        batch_op.add_column(sa.Column("table_rules", sa.JSON(), nullable=True))
    bind = op.get_bind()
    _mark_mistakes_sessions(bind)
    _fill_exam_rules(bind)


def downgrade():
    with op.batch_alter_table("certification_exams", schema=None) as batch_op:
        batch_op.drop_column("table_rules")
    with op.batch_alter_table("drill_sessions", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_drill_sessions_dealt"), type_="check")
        batch_op.drop_column("dealt")

"""Migration 0017 (issue 24): existing rows get how they were dealt and their exam's table rules.

"My mistakes" sessions recorded before (their context has focus rules) become
``mistakes``, so they leave the criterion windows; every other session is
``balanced``. Existing exams keep the table rules their profile holds when the
migration runs: a preset's from the engine, a custom one's from ``table_profiles``;
an unknown profile's stay NULL.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

import flask_migrate
import sqlalchemy as sa
from flask import Flask

from trainer.engine.profiles import PROFILES
from trainer.extensions import db

BEFORE = "0016_session_hashes"
AFTER = "0017_exam_rules_practice"
NOW = datetime(2026, 12, 7, 12, 0)
CUSTOM = {"name": "custom-riverside", "title": "Old title", "wheel": "second_highest",
          "commission_rate": "0.04", "commission_rounding": "cent", "fee_cents": None,
          "foul_policy": "lose", "no_commission": False, "min_bet_cents": 500,
          "max_bet_cents": 50_000, "side_bets": []}


def _table(name: str, *columns: Any) -> sa.TableClause:
    return sa.table(name, *columns)


SESSIONS = _table("drill_sessions", sa.column("id", sa.Integer), sa.column("user_id", sa.Integer),
                  sa.column("kind", sa.String), sa.column("mode", sa.String),
                  sa.column("length", sa.Integer), sa.column("house_way", sa.String),
                  sa.column("profile", sa.String), sa.column("started_at", sa.DateTime))
ISSUED = _table("issued_questions", sa.column("session_id", sa.Integer),
                sa.column("position", sa.Integer), sa.column("seed", sa.BigInteger),
                sa.column("question", sa.JSON), sa.column("context", sa.JSON))
PROFILE_ROWS = _table("table_profiles", sa.column("name", sa.String), sa.column("title", sa.String),
                      sa.column("settings", sa.JSON), sa.column("offered", sa.Boolean),
                      sa.column("created_at", sa.DateTime), sa.column("updated_at", sa.DateTime))
EXAMS = _table("certification_exams", sa.column("id", sa.Integer),
               sa.column("group_id", sa.Integer), sa.column("trainee_id", sa.Integer),
               sa.column("scheduled_by_id", sa.Integer), sa.column("scheduled_at", sa.DateTime),
               sa.column("kind", sa.String), sa.column("length", sa.Integer),
               sa.column("time_limit_ms", sa.Integer), sa.column("criteria", sa.JSON),
               sa.column("house_way", sa.String), sa.column("profile", sa.String),
               sa.column("status", sa.String))


def _context(focus: list[str] | None) -> dict[str, Any]:
    data: dict[str, Any] = {"house_way": "trump-plaza", "profile": "nevada",
                            "foul_policy": "lose", "generator": 2}
    if focus is not None:
        data["focus_rules"] = focus
    return data


def test_the_migration_marks_mistakes_sessions_and_fills_exam_rules(empty_app: Flask) -> None:
    with empty_app.app_context():
        flask_migrate.upgrade(revision=BEFORE)
        db.session.execute(sa.text(
            "INSERT INTO users (name, login, password_hash, role, active, created_at) "
            "VALUES ('tra', 'tra', 'x', 'trainee', :on, :at)"), {"on": True, "at": NOW})
        user = db.session.execute(sa.text("SELECT id FROM users")).scalar_one()
        db.session.execute(sa.text(
            "INSERT INTO groups (name, supervisor_id, house_way, profile, settings, created_at) "
            "VALUES ('Day', :u, 'trump-plaza', 'nevada', '{}', :at)"), {"u": user, "at": NOW})
        group = db.session.execute(sa.text("SELECT id FROM groups")).scalar_one()
        sessions = {"mistakes": (["pai-gow.standard"], "timed"), "plain": ([], "timed"),
                    "old": (None, "practice"), "exam": (None, "exam")}
        for number, (focus, mode) in enumerate(sessions.values(), start=1):
            db.session.execute(SESSIONS.insert().values(
                id=number, user_id=user, kind="house-way", mode=mode, length=2,
                house_way="trump-plaza", profile="nevada", started_at=NOW))
            for position in (1, 2):
                db.session.execute(ISSUED.insert().values(
                    session_id=number, position=position, seed=position,
                    question={"cards": []}, context=_context(focus)))
        db.session.execute(PROFILE_ROWS.insert().values(
            name="custom-riverside", title="Riverside", settings=CUSTOM, offered=True,
            created_at=NOW, updated_at=NOW))
        for number, profile in enumerate(("custom-riverside", "california", "gone"), start=1):
            db.session.execute(EXAMS.insert().values(
                id=number, group_id=group, trainee_id=user, scheduled_by_id=user,
                scheduled_at=NOW, kind="house-way", length=2, time_limit_ms=10_000,
                criteria={"kind": "house-way"}, house_way="trump-plaza", profile=profile,
                status="scheduled"))
        db.session.commit()
        db.session.remove()

        flask_migrate.upgrade(revision=AFTER)
        dealt = dict(db.session.execute(sa.text("SELECT id, dealt FROM drill_sessions")).all())
        assert dealt == {1: "mistakes", 2: "balanced", 3: "balanced", 4: "balanced"}
        rules = _exam_rules()
        # A custom profile's data with its name and current title; a preset's from the engine.
        assert rules[1] == {**CUSTOM, "name": "custom-riverside", "title": "Riverside"}
        assert rules[2] == PROFILES["california"].as_dict()
        assert rules[3] is None
        db.session.remove()

        flask_migrate.downgrade(revision=BEFORE)
        columns = {c["name"] for c in sa.inspect(db.engine).get_columns("drill_sessions")}
        assert "dealt" not in columns
        flask_migrate.upgrade(revision=AFTER)
        db.session.remove()


def _exam_rules() -> dict[int, Any]:
    exams = _table("certification_exams", sa.column("id", sa.Integer),
                   sa.column("table_rules", sa.JSON))
    return dict(db.session.execute(sa.select(exams.c.id, exams.c.table_rules)).all())

"""A training room for the classroom tests (issue 31): a group, its supervisor and trainees,
each a browser (test client) with its CSRF token, and the moves of a class.

The kinds a class offers come from the app (``classroom_parts.class_kinds``), never from a
list written here. Right answers are worked out with the engine from the stored hand and
checked by grading them; wrong ones are each kind's own (``Drill.wrong_answer``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import get_drill
from trainer.extensions import db
from trainer.models import (
    Attempt,
    ClassAnswer,
    ClassHand,
    ClassPresence,
    DrillSession,
    LiveClass,
    Role,
)
from trainer.services.classroom.rows import hand_context
from trainer.web.classroom import parts as classroom_parts
from web.helpers import csrf_token, login


def class_kinds(app: Flask) -> list[str]:
    """Return the slugs of the kinds a class offers, in the drills' order."""
    with app.app_context():
        return [k.slug for k in classroom_parts.class_kinds()]


@dataclass
class Room:
    """A group with its supervisor and trainees signed in, and (once started) its class."""

    app: Flask
    group_id: int
    supervisor: Any
    trainees: list[Any]
    staff: FlaskClient
    seats: list[FlaskClient]
    tokens: dict[int, str] = field(default_factory=dict)
    class_id: int | None = None

    def token(self, client: FlaskClient) -> str:
        key = id(client)
        if key not in self.tokens:
            self.tokens[key] = csrf_token(client, "/")
        return self.tokens[key]

    # --- the instructor ---------------------------------------------------------------

    def start(self, joined: int = 0) -> int:
        """Start the group's class; the first ``joined`` trainees join it."""
        response = self.staff.post(f"/class/groups/{self.group_id}/start",
                                   data={"csrf_token": self.token(self.staff)})
        assert response.status_code == 302, response.status_code
        self.class_id = int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])
        for seat in range(joined):
            self.join(seat)
        return self.class_id

    def drive(self, action: str, body: dict[str, Any] | None = None,
              client: FlaskClient | None = None) -> Any:
        client = client or self.staff
        return client.post(f"/class/{self.class_id}/{action}", json=body or {},
                           headers={"X-CSRFToken": self.token(client)})

    def deal(self, kind: str, how: str = "random", **extra: Any) -> Any:
        return self.drive("deal", {"kind": kind, "how": how, **extra})

    def live(self, etag: str | None = None) -> Any:
        headers = {"If-None-Match": etag} if etag else {}
        return self.staff.get(f"/class/{self.class_id}/live", headers=headers)

    # --- the trainees -----------------------------------------------------------------

    def join(self, seat: int) -> Any:
        client = self.seats[seat]
        return client.post(f"/class/{self.class_id}/join", data={"csrf_token": self.token(client)})

    def state(self, seat: int, etag: str | None = None) -> Any:
        headers = {"If-None-Match": etag} if etag else {}
        return self.seats[seat].get(f"/class/{self.class_id}/state", headers=headers)

    def answer(self, seat: int, number: Any, answer: Any, class_id: int | None = None) -> Any:
        client = self.seats[seat]
        return client.post(f"/class/{class_id or self.class_id}/answer",
                           json={"hand": number, "answer": answer},
                           headers={"X-CSRFToken": self.token(client)})

    # --- the hand, read with the engine -----------------------------------------------

    def hand(self, number: int) -> dict[str, Any]:
        """Return a hand's row as plain values (question JSON, rule, seed, state...)."""
        with self.app.app_context():
            hand = db.session.execute(db.select(ClassHand).filter_by(
                class_id=self.class_id, number=number)).scalar_one()
            return {"kind": hand.kind, "question": dict(hand.question), "rule_id": hand.rule_id,
                    "seed": hand.seed, "state": hand.state, "dealt": hand.dealt,
                    "asked_rule": hand.asked_rule, "key": hand.key, "id": hand.id,
                    "context": dict(hand.context)}

    def _dealt(self, number: int) -> tuple[Any, Any, Any]:
        """Return a hand's drill, context and question, read from its row (in an app context)."""
        hand = db.session.execute(db.select(ClassHand).filter_by(
            class_id=self.class_id, number=number)).scalar_one()
        drill = get_drill(hand.kind)
        return drill, hand_context(hand), drill.read_question(hand.question)

    def right_answer(self, number: int) -> dict[str, Any]:
        """Work out a right answer to the hand with the engine (checked by grading it)."""
        with self.app.app_context():
            drill, context, question = self._dealt(number)
            answer = _right(drill, question, context)
            assert drill.grade(question, drill.read_answer(question, answer, context),
                               context).correct
            return answer

    def wrong_answer(self, number: int) -> dict[str, Any]:
        """Return the kind's own wrong answer to the hand."""
        with self.app.app_context():
            drill, context, question = self._dealt(number)
            wrong: dict[str, Any] = drill.answer_json(
                drill.wrong_answer(question, context, random.Random(number)))
            assert not drill.grade(question, drill.read_answer(question, wrong, context),
                                   context).correct
            return wrong


def _right(drill: Any, question: Any, context: Any) -> dict[str, Any]:
    """A right answer: the fixed answer graded right, else the key turned into an answer."""
    for choice in (drill.answer_choices(question, context) or {}).values():
        if drill.grade(question, choice, context).correct:
            found: dict[str, Any] = drill.answer_json(choice)
            return found
    key = drill.key_json(drill.answer_key(question, context).correct_answer)
    if "front" in key:
        return {"front": key["front"]}
    if "positions" in key:
        return {"positions": [
            {k: v for k, v in p.items() if k != "seat" and not (k == "paid_cents" and v is None)}
            for p in key["positions"]]}
    return dict(key)


def row_counts(app: Flask) -> tuple[int, ...]:
    """Return how many rows each table a class writes holds (a refused request changes none)."""
    with app.app_context():
        return tuple(db.session.execute(db.select(db.func.count()).select_from(model)).scalar_one()
                     for model in (LiveClass, ClassHand, ClassAnswer, ClassPresence, Attempt,
                                   DrillSession))


def build_room(app: Flask, make_user: Any, make_group: Any) -> Room:
    """A group of three trainees with their supervisor, each signed in on their own device
    (each test module's ``room`` fixture)."""
    supervisor = make_user(Role.SUPERVISOR, login="instructor", name="Ines Instructor")
    group = make_group(supervisor.id, name="Morning class")
    trainees = [make_user(Role.TRAINEE, login=f"dealer{i}", name=f"Dealer {name}",
                          group_id=group)
                for i, name in enumerate(("Ada", "Ben", "Cy"), start=1)]
    staff = app.test_client()
    login(staff, supervisor)
    seats = []
    for trainee in trainees:
        client = app.test_client()
        login(client, trainee)
        seats.append(client)
    return Room(app, group, supervisor, trainees, staff, seats)

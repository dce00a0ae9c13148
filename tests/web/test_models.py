"""The models: UTC times, unique logins, scrypt hashes and append-only attempts."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from trainer.extensions import db
from trainer.models import AppendOnlyError, Attempt, DrillSession, Group, User


def test_times_come_back_as_aware_utc(app, make_user, make_attempt) -> None:
    account = make_user()
    attempt_id = make_attempt(account.id)
    with app.app_context():
        attempt = db.session.get(Attempt, attempt_id)
        assert attempt.issued_at == datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
        assert attempt.answered_at.utcoffset().total_seconds() == 0
        assert db.session.get(User, account.id).created_at.tzinfo is not None


def test_naive_times_are_refused(app, make_user) -> None:
    account = make_user()
    with app.app_context():
        session = DrillSession(
            user_id=account.id, kind="set-hand", length=1, house_way="trump-plaza",
            profile="nevada", started_at=datetime(2024, 1, 1),
        )
        db.session.add(session)
        with pytest.raises(Exception, match="aware"):
            db.session.commit()


def test_password_is_stored_as_a_scrypt_hash(app, make_user) -> None:
    account = make_user(password="s3cret-words")
    with app.app_context():
        user = db.session.get(User, account.id)
        assert user.password_hash.startswith("scrypt:")
        assert user.check_password("s3cret-words")
        assert not user.check_password("S3cret-words")


def test_logins_are_unique(app, make_user) -> None:
    make_user(login="dealer")
    with pytest.raises(IntegrityError):
        make_user(login="dealer")


def test_group_defaults_to_trump_plaza_house_way_and_nevada_rules(app, supervisor, group) -> None:
    with app.app_context():
        saved = db.session.get(Group, group)
        assert (saved.house_way, saved.profile, saved.settings) == ("trump-plaza", "nevada", {})


def test_attempts_cannot_be_changed(app, trainee, make_attempt) -> None:
    attempt_id = make_attempt(trainee.id, correct=False)
    with app.app_context():
        attempt = db.session.get(Attempt, attempt_id)
        attempt.correct = True
        with pytest.raises(AppendOnlyError):
            db.session.commit()


def test_attempts_cannot_be_deleted(app, trainee, make_attempt) -> None:
    attempt_id = make_attempt(trainee.id)
    with app.app_context():
        db.session.delete(db.session.get(Attempt, attempt_id))
        with pytest.raises(AppendOnlyError):
            db.session.commit()


def test_a_question_is_recorded_once_per_session(app, trainee, make_attempt) -> None:
    attempt_id = make_attempt(trainee.id)
    with app.app_context():
        first = db.session.get(Attempt, attempt_id)
        again = Attempt(
            session_id=first.session_id, position=first.position, user_id=trainee.id,
            kind=first.kind, seed=first.seed, question=first.question, answer=first.answer,
            correct_answer=first.correct_answer, correct=first.correct,
            issued_at=first.issued_at, elapsed_ms=10,
        )
        db.session.add(again)
        with pytest.raises(IntegrityError):
            db.session.commit()


def test_seeds_keep_64_bits(app, trainee, make_attempt) -> None:
    attempt_id = make_attempt(trainee.id, seed=2**63 - 1)
    with app.app_context():
        assert db.session.get(Attempt, attempt_id).seed == 2**63 - 1

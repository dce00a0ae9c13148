"""Many trainees at once: every attempt recorded exactly once, none lost, none doubled."""
from __future__ import annotations

from trainer.extensions import db
from trainer.models import Attempt, Role
from web.helpers import csrf_token, login, run_together
from web.test_drills import fetch_question, right_answer, start


def _count(app, **filters) -> int:
    with app.app_context():
        return db.session.execute(
            db.select(db.func.count(Attempt.id)).filter_by(**filters)).scalar()


def test_same_answer_sent_twice_at_the_same_moment_records_once(app, trainee):
    tabs = [app.test_client() for _ in range(4)]
    for tab in tabs:
        login(tab, trainee)
    session_id = start(tabs[0], "house-way")
    position = fetch_question(tabs[0], session_id).get_json()["position"]
    answer = right_answer(app, session_id, position)
    tokens = [csrf_token(tab, "/drills/") for tab in tabs]

    def send(tab, token):
        return lambda: tab.post(f"/drills/sessions/{session_id}/answer",
                                json={"position": position, "answer": answer},
                                headers={"X-CSRFToken": token}).status_code

    statuses = run_together([send(tab, token) for tab, token in zip(tabs, tokens, strict=True)])
    assert sorted(statuses) == [200, 409, 409, 409]
    assert _count(app, session_id=session_id) == 1


def test_many_trainees_answering_at_once_lose_and_double_nothing(app, make_user, group):
    trainees = [make_user(Role.TRAINEE, login=f"class{i}", group_id=group) for i in range(8)]
    clients, sessions = [], []
    for account in trainees:
        client = app.test_client()
        login(client, account)
        clients.append(client)
        sessions.append(start(client, "action"))
    rounds = 4
    sent = [0] * len(trainees)

    def play(i: int):
        def go():
            client, session_id = clients[i], sessions[i]
            token = csrf_token(client, "/drills/")
            for _ in range(rounds):
                q = client.post(f"/drills/sessions/{session_id}/question", json={},
                                headers={"X-CSRFToken": token}).get_json()
                answer = right_answer(app, session_id, q["position"])
                r = client.post(f"/drills/sessions/{session_id}/answer",
                                json={"position": q["position"], "answer": answer},
                                headers={"X-CSRFToken": token})
                assert r.status_code == 200, r.get_data(as_text=True)
                sent[i] += 1
        return go

    run_together([play(i) for i in range(len(trainees))])
    assert sum(sent) == len(trainees) * rounds
    assert _count(app) == len(trainees) * rounds
    for account, session_id in zip(trainees, sessions, strict=True):
        assert _count(app, user_id=account.id, session_id=session_id) == rounds
    with app.app_context():
        positions = db.session.execute(
            db.select(Attempt.session_id, Attempt.position)).all()
    assert len(set(positions)) == len(positions)


def test_a_failed_commit_leaves_no_half_written_attempt(app, trainee, monkeypatch):
    client = app.test_client()
    login(client, trainee)
    session_id = start(client, "action")
    position = fetch_question(client, session_id).get_json()["position"]
    answer = right_answer(app, session_id, position)
    token = csrf_token(client, "/drills/")
    from sqlalchemy.orm import Session

    real_commit = Session.commit
    calls = {"n": 0}

    def crash_once(self):
        calls["n"] += 1
        if calls["n"] == 1:
            # Flush the rows, then die before the commit: the worst moment.
            self.flush()
            raise RuntimeError("power cut")
        return real_commit(self)

    monkeypatch.setattr(Session, "commit", crash_once)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    crashed = client.post(f"/drills/sessions/{session_id}/answer",
                          json={"position": position, "answer": answer},
                          headers={"X-CSRFToken": token})
    assert crashed.status_code == 500
    assert _count(app) == 0
    again = client.post(f"/drills/sessions/{session_id}/answer",
                        json={"position": position, "answer": answer},
                        headers={"X-CSRFToken": token})
    assert again.status_code == 200
    assert _count(app, session_id=session_id, position=position) == 1

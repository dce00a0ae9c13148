"""Issue 16 item 6: an exam runs under the settings kept when it was scheduled.

A supervisor schedules an exam, then changes the group's house way, table rules,
foul policy and exam length and time; the trainee's home page and the exam page name
the kept settings, the same words on both, and the exam runs under them.
"""
from __future__ import annotations

import re
from typing import Any

from trainer.extensions import db
from trainer.models import CertificationExam, DrillSession, Group, IssuedQuestion
from trainer.web.words.names import house_way_name, profile_name
from web.helpers import csrf_token, login, post_form

TERMS = re.compile(r'<span class="exam-terms" data-exam="(\d+)">([^<]*)</span>')
OLD = {"house_way": "mgm-grand", "profile": "nevada", "length": 3, "seconds": 60}
NEW = {"house_way": "foxwoods", "profile": "california", "length": 5, "seconds": 20}


def _criteria(length: int, seconds: int) -> dict[str, Any]:
    return {"criteria": [{"kind": "house-way", "min_accuracy": 90, "window": 3,
                          "max_median_s": None, "exam_length": length,
                          "exam_time_limit_s": seconds}]}


def _set_group(app: Any, group_id: int, values: dict[str, Any], foul: str) -> None:
    with app.app_context():
        group = db.session.get(Group, group_id)
        group.house_way, group.profile = values["house_way"], values["profile"]
        group.settings = {"foul_policy": foul,
                          "certification": _criteria(values["length"], values["seconds"])}
        db.session.commit()


def _terms(page: str) -> dict[str, str]:
    return {exam_id: " ".join(text.split()) for exam_id, text in TERMS.findall(page)}


def test_an_exam_scheduled_before_a_settings_change_runs_under_the_kept_settings(
        app, supervisor, trainee, group) -> None:
    _set_group(app, group, OLD, "house_way")
    staff, dealer = app.test_client(), app.test_client()
    login(staff, supervisor)
    login(dealer, trainee)
    post_form(staff, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    with app.app_context():
        exam_id = db.session.execute(db.select(CertificationExam.id)).scalar_one()
        assert db.session.get(CertificationExam, exam_id).foul_policy == "house_way"
    # The schedule page says which settings an exam keeps.
    trainee_page = staff.get(f"/supervisor/trainees/{trainee.id}").get_data(as_text=True)
    assert 'id="exam-settings-note"' in trainee_page

    _set_group(app, group, NEW, "lose")

    expected = (f"house way {house_way_name(OLD['house_way'])} · table rules "
                f"{profile_name(OLD['profile'])} · {OLD['length']} questions · "
                f"{OLD['seconds']} s a question")
    for _ in range(2):  # before the start and while it runs
        home = dealer.get("/").get_data(as_text=True)
        exam_page = dealer.get(f"/exams/{exam_id}").get_data(as_text=True)
        assert _terms(home)[str(exam_id)] == _terms(exam_page)[str(exam_id)] == expected
        # The home page's own settings line names the group's new house way, for drills.
        assert house_way_name(NEW["house_way"]) in home
        assert house_way_name(NEW["house_way"]) not in exam_page
        if "Start the exam" in exam_page:
            started = post_form(dealer, f"/exams/{exam_id}/start")
            assert started.status_code == 302
    with app.app_context():
        exam = db.session.get(CertificationExam, exam_id)
        session = db.session.get(DrillSession, exam.session_id)
        assert (session.house_way, session.profile) == (OLD["house_way"], OLD["profile"])
        assert session.length == OLD["length"]
        assert session.time_limit_ms == OLD["seconds"] * 1000
        contexts = db.session.execute(db.select(IssuedQuestion.context).where(
            IssuedQuestion.session_id == session.id)).scalars().all()
    if not contexts:
        token = csrf_token(dealer, "/drills/")
        dealer.post(f"/drills/sessions/{session.id}/question", json={},
                    headers={"X-CSRFToken": token})
        with app.app_context():
            contexts = db.session.execute(db.select(IssuedQuestion.context).where(
                IssuedQuestion.session_id == session.id)).scalars().all()
    assert contexts and all(c["foul_policy"] == "house_way" for c in contexts)

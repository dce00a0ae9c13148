"""The audit log of supervisors' and admins' changes, and account deactivation."""
from trainer.extensions import db
from trainer.models import AuditLog, User

from .helpers import login, post_form


def _log(app):
    """Return the log's entries of changes (sign-ins and sign-outs left out)."""
    with app.app_context():
        return [(r.actor_id, r.action, r.target_type, r.target_id, r.old, r.new)
                for r in db.session.execute(db.select(AuditLog).order_by(AuditLog.id)).scalars()
                if not r.action.startswith(("sign-in", "sign-out"))]


def test_creating_a_trainee_is_logged_without_secrets(app, client, supervisor, group):
    login(client, supervisor)
    response = post_form(client, "/supervisor/trainees/new", {
        "name": "Ann Dealer", "login": "ann", "password": "a-long-password",
        "confirm": "a-long-password", "group_id": group})
    assert response.status_code == 302
    [(actor, _action, kind, _target, old, new)] = [e for e in _log(app)
                                                   if e[1] == "account.create"]
    assert (actor, kind, old) == (supervisor.id, "user", None)
    assert new["login"] == "ann" and new["group_id"] == group
    assert "password" not in str(new) and "scrypt" not in str(new)


def test_password_reset_is_logged(app, client, supervisor, trainee):
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/password", {
        "password": "another-password", "confirm": "another-password"})
    assert response.status_code == 302
    assert (supervisor.id, "account.password-reset", "user", trainee.id, None, None) in _log(app)


def test_supervisor_deactivation_ends_the_trainee_session_and_is_logged(
        app, client, supervisor, trainee):
    tablet = app.test_client()
    login(tablet, trainee)
    assert tablet.get("/").status_code == 200
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/active", {"active": "0"})
    assert response.status_code == 302
    assert tablet.get("/").status_code == 302
    entry = next(e for e in _log(app) if e[1] == "account.deactivate")
    assert entry[4]["active"] is True and entry[5]["active"] is False
    post_form(client, f"/supervisor/trainees/{trainee.id}/active", {"active": "1"})
    with app.app_context():
        assert db.session.get(User, trainee.id).active


def test_another_supervisor_cannot_deactivate_my_trainee(app, client, make_user, trainee):
    other = make_user("supervisor", login="other-sup")
    login(client, other)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/active", {"active": "0"})
    assert response.status_code == 404
    with app.app_context():
        assert db.session.get(User, trainee.id).active
    assert _log(app) == []


def test_admin_creates_supervisor_deactivates_and_reads_the_log(app, client, admin, trainee):
    login(client, admin)
    post_form(client, "/admin/supervisors/new", {
        "name": "Sue", "login": "sue", "password": "a-long-password",
        "confirm": "a-long-password"})
    post_form(client, f"/admin/users/{trainee.id}/active", {"active": "0", "confirm": "1"})
    page = client.get("/admin/audit").get_data(as_text=True)
    # In words, the action's name only as a tooltip (docs/operations.md).
    assert "Account created" in page and "Account deactivated" in page
    assert 'title="account.deactivate"' in page
    assert client.get("/admin/audit?action=account.deact").get_data(as_text=True).count(
        'title="account.') == 1


def test_admin_cannot_deactivate_themselves(app, client, admin):
    login(client, admin)
    post_form(client, f"/admin/users/{admin.id}/active", {"active": "0"})
    with app.app_context():
        assert db.session.get(User, admin.id).active


def test_bad_active_value_is_refused_and_changes_nothing(app, client, admin, trainee):
    login(client, admin)
    assert post_form(client, f"/admin/users/{trainee.id}/active", {"active": "maybe"}
                     ).status_code == 400
    assert _log(app) == []


def test_audit_log_is_for_admins_only(client, supervisor, trainee):
    login(client, supervisor)
    assert client.get("/admin/audit").status_code == 403


def test_scheduling_an_exam_is_logged_with_what_it_will_ask(app, client, supervisor, group,
                                                            trainee):
    login(client, supervisor)
    response = post_form(client, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    assert response.status_code == 302
    refused = post_form(client, f"/supervisor/trainees/{trainee.id}/exams", {"kind": "house-way"})
    assert refused.status_code == 302
    [(actor, _action, kind, target, old, new)] = [e for e in _log(app) if e[1] == "exam.schedule"]
    with app.app_context():
        from trainer.models import CertificationExam

        [exam] = db.session.execute(db.select(CertificationExam)).scalars().all()
        assert (actor, kind, target, old) == (supervisor.id, "exam", exam.id, None)
        assert new["trainee_id"] == trainee.id and new["login"] == trainee.login
        assert new["group_id"] == group and new["kind"] == "house-way"
        assert (new["length"], new["time_limit_ms"]) == (exam.length, exam.time_limit_ms)
        assert (new["house_way"], new["profile"]) == (exam.house_way, exam.profile)

"""Issue 16 item 9: admins reset a supervisor's password and confirm a deactivation;
the printable report has a Print button and the favicon; a trainee's CSV is named after them."""
from __future__ import annotations

import dataclasses

from trainer.extensions import db
from trainer.models import AuditLog, Role, User
from trainer.web.supervisor.exports import safe_filename_part
from web.helpers import login, post_form

NEW_PASSWORD = "a-brand-new-passphrase"


def _user(app, user_id: int) -> User:
    with app.app_context():
        user = db.session.get(User, user_id)
        db.session.expunge(user)
        return user


def test_an_admin_resets_a_supervisors_password(app, client, admin, supervisor) -> None:
    login(client, admin)
    assert f"/admin/users/{supervisor.id}/password" in client.get("/admin/users").get_data(
        as_text=True)
    assert client.get(f"/admin/users/{supervisor.id}/password").status_code == 200
    response = post_form(client, f"/admin/users/{supervisor.id}/password",
                         {"password": NEW_PASSWORD})
    assert response.status_code == 302
    with app.app_context():
        user = db.session.get(User, supervisor.id)
        assert user.check_password(NEW_PASSWORD) and not user.check_password(supervisor.password)
        actions = db.session.execute(db.select(AuditLog.action).where(
            AuditLog.target_id == supervisor.id)).scalars().all()
        assert "account.password-reset" in actions
    fresh = app.test_client()
    assert login(fresh, dataclasses.replace(supervisor, password=NEW_PASSWORD)).status_code == 302


def test_a_bad_new_password_is_refused_with_a_message_and_changes_nothing(
        app, client, admin, supervisor) -> None:
    login(client, admin)
    response = post_form(client, f"/admin/users/{supervisor.id}/password", {"password": "short"})
    assert response.status_code == 200
    assert 'class="error"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(User, supervisor.id).check_password(supervisor.password)


def test_an_admins_password_is_not_reset_from_the_accounts_list(
        app, client, admin, make_user) -> None:
    other = make_user(Role.ADMIN, login="root2")
    login(client, admin)
    assert client.get(f"/admin/users/{other.id}/password").status_code == 404
    assert post_form(client, f"/admin/users/{other.id}/password",
                     {"password": NEW_PASSWORD}).status_code == 404


def test_a_deactivation_asks_for_confirmation_first_without_javascript(
        app, client, admin, supervisor) -> None:
    login(client, admin)
    page = post_form(client, f"/admin/users/{supervisor.id}/active", {"active": "0"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # A plain form: no script needed to confirm.
    assert 'id="confirm-deactivate"' in html and 'name="confirm" value="1"' in html
    assert "<button" in html and "onclick" not in html
    assert _user(app, supervisor.id).active, "nothing changes before the confirmation"
    done = post_form(client, f"/admin/users/{supervisor.id}/active",
                     {"active": "0", "confirm": "1"})
    assert done.status_code == 302
    assert not _user(app, supervisor.id).active
    # Reactivating needs no confirmation.
    post_form(client, f"/admin/users/{supervisor.id}/active", {"active": "1"})
    assert _user(app, supervisor.id).active


def test_the_printable_report_has_a_print_button_and_the_favicon(
        app, client, supervisor, trainee) -> None:
    login(client, supervisor)
    html = client.get(f"/supervisor/trainees/{trainee.id}/report").get_data(as_text=True)
    assert 'id="print-report"' in html and "data-print" in html
    assert 'rel="icon"' in html and "favicon" in html
    script = client.get("/static/js/print.js")
    assert script.status_code == 200 and b"window.print()" in script.data
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and len(icon.data) < 2048


def test_the_trainees_csv_is_named_after_the_trainee(
        app, client, supervisor, group, make_user, make_attempt) -> None:
    dealer = make_user(Role.TRAINEE, login="dealer-7", group_id=group)
    make_attempt(dealer.id)
    login(client, supervisor)
    response = client.get(f"/supervisor/groups/{group}/export/attempts.csv?trainee={dealer.id}&period=all")
    assert response.status_code == 200
    assert 'filename="attempts-dealer-7-' in response.headers["Content-Disposition"]
    assert "dealer-7" in response.get_data(as_text=True)  # the stream read to its end
    whole = client.get(f"/supervisor/groups/{group}/export/attempts.csv")
    assert f'filename="attempts-group-{group}-' in whole.headers["Content-Disposition"]
    whole.get_data()


def test_file_name_parts_keep_only_safe_characters() -> None:
    assert safe_filename_part("dealer-7") == "dealer-7"
    assert safe_filename_part('ann "o\'neil"/../x') == "ann-o-neil-..-x"
    assert safe_filename_part("é\r\n;") == "trainee"
    assert safe_filename_part("..") == "trainee"

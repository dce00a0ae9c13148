"""CSRF protection is on for every POST, forms and JavaScript alike."""
from __future__ import annotations

from web.helpers import csrf_token, login, post_form


def test_post_without_a_token_is_rejected(client, trainee) -> None:
    response = client.post("/auth/login", data={"login": trainee.login, "password": trainee.password})
    assert response.status_code == 400
    assert "Reload the page and try again." in response.get_data(as_text=True)
    assert client.get("/").headers["Location"].startswith("/auth/login")


def test_post_with_a_wrong_token_is_rejected(client, trainee) -> None:
    login(client, trainee)
    response = client.post("/auth/logout", data={"csrf_token": "forged"})
    assert response.status_code == 400
    assert client.get("/").status_code == 200


def test_logout_without_a_token_leaves_the_user_signed_in(client, trainee) -> None:
    login(client, trainee)
    assert client.post("/auth/logout").status_code == 400
    assert client.get("/").status_code == 200


def test_javascript_posts_pass_with_the_header_token(client, trainee) -> None:
    login(client, trainee)
    token = csrf_token(client, "/")
    response = client.post("/auth/logout", headers={"X-CSRFToken": token})
    assert response.headers["Location"] == "/auth/login"


def test_javascript_posts_without_a_token_get_a_json_error(client, trainee) -> None:
    login(client, trainee)
    response = client.post("/auth/logout", json={}, headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert "Reload" in response.get_json()["message"]


def test_a_form_posted_with_its_token_passes(client, trainee) -> None:
    form = {"login": trainee.login, "password": trainee.password}
    assert post_form(client, "/auth/login", form).status_code == 302


def test_a_form_token_from_before_sign_in_is_refused_after_it(client, trainee) -> None:
    """A token minted for the anonymous sign-in page (one an onlooker or a script on
    the shared tablet could have read) is no use to the signed-in session."""
    before = csrf_token(client)
    signed_in = client.post("/auth/login", data={"login": trainee.login, "password": trainee.password,
                                                 "csrf_token": before})
    assert signed_in.status_code == 302
    assert client.post("/auth/logout", data={"csrf_token": before}).status_code == 400
    assert client.post("/auth/logout", headers={"X-CSRFToken": before}).status_code == 400
    assert client.get("/").status_code == 200
    # The page after sign-in carries a new token, which works.
    after = csrf_token(client, "/")
    assert after != before
    assert client.post("/auth/logout", data={"csrf_token": after}).headers["Location"] == "/auth/login"


def test_a_form_token_from_before_sign_out_is_refused_after_it(client, trainee) -> None:
    login(client, trainee)
    signed_in_token = csrf_token(client, "/")
    assert client.post("/auth/logout", data={"csrf_token": signed_in_token}).status_code == 302
    form = {"login": trainee.login, "password": trainee.password, "csrf_token": signed_in_token}
    assert client.post("/auth/login", data=form).status_code == 400
    assert client.get("/").headers["Location"].startswith("/auth/login")

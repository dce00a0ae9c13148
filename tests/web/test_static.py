"""Static files: versioned URLs, long cache lifetimes, precomputed gzip; the drill page's weight."""
from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from trainer.engine.drills import DRILLS
from trainer.web.platform import static_files
from trainer.web.platform.static_files import LONG_MAX_AGE, StaticFiles, minify_css, minify_js
from web.helpers import login, post_form

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
# The drill page (its HTML and every file it links), gzip-compressed, stays under this.
DRILL_PAGE_BUDGET = 15 * 1024
_LINKED = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def version_of(app: Flask, filename: str) -> str:
    version = static_files.files_of(app).version(filename)
    assert version is not None
    return version


@pytest.mark.parametrize("filename", ["css/app.css", "js/drills.js", "favicon.svg"])
def test_a_file_is_sent_gzipped_when_asked_and_plain_otherwise(client: FlaskClient, filename: str) -> None:
    plain_bytes = (STATIC / filename).read_bytes()
    if filename.endswith(".css"):   # stylesheets are sent minified
        plain_bytes = minify_css(plain_bytes.decode("utf-8")).encode("utf-8")
    if filename.endswith(".js"):    # scripts without their whole-line comments (issue 26)
        plain_bytes = minify_js(plain_bytes.decode("utf-8")).encode("utf-8")
    with client.get(f"/static/{filename}", headers=GZIP) as packed:
        assert packed.status_code == 200
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert len(packed.data) < len(plain_bytes)
        assert gzip.decompress(packed.data) == plain_bytes
    with client.get(f"/static/{filename}") as plain:
        assert plain.status_code == 200
        assert "Content-Encoding" not in plain.headers
        assert "Accept-Encoding" in plain.headers["Vary"]
        assert plain.data == plain_bytes
    with client.get(f"/static/{filename}", headers={"Accept-Encoding": "gzip;q=0"}) as refused:
        assert "Content-Encoding" not in refused.headers
    # Each variant has its own ETag, and each revalidates to 304.
    assert packed.headers["ETag"] != plain.headers["ETag"]
    for headers, etag in ((GZIP, packed.headers["ETag"]), ({}, plain.headers["ETag"])):
        with client.get(f"/static/{filename}", headers={**headers, "If-None-Match": etag}) as again:
            assert again.status_code == 304


def test_static_files_keep_the_security_headers_and_never_vary_on_the_cookie(
        client: FlaskClient, trainee: Any) -> None:
    login(client, trainee)
    with client.get("/static/css/app.css", headers=GZIP) as response:
        assert "Content-Security-Policy" in response.headers
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "no-store" not in response.headers["Cache-Control"]
        assert "cookie" not in response.headers["Vary"].lower()
    assert client.get("/").headers["Cache-Control"] == "no-store"


def test_every_static_link_carries_its_version_and_gets_a_year(client: FlaskClient, trainee: Any) -> None:
    pages = [client.get("/auth/login").get_data(as_text=True)]
    login(client, trainee)
    pages_seen = ("/", "/drills/", "/play/", "/house-way/mgm-grand", "/house-way/look-up",
                  "/commission-chart")
    for path in pages_seen:
        response = client.get(path, follow_redirects=True)
        assert response.status_code == 200, path
        pages.append(response.get_data(as_text=True))
    linked = {url for page in pages for url in _LINKED.findall(page)}
    assert any(url.startswith("/static/css/") for url in linked)
    for url in linked:
        match = re.fullmatch(r"/static/([^?]+)\?v=([0-9a-f]{12})", url)
        assert match, f"{url} has no version"
        filename, version = match.groups()
        assert version == static_files.load_file(STATIC / filename).version  # type: ignore[union-attr]
        with client.get(url, headers=GZIP) as response:
            assert response.status_code == 200
            cache = response.headers["Cache-Control"]
            assert "public" in cache and "immutable" in cache
            assert f"max-age={LONG_MAX_AGE}" in cache


def test_an_unversioned_or_outdated_url_gets_a_short_lifetime(app: Flask, client: FlaskClient) -> None:
    for url in ("/static/css/app.css", "/static/css/app.css?v=000000000000"):
        with client.get(url) as response:
            cache = response.headers["Cache-Control"]
            assert "immutable" not in cache
            assert f"max-age={static_files.SHORT_MAX_AGE}" in cache
    with client.get(f"/static/css/app.css?v={version_of(app, 'css/app.css')}") as response:
        assert "immutable" in response.headers["Cache-Control"]


def test_missing_files_and_paths_outside_the_folder_are_not_found(client: FlaskClient) -> None:
    for url in ("/static/css/none.css", "/static/../trainer/__init__.py", "/static/css/../../pyproject.toml"):
        assert client.get(url).status_code == 404, url


def test_a_kinds_script_is_served_by_its_name_only_and_nothing_beside_it(client: FlaskClient) -> None:
    """``/static/kinds/<slug>.js`` is the kind's web folder's ``kind.js``; no other name under
    ``kinds/`` reaches the templates (an unknown slug, another file, a path climbing out)."""
    slug = sorted(DRILLS)[0]
    assert client.get(f"/static/kinds/{slug}.js").status_code == 200
    for url in ("/static/kinds/no-such-kind.js", f"/static/kinds/{slug}/kind.js",
                f"/static/kinds/{slug}.html", f"/static/kinds/{slug}/question.html",
                f"/static/kinds/../../templates/drills/kinds/{slug}/kind.js",
                f"/static/kinds/{slug}.js/../../../pyproject.toml",
                "/static/kinds/../../trainer/__init__.py", "/static/kinds/"):
        assert client.get(url).status_code == 404, url


def test_extra_files_are_hashed_at_start_and_only_by_their_own_names(tmp_path: Path) -> None:
    folder, home = tmp_path / "static", tmp_path / "templates" / "drills" / "kinds" / "x"
    folder.mkdir()
    home.mkdir(parents=True)
    script = home / "kind.js"
    script.write_text("// wiring\nwindow.PaiGow.kinds.x = 1;\n" * 40, encoding="utf-8")
    (home / "secret.html").write_text("not served", encoding="utf-8")
    files = StaticFiles(folder, extra={"kinds/x.js": script})
    files.warm()
    found = files.get("kinds/x.js")
    assert found is not None and found.data == minify_js(script.read_text(encoding="utf-8")).encode()
    assert found.gzipped is not None and gzip.decompress(found.gzipped) == found.data
    assert files.get("kinds/./x.js") is found  # the same name, normalised
    for name in ("kinds/secret.html", "kinds/../templates/drills/kinds/x/kind.js", "kinds/y.js"):
        assert files.get(name) is None, name


def test_a_changed_file_gets_a_new_version(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    (folder / "css").mkdir(parents=True)
    sheet = folder / "css" / "site.css"
    sheet.write_text("body { color: black; }\n" * 20, encoding="utf-8")
    files = StaticFiles(folder)
    files.warm()
    before = files.version("css/site.css")
    assert before is not None and files.version("css/site.css") == before
    packed = files.get("css/site.css").gzipped  # type: ignore[union-attr]
    assert packed is not None and gzip.decompress(packed) == minify_css(
        sheet.read_text(encoding="utf-8")).encode("utf-8")

    sheet.write_text("body { color: darkslategray; }\n" * 20, encoding="utf-8")
    # Kept once worked out: the running app keeps its versions (no work in a request) ...
    assert files.version("css/site.css") == before
    # ... and the next start (or a debug app, which checks) sees the change.
    after = StaticFiles(folder).version("css/site.css")
    assert after is not None and after != before
    assert StaticFiles(folder, check_changes=True).version("css/site.css") == after


def test_the_debug_app_versions_an_edited_file_anew(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    folder.mkdir()
    script = folder / "a.js"
    script.write_text("console.log(1);\n", encoding="utf-8")
    files = StaticFiles(folder, check_changes=True)
    before = files.version("a.js")
    script.write_text("console.log('two');\n", encoding="utf-8")
    assert files.version("a.js") not in (None, before)


def test_requests_do_no_hashing_or_compressing(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything is worked out when the app is built; a request only looks it up."""
    def refuse(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("gzip in a request")

    monkeypatch.setattr(static_files.gzip, "compress", refuse)
    page = client.get("/auth/login").get_data(as_text=True)
    # The drill kinds' scripts too, kept outside the static folder.
    kinds = [f"/static/kinds/{slug}.js" for slug in DRILLS]
    for url in [*_LINKED.findall(page), *kinds]:
        with client.get(url, headers=GZIP) as response:
            assert response.status_code == 200


def drill_page_weight(client: FlaskClient, session_id: int) -> dict[str, int]:
    """Return the gzip-compressed size of the drill page and of each static file it links."""
    response = client.get(f"/drills/sessions/{session_id}", headers=GZIP)
    assert response.status_code == 200
    html = response.get_data()
    sizes = {"HTML": len(gzip.compress(html, compresslevel=9, mtime=0))}
    for url in _LINKED.findall(html.decode()):
        with client.get(url, headers=GZIP) as linked:
            assert linked.status_code == 200, url
            if linked.headers.get("Content-Encoding") == "gzip":
                sizes[url.split("?")[0]] = len(linked.data)
            else:
                sizes[url.split("?")[0]] = len(gzip.compress(linked.data, compresslevel=9, mtime=0))
    return sizes


@pytest.mark.parametrize("kind", tuple(DRILLS))
def test_the_drill_page_is_under_15_kb_compressed(client: FlaskClient, trainee: Any, kind: str) -> None:
    login(client, trainee)
    for mode in ("practice", "timed"):
        response = post_form(client, f"/drills/{kind}/start", {"mode": mode})
        assert response.status_code == 302
        session_id = int(response.headers["Location"].rsplit("/", 1)[1])
        sizes = drill_page_weight(client, session_id)
        assert any(name.endswith(".js") for name in sizes) and any(name.endswith(".css") for name in sizes)
        total = sum(sizes.values())
        assert total < DRILL_PAGE_BUDGET, f"{kind} ({mode}): {total} bytes: {sizes}"


def test_stylesheets_are_sent_minified_keeping_strings_and_descendant_pseudo_selectors():
    text = ('a :focus { color: red; }  /* note */\n.x::before { content: "\\26A0  "; }\n'
            "b, c { margin: 0 auto; background: rgb(1, 2, 3); }\n"
            "@media (max-width: 600px) { .y { grid-template-areas: 'a  b'; } }")
    got = minify_css(text)
    assert "note" not in got and "\n" not in got
    assert "a :focus{" in got                    # the space before ':' is a selector, kept
    assert '"\\26A0  "' in got and "'a  b'" in got   # strings exactly as written
    assert "margin: 0 auto;" in got and "rgb(1,2,3)" in got
    assert "@media (max-width: 600px){.y{" in got


def test_a_served_stylesheet_is_its_minified_file(client):
    disk = Path(__file__).resolve().parents[2] / "static" / "css" / "app.css"
    resp = client.get("/static/css/app.css")
    assert resp.status_code == 200
    assert resp.get_data(as_text=True) == minify_css(disk.read_text(encoding="utf-8"))
    assert len(resp.get_data()) < len(disk.read_bytes())


def test_a_script_is_sent_without_its_whole_line_comments_and_never_changed_otherwise() -> None:
    """Issue 26: the drill page's weight. A comment line goes; code, a comment after code
    and a script with a template literal or a continued string stay as written."""
    script = "var a = 1;\n  // why a is 1\nvar b = 'http://x'; // kept\n"
    assert minify_js(script) == "var a = 1;\nvar b = 'http://x'; // kept\n"
    for kept in ("var t = `\n// inside a template\n`;\n", "var s = 'a\\\n// still the string';\n"):
        assert minify_js(kept) == kept

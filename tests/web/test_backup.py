"""``trainer backup`` / ``trainer restore``: consistent copies while the app runs."""
import os
import sqlite3
import stat
import threading

import pytest
from flask_migrate import upgrade

from trainer.extensions import db
from trainer.models import User
from web.helpers import login

ON_POSTGRES = __import__("os").environ.get("TEST_DATABASE_URL", "").startswith("postgresql")
sqlite_only = pytest.mark.skipif(ON_POSTGRES, reason="SQLite file checks")


@pytest.fixture
def migrated(empty_app):
    with empty_app.app_context():
        upgrade()
    return empty_app


def _count_users(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT count(*) FROM users").fetchone()[0]
    finally:
        con.close()


def _add_users(app, prefix, n):
    with app.app_context():
        for i in range(n):
            user = User(name=f"{prefix}{i}", login=f"{prefix}{i}", role="trainee")
            user.password_hash = "x"
            db.session.add(user)
            db.session.commit()


@sqlite_only
def test_backup_is_a_consistent_copy_while_writes_go_on(migrated, tmp_path):
    _add_users(migrated, "before", 5)
    writer = threading.Thread(target=_add_users, args=(migrated, "during", 40))
    writer.start()
    result = migrated.test_cli_runner().invoke(args=["backup", str(tmp_path / "b.sqlite3")])
    writer.join()
    assert result.exit_code == 0, result.output
    assert "integrity ok" in result.output
    copied = _count_users(tmp_path / "b.sqlite3")
    assert 5 <= copied <= 45
    assert not (tmp_path / "b.sqlite3.partial").exists()


def test_restore_brings_back_the_backup(migrated, tmp_path):
    _add_users(migrated, "kept", 3)
    runner = migrated.test_cli_runner()
    assert runner.invoke(args=["backup", str(tmp_path / "b.sqlite3")]).exit_code == 0
    _add_users(migrated, "later", 4)
    result = runner.invoke(args=["restore", "--yes", str(tmp_path / "b.sqlite3")])
    assert result.exit_code == 0, result.output
    with migrated.app_context():
        db.session.remove()
        logins = db.session.execute(db.select(User.login)).scalars().all()
    assert sorted(logins) == ["kept0", "kept1", "kept2"]


@sqlite_only
def test_restore_refuses_a_file_that_is_not_a_trainer_database(migrated, tmp_path):
    bogus = tmp_path / "bogus.sqlite3"
    con = sqlite3.connect(bogus)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    _add_users(migrated, "kept", 2)
    result = migrated.test_cli_runner().invoke(args=["restore", "--yes", str(bogus)])
    assert result.exit_code != 0
    assert "not a trainer database" in result.output
    with migrated.app_context():
        assert db.session.execute(db.select(db.func.count(User.id))).scalar() == 2


def test_restore_asks_before_replacing(migrated, tmp_path):
    runner = migrated.test_cli_runner()
    runner.invoke(args=["backup", str(tmp_path / "b.sqlite3")])
    result = runner.invoke(args=["restore", str(tmp_path / "b.sqlite3")], input="n\n")
    assert result.exit_code != 0
    assert "Aborted" in result.output


@sqlite_only
def test_backup_is_one_plain_file_with_nothing_beside_it(migrated, tmp_path):
    _add_users(migrated, "plain", 3)
    folder = tmp_path / "backups"
    result = migrated.test_cli_runner().invoke(args=["backup", str(folder / "b.sqlite3")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["b.sqlite3"]
    header = (folder / "b.sqlite3").read_bytes()[:100]
    # Bytes 18 and 19: file format write/read versions, 1 = rollback journal, 2 = WAL.
    assert (header[18], header[19]) == (1, 1)
    con = sqlite3.connect(f"file:{folder / 'b.sqlite3'}?mode=ro", uri=True)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert con.execute("SELECT count(*) FROM users").fetchone()[0] == 3
    finally:
        con.close()
    assert sorted(p.name for p in folder.iterdir()) == ["b.sqlite3"]


@sqlite_only
def test_a_failed_backup_leaves_no_stray_file(migrated, tmp_path, monkeypatch):
    import click

    from trainer.services import backup

    def refuse(path):
        raise click.ClickException("integrity check failed")

    monkeypatch.setattr(backup, "verify_sqlite", refuse)
    folder = tmp_path / "backups"
    result = migrated.test_cli_runner().invoke(args=["backup", str(folder / "b.sqlite3")])
    assert result.exit_code != 0
    assert "integrity check failed" in result.output
    assert list(folder.iterdir()) == []


@sqlite_only
def test_a_backup_over_an_old_one_drops_its_stale_journal_files(migrated, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    for stale in ("b.sqlite3-wal", "b.sqlite3-shm", "b.sqlite3.partial", "b.sqlite3.partial-wal"):
        (folder / stale).write_bytes(b"left over from a crashed run")
    _add_users(migrated, "again", 2)
    result = migrated.test_cli_runner().invoke(args=["backup", str(folder / "b.sqlite3")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["b.sqlite3"]
    assert _count_users(folder / "b.sqlite3") == 2


@pytest.fixture
def umask_022():
    """Run the test under the usual umask (files 0644 unless the code says otherwise)."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_backup_file_is_readable_by_its_owner_only(migrated, tmp_path, umask_022):
    _add_users(migrated, "private", 2)
    folder = tmp_path / "backups"
    result = migrated.test_cli_runner().invoke(args=["backup", str(folder / "b.backup")])
    assert result.exit_code == 0, result.output
    assert _mode(folder / "b.backup") == 0o600
    assert _mode(folder) == 0o700  # the folder the command made
    assert sorted(p.name for p in folder.iterdir()) == ["b.backup"]


@sqlite_only
def test_a_backups_partial_file_is_readable_by_its_owner_only(migrated, tmp_path, umask_022,
                                                              monkeypatch):
    from trainer.services import backup

    seen = []
    verify = backup.verify_sqlite

    def look_then_verify(path):
        seen.append((path.name, _mode(path)))
        verify(path)

    monkeypatch.setattr(backup, "verify_sqlite", look_then_verify)
    result = migrated.test_cli_runner().invoke(args=["backup", str(tmp_path / "b.sqlite3")])
    assert result.exit_code == 0, result.output
    assert seen == [("b.sqlite3.partial", 0o600)]


def _sign_in_accounts(app, count):
    """Create ``count`` accounts with passwords and sign each in; return the signed-in clients."""
    clients = []
    for i in range(count):
        with app.app_context():
            user = User(name=f"Signed {i}", login=f"signed{i}", role="admin" if i == 0 else "trainee")
            user.set_password("correct-horse-9")
            db.session.add(user)
            db.session.commit()
        client = app.test_client()
        account = type("Account", (), {"login": f"signed{i}", "password": "correct-horse-9"})
        assert login(client, account).status_code == 302
        clients.append(client)
    return clients


def _session_id(client):
    with client.session_transaction() as cookie_session:
        return cookie_session["_user_id"]


def _signs_in(app, session_id):
    """Tell whether a session cookie carrying ``session_id``, signed with the app's
    secret key, opens a signed-in page."""
    serializer = app.session_interface.get_signing_serializer(app)
    client = app.test_client()
    client.set_cookie("session", serializer.dumps({"_user_id": session_id, "_fresh": True}))
    return client.get("/").status_code == 200


@sqlite_only
def test_a_backup_holds_no_usable_session_token(migrated, tmp_path):
    """Neither a live cookie's token nor anything in the backup's session rows,
    signed with the secret key, signs anyone in (the newest admin included)."""
    clients = _sign_in_accounts(migrated, 3)
    live = [_session_id(client) for client in clients]
    assert all(_signs_in(migrated, session_id) for session_id in live)  # the forging works
    result = migrated.test_cli_runner().invoke(args=["backup", str(tmp_path / "b.sqlite3")])
    assert result.exit_code == 0, result.output
    copy = (tmp_path / "b.sqlite3").read_bytes()
    for session_id in live:
        assert session_id.split(".")[2].encode() not in copy
    con = sqlite3.connect(f"file:{tmp_path / 'b.sqlite3'}?mode=ro", uri=True)
    try:
        con.row_factory = sqlite3.Row
        rows = con.execute("SELECT s.*, u.session_version FROM user_sessions s "
                           "JOIN users u ON u.id = s.user_id").fetchall()
    finally:
        con.close()
    assert len(rows) == 3
    forged = [f"{row['user_id']}.{row['session_version'] or 0}.{value}"
              for row in rows for value in tuple(row) if isinstance(value, str)]
    assert forged
    assert not [session_id for session_id in forged if _signs_in(migrated, session_id)]

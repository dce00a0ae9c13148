"""Dealing by rule is never built inside a request (issue 31 item 4): under gunicorn
``--preload`` the master builds, before it forks, the shared class weights and the dealing
index of every house way and wheel setting the groups train under (the workers share the
arrays) and closes the connections it opened; without ``--preload`` each worker builds
them before it serves."""
from __future__ import annotations

import random
from collections import OrderedDict
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from trainer.cli import gunicorn_conf
from trainer.engine.house_way import dealing, load
from trainer.extensions import db
from trainer.models import Role


def _server(app: Flask, preload: bool) -> SimpleNamespace:
    return SimpleNamespace(cfg=SimpleNamespace(preload_app=preload),
                           app=SimpleNamespace(wsgi=lambda: app), wsgi=app)


def _built() -> set[tuple[str, str]]:
    """(wheel, first rule id) of each index built: which way and wheel it serves."""
    return {(key[0], key[1][0]) for key in dealing._INDEXES}


@pytest.fixture
def groups(app: Flask, make_user: Any, make_group: Any) -> set[tuple[str, str]]:
    """Two groups on two ways and wheel settings (Foxwoods at a California table, whose
    wheel is the lowest; MGM Grand at a Nevada table); return (wheel, first rule) of each."""
    supervisor = make_user(Role.SUPERVISOR)
    make_group(supervisor.id, name="Days", house_way="foxwoods", profile="california")
    make_group(supervisor.id, name="Nights", house_way="mgm-grand", profile="nevada")
    return {("lowest", load("foxwoods").rule_ids[0]),
            ("second_highest", load("mgm-grand").rule_ids[0])}


def test_the_preloading_master_builds_the_groups_dealing_indexes_and_closes_its_connections(
        app: Flask, groups: set[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealing, "_INDEXES", OrderedDict())
    gunicorn_conf.post_worker_init(_server(app, preload=True))  # a preloaded master's worker
    assert not dealing._INDEXES
    gunicorn_conf.when_ready(_server(app, preload=True))
    assert _built() == groups
    with app.app_context():
        assert db.engine.pool.checkedout() == 0
        assert db.engine.pool.checkedin() == 0  # disposed: nothing for a worker to inherit
    # A hand dealt for a rule afterwards (a class's first) finds its index built.
    way = load("mgm-grand")
    rule = dealing.reachable_rules(way)[3]
    assert way.set(dealing.deal_for_rule(way, rule, random.Random(7))).rule == rule
    assert _built() == groups


def test_without_preload_each_worker_builds_them_before_serving(
        app: Flask, groups: set[tuple[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealing, "_INDEXES", OrderedDict())
    gunicorn_conf.when_ready(_server(app, preload=False))
    assert not dealing._INDEXES
    gunicorn_conf.post_worker_init(_server(app, preload=False))
    assert _built() == groups

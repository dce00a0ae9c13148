"""Dealing by rule is never built inside a request (issue 31 item 4): under gunicorn
``--preload`` the master builds every preset's dealing index before it forks (the workers
share the arrays); without ``--preload`` each worker builds them before it serves."""
from __future__ import annotations

import random
from collections import OrderedDict
from types import SimpleNamespace

import pytest

from trainer.cli import gunicorn_conf
from trainer.engine.hands import Wheel
from trainer.engine.house_way import dealing, load, preset_names


def _expected() -> int:
    return sum(1 for name in preset_names() for wheel in Wheel
               if load(name).class_table(wheel.value) is not None)


def _server(preload: bool) -> SimpleNamespace:
    return SimpleNamespace(cfg=SimpleNamespace(preload_app=preload))


def test_the_preloading_master_builds_every_presets_dealing_index(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealing, "_INDEXES", OrderedDict())
    gunicorn_conf.post_worker_init(_server(preload=True))  # a worker of a preloaded master
    assert not dealing._INDEXES
    gunicorn_conf.when_ready(_server(preload=True))
    built = dict(dealing._INDEXES)
    assert len(built) == _expected() >= 12
    # A hand dealt for a rule afterwards (a class's first) finds its index built.
    way = load(preset_names()[0])
    rule = dealing.reachable_rules(way)[3]
    cards = dealing.deal_for_rule(way, rule, random.Random(7))
    assert way.set(cards).rule == rule
    assert dict(dealing._INDEXES).keys() == built.keys()


def test_without_preload_each_worker_builds_them_before_serving(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealing, "_INDEXES", OrderedDict())
    gunicorn_conf.when_ready(_server(preload=False))
    assert not dealing._INDEXES
    gunicorn_conf.post_worker_init(_server(preload=False))
    assert len(dealing._INDEXES) == _expected()

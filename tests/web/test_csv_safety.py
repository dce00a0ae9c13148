"""CSV exports: no cell, or piece of a cell split at a separator, reads as a formula."""
from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from trainer.models import Role
from trainer.services import classroom
from trainer.web.platform.csv_export import neutralise
from web.helpers import login

SIGNS = "=+-@\uff1d\uff0b\uff0d\uff20"
# Where a spreadsheet import might cut a cell: any of these, quotes ignored.
SEPARATORS = re.compile(r"[,;|:\s\"()]")
HOSTILE = [
    "=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", "\n=1", "x;=1+1", "a,=b", "a|=b",
    "x; =1", "Ann ＝1+1", '=HYPERLINK("http://x","y")', "x\t-2", "(=1)", 'q"=1',
]


def formula_pieces(cell: str) -> list[str]:
    """Return the pieces of ``cell`` a spreadsheet could read as formulas, however it splits it."""
    pieces = [cell, *SEPARATORS.split(cell)]
    return [p for p in pieces if p.strip() and p.lstrip()[0] in SIGNS]


@pytest.mark.parametrize("value", HOSTILE)
def test_formula_cells_are_neutralised_however_they_start(value):
    safe = neutralise(value)
    assert formula_pieces(safe) == []
    assert not safe.startswith(("\t", "\r", "\n"))
    assert safe.replace("'", "") == value.replace("'", "")


def test_a_cell_split_after_a_semicolon_starts_with_a_quote():
    assert neutralise("x;=1+1") == "x;'=1+1"
    assert neutralise("=1+1") == "'=1+1"


@pytest.mark.parametrize("value", [
    "2024-05-01 12:00:00", "Mary-Jane", "a+b@example.org", "hw.pair.split", "87.5", "O'Neil",
    "", "Timed out", "trump-plaza",
])
def test_ordinary_values_are_left_alone(value):
    assert neutralise(value) == value


@pytest.mark.parametrize("value", [0, -5, 12.5, None, True])
def test_numbers_stay_numbers(value):
    assert neutralise(value) == value


@pytest.fixture
def hostile_records(app, make_user, make_group, make_attempt) -> dict[str, Any]:
    sup = make_user(Role.SUPERVISOR, login="sup-csv")
    group = make_group(sup.id, name="=cmd|' /C calc'!A0")
    trainees = []
    for i, name in enumerate(["x;=1+1", "a,=b", "@evil", "\t-2+3", "Ann ＝1"]):
        trainee = make_user(Role.TRAINEE, login=f"t{i}-csv", name=name, group_id=group)
        make_attempt(trainee.id, correct=False, rule_id=f"hw.pair;=2+{i}")
        trainees.append(trainee)
    # A live class of the group (issue 31), so its summary's CSV is exported too: the
    # hostile names are its trainees' and its group's.
    with app.app_context():
        class_id = classroom.start_class(group, sup.id)
    return {"supervisor": sup, "group": group, "trainees": trainees, "class": class_id}


def _csv_routes(app) -> list[str]:
    return sorted(rule.rule for rule in app.url_map.iter_rules() if rule.rule.endswith(".csv"))


def test_every_csv_export_neutralises_formula_cells(app, hostile_records):
    routes = _csv_routes(app)
    assert routes, "no CSV export found"
    group, trainees = hostile_records["group"], hostile_records["trainees"]
    clients = {}
    for role, account in (("supervisor", hostile_records["supervisor"]),
                          ("trainee", trainees[0])):
        clients[role] = app.test_client()
        login(clients[role], account)
    checked = 0
    for route in routes:
        ids = {"class_id": hostile_records["class"]}
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m, ids=ids: str(ids.get(m.group(1), group)), route)
        for client in clients.values():
            response = client.get(path + "?period=all")
            if response.status_code != 200:
                continue
            checked += 1
            text = response.get_data(as_text=True).lstrip("\ufeff")
            cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
            unsafe = [cell for cell in cells if formula_pieces(cell)
                      or cell.startswith(("\t", "\r", "\n"))]
            assert not unsafe, (path, unsafe)
            # Text cells are quoted, so a ";" or "," inside one never splits it.
            assert '"x;\'=1+1"' in text or "attempts" not in path, path
    assert checked >= len(routes)

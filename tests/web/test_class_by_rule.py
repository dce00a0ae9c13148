"""The class by house-way rule (issue 27): every rule of the group's house way in sheet order,
the class's answers on it (house-way drill and the rounds' banker steps), accuracy and who
errs; rules nobody answered listed as never met; the overview's weakest families follow
its drill filter; only the group's supervisor, managers and admins open it."""
from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest

from trainer.engine.house_way import load
from trainer.extensions import db
from trainer.models import Attempt, DrillSession, Group, Role, User, utcnow
from trainer.services.group_settings import GroupSettings
from web.helpers import login
from web.test_custom_way_everywhere import REF, SPLIT_SHORT, custom_data, publish

WAY = "trump-plaza"
# Hands from the way's own sheet examples, each decided by the rule named beside it.
TWO_PAIR = ("8h 8s 3d 3c Ks Td 5h", "two-pair.together.king-or-ace")
FULL_HOUSE = ("7c 7d 7h 2s 2d JK Kc", "full-house.together.deuces-ace-king")
NEVER = "quads.split.aces"


@pytest.fixture
def record(app: Any) -> Any:
    """Record answers as the drills do: ``kind`` "house-way" records the way's rule id, "round"
    a banker step (its family as the rule id, the way's rule in the key); any other kind the
    given ``rule_id``. Each result is True (right), False (wrong) or None (timed out)."""

    def build(user_id: int, hand: tuple[str, str] | None, results: list[bool | None],
              kind: str = "house-way", house_way: str = WAY, days_ago: float = 1,
              rule_id: str | None = None) -> None:
        now = utcnow()
        with app.app_context():
            key: dict[str, Any] = {"front": ["7c", "7d"]}
            if hand is not None:
                setting = load(WAY).set(hand[0])
                assert setting.rule == hand[1]  # the sheet's example is decided by its rule
                key = setting.as_dict()
                rule_id = (setting.rule if kind == "house-way"
                           else "round.banker." + setting.rule.split(".", 1)[0])
            session = DrillSession(user_id=user_id, kind=kind, mode="practice",
                                   length=len(results), house_way=house_way, profile="nevada")
            db.session.add(session)
            for position, result in enumerate(results, start=1):
                answered = now - timedelta(days=days_ago, seconds=position)
                db.session.add(Attempt(
                    session=session, position=position, user_id=user_id, kind=kind,
                    seed=position, question={"cards": (hand or ("",))[0].split()},
                    answer={"front": ["7c", "7d"]}, correct_answer=key,
                    correct=bool(result), timed_out=result is None, rule_id=rule_id,
                    issued_at=answered - timedelta(seconds=3), answered_at=answered,
                    elapsed_ms=3000))
            db.session.commit()

    return build


class _Text(HTMLParser):
    """The text a reader sees (no tags, attributes, scripts or styles)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in ("script", "style", "title"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "title"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def row_of(html: str, rule_id: str) -> str:
    """Return the table row of a rule (found by its data-rule, never shown)."""
    found = re.search(r'<tr data-rule="' + re.escape(rule_id) + r'"[^>]*>(.*?)</tr>', html, re.S)
    assert found, f"no row for {rule_id}"
    return found.group(0)


@pytest.fixture
def people(make_user: Any, group: int) -> dict[str, Any]:
    ann = make_user(Role.TRAINEE, login="ann", name="Ann Archer", group_id=group)
    bob = make_user(Role.TRAINEE, login="bob", name="Bob Baker", group_id=group)
    return {"ann": ann, "bob": bob}


def test_answers_on_two_rules_by_two_trainees_give_counts_accuracy_and_who_errs(
        app, client, supervisor, group, people, record) -> None:
    ann, bob = people["ann"], people["bob"]
    # Two pair: Ann 3 answers in the house-way drill, 1 wrong; Bob 2 rounds' banker steps,
    # 1 wrong and 1 timed out. Full house: Bob 2 right in the drill.
    record(ann.id, TWO_PAIR, [True, False, True])
    record(bob.id, TWO_PAIR, [False, None], kind="round")
    record(bob.id, FULL_HOUSE, [True, True])
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules").get_data(as_text=True)

    two_pair = row_of(html, TWO_PAIR[1])
    assert 'data-answers="5"' in two_pair and 'data-wrong="3"' in two_pair
    assert "40%" in two_pair and "weak" in two_pair
    # Who errs: the most misses first, each linked to the trainee page with their count.
    erring = re.findall(r'<li data-trainee="(\d+)" data-misses="(\d+)">', two_pair)
    assert erring == [(str(bob.id), "2"), (str(ann.id), "1")]
    assert f'href="/supervisor/trainees/{bob.id}?period=30d">Bob Baker</a>' in two_pair
    assert "2 of 2 wrong" in two_pair and "1 of 3 wrong" in two_pair

    full_house = row_of(html, FULL_HOUSE[1])
    assert 'data-answers="2"' in full_house and 'data-wrong="0"' in full_house
    assert "100%" in full_house and "No misses" in full_house and "data-trainee" not in full_house
    # The sheet's sentence and short name, never the rule id, on screen.
    rule = load(WAY).rule(TWO_PAIR[1])
    text = visible_text(html)
    assert rule.text in text and rule.short in text
    assert not any(r.id in text for r in load(WAY).rules)


def test_a_rule_nobody_answered_is_listed_as_never_met(
        app, client, supervisor, group, people, record) -> None:
    record(people["ann"].id, TWO_PAIR, [True])
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules").get_data(as_text=True)
    way = load(WAY)
    # Every rule of the way, in the sheet's order.
    assert re.findall(r'<tr data-rule="([^"]+)"', html) == list(way.rule_ids)
    never = row_of(html, NEVER)
    assert "data-unmet" in never and "Never met" in never and 'data-answers="0"' in never
    assert "data-unmet" not in row_of(html, TWO_PAIR[1])
    assert (f"Rules the class has not met in this period: {len(way.rules) - 1} of "
            f"{len(way.rules)}.") in html


def test_weakest_first_puts_the_lowest_accuracy_first_and_the_rules_never_met_last(
        app, client, supervisor, group, people, record) -> None:
    record(people["ann"].id, FULL_HOUSE, [True, False])
    record(people["ann"].id, TWO_PAIR, [False, False, True])
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules?order=weakest").get_data(as_text=True)
    order = re.findall(r'<tr data-rule="([^"]+)"', html)
    unmet = [r for r in load(WAY).rule_ids if r not in (TWO_PAIR[1], FULL_HOUSE[1])]
    assert order == [TWO_PAIR[1], FULL_HOUSE[1], *unmet]


def test_only_answers_of_the_period_and_of_the_groups_house_way_count(
        app, client, supervisor, group, people, record) -> None:
    ann = people["ann"]
    record(ann.id, TWO_PAIR, [False], days_ago=45)         # before the last 30 days
    record(ann.id, TWO_PAIR, [False, False], house_way="foxwoods")  # another way's session
    record(ann.id, TWO_PAIR, [True])
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules").get_data(as_text=True)
    assert 'data-answers="1"' in row_of(html, TWO_PAIR[1])
    assert "2 answers on these rules were given under another house way or version" in html
    everything = client.get(f"/supervisor/groups/{group}/rules?period=all").get_data(as_text=True)
    assert 'data-answers="2"' in row_of(everything, TWO_PAIR[1])


def test_the_drill_filter_counts_the_chosen_drills_answers_only(
        app, client, supervisor, group, people, record) -> None:
    record(people["ann"].id, TWO_PAIR, [True, True, False])
    record(people["bob"].id, TWO_PAIR, [False], kind="round")
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules?drill=round").get_data(as_text=True)
    row = row_of(html, TWO_PAIR[1])
    assert 'data-answers="1"' in row and f'data-trainee="{people["bob"].id}"' in row
    assert f'data-trainee="{people["ann"].id}"' not in row
    # A drill with no answers on the way's rules is no filter: every drill counts.
    html = client.get(f"/supervisor/groups/{group}/rules?drill=settlement").get_data(as_text=True)
    assert 'data-answers="4"' in row_of(html, TWO_PAIR[1])


def test_the_weakest_families_follow_the_overviews_drill_filter(
        app, client, supervisor, group, people, record) -> None:
    ann = people["ann"]
    # Settlement answers: 6, all wrong (the weakest family over all drills).
    record(ann.id, None, [False] * 6, kind="settlement", rule_id="settlement.win")
    # House-way answers: two pair, 6 answers, 2 wrong.
    record(ann.id, TWO_PAIR, [True, False, True, True, False, True])
    login(client, supervisor)

    def families(query: str) -> list[str]:
        html = client.get(f"/supervisor/groups/{group}{query}").get_data(as_text=True)
        panel = html.split("Weakest rule families of the group", 1)[1].split("</section>", 1)[0]
        # Each row's first cell, as the reader sees it: the family's name.
        return [visible_text(cell).strip()
                for cell in re.findall(r"<tr><td>(.*?)</td>", panel, re.S)]

    # A drill kind's rule family is named by its home, else by the kind's title (docs/drills.md).
    assert families("") == ["Settle the table", "Two pair"]
    assert families("?drill=house-way") == ["Two pair"]
    assert families("?drill=settlement") == ["Settle the table"]
    # The overview links to the class by rule with its period and drill.
    html = client.get(f"/supervisor/groups/{group}?drill=house-way").get_data(as_text=True)
    assert (f'href="/supervisor/groups/{group}/rules?period=30d&amp;drill=house-way" '
            'id="class-by-rule-link"') in html


@pytest.mark.parametrize(("role", "status"), [
    ("supervisor", 200), ("other_supervisor", 404), ("manager", 200), ("admin", 200),
    ("trainee", 403), ("anonymous", 302),
])
def test_only_the_groups_supervisor_managers_and_admins_open_the_page(
        app, make_user, supervisor, group, people, record, role, status) -> None:
    record(people["ann"].id, TWO_PAIR, [False])
    accounts = {
        "supervisor": supervisor,
        "other_supervisor": make_user(Role.SUPERVISOR, login="sup-other"),
        "manager": make_user(Role.MANAGER, login="floor-boss"),
        "admin": make_user(Role.ADMIN, login="root"),
        "trainee": people["ann"],
    }
    client = app.test_client()
    if role != "anonymous":
        login(client, accounts[role])
    response = client.get(f"/supervisor/groups/{group}/rules")
    assert response.status_code == status
    if status == 200:
        assert "Ann Archer" in response.get_data(as_text=True)
    if role == "anonymous":
        assert response.headers["Location"].startswith("/auth/login")


def test_in_russian_the_page_shows_the_ways_russian_sentences_and_no_english_one(
        app, client, supervisor, group, people, record) -> None:
    record(people["ann"].id, TWO_PAIR, [True, False, False])
    with app.app_context():
        db.session.get_one(User, supervisor.id).language = "ru"
        db.session.commit()
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules").get_data(as_text=True)
    text = visible_text(html)
    way = load(WAY)
    translated = [r for r in way.rules if "ru" in r.words]
    assert translated, "the preset has Russian sentences"
    for rule in translated:
        if rule.text_in("ru") != rule.text:
            assert rule.text not in text, rule.number
            assert rule.text_in("ru") in text, rule.number
        if rule.short_in("ru") != rule.short:
            assert rule.short not in text, rule.number
    # Numbers in the reader's format: Russian writes a percentage with a (no-break) space.
    assert "33\u00a0%" in row_of(html, TWO_PAIR[1])


def test_a_group_on_a_published_custom_version_sees_that_versions_rules(
        app, client, supervisor, group, people, record, make_user) -> None:
    manager = make_user(Role.MANAGER, login="way-manager")
    ref, _digest = publish(app, manager.id, custom_data())
    assert ref == REF
    with app.app_context():
        chosen = db.session.get_one(Group, group)
        dataclasses.replace(GroupSettings.of(chosen), house_way=ref).save_to(chosen)
        db.session.commit()
    changed = "two-pair.split.no-ace"
    ann = people["ann"]
    record(ann.id, None, [False, True], house_way=REF, rule_id=changed)
    record(ann.id, None, [False, False, False], house_way=WAY, rule_id=changed)  # the preset's
    login(client, supervisor)
    html = client.get(f"/supervisor/groups/{group}/rules").get_data(as_text=True)
    row = row_of(html, changed)
    custom = {r["id"]: r for s in custom_data()["sections"] for r in s["rules"]}[changed]
    assert custom["text"] in row and SPLIT_SHORT in row
    assert load(WAY).rule(changed).text not in row
    assert 'data-answers="2"' in row and 'data-wrong="1"' in row
    assert "3 answers on these rules were given under another house way or version" in html


def test_the_answers_are_read_in_one_statement_whatever_the_rules_and_trainees(
        app, group, people, record) -> None:
    from sqlalchemy import event

    from trainer.services.reports import pages
    from trainer.services.reports.figures import Period

    record(people["ann"].id, TWO_PAIR, [True, False])
    record(people["bob"].id, FULL_HOUSE, [False], kind="round")
    statements: list[str] = []

    def seen(conn, cursor, statement, parameters, context, executemany) -> None:
        statements.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            report = pages.class_by_rule(group, Period.parse("30d"))
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
    assert len(report.rules) == len(load(WAY).rules)
    assert [row.figures.answered for row in report.rules if row.met] == [2, 1]
    # One statement reads the attempts (grouped by rule, trainee and drill), not one a rule.
    assert len([s for s in statements if "attempts" in s]) == 1
    assert len(statements) <= 3  # the group, its members, the answers


def test_bad_choices_in_the_address_fall_back_and_an_unreadable_way_is_said(
        app, client, supervisor, group, people, record) -> None:
    record(people["ann"].id, TWO_PAIR, [False])
    login(client, supervisor)
    response = client.get(f"/supervisor/groups/{group}/rules?drill=%3Cscript%3E&order=x&period=9y")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<script>" not in html
    assert 'data-answers="1"' in row_of(html, TWO_PAIR[1])  # all drills, sheet order, 30 days
    assert re.findall(r'<tr data-rule="([^"]+)"', html)[:2] == list(load(WAY).rule_ids)[:2]
    with app.app_context():
        # A way no longer shipped (a preset removed from the engine): said, not a 500.
        db.session.get_one(Group, group).house_way = "gone-casino"
        db.session.commit()
    response = client.get(f"/supervisor/groups/{group}/rules")
    assert response.status_code == 200
    assert 'id="no-way"' in response.get_data(as_text=True)

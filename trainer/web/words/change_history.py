"""A change history in words: any audit entry becomes rows of setting, old value, new value.

An entry's ``old`` and ``new`` may each be None (a creation has no old values,
a deletion no new ones), a dict of any keys, a list or a plain value. Both are
flattened to leaves (``settings`` -> drills -> kind -> length) and each leaf
that differs is one row; nothing about an entry's shape is assumed, so a new
action or a new key renders without a change here. Values are words (a house way
by its casino, trainer/web/words/names.py), a dict is "key: value" in words, never JSON;
``audit_rows`` gives the admin's audit log the same words, one entry a row.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from babel.numbers import format_percent
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from trainer.engine.hands import Wheel
from trainer.engine.profiles import PROFILES
from trainer.services.accounts import COMMAND_LINE_KEY
from trainer.services.languages import LANGUAGE_NAMES
from trainer.web.platform import drill_kinds, languages
from trainer.web.words import data_words, names

MISSING = object()
MAX_DEPTH = 6
ACTIONS = {
    "group.create": _l("Group created"),
    "group.settings": _l("Settings changed"),
    "account.create": _l("Account created"),
    "account.activate": _l("Account reactivated"),
    "account.deactivate": _l("Account deactivated"),
    "account.password-reset": _l("Password reset"),
    "account.password-change": _l("Password changed"),
    "account.password-change-due": _l("Password change required"),
    "account.preferences": _l("Own settings changed"),
    "sign-in": _l("Signed in"),
    "sign-out": _l("Signed out"),
    "sign-in.failed": _l("Sign-in refused"),
    "exam.schedule": _l("Exam scheduled"),
    "house_way.roll_out": _l("House way version put on the group"),
    "installation.settings": _l("Installation settings changed"),
    "profile.create": _l("Table rules created"),
    "profile.edit": _l("Table rules changed"),
    "profile.offer": _l("Table rules offered to supervisors"),
    "profile.withdraw": _l("Table rules withdrawn from supervisors"),
    "house_way.create": _l("House way created"),
    "house_way.publish": _l("House way version published"),
    "learning.assign": _l("Practice assigned"),
    "learning.unassign": _l("Practice assignment ended"),
}
TARGETS = {"user": _l("Account"), "group": _l("Group"), "exam": _l("Exam"),
           "installation": _l("Installation"), "profile": _l("Table rules"),
           "house_way": _l("House way")}
# Internal ids said elsewhere in words (the target, the login): not shown.
# The table rules' key inside an exam's kept rules is said by the entry's "profile".
# Who ran a command is said as who did it (``services/accounts.py`` COMMAND_LINE_KEY).
HIDDEN = frozenset({"session", "trainee_id", "group_id", "profile_key", COMMAND_LINE_KEY})
LABELS = {
    "name": _l("Group name"),
    "house_way": _l("House way"),
    "profile": _l("Table rules"),
    "foul_policy": _l("Foul policy"),
    "drills": _l("Drills"),
    "length": _l("Questions per session"),
    "time_limit_s": _l("Seconds per question (timed)"),
    "certification": _l("Certification"),
    "min_accuracy": _l("Minimum accuracy (%)"),
    "window": _l("Over the last N timed questions"),
    "max_median_s": _l("Median time at most (s)"),
    "exam_length": _l("Exam questions"),
    "exam_time_limit_s": _l("Exam seconds per question"),
    "login": _l("Login"),
    "role": _l("Role"),
    "active": _l("Active"),
    "address": _l("Address"),
    "kind": _l("Drill"),
    # A supervisor's practice assignment (learning.assign): a rule or a rule family.
    "rule": _l("Rule"),
    "family": _l("Rule family"),
    "time_limit_ms": _l("Seconds per question"),
    "criteria": _l("To pass"),
    "time_zone": _l("Time zone"),
    "title": _l("Name"),
    "rules": _l("Rules"),
    "bets": _l("Bet limits"),
    "wheel": _l("Wheel"),
    "offered": _l("Offered to supervisors"),
    # A manager's house way (house_way.create, house_way.publish).
    "way_name": _l("Short name (in addresses)"),
    "casino": _l("Casino"),
    "copied_from": _l("Copied from"),
    "version": _l("Version"),
    "note": _l("Note"),
    # Table rules as an exam keeps them (TableProfile.as_dict) or a manager sets them.
    "table_rules": _l("Table rules"),
    "profile_title": _l("Name"),
    "commission_rate": _l("Commission"),
    "commission_rounding": _l("Commission rounded"),
    "fee_cents": _l("Flat fee per hand"),
    "no_commission": _l("No commission"),
    "min_bet_cents": _l("Smallest bet"),
    "max_bet_cents": _l("Largest bet"),
    "side_bets": _l("Side bets"),
    "table": _l("Side bet"),
    "min_cents": _l("Smallest bet"),
    "max_cents": _l("Largest bet"),
    "envy": _l("With Envy"),
    "commission": _l("Commission on its wins"),
    # Installation settings.
    "language": _l("Default language"),
    "account_name": _l("Full name"),
    "own_language": _l("Language"),
    "password_change_due": _l("Password change required"),
    "currency": _l("Currency"),
    "card_letters": _l("Letters on the cards"),
}
# Keys whose meaning depends on where they are: (the parent key, or the entry's target
# type for a top-level key; the key) -> the key of LABELS and ``value_words``.
MEANINGS = {
    ("house_way", "name"): "way_name",
    ("table_rules", "name"): "profile_key",
    ("table_rules", "title"): "profile_title",
    ("profile", "title"): "profile_title",
    # An account's full name, and its reader's own language (account.preferences), not a
    # group's name or the installation's default language.
    ("user", "name"): "account_name",
    ("user", "language"): "own_language",
}
WHEELS = {Wheel.SECOND_HIGHEST.value: _l("A-2-3-4-5 is the second-highest straight"),
          Wheel.LOWEST.value: _l("A-2-3-4-5 is the lowest straight"),
          # As services/profiles.py wrote them in the log before they were data.
          "A-2-3-4-5 the second-highest straight": _l("A-2-3-4-5 is the second-highest straight"),
          "A-2-3-4-5 the lowest straight": _l("A-2-3-4-5 is the lowest straight")}
CARD_LETTERS = {"international": _l("International: A K Q J 10 (every casino deck)"),
                "local": _l("Local: the letters of the language's own decks (such as R D V)")}
MONEY_KEYS = frozenset({"fee_cents", "min_bet_cents", "max_bet_cents", "min_cents", "max_cents"})
ROLES = {"trainee": _l("trainee"), "supervisor": _l("supervisor"),
         "manager": _l("table-games manager"), "admin": _l("admin")}
FOUL_POLICIES = {"lose": _l("a fouled hand loses"), "house_way": _l("a fouled hand is set the house way")}
# Containers that add nothing to a label when something more precise follows them.
QUIET = frozenset({"settings", "criteria"})


@dataclass(frozen=True)
class HistoryRow:
    """One changed value of one audit entry, in words."""

    at: datetime | None
    who: str
    action: str
    setting: str
    old: str
    new: str


def _keyed_by_kind(items: list[Any]) -> bool:
    kinds = [item.get("kind") for item in items if isinstance(item, dict)]
    return (bool(items) and len(kinds) == len(items)
            and all(isinstance(k, str) for k in kinds) and len(set(kinds)) == len(kinds))


def flatten(value: Any, path: tuple[str, ...] = (), depth: int = 0) -> dict[tuple[str, ...], Any]:
    """Return the leaves of a JSON value by path; lists of dicts with a unique "kind" go by kind."""
    if depth < MAX_DEPTH and isinstance(value, dict) and value:
        leaves: dict[tuple[str, ...], Any] = {}
        for key, item in value.items():
            leaves.update(flatten(item, (*path, str(key)), depth + 1))
        return leaves
    if depth < MAX_DEPTH and isinstance(value, list) and _keyed_by_kind(value):
        return flatten({item["kind"]: {k: v for k, v in item.items() if k != "kind"}
                        for item in value}, path, depth)
    return {path: value}


def meaning(path: tuple[str, ...], target_type: str | None = None) -> str | None:
    """Return what the last key of ``path`` stands for ("name" under "table_rules" is the
    table rules' name), by its parent key, or the entry's target type at the top."""
    if not path:
        return None
    context = path[-2] if len(path) > 1 else target_type
    return MEANINGS.get((str(context), path[-1]), path[-1])


def _rate_words(value: Any) -> str:
    try:
        rate = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return words(value)
    return format_percent(rate, "#,##0.##%", locale=languages.language())


def _rounding_words(value: Any) -> str:
    return dict(data_words.rounding_choice_words()).get(str(value)) or words(value)


def value_words(key: str | None, value: Any) -> str:
    """Return a setting's value in words, by the setting it is (a house way by its casino,
    money as money, a rate as a percentage, a wheel, a language by its name)."""
    if value is MISSING or value is None:
        return "—"
    if key == "house_way" or key == "version":
        return names.house_way_name(value)  # a manager's version with its number
    if key == "copied_from":
        return names.house_way_title(value)  # a preset by its title
    if key == "profile":
        return names.profile_name(value)
    if key == "profile_title" and isinstance(value, str):
        # A preset's title (kept by an exam) in the reader's words; a manager's as written.
        preset = next((name for name, p in PROFILES.items() if p.title == value), None)
        return names.profile_name(preset) if preset else words(value)
    if key in MONEY_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return languages.money(value)
    if key == "commission_rate":
        return _rate_words(value)
    if key == "commission_rounding":
        return _rounding_words(value)
    if key == "wheel" and str(value) in WHEELS:
        return str(WHEELS[str(value)])
    if key in ("language", "own_language") and value in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[value]
    if key == "card_letters" and value in CARD_LETTERS:
        return str(CARD_LETTERS[value])
    if key == "table" and isinstance(value, str):
        return names.slug_words(value)
    if key == "kind":
        return names.kind_name(value)
    if key == "rule":
        return names.rule_name(value)
    if key == "family":
        return names.family_name(value)
    if key == "role" and value in ROLES:
        return str(ROLES[value])
    if key == "foul_policy" and value in FOUL_POLICIES:
        return str(FOUL_POLICIES[value])
    if key == "time_limit_ms" and isinstance(value, int):
        return words(value / 1000)
    return words(value)


def words(value: Any) -> str:
    """Return a value as plain words: a dash for nothing, yes or no, numbers without noise."""
    if value is MISSING or value is None or value == {} or value == []:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, list):
        return ", ".join(words(item) for item in value)
    if isinstance(value, Mapping):
        # Never JSON: "key: value" in words.
        return "; ".join(f"{label((str(k),))}: {value_words(meaning((str(k),)), v)}"
                         for k, v in value.items())
    return str(value)


def label(path: tuple[str, ...], target_type: str | None = None) -> str:
    """Return a setting's name in words from its path of keys (the last one by its meaning)."""
    keys = [*path[:-1], meaning(path, target_type) or ""] if path else []
    parts = [key for i, key in enumerate(keys) if key not in QUIET or i == len(keys) - 1]
    shown: list[str] = []
    for key in parts:
        if key in LABELS:
            words_ = str(LABELS[key])
        elif drill_kinds.get_kind(key) is not None:
            words_ = drill_kinds.title(key)
        else:
            words_ = key.replace("_", " ").replace("-", " ").capitalize()
        if not shown or shown[-1] != words_:  # "Table rules › Table rules" is said once
            shown.append(words_)
    return " › ".join(shown) or "—"


def action_words(action: str) -> str:
    """Return an audit action in words; an action without words is its name in words."""
    return str(ACTIONS[action]) if action in ACTIONS else names.slug_words(action)


def who_words(entry: Any, actor: Any) -> str:
    """Return who made an audit entry: the account's name, or the command line and the
    operating-system user who ran the command (``services/accounts.py``)."""
    if actor is not None:
        return str(actor.name)
    new = entry.new if isinstance(entry.new, dict) else {}
    if new.get(COMMAND_LINE_KEY):
        return _("Command line (%(user)s)", user=new[COMMAND_LINE_KEY])
    return "—"


def entry_rows(entry: Any) -> list[HistoryRow]:
    """Return the rows of one audit entry: one per changed leaf, at least one."""
    old = {} if entry.old is None else flatten(entry.old)
    new = {} if entry.new is None else flatten(entry.new)
    who = who_words(entry, getattr(entry, "actor", None))
    action = action_words(entry.action)
    target = getattr(entry, "target_type", None)
    rows = []
    for path in [*new, *(p for p in old if p not in new)]:
        if path and (path[-1] in HIDDEN or meaning(path, target) in HIDDEN):
            continue
        before, after = old.get(path, MISSING), new.get(path, MISSING)
        key = meaning(path, target)
        old_words, new_words = value_words(key, before), value_words(key, after)
        if before == after or old_words == new_words == "—":
            continue
        rows.append(HistoryRow(entry.at, who, action, label(path, target), old_words, new_words))
    return rows or [HistoryRow(entry.at, who, action, "—", "—", "—")]


def history_rows(entries: Iterable[Any]) -> list[HistoryRow]:
    """Return the rows of a change history, entry by entry in the order given."""
    return [row for entry in entries for row in entry_rows(entry)]


@dataclass(frozen=True)
class AuditEntry:
    """One audit entry in words: when, who, what happened to whom, and each change."""

    at: datetime | None
    who: str
    action: str
    target: str
    changes: list[HistoryRow]


def target_words(entry: Any, users: Mapping[int, Any]) -> str:
    """Return what an audit entry is about in words (an account by its name and login)."""
    kind = str(TARGETS.get(entry.target_type, names.slug_words(entry.target_type)))
    if entry.target_type == "user" and entry.target_id in users:
        user = users[entry.target_id]
        return f"{kind}: {user.name} ({user.login})"
    if entry.target_type == "profile":
        new = entry.new if isinstance(entry.new, dict) else {}
        title = new.get("title") or (names.profile_name(new["profile"]) if new.get("profile")
                                     else None)
        return f"{kind}: {title}" if title else kind
    if entry.target_type == "exam" and isinstance(entry.new, dict) and entry.new.get("login"):
        return f"{kind}: {entry.new['login']}"
    if entry.target_type == "house_way" and isinstance(entry.new, dict):
        # A version by its title in the reader's words; a new way by its casino.
        if entry.new.get("version"):
            return f"{kind}: {names.house_way_title(entry.new['version'])}"
        if entry.new.get("casino"):
            return f"{kind}: {_('%(casino)s house way', casino=entry.new['casino'])}"
    return kind


def audit_rows(entries: Iterable[Any], users: Mapping[int, Any]) -> list[AuditEntry]:
    """Return audit entries in words; every kind of entry, known or not, without JSON."""
    shown = []
    for entry in entries:
        actor = users.get(entry.actor_id) if entry.actor_id is not None else None
        changes = [row for row in entry_rows(entry) if row.setting != "—"]
        shown.append(AuditEntry(entry.at, who_words(entry, actor),
                                action_words(entry.action), target_words(entry, users),
                                changes))
    return shown

"""The installation's table-rules profiles: the engine's presets plus the managers' own.

The one owner of the list (issue 18, item 2). The engine owns the presets
(``engine/profiles.py``); a manager makes custom profiles by form, stored in
``table_profiles`` (``models/profile.py``) as the engine's ``TableProfile.as_dict()``.
Everything that turns a group's profile name into rules asks ``table_profile(name)``,
and everything that offers a choice asks ``offered_names()``.

Decisions (docs/operations.md, "Roles"):

- A custom profile's name (the id a group stores) is ``custom-`` and words of its
  title at creation; it never changes, so an edit of the title keeps every group on it.
  No preset's name starts with ``custom-``, so a custom profile never shadows one.
- Titles are unique, custom and preset alike, compared without case.
- Offering: every profile, preset or custom, is offered or withdrawn. Presets start
  offered (withdrawn presets are kept as one installation setting); a new custom
  profile starts withdrawn, until the manager offers it. The default preset
  (``nevada``) cannot be withdrawn: new groups start on it.
- Withdrawal hides a profile from the supervisors' choice; groups already on it keep
  it and keep working (their settings page still shows it as their choice) until a
  supervisor changes it. Nothing is deleted: a withdrawn profile stays readable.
- A drill session keeps the custom rules it started under (in its context), so an
  edit applies to sessions started after it. A certification exam keeps the rules it
  was scheduled with (``CertificationExam.table_rules``, issue 24), so an edit changes
  neither a scheduled nor a running exam.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import func, select

from trainer.engine.messages import N_, EngineError, Message
from trainer.engine.profiles import DEFAULT_PROFILE, PROFILES, TableProfile, profile_names
from trainer.extensions import db
from trainer.models import CustomProfile, Group, InstallationSetting, utcnow
from trainer.services import audit

PREFIX = "custom-"
WITHDRAWN_KEY = "withdrawn_profiles"


class ProfileError(EngineError):
    """A profile change was refused; the message says why, in words (the web translates it)."""


@dataclass(frozen=True, slots=True)
class ProfileEntry:
    """One table-rules profile of the installation, described for people."""

    name: str
    title: str
    description: str
    min_bet_cents: int
    max_bet_cents: int
    default: bool
    custom: bool
    offered: bool
    groups: int


def _custom(name: str | None) -> CustomProfile | None:
    if not isinstance(name, str) or not name.startswith(PREFIX):
        return None
    return db.session.execute(
        select(CustomProfile).filter_by(name=name)).scalar_one_or_none()


def _withdrawn_presets() -> set[str]:
    row = db.session.get(InstallationSetting, WITHDRAWN_KEY)
    return {name for name in (row.value.split(",") if row and row.value else ()) if name}


def to_table_profile(record: CustomProfile) -> TableProfile:
    """Return a stored custom profile as the engine's rules (its name and title its own)."""
    data = dict(record.settings or {})
    data["name"], data["title"] = record.name, record.title
    return TableProfile.from_dict(data)


def is_preset(name: str) -> bool:
    """Tell whether ``name`` is one of the engine's preset profiles."""
    return name in PROFILES


def table_profile(name: str) -> TableProfile:
    """Return the rules of a profile by name, preset or custom; ProfileError if unknown."""
    if name in PROFILES:
        return PROFILES[name]
    record = _custom(name)
    if record is None:
        raise ProfileError(N_("There is no table-rules profile called “%(name)s”."), name=name)
    return to_table_profile(record)


def custom_rules(name: str) -> TableProfile | None:
    """Return a custom profile's rules for a drill's context; None for a preset or unknown name."""
    if name in PROFILES:
        return None
    record = _custom(name)
    return to_table_profile(record) if record is not None else None


def known(name: str) -> bool:
    """Tell whether ``name`` is a preset or a custom profile (offered or not)."""
    return name in PROFILES or _custom(name) is not None


def offered(name: str) -> bool:
    """Tell whether supervisors may choose ``name`` for a group now."""
    if name in PROFILES:
        return name not in _withdrawn_presets()
    record = _custom(name)
    return record is not None and bool(record.offered)


def check_choice(name: str) -> None:
    """Refuse (ProfileError, in words) a profile a supervisor may not choose now."""
    if not known(name):
        raise ProfileError(N_("There is no table-rules profile called “%(name)s”."), name=name)
    if not offered(name):
        raise ProfileError(N_("The table rules “%(title)s” are not offered to supervisors; "
                              "choose one of the table rules on offer."), title=title_words(name))


def title_of(name: str) -> str:
    """Return a profile's title, or its name when it has none or is unknown."""
    if name in PROFILES:
        return PROFILES[name].title or name
    record = _custom(name)
    return record.title if record is not None else name


def title_words(name: str) -> Message | str:
    """Return a profile's title for a sentence: a preset's as the engine's data text (a
    ``Message`` the web translates, issue 19), a custom one's as the manager wrote it."""
    if name in PROFILES and PROFILES[name].title:
        return Message(PROFILES[name].title)
    return title_of(name)


def custom_titles() -> dict[str, str]:
    """Return every custom profile's title by name (one query)."""
    rows = db.session.execute(select(CustomProfile.name, CustomProfile.title)).all()
    return {str(name): str(title) for name, title in rows}


def offered_names() -> list[str]:
    """Return the profiles supervisors may choose: offered presets (default first), then custom."""
    withdrawn = _withdrawn_presets()
    customs = db.session.execute(
        select(CustomProfile.name).filter_by(offered=True).order_by(CustomProfile.title)
    ).scalars()
    return [name for name in profile_names() if name not in withdrawn] + list(customs)


def all_names() -> list[str]:
    """Return every profile, offered or not: the presets (default first), then custom ones."""
    customs = db.session.execute(
        select(CustomProfile.name).order_by(CustomProfile.title)).scalars()
    return [*profile_names(), *customs]


def entries() -> list[ProfileEntry]:
    """Return every profile for the manager's pages, with how many groups use each."""
    used = {str(value): int(count) for value, count in db.session.execute(
        select(Group.profile, func.count()).group_by(Group.profile)).all()}
    withdrawn = _withdrawn_presets()
    result = []
    for name in profile_names():
        profile = PROFILES[name]
        result.append(ProfileEntry(name, profile.title or name, profile.describe(),
                                   profile.min_bet_cents, profile.max_bet_cents,
                                   name == DEFAULT_PROFILE, False, name not in withdrawn,
                                   used.get(name, 0)))
    records = db.session.execute(select(CustomProfile).order_by(CustomProfile.title)).scalars()
    for record in records:
        profile = to_table_profile(record)
        result.append(ProfileEntry(record.name, record.title, profile.describe(),
                                   profile.min_bet_cents, profile.max_bet_cents, False, True,
                                   bool(record.offered), used.get(record.name, 0)))
    return result


def get_custom(name: str) -> CustomProfile:
    """Return a custom profile by name; ProfileError if there is none."""
    record = _custom(name)
    if record is None:
        raise ProfileError(N_("There is no custom table-rules profile called “%(name)s”."),
                           name=name)
    return record


def name_for(title: str) -> str:
    """Return the name a new custom profile with this title gets (``custom-`` and its words)."""
    words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:50].strip("-")
    return PREFIX + (words or "profile")


def title_problem(title: str, name: str | None = None) -> Message | None:
    """Return why ``title`` cannot name a profile (taken by a preset or another), else None.

    In words for people: ``str()`` is English, the web translates it (``engine_words.message_words``).
    """
    wanted = title.strip().casefold()
    for preset, profile in PROFILES.items():
        if wanted in (preset.casefold(), (profile.title or "").casefold()):
            return Message(N_("“%(title)s” is the name of a preset table profile; "
                              "choose another."), title=title.strip())
    for other, other_title in custom_titles().items():
        if other != name and other_title.casefold() == wanted:
            return Message(N_("There is already a table profile called “%(title)s”."),
                           title=other_title)
    if name is None:
        new_name = name_for(title)
        if new_name in PROFILES or _custom(new_name) is not None:
            return Message(N_("“%(title)s” is too like the name of another table profile."),
                           title=title.strip())
    return None


def _words(profile: TableProfile, offered_now: bool) -> dict[str, object]:
    """Describe a profile for the audit log: its settings as data (money in cents), which
    the log's page words in its reader's language (web/words/change_history.py); its name is
    the entry's target."""
    data = profile.as_dict()
    del data["name"]
    return {**data, "offered": offered_now}


def create(actor_id: int, profile: TableProfile) -> str:
    """Store a new custom profile (not offered yet), log it, commit; return its name."""
    problem = title_problem(profile.title)
    if problem:
        raise ProfileError(problem)
    name = name_for(profile.title)
    profile = profile.with_settings(name=name)
    now = utcnow()
    record = CustomProfile(name=name, title=profile.title, settings=profile.as_dict(),
                           offered=False, created_by_id=actor_id, created_at=now,
                           updated_at=now)
    db.session.add(record)
    db.session.flush()
    audit.record(actor_id, "profile.create", "profile", record.id,
                 new=_words(profile, False))
    db.session.commit()
    return name


def update(actor_id: int, name: str, profile: TableProfile) -> None:
    """Change a custom profile's title and settings (its name stays), log it, commit."""
    record = get_custom(name)
    problem = title_problem(profile.title, name)
    if problem:
        raise ProfileError(problem)
    old = _words(to_table_profile(record), bool(record.offered))
    profile = profile.with_settings(name=name)
    record.title, record.settings, record.updated_at = profile.title, profile.as_dict(), utcnow()
    audit.record(actor_id, "profile.edit", "profile", record.id,
                 old=old, new=_words(profile, bool(record.offered)))
    db.session.commit()


def set_offered(actor_id: int, name: str, offer: bool) -> None:
    """Offer a profile to supervisors or withdraw it, log it, commit."""
    if name == DEFAULT_PROFILE and not offer:
        raise ProfileError(N_("%(title)s is the default table rules, on which new groups start; "
                              "it cannot be withdrawn."), title=title_words(name))
    if name in PROFILES:
        withdrawn = _withdrawn_presets()
        was = name not in withdrawn
        withdrawn = (withdrawn - {name}) if offer else (withdrawn | {name})
        row = db.session.get(InstallationSetting, WITHDRAWN_KEY)
        value = ",".join(sorted(withdrawn))
        if row is None:
            db.session.add(InstallationSetting(key=WITHDRAWN_KEY, value=value))
        else:
            row.value = value
        target_id = 0
    else:
        record = get_custom(name)
        was, record.offered = bool(record.offered), offer
        target_id = record.id
    audit.record(actor_id, "profile.offer" if offer else "profile.withdraw", "profile",
                 target_id, old={"profile": name, "offered": was},
                 new={"profile": name, "offered": offer})
    db.session.commit()

"""The supervisor blueprint, its gate, and what every page family shares.

Ownership lookups (``get_*_or_404``), the drill kinds in page order, the
report period from the query string, and the names of periods and readiness
(a session's mode is named by ``words/names.py``).
"""
from __future__ import annotations

from flask import Blueprint, abort, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from trainer.models import Attempt, Group, Role, User
from trainer.services import house_ways as house_way_catalogue
from trainer.services import profiles
from trainer.services.certification.criteria import Readiness
from trainer.services.reports.figures import Period
from trainer.web.platform import drill_kinds as drill_kinds_registry
from trainer.web.platform import time_zones
from trainer.web.platform.access import get_owned_or_404
from trainer.web.supervisor.forms import GroupForm
from trainer.web.words.data_words import profile_description
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import house_way_title, profile_name, slug_words

bp = Blueprint("supervisor", __name__, url_prefix="/supervisor")

PERIOD_NAMES = {"7d": _l("Last 7 days"), "30d": _l("Last 30 days"), "all": _l("All time")}
# Both certified states are "ready to deal" (Verdict.ready_to_deal): a slipped criterion
# calls for a refresher, it does not take the certificate away (docs/dashboards.md).
READINESS_NAMES = {
    Readiness.CERTIFIED: _l("Ready to deal"),
    Readiness.REFRESHER: _l("Ready to deal, needs a refresher"),
    Readiness.EXAM_SCHEDULED: _l("Exam scheduled"),
    Readiness.EXAM_DUE: _l("Ready for the exam"),
    Readiness.TRAINING: _l("In training"),
    Readiness.NO_DATA: _l("No timed practice yet"),
    Readiness.NO_CRITERIA: _l("No criteria set"),
}


# What a table-games manager may open here: every group's dashboards, read-only. Any
# other page (a form, every POST) answers 403, so a page added later stays closed to
# managers until it is listed here.
MANAGER_PAGES = frozenset({
    "supervisor.groups", "supervisor.show_group", "supervisor.export_attempts",
    "supervisor.export_summary", "supervisor.show_trainee", "supervisor.trainee_report",
    "supervisor.replay_attempt", "supervisor.group_rules",
    "supervisor.group_knowledge",  # the class heat map (issue 30)
})
# Who sees every group (a supervisor sees their own).
SEES_EVERY_GROUP = (Role.MANAGER, Role.ADMIN)


@bp.before_request
@login_required
def require_supervisor() -> None:
    """Keep this blueprint to supervisors and admins, and its dashboards to managers."""
    if current_user.role == Role.MANAGER:
        if request.method not in ("GET", "HEAD") or request.endpoint not in MANAGER_PAGES:
            abort(403)
    elif current_user.role not in (Role.SUPERVISOR, Role.ADMIN):
        abort(403)


@bp.context_processor
def read_only_pages() -> dict[str, bool]:
    """Tell the templates to leave out what changes a group or a trainee (a manager reads only)."""
    return {"read_only": current_user.is_authenticated and current_user.role == Role.MANAGER}


def drill_kinds() -> list[str]:
    """Return the registered drill kinds in the order the drills page offers them."""
    return drill_kinds_registry.slugs()


def house_way_label(choice: house_way_catalogue.HouseWayChoice) -> str:
    """Word a house way on offer: a preset's title, or "Riverside house way, version 2
    (published 3 Dec 2026)" (and "superseded" when a later version is published)."""
    if choice.preset or choice.version is None:
        return house_way_title(choice.ref, choice.title)
    published = time_zones.local_date(choice.published_at, "d MMM y") if choice.published_at else ""
    if choice.superseded:
        return str(_l("%(title)s, version %(number)s (published %(date)s; superseded)",
                      title=house_way_title(choice.ref, choice.title), number=choice.version,
                      date=published))
    return str(_l("%(title)s, version %(number)s (published %(date)s)",
                  title=house_way_title(choice.ref, choice.title), number=choice.version,
                  date=published))


def house_way_choices() -> list[tuple[str, str]]:
    """Return the house ways on offer (services/house_ways.py) as (ref, words): the presets,
    the default first, then each custom way's published versions, newest first."""
    return [(c.ref, house_way_label(c)) for c in house_way_catalogue.choices()]


def check_house_way(form: GroupForm, current: str | None = None) -> bool:
    """Refuse, on the form's house-way field, a house way not on offer (a draft, an unknown
    ref) unless it is the group's ``current`` one; return whether the choice stands."""
    chosen = form.house_way.data
    if chosen == current:
        return True
    try:
        house_way_catalogue.check_choice(chosen)
    except house_way_catalogue.WayError as error:
        form.house_way.errors = [*form.house_way.errors, message_words(error)]
        return False
    return True


def profile_choices() -> list[tuple[str, str]]:
    """Return the profiles on offer (services/profiles.py) as (name, words), the default first."""
    return [(name, f"{profile_name(name)}: {profile_description(name)}")
            for name in profiles.offered_names()]


def get_group_or_404(group_id: int) -> Group:
    """Return a group the signed-in user may see (their own, or any for a manager or admin), or 404."""
    return get_owned_or_404(Group, group_id, lambda g: current_user.role in SEES_EVERY_GROUP
                            or g.supervisor_id == current_user.id)


def get_trainee_or_404(user_id: int) -> User:
    """Return a trainee now in one of the signed-in supervisor's groups (any for a manager or
    admin), or 404."""
    return get_owned_or_404(User, user_id, lambda u: u.role == Role.TRAINEE and (
        current_user.role in SEES_EVERY_GROUP
        or (u.group is not None and u.group.supervisor_id == current_user.id)))


def get_attempt_or_404(attempt_id: int) -> Attempt:
    """Return an attempt of a trainee the signed-in user may see, or 404."""
    attempt = get_owned_or_404(Attempt, attempt_id)
    get_trainee_or_404(attempt.user_id)
    return attempt


def request_period() -> Period:
    """Return the report period the query string asks for (the default when it names none)."""
    return Period.parse(request.args.get("period"))


def group_form(group: Group | None = None) -> GroupForm:
    """Return the group form with the engine's house ways and profiles to choose from."""
    form = GroupForm(obj=group)
    house_ways, profile_list = house_way_choices(), profile_choices()
    if group is not None:
        # Keep a setting the engine no longer ships selectable, not silently changed.
        if group.house_way not in {name for name, _label in house_ways}:
            house_ways.append((group.house_way, slug_words(group.house_way)))
        # A withdrawn profile stays the group's until a supervisor changes it.
        if group.profile not in {name for name, _label in profile_list}:
            profile_list.append((group.profile, str(_l("%(title)s (withdrawn: kept for this group)",
                                                       title=profile_name(group.profile)))))
    form.house_way.choices = house_ways
    form.profile.choices = profile_list
    # The choices are checked in words: check_house_way (a draft or unknown way is
    # refused with why) and GroupSettings.check_profile_choice.
    form.house_way.validate_choice = False
    form.profile.validate_choice = False
    return form

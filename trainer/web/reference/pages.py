"""The reference pages: the printable house-way sheet and its PDF, the commission chart
and the house-way look-up.

The sheet itself, drawn and printed, is ``platform/sheets.py`` (the PDF job prints it
too); here it is shown with the reader's group's table rules, and its PDF fetched from
the store or queued for a job worker. A house way here is a *ref*: a preset or a
manager's published custom version (``slug@n``), both found through
``services/house_ways.py`` (issue 18).
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, get_timezone
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as WerkzeugResponse

from trainer.engine.cards import Card, card_list, parse_cards
from trainer.engine.hands import Wheel, rank2, rank5
from trainer.engine.house_way import DEFAULT_HOUSE_WAY
from trainer.engine.profiles import DEFAULT_PROFILE, Rounding, TableProfile
from trainer.engine.settlement import commission_cents, payout_cents
from trainer.extensions import db
from trainer.models import Group, Role
from trainer.services import house_ways, jobs, pdf_cache, profiles
from trainer.services.house_ways import HouseWayChoice
from trainer.web.platform import languages, pdf_jobs
from trainer.web.platform.exam_lock import refuse_during_exam
from trainer.web.platform.practice import practisable
from trainer.web.platform.sheets import (
    PAPER_SIZES,
    WHEEL_WORDS,
    choice_of,
    file_stem,
    get_house_way_or_404,
    offered_ways,
    render_sheet,
    sheet_pdf_key,
    sheet_pdf_stem,
    way_or_none,
)
from trainer.web.words.data_words import ROUNDING_STEP_CENTS
from trainer.web.words.engine_words import message_words
from trainer.web.words.names import way_label, way_title

bp = Blueprint("reference", __name__)
# Every page here sets or explains hands: closed while the trainee's exam runs.
bp.before_request(refuse_during_exam)

PDF_WAIT_SECONDS = 3  # the "being prepared" page asks again this often
CHIP_STEP_CENTS = 500
DOLLAR_STEP_CENTS = 100
CHART_DOLLAR_STEPS_TO_CENTS = 10_000  # every whole dollar up to $100, then $5 chips
CHART_COLUMNS = 3
DECK_ORDER = [r + s for r in "AKQJT98765432" for s in "shdc"] + ["JK"]


def rounding_words(rounding: Rounding) -> str:
    """Say how a commission is rounded: "exact to the cent", "rounded up to the next $0.25"."""
    step = ROUNDING_STEP_CENTS.get(rounding)
    if step is None:
        return _("exact to the cent (half a cent rounds up)")
    return _("rounded up to the next %(amount)s", amount=languages.money(step))


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One bet on the commission chart: what is taken and what is paid."""

    bet_cents: int
    commission_cents: int
    paid_cents: int


@dataclass(frozen=True, slots=True)
class PresetSetting:
    """How one preset sets the looked-up hand, and whether it differs from the chosen one."""

    preset: str
    title: str
    front: list[str]
    back: list[str]
    rule: str
    rule_number: str
    rule_text: str
    explanation: str
    differs: bool


def _user_group() -> Group | None:
    """Return the group whose settings apply to the signed-in user, if any."""
    group: Group | None = None
    if current_user.role == Role.TRAINEE:
        group = current_user.group
    elif current_user.role == Role.SUPERVISOR and current_user.groups_supervised:
        group = current_user.groups_supervised[0]
    return group


def default_house_way() -> str:
    """Return the signed-in user's group house way (a preset or published version), or the default."""
    group = _user_group()
    if group is not None and way_or_none(group.house_way) is not None:
        return group.house_way
    return DEFAULT_HOUSE_WAY


def default_profile() -> str:
    """Return the signed-in user's group table-rules profile, or the default."""
    group = _user_group()
    if group is not None and profiles.known(group.profile):
        return group.profile
    return DEFAULT_PROFILE


def chart_bets(profile: TableProfile) -> list[int]:
    """Return the bets a chart lists: the table's limits, and every whole dollar between
    them up to $100 (the drills deal bets such as $13, $33 and $55), then every $5 chip
    step to the table's maximum (issue 26; docs/drills.md, "Bets")."""
    low, high = profile.min_bet_cents, profile.max_bet_cents
    bets = {low, high}
    bets.update(range(-(-low // DOLLAR_STEP_CENTS) * DOLLAR_STEP_CENTS,
                      min(high, CHART_DOLLAR_STEPS_TO_CENTS) + 1, DOLLAR_STEP_CENTS))
    bets.update(range(-(-max(low, CHART_DOLLAR_STEPS_TO_CENTS) // CHIP_STEP_CENTS) * CHIP_STEP_CENTS,
                      high + 1, CHIP_STEP_CENTS))
    return sorted(b for b in bets if low <= b <= high)


def commission_chart(profile: TableProfile) -> list[ChartRow]:
    """Return the chart's rows: each bet of ``chart_bets``, its commission and its pay."""
    return [ChartRow(bet, commission_cents(bet, profile), payout_cents(bet, profile))
            for bet in chart_bets(profile)]


def _columns(rows: list[ChartRow], count: int) -> list[list[ChartRow]]:
    """Split rows into ``count`` columns read top to bottom, then left to right."""
    size = -(-len(rows) // count) if rows else 0
    return [rows[i:i + size] for i in range(0, len(rows), size)] if size else []


def pdf_cache_dir() -> Path:
    """Return this web server's folder of PDF copies (``PDF_CACHE_DIR``, else instance/pdf-cache)."""
    return Path(current_app.config.get("PDF_CACHE_DIR")
                or Path(current_app.instance_path) / "pdf-cache")


def set_by_every_way(cards: tuple[Card, ...], chosen: str, wheel: str,
                     ways: list[HouseWayChoice]) -> list[PresetSetting]:
    """Set one hand by every house way offered, marking the settings whose value differs from ``chosen``."""
    labels = {c.ref: way_label(c) for c in ways}
    loaded = {c.ref: house_ways.get_way(c.ref) for c in ways}
    if chosen not in loaded:
        loaded[chosen] = house_ways.get_way(chosen)
    settings = {ref: way.set(cards, wheel) for ref, way in loaded.items()}

    def value(ref: str) -> tuple[int, int]:
        s = settings[ref]
        return rank2(s.front), rank5(s.back, wheel)

    rows = []
    lang = languages.language()  # each way's own words in the reader's language (issue 19)
    for ref, setting in settings.items():
        way = loaded[ref]
        rule = way.rule(setting.rule)
        rows.append(PresetSetting(
            ref, labels.get(ref) or way_title(way), card_list(setting.front),
            card_list(setting.back), setting.rule,
            rule.number, rule.text_in(lang),
            way.explanation_in(lang, setting.back, setting.front, setting.rule, wheel),
            value(ref) != value(chosen)))
    return rows


def _choice(name: str, allowed: Collection[str], default: str) -> str:
    """Return a query-string choice if it is allowed, else the default."""
    value = request.args.get(name, "")
    return value if value in allowed else default


@bp.route("/house-way")
@login_required
def house_way_index() -> WerkzeugResponse:
    """Open the sheet of the signed-in user's house way (a preset or a published version)."""
    return redirect(url_for("reference.sheet", preset=default_house_way()))


def sheet_ref(name: str) -> str:
    """Return the ref a sheet's address names: a preset or a version as it is, and a custom
    way's short name alone as its latest published version (``riverside`` -> ``riverside@3``)."""
    if house_ways.is_preset(name) or house_ways.parse_ref(name) is not None:
        return name
    return house_ways.latest_ref(name) or name


def your_version(ref: str) -> HouseWayChoice | None:
    """Return the version of this custom way the reader's group trains on, when it is another."""
    parsed = house_ways.parse_ref(ref)
    group = _user_group() if current_user.is_authenticated else None
    if parsed is None or group is None or group.house_way == ref:
        return None
    theirs = house_ways.parse_ref(group.house_way)
    return choice_of(group.house_way) if theirs is not None and theirs[0] == parsed[0] else None


@bp.route("/house-way/<preset>")
@login_required
def sheet(preset: str) -> str:
    """Show a house way's printable sheet: a preset or a published custom version; a custom
    way's short name alone opens its latest version (with a note when the reader's group
    trains on another)."""
    ref = sheet_ref(preset)
    way = get_house_way_or_404(ref)
    return render_sheet(way, default_profile(), choice=choice_of(ref), group_version=your_version(ref),
                        practise=practisable(current_user.id))


def _script_polls() -> bool:
    """Tell whether the waiting page's script asks (it accepts JSON first); any other client,
    ``Accept: */*`` included, gets the PDF or the waiting page."""
    return request.accept_mimetypes.best == "application/json"


@bp.route("/house-way/<preset>/pdf")
@login_required
def sheet_pdf(preset: str) -> ResponseReturnValue:
    """Download a house way's sheet as a PDF printed from the same HTML.

    Never printed in the request (issue 25): a PDF not printed yet is queued for a job
    worker, and the page says it is being prepared and asks again every few seconds.
    """
    preset = sheet_ref(preset)  # a custom way's short name: its latest version
    way = get_house_way_or_404(preset)
    paper = _choice("paper", PAPER_SIZES, "letter")
    profile = default_profile()
    key = sheet_pdf_key(way, paper, choice_of(preset), profile=profile,
                        language=str(get_locale()), zone=str(get_timezone()))
    stem = sheet_pdf_stem(way, paper, key, profile)
    digest = pdf_cache.key_digest(key)
    pdf = pdf_cache.fetch(db.session, pdf_cache_dir(), stem, digest)
    job = None
    if pdf is None:
        waited = request.args.get("job", type=int)
        job = jobs.get(waited) if waited else None
        if job is None or job.key != pdf_jobs.pdf_key(digest) or job.status != jobs.FAILED:
            try:
                job = pdf_jobs.queue_sheet(way.name, paper, profile, key, stem,
                                           user_id=current_user.id)
            except jobs.JobRefused as refused:
                return render_template("errors/error.html", code=429,
                                       title=_("One PDF at a time"),
                                       message=message_words(refused.message)), 429
            if job.status == jobs.DONE:
                pdf = pdf_cache.fetch(db.session, pdf_cache_dir(), stem, digest)
    if pdf is None and job is not None and job.status == jobs.FAILED:
        current_app.logger.error("House-way PDF for %s failed: %s", preset, job.error)
        return render_template(
            "errors/error.html", code=503, title=_("PDF not available"),
            message=_("The PDF cannot be made on this server right now (%(reason)s). "
                      "Print the sheet from your browser instead.",
                      reason=(job.error or "").rstrip(".")),
        ), 503
    download = url_for("reference.sheet_pdf", preset=preset, paper=paper)
    if pdf is None:
        again = url_for("reference.sheet_pdf", preset=preset, paper=paper,
                        job=job.id if job is not None else None)
        retry = {"Retry-After": str(PDF_WAIT_SECONDS)}
        if _script_polls():  # the waiting page's script asks (static/js/pdf_wait.js)
            return jsonify(ready=False, again=again), 202, retry
        return render_template("reference/pdf_wait.html", way=way, again=again,
                               download=download, ready=False,
                               title=way_title(way),
                               seconds=PDF_WAIT_SECONDS), 202, retry
    if _script_polls():  # ready: the script says so and starts the download once
        return jsonify(ready=True, download=download)
    if request.args.get("job") is not None:
        # "Ask again now" on the waiting page (no script): say it is ready, with its link,
        # rather than download over a page that still says "being prepared".
        return render_template("reference/pdf_wait.html", way=way, again=download,
                               download=download, ready=True,
                               title=way_title(way),
                               seconds=PDF_WAIT_SECONDS), 200
    filename = f"{file_stem(way.name)}-house-way-{paper}.pdf"
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.route("/commission-chart")
@login_required
def commission_chart_page() -> str:
    """Show what to pay on a winning bet at every chip step, under the table's profile."""
    current = default_profile()
    # The profiles on offer (services/profiles.py), and the user's group's own.
    offered = profiles.offered_names()
    choices = offered if current in offered else [*offered, current]
    profile = profiles.table_profile(_choice("profile", profiles.all_names(), current))
    if profile.name not in choices:
        choices = [*choices, profile.name]
    rows = [] if profile.no_commission else commission_chart(profile)
    return render_template(
        "reference/commission_chart.html",
        profile=profile,
        profiles=choices,
        columns=_columns(rows, CHART_COLUMNS),
        rows=rows,
        rounding=rounding_words(profile.commission_rounding),
        step=languages.money(DOLLAR_STEP_CENTS), chip_step=languages.money(CHIP_STEP_CENTS),
        dollar_steps_to=languages.money(CHART_DOLLAR_STEPS_TO_CENTS),
        money=languages.money,
    )


@bp.route("/house-way/look-up")
@login_required
def look_up() -> str:
    """Set seven cards by a chosen house way, or by every house way offered to compare casinos.

    The ways are the presets and the managers' published versions (``offered_ways``).
    """
    current = default_house_way()
    requested = request.args.get("preset", "")
    ways = offered_ways(current)
    refs = [c.ref for c in ways]
    if requested and requested not in refs and way_or_none(requested) is not None:
        # A superseded version, from a shared link: still readable.
        ways = [*ways, *(c for c in house_ways.choices() if c.ref == requested)]
        refs.append(requested)
    preset = _choice("preset", refs, current)
    wheel = _choice("wheel", [w.value for w in Wheel], profiles.table_profile(default_profile()).wheel)
    chosen = house_ways.get_way(preset)
    compare = request.args.get("compare") == "1"
    text = request.args.get("cards", "").strip()
    error = setting = rule = None
    comparison: list[PresetSetting] = []
    cards: list[str] = []
    if text:
        try:
            parsed = parse_cards(text, 7)
        except ValueError as exc:
            error = message_words(exc)  # the engine's sentence in the reader's language
        else:
            cards = card_list(parsed)
            if compare:
                comparison = set_by_every_way(parsed, preset, wheel, ways)
            setting = chosen.set(parsed, wheel)
            rule = chosen.rule(setting.rule)
    return render_template(
        "reference/look_up.html",
        text=text, cards=cards, preset=preset, preset_title=way_title(chosen),
        wheel=wheel, compare=compare,
        # The way's own words (rule sentence, short name, explanation) in the reader's language.
        lang=languages.language(),
        explanation=chosen.explanation_in(languages.language(), setting.back, setting.front,
                                          setting.rule, wheel) if setting else "",
        presets=[(c.ref, way_label(c)) for c in ways],
        wheels=WHEEL_WORDS, deck=DECK_ORDER, error=error, setting=setting, rule=rule,
        setting_front=card_list(setting.front) if setting else [],
        setting_back=card_list(setting.back) if setting else [],
        comparison=comparison,
        differences=sum(row.differs for row in comparison),
        share_url=_share_url(cards, preset, wheel, compare) if cards else None,
        # "Practise this rule" under the rule set, when it is one of the reader's drills'
        # (their group's way; issue 30, web/platform/practice.py).
        practise=practisable(current_user.id) if setting else None,
    )


def _share_url(cards: list[str], preset: str, wheel: str, compare: bool) -> str:
    """Return the absolute link that reopens this look-up."""
    args: dict[str, str] = {"cards": " ".join(cards), "preset": preset}
    if wheel != Wheel.SECOND_HIGHEST:
        args["wheel"] = wheel
    if compare:
        args["compare"] = "1"
    return url_for("reference.look_up", _external=True, **args)


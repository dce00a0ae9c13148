"""The house-way job kinds (issue 18): check, diff, simulate and class_table.

Each kind has a key function (the same key is the same work: ``jobs.submit`` starts it
once), a ``start_*`` function called in the web process, and a ``run_*`` function the
worker runs (``services/jobs/``: no Flask app there, only the job's own session).

The ``start_*`` functions resolve what needs the app's database before the job starts
(a house way ref into its data, a profile name into its rules), so the parameters the
worker gets are complete; the worker reads and writes only class tables, through
``house_ways.load_tables``/``store_tables`` on its own session. A finished job of the
same key is answered as it is, unless what its key names has changed since (a preset
file changed under the same name): then it runs again. Every kind here runs in the
workers' long lane (issue 25), and counts against the person starting it.

- ``check`` {data}: the engine's exhaustive check (``proof.check_way``) of a draft;
  stores its class tables; the result is the check report. Key ``check:<digest>``.
- ``diff`` {data, reference}: the share of hands set differently from the reference,
  per deciding rule, with examples (``proof.diff_ways``). Key ``diff:<digest>:<ref>``.
- ``simulate`` {data, old, reference, profile, hands, seed}: the paired simulation
  (``simulate.paired_simulate``: the banker by ``old`` then by the draft, the player by
  ``reference``) and the edge change under the profile (``house_way_edge.edge_change``).
  Key ``simulate:<digest>:<old>:<reference>:<profile>:<hands>:<seed>``.
- ``class_table`` {rules_digest, data}: the class tables of a published way stored
  without them. Key ``class_table:<digest>``.

A way the diff needs tables for and that has none stored (a draft never checked, a
custom reference) is checked first, and its tables stored, within the same job; the
simulation uses stored tables when there are, else the engine sets those hands with
the interpreter (the same counts, slower). The job's message is a stage name
(``STAGE_*``), which the web layer words.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trainer.engine.house_way import HouseWay, HouseWayError, load, preset_names
from trainer.engine.house_way.interpreter import rules_digest
from trainer.engine.messages import N_, Message
from trainer.engine.profiles import TableProfile
from trainer.models import Job
from trainer.services import house_ways, jobs
from trainer.services import profiles as profiles_service
from trainer.services.jobs import JobContext, JobFailed, Runner

CHECK, DIFF, SIMULATE, CLASS_TABLE = "check", "diff", "simulate", "class_table"
DEFAULT_HANDS = 1_000_000
MIN_HANDS, MAX_HANDS = 1_000, 10_000_000
DEFAULT_SEED = 1
WHEELS = ("second_highest", "lowest")
DIFF_WHEEL = "second_highest"
# The job's message while it runs: a stage name, which the web layer words.
STAGE_CHECKING, STAGE_TABLES, STAGE_COMPARING, STAGE_DEALING = "checking", "tables", "comparing", "dealing"


# -- keys ----------------------------------------------------------------------------


def check_key(digest: str, classes: int | None = None) -> str:
    """Return the key of the check of rules ``digest`` (of its first ``classes`` classes: tests)."""
    return f"{CHECK}:{digest}" if classes is None else f"{CHECK}:{digest}:first-{classes}"


def diff_key(digest: str, reference: str) -> str:
    """Return the key of the diff of rules ``digest`` against ``reference``."""
    return f"{DIFF}:{digest}:{reference}"


def simulate_key(digest: str, old: str, reference: str, profile: str, hands: int, seed: int) -> str:
    """Return the key of the paired simulation of rules ``digest`` against ``old``."""
    return f"{SIMULATE}:{digest}:{old}:{reference}:{profile}:{hands}:{seed}"


def class_table_key(digest: str) -> str:
    """Return the key of the class-table build of rules ``digest``."""
    return f"{CLASS_TABLE}:{digest}"


# -- starting (the web process) --------------------------------------------------------


def _way_params(ref: str) -> dict[str, Any]:
    """What the worker needs of a house way ref: the ref, and for a custom way its data."""
    if ref in preset_names():
        return {"ref": ref, "rules_digest": load(ref).rules_digest}
    way = house_ways.get_way(ref)
    return {"ref": ref, "rules_digest": way.rules_digest, "data": way.data}


def _start(kind: str, key: str, params: dict[str, Any], user_id: int | None,
           runner: Runner) -> Job:
    """Queue (or find) the job; a job done on other data under the same key (a preset file
    changed) runs again, one done on the same data is answered (``jobs.submit``).
    ``jobs.JobRefused`` when the person has too many jobs running or waiting."""
    return jobs.submit(kind, key, params, user_id, runner=runner)


def start_check(data: Mapping[str, Any], user_id: int | None, *, runner: Runner,
                classes: int | None = None) -> Job:
    """Start (or find) the check of a draft's data.

    ``classes`` (tests) checks the first classes only: a report of those, no tables
    stored, under a key of its own (so it never counts as the draft's check).
    """
    params: dict[str, Any] = {"data": dict(data)}
    if classes is not None:
        params["classes"] = int(classes)
    return _start(CHECK, check_key(rules_digest(data), classes), params, user_id, runner)


def start_diff(data: Mapping[str, Any], reference: str, user_id: int | None, *, runner: Runner) -> Job:
    """Start (or find) what a draft changes against the house way ``reference``."""
    params = {"data": dict(data), "reference": _way_params(reference)}
    return _start(DIFF, diff_key(rules_digest(data), reference), params, user_id, runner)


def start_simulate(data: Mapping[str, Any], old: str, reference: str, profile: str,
                   user_id: int | None, *, runner: Runner, hands: int = DEFAULT_HANDS,
                   seed: int = DEFAULT_SEED) -> Job:
    """Start (or find) the paired simulation of a draft against ``old`` under ``profile``.

    ValueError (a sentence) for a deal count outside 1,000..10,000,000 or a negative seed.
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or not MIN_HANDS <= hands <= MAX_HANDS:
        raise ValueError(Message(N_("The number of deals must be a whole number from %(least)s to "
                                    "%(most)s."), least=MIN_HANDS, most=MAX_HANDS))
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(Message(N_("The seed must be a whole number, zero or more.")))
    rules = profiles_service.table_profile(profile)
    params = {"data": dict(data), "old": _way_params(old), "reference": _way_params(reference),
              "profile": profile, "profile_rules": rules.as_dict(), "hands": hands, "seed": seed}
    key = simulate_key(rules_digest(data), old, reference, profile, hands, seed)
    return _start(SIMULATE, key, params, user_id, runner)


def start_class_table(data: Mapping[str, Any], user_id: int | None, *, runner: Runner) -> Job:
    """Start (or find) the class-table build of a published way's data."""
    digest = rules_digest(data)
    params = {"rules_digest": digest, "data": dict(data)}
    return _start(CLASS_TABLE, class_table_key(digest), params, user_id, runner)


# -- running (the worker) ----------------------------------------------------------------


Report = Callable[[int, int], None]


def _build(data: Mapping[str, Any]) -> HouseWay:
    try:
        return HouseWay(data)
    except (HouseWayError, ValueError, KeyError, TypeError) as exc:
        raise JobFailed(Message(N_("This house way cannot be read: %(problem)s"),
                                problem=exc)) from exc


def _way(ctx: JobContext, spec: Mapping[str, Any]) -> HouseWay:
    """The house way a ``_way_params`` names: a preset (with its shipped tables) or stored data."""
    if "data" not in spec:
        way = load(str(spec["ref"]))
        if way.rules_digest != spec["rules_digest"]:
            raise JobFailed(Message(N_("The house way %(name)s changed while this job waited; "
                                       "start it again."), name=spec["ref"]))
        return way
    return _build(spec["data"])


def _attach_stored(ctx: JobContext, way: HouseWay) -> set[str]:
    """Attach the class tables stored for ``way``'s rules; return the wheels that have one."""
    stored = house_ways.load_tables(way.rules_digest, session=ctx.session) or {}
    usable = {wheel: table for wheel, table in stored.items() if table.rule_ids == way.rule_ids}
    for table in usable.values():
        way.attach_table(table)
    return set(usable)


def _check(ctx: JobContext, way: HouseWay, progress: Report) -> dict[str, Any]:
    """Run the engine's check of ``way``, attach and store its tables; return the report."""
    from trainer.engine.house_way.proof import check_way

    result = check_way(way, progress=progress, workers=1)
    for table in result.tables.values():
        way.attach_table(table)
    house_ways.store_tables(way.rules_digest, result.tables, session=ctx.session)
    report: dict[str, Any] = result.report
    return report


def _with_tables(ctx: JobContext, way: HouseWay, wheels: tuple[str, ...], progress: Report) -> None:
    """Make sure ``way`` has class tables for ``wheels``: stored ones, or checked now."""
    if all(way.class_table(w) is not None for w in wheels):
        return  # a preset's shipped tables
    have = _attach_stored(ctx, way)
    if not set(wheels) <= have:
        _check(ctx, way, progress)


def run_check(ctx: JobContext) -> dict[str, Any]:
    """The ``check`` kind: the check report of ``params["data"]``; its tables stored."""
    from trainer.engine.house_way.proof import check_way

    way = _build(ctx.params["data"])
    ctx.progress.say(STAGE_CHECKING)
    if ctx.params.get("classes") is not None:  # tests: the first classes, no tables
        report: dict[str, Any] = check_way(
            way, progress=ctx.progress, workers=1, classes=slice(0, int(ctx.params["classes"]))).report
        return report
    return _check(ctx, way, ctx.progress)


def run_class_table(ctx: JobContext) -> dict[str, Any]:
    """The ``class_table`` kind: the class tables of a published way, stored."""
    way = _build(ctx.params["data"])
    if way.rules_digest != ctx.params["rules_digest"]:
        raise JobFailed(Message(N_("These rules are not the ones this job was started for.")))
    have = _attach_stored(ctx, way)
    if set(WHEELS) <= have:
        return {"rules_digest": way.rules_digest, "built": False}
    ctx.progress.say(STAGE_CHECKING)
    report = _check(ctx, way, ctx.progress)
    return {"rules_digest": way.rules_digest, "built": True,
            "fouled_hands": report.get("fouled_hands"),
            "undecided_hands": report.get("undecided_hands")}


def run_diff(ctx: JobContext) -> dict[str, Any]:
    """The ``diff`` kind: what the draft sets differently from the reference."""
    from trainer.engine.house_way.proof import diff_ways

    new = _build(ctx.params["data"])
    reference = _way(ctx, ctx.params["reference"])
    ctx.progress.say(STAGE_TABLES)
    _with_tables(ctx, reference, (DIFF_WHEEL,), ctx.progress.span(0.0, 0.45))
    _with_tables(ctx, new, (DIFF_WHEEL,), ctx.progress.span(0.45, 0.9))
    ctx.progress.say(STAGE_COMPARING)
    result: dict[str, Any] = diff_ways(reference, new)
    ctx.progress(1, 1)
    return result


def run_simulate(ctx: JobContext) -> dict[str, Any]:
    """The ``simulate`` kind: the paired simulation and the banker's edge change."""
    # Imported here, in the worker: the simulation loads numpy, which the app does not need.
    from trainer.engine.house_way.simulate import paired_simulate
    from trainer.engine.house_way_edge import edge_change

    p = ctx.params
    profile = TableProfile.from_dict(p["profile_rules"])
    wheel = profile.wheel.value
    new = _build(p["data"])
    old = _way(ctx, p["old"])
    reference = _way(ctx, p["reference"])
    ctx.progress.say(STAGE_TABLES)
    for way in (reference, old, new):
        # Stored tables when there are (a checked draft, a published way); else the
        # simulation sets those hands with the interpreter (the same counts, slower).
        if way.class_table(wheel) is None:
            _attach_stored(ctx, way)
    ctx.progress.say(STAGE_DEALING)
    counts: dict[str, Any] = paired_simulate(reference, old, new, wheel, int(p["hands"]), int(p["seed"]),
                                             workers=1, progress=ctx.progress)
    return {"counts": counts, "edge": edge_change(counts, profile), "profile": p["profile"],
            "hands": int(p["hands"]), "seed": int(p["seed"])}


JOB_KINDS: dict[str, jobs.JobFunction] = {
    CHECK: run_check, DIFF: run_diff, SIMULATE: run_simulate, CLASS_TABLE: run_class_table,
}


def register_kinds() -> None:
    """Register the four job kinds with ``services/jobs/`` (the app factory does, at start)."""
    for kind, fn in JOB_KINDS.items():
        jobs.register(kind, fn, jobs.LONG)


register_kinds()

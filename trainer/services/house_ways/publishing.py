"""Publishing a draft: the next version, frozen, once its check is clean.

Publishing is refused (``PublishRefused``, in words) unless the newest check job of
the draft's exact rule data (``check:<rules digest>``, ``services/jobs``) finished with
0 fouled and 0 undecided hands and no explanation needs repair.
"""
from __future__ import annotations

import copy
from typing import Any

from sqlalchemy import func, select

from trainer.engine.house_way.interpreter import rules_digest as digest_of
from trainer.engine.messages import N_, Joined, Message, Nn_, Plural
from trainer.extensions import db
from trainer.models import CustomHouseWay, HouseWayVersion, utcnow
from trainer.services import audit

from .drafts import get_draft
from .entries import PublishRefused

NOTE_LENGTH = 2000


def versions(way_id: int) -> list[HouseWayVersion]:
    """Return a custom way's published versions, the first first."""
    return list(db.session.execute(
        select(HouseWayVersion).where(HouseWayVersion.way_id == way_id)
        .order_by(HouseWayVersion.number)).scalars())


def check_report(rules_digest: str) -> dict[str, Any] | None:
    """Return the report of the newest finished check of this rule data, or None."""
    from trainer.services import jobs

    job = jobs.latest(f"check:{rules_digest}")
    if job is None or job.status != "done" or not isinstance(job.result, dict):
        return None
    return job.result


def publish_refusal(record: CustomHouseWay) -> Message | None:
    """Return why the draft cannot be published now, a sentence to say (str() is English);
    None when it can."""
    from trainer.engine.house_way import editing
    from trainer.services import jobs

    digest = record.draft_digest
    if digest is None or digest != digest_of(record.draft):
        return Message(N_("The draft has errors: correct them and check it first."))
    # An explanation that cannot be used (issue 24): stored before the rule, or past the
    # editor. Its rules digest is unchanged (words are not rules), so it is asked here.
    if editing.explanation_problems(record.draft):
        return Message(N_("An explanation of this draft needs repair (listed above): correct "
                          "it before publishing."))
    job = jobs.latest(f"check:{digest}")
    if job is None:
        return Message(N_("This draft has not been checked: run Check and publish once it finds "
                          "no foul."))
    if job.status != "done" or not isinstance(job.result, dict):
        return Message(N_("The check of this draft has not finished: publish once it reports "
                          "no foul and no undecided hand."))
    fouled = int(job.result.get("fouled_hands", 1) or 0)
    undecided = int(job.result.get("undecided_hands", 1) or 0)
    if fouled or undecided:
        parts = []
        if fouled:
            parts.append(Plural(Nn_("%(count)s hand foul", "%(count)s hands foul"), fouled))
        if undecided:
            parts.append(Plural(Nn_("no rule decides %(count)s hand",
                                    "no rule decides %(count)s hands"), undecided))
        return Message(N_("The check found that %(problems)s: correct the rules and check again."),
                       problems=Joined(parts, N_(" and ")))
    return None


def publish(way_id: int, note: str, user_id: int | None) -> HouseWayVersion:
    """Freeze the draft as the next version (PublishRefused unless its check is clean).

    The version keeps the check report; the class tables the check stored serve it
    (they are keyed by the rules digest). Logged and committed.
    """
    record = get_draft(way_id)
    problem = publish_refusal(record)
    if problem:
        raise PublishRefused(problem)
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise PublishRefused(Message(N_("A note has at most %(most)s characters."), most=NOTE_LENGTH))
    number = int(db.session.execute(select(func.coalesce(func.max(HouseWayVersion.number), 0))
                                    .where(HouseWayVersion.way_id == record.id)).scalar_one()) + 1
    ref = f"{record.slug}@{number}"
    assert record.draft_digest is not None  # publish_refusal checked it
    version = HouseWayVersion(
        way_id=record.id, number=number, ref=ref, data=copy.deepcopy(record.draft),
        rules_digest=record.draft_digest, note=note, published_by_id=user_id,
        published_at=utcnow(), check=check_report(record.draft_digest))
    db.session.add(version)
    db.session.flush()
    audit.record(user_id, "house_way.publish", "house_way", record.id,
                 new={"version": ref, "note": note})
    db.session.commit()
    return version

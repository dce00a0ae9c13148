"""What a trainee knows, skill by skill and family by family, for the pages (issue 30 step 5).

Numbers and ids only: the pages word them (a skill's ``words`` are the kind's own
``Skill``, its name and sentence marked for translation; a family by the web's family
names). Every reader brings the memories up to date first (``memory.bring_up_to_date``),
so what is shown counts every answer the trainee can see and none of an exam not yet
ended: during an exam nothing here changes with the exam's answers.

- ``knowledge(user_id, kind)``: per skill of the kind under the trainee's group's rules,
  in the policy's order (a way's rules by their share of hands): its recall now and a
  day from now (FSRS), due or not, reviews and misses, its share of the unbiased
  generator's questions, whether the criterion asks for it (floor) and whether it is
  assigned; per family the same summed up; the weakest skills; and what today's targeted
  practice will cover.
- ``group_knowledge(group_id, kind)``: the class heat map's numbers, trainee by family.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from trainer.engine.drills import DrillContext, get_drill
from trainer.engine.drills.skills import Skill
from trainer.engine.house_way import rule_family
from trainer.engine.learning.catalogue import Catalogue, catalogue
from trainer.engine.learning.keys import SkillKey
from trainer.engine.learning.memory import recall
from trainer.engine.learning.policy import NEW_PER_SESSION
from trainer.extensions import db
from trainer.models import Membership, utcnow
from trainer.services.drills.context import build, group_of
from trainer.services.group_settings import GroupSettings
from trainer.services.learning import assignments
from trainer.services.learning.memory import bring_up_to_date
from trainer.services.learning.plan import key_of
from trainer.services.learning.records import Memory, memories_of

WEAKEST = 5
TOMORROW = timedelta(days=1)


@dataclass(frozen=True)
class SkillStanding:
    """One skill of a trainee: how well FSRS says they would recall it, and their record."""

    skill: str                  # the rule id: for links and the web's names, never shown
    words: Skill | None         # the kind's own words for it (name, short name, sentence)
    family: str
    share: float                # of the unbiased generator's questions (a way's: of all hands)
    floor: bool                 # the readiness criterion asks for it
    assigned: bool
    seen: bool
    recall_now: float           # 0 when never answered
    recall_tomorrow: float
    due: bool                   # FSRS has it due now
    reviews: int
    lapses: int
    recent_miss: float | None   # their recent miss rate on it (None: never answered)


@dataclass(frozen=True)
class FamilyStanding:
    """A rule family of a trainee: its skills summed up (recall weighted by share)."""

    family: str
    skills: int
    seen: int
    due: int
    share: float
    known_now: float            # share-weighted recall now, a skill never answered as 0
    known_tomorrow: float


@dataclass(frozen=True)
class Knowledge:
    """A trainee's standing in one drill kind under their group's rules."""

    kind: str
    house_way: str
    skills: tuple[SkillStanding, ...]
    families: tuple[FamilyStanding, ...]
    weakest: tuple[SkillStanding, ...]       # answered skills, least recalled tomorrow first
    due_today: tuple[str, ...]               # skills targeted practice asks first today
    new_today: tuple[str, ...]               # unseen skills it would bring in today
    assigned: tuple[str, ...]


def _words(skills: Sequence[Skill]) -> dict[str, Skill]:
    return {s.id: s for s in skills}


def standings(cat: Catalogue, context: DrillContext, memories: Mapping[SkillKey, Memory],
              words: Mapping[str, Skill], assigned: set[str], now: datetime
              ) -> list[SkillStanding]:
    """Return each skill of ``cat`` as the trainee stands on it (``memories``)."""
    found = []
    for i, skill in enumerate(cat.skills):
        memory = memories.get(key_of(cat, skill, context))
        card = None if memory is None else memory.card
        found.append(SkillStanding(
            skill=skill, words=words.get(skill), family=rule_family(skill),
            share=cat.shares[i], floor=i in cat.floor, assigned=skill in assigned,
            seen=memory is not None, recall_now=recall(card, now),
            recall_tomorrow=recall(card, now + TOMORROW),
            due=card is not None and card.due <= now,
            reviews=0 if memory is None else memory.reviews,
            lapses=0 if memory is None else memory.lapses,
            recent_miss=None if memory is None else memory.recent_miss))
    return found


def families(skills: Sequence[SkillStanding]) -> list[FamilyStanding]:
    """Return the skills summed up by family, in the order their families first come."""
    grouped: dict[str, list[SkillStanding]] = {}
    for standing in skills:
        grouped.setdefault(standing.family, []).append(standing)
    found = []
    for family, members in grouped.items():
        share = sum(s.share for s in members)
        weight = share or float(len(members))

        def mean(values: Sequence[float], members: list[SkillStanding] = members,
                 share: float = share, weight: float = weight) -> float:
            if share:
                return sum(v * s.share for v, s in zip(values, members, strict=True)) / weight
            return sum(values) / weight
        found.append(FamilyStanding(
            family=family, skills=len(members), seen=sum(s.seen for s in members),
            due=sum(s.due for s in members), share=share,
            known_now=mean([s.recall_now for s in members]),
            known_tomorrow=mean([s.recall_tomorrow for s in members])))
    return found


def weakest(skills: Sequence[SkillStanding], count: int = WEAKEST) -> list[SkillStanding]:
    """Return the answered skills least recalled a day from now (ties: more misses, then
    the more frequent), the weakest first."""
    seen = [s for s in skills if s.seen]
    return sorted(seen, key=lambda s: (s.recall_tomorrow, -s.lapses, -s.share, s.skill))[:count]


def _today(cat: Catalogue, skills: Sequence[SkillStanding]) -> tuple[list[str], list[str]]:
    due = sorted((s for s in skills if s.due), key=lambda s: (not s.assigned, s.recall_now))
    seen = {i for i, s in enumerate(skills) if s.seen}
    new = [cat.skills[i] for i in cat.unseen_order(seen)][:NEW_PER_SESSION]
    return [s.skill for s in due], new


def knowledge(user_id: int, kind: str, now: datetime | None = None) -> Knowledge:
    """Return a trainee's standing in ``kind`` under their group's rules (committed: the
    memories are brought up to date first)."""
    now = now or utcnow()
    settings, group_id = group_of(user_id)
    context = build(settings)
    bring_up_to_date([user_id], kind)
    db.session.commit()
    drill = get_drill(kind)
    cat = catalogue(drill, context)
    assigned = set(assignments.favoured(user_id, group_id, kind, context))
    memories = memories_of([user_id], kind)[user_id]
    skills = standings(cat, context, memories, _words(drill.skills_of(context)), assigned, now)
    due, new = _today(cat, skills)
    return Knowledge(kind=kind, house_way=context.house_way, skills=tuple(skills),
                     families=tuple(families(skills)), weakest=tuple(weakest(skills)),
                     due_today=tuple(due), new_today=tuple(new),
                     assigned=tuple(sorted(assigned)))


@dataclass(frozen=True)
class TraineeRow:
    """One trainee's row of the class heat map: each family's standing, in ``families`` order."""

    trainee_id: int
    families: tuple[FamilyStanding, ...]


@dataclass(frozen=True)
class GroupKnowledge:
    """The class heat map's numbers: trainees by rule family, in one drill kind."""

    kind: str
    house_way: str
    families: tuple[str, ...]
    rows: tuple[TraineeRow, ...]


def group_knowledge(group_id: int, kind: str, settings: GroupSettings,
                    now: datetime | None = None) -> GroupKnowledge:
    """Return every trainee of the group by family (committed: memories brought up to
    date first). ``settings``: the group's (``GroupSettings.of``)."""
    now = now or utcnow()
    member_ids = sorted(db.session.execute(
        db.select(Membership.user_id).where(Membership.group_id == group_id)).scalars())
    context = build(settings)
    bring_up_to_date(member_ids, kind)
    db.session.commit()
    drill = get_drill(kind)
    cat = catalogue(drill, context)
    words = _words(drill.skills_of(context))
    stored = memories_of(member_ids, kind)
    rows = []
    names: list[str] = []
    for user_id in member_ids:
        skills = standings(cat, context, stored[user_id], words, set(), now)
        fams = families(skills)
        names = [f.family for f in fams]
        rows.append(TraineeRow(user_id, tuple(fams)))
    if not names:
        names = [f.family for f in families(standings(cat, context, {}, words, set(), now))]
    return GroupKnowledge(kind=kind, house_way=context.house_way, families=tuple(names),
                          rows=tuple(rows))

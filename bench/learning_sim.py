"""Benchmark: hands to the floor under three practice policies, on simulated trainees.

Usage: .venv/bin/python bench/learning_sim.py --trainees N --seed S
       [--scale-learning X] [--scale-forgetting Y] [--workers W] [preset ...]

Simulated trainees (the learner model of docs/learning.md, step 1 of issue 30)
practise one 20-question house-way session a day under each policy:

* ``uniform``: every rule drawn by its share of the 154,143,080 seven-card hands
  (the unbiased generator: the class table's frequencies);
* ``mistakes``: the app's "my mistakes": at the session's start the last
  ``MISTAKE_RULES`` distinct rules missed among the last ``MISTAKE_LOOKBACK`` misses;
  each question picks one of their families at random and deals a hand of that
  family (a rule of the family by its frequency); with no miss yet, ``uniform``;
* ``adaptive``: FSRS memory (PyPI ``fsrs``, pinned, default parameters) per trainee
  and rule, rated Again for a wrong answer and Good for a right one; the next rule
  by the policy of docs/learning.md (``Adaptive``): the app's own, imported from the
  engine (``trainer/engine/learning/policy.py``), so the benchmark measures what the
  trainees get.

A run is "ready" at the start of the first day on which the trainee's true
frequency-weighted accuracy on the unbiased generator's hands is at least 98% and
every rule deciding at least 0.1% of hands is at least 95%; the hands practised
before that day count, capped at 5,000 (a capped run counts 5,000).

Prints one JSON line per preset house way. The learner model and the other two
policies are the bench's own; nothing of the web app or its database is used.
"""
from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from multiprocessing import get_context
from typing import Any

import numpy as np
from fsrs import Card, Rating

from trainer.engine.learning import policy as app_policy
from trainer.engine.learning.memory import SCHEDULER

TOTAL_HANDS = 154_143_080
SESSION = 20
CAP = 5_000
READY_MEAN = 0.98
READY_RULE = 0.95
MAJOR_SHARE = app_policy.FLOOR_SHARE  # a rule deciding at least 0.1% of hands must be at 95%
POLICIES = ("uniform", "mistakes", "adaptive")
GOAL = 0.6                   # ratio at the model's stated parameters
GOAL_SENSITIVITY = 0.8       # ratio when learning or forgetting is halved or doubled
# The app's "my mistakes" (trainer/services/drills.py: MISTAKE_RULES, MISTAKE_LOOKBACK).
MISTAKE_RULES = 5
MISTAKE_LOOKBACK = 50
# Simulated clock: day d's session starts at 09:00 UTC, one answer every 30 s.
EPOCH = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)
ANSWER_SECONDS = 30
DAY_SECONDS = 86_400

# --- the learner model (docs/learning.md states each value and why) ---------------------

GUESS = 0.20                 # right without knowing the rule
SLIP = 0.005                 # wrong while knowing it
# Initial error rate by rule family, before any practice with feedback.
INITIAL_ERROR = {
    "one-pair": 0.10, "pai-gow": 0.15, "trips": 0.30, "three-pair": 0.35,
    "two-pair": 0.40, "full-house": 0.40, "two-trips": 0.45, "sf": 0.50,
    "trips-two-pair": 0.50, "quads-pair": 0.50, "five-aces": 0.50, "quads": 0.55,
    "quads-trips": 0.55,
}
INITIAL_ERROR_OTHER = 0.40
ABILITY_SD = 0.5             # per trainee, on the logit of every initial error rate
RULE_SD = 0.3                # per trainee and rule, on the logit
LEARN_WRONG = 0.30           # share of the knowledge gap closed by a miss with feedback
LEARN_RIGHT = 0.10           # ... by a confirmed right answer
LEARN_SD = 0.3               # per trainee, log of a multiplier on both
HALF_LIFE_DAYS = 2.0         # half-life of a rule's learned knowledge at first practice
HALF_LIFE_SD = 0.3           # per trainee, log of a multiplier on it
GROWTH = 1.5                 # half-life growth of a right answer after a full forgetting
MASSED = 0.1                 # ... the share of it a right answer with nothing forgotten gets
LAPSE = 0.5                  # a wrong answer multiplies the half-life by this
MAX_HALF_LIFE = 3650.0       # days: ten years, a career
LEARN_MAX = 0.95

# --- the adaptive policy (the app's: trainer/engine/learning/policy.py) -------------------

UNBIASED_SHARE = app_policy.UNBIASED_SHARE    # about one question in five: the unbiased generator
NEW_PER_SESSION = app_policy.NEW_PER_SESSION  # unseen rules introduced per session
DESIRED_RETENTION = SCHEDULER.desired_retention


def rule_family(rule_id: str) -> str:
    """A rule id's family (its first part), as the engine names them."""
    return rule_id.split(".", 1)[0]


# --- rule frequencies from the class tables -------------------------------------------------

@dataclass(frozen=True)
class Way:
    """One preset's rules (most frequent first) and their hands among all seven-card hands."""

    name: str
    rules: tuple[str, ...]
    hands: tuple[int, ...]

    @property
    def shares(self) -> list[float]:
        return [h / TOTAL_HANDS for h in self.hands]

    @property
    def major(self) -> list[int]:
        """Indices of the rules deciding at least 0.1% of hands."""
        return [i for i, h in enumerate(self.hands) if h >= MAJOR_SHARE * TOTAL_HANDS]


def load_ways(names: Sequence[str] | None = None, wheel: str = "second_highest") -> list[Way]:
    """Each preset's rule frequencies: its class table's rule per class, weighted."""
    from trainer.engine.house_way import load, preset_names
    from trainer.engine.house_way.classes import all_classes

    weights = [w for _, _, w in all_classes()]
    ways = []
    for name in names or preset_names():
        table = load(name).class_table(wheel)
        if table is None:
            raise SystemExit(f"No class table for {name} ({wheel}).")
        by_code: dict[int, int] = {}
        for code, w in zip(table.rule, weights, strict=True):
            by_code[code] = by_code.get(code, 0) + w
        by_rule: dict[str, int] = {}
        for code, n in by_code.items():
            # A fouling rule's fallback is the same rule to learn.
            rid = table.rule_ids[code & 0x7F]
            by_rule[rid] = by_rule.get(rid, 0) + n
        if sum(by_rule.values()) != TOTAL_HANDS:
            raise SystemExit(f"{name}: the class table does not count every hand.")
        ordered = sorted(by_rule.items(), key=lambda kv: (-kv[1], kv[0]))
        ways.append(Way(name, tuple(r for r, _ in ordered), tuple(n for _, n in ordered)))
    return ways


# --- the simulated trainee ---------------------------------------------------------------

def _seed(*parts: int | str) -> int:
    """A stable integer seed from parts (not Python's salted str hash)."""
    value = 0
    for part in parts:
        data = str(part).encode()
        for byte in data:
            value = (value * 1_000_003 + byte) % (1 << 61)
        value = (value * 7_919 + 131) % (1 << 61)
    return value


@dataclass
class Trainee:
    """Per rule: what the trainee knows, how fast it fades, and the answers' dice."""

    floor: list[float]        # knowledge before any practice (never forgotten)
    know: list[float]         # knowledge right after the last practice
    half_life: list[float]    # days
    last: list[float]         # day of the last practice, -1 never
    learn_wrong: float
    learn_right: float
    first_half_life: float
    forgetting: float         # scale on the forgetting rate (sensitivity runs)
    rng: random.Random

    @classmethod
    def make(cls, way: Way, seed: int, trainee: int, policy: str,
             scale_learning: float = 1.0, scale_forgetting: float = 1.0) -> Trainee:
        """Draw a trainee: the same person for every policy; the answers' dice per policy."""
        person = random.Random(_seed(seed, trainee, way.name, "person"))
        ability = person.gauss(0, ABILITY_SD)
        learn = math.exp(person.gauss(0, LEARN_SD)) * scale_learning
        half = HALF_LIFE_DAYS * math.exp(person.gauss(0, HALF_LIFE_SD))
        floor = []
        for rule in way.rules:
            e0 = INITIAL_ERROR.get(rule_family(rule), INITIAL_ERROR_OTHER)
            z = math.log(e0 / (1 - e0)) + ability + person.gauss(0, RULE_SD)
            error = 1 / (1 + math.exp(-z))
            floor.append(min(1.0, max(0.0, (1 - error - GUESS) / (1 - GUESS - SLIP))))
        n = len(way.rules)
        return cls(floor, list(floor), [half] * n, [-1.0] * n,
                   min(LEARN_MAX, LEARN_WRONG * learn), min(LEARN_MAX, LEARN_RIGHT * learn),
                   half, scale_forgetting,
                   random.Random(_seed(seed, trainee, way.name, policy, "answers")))

    def retained(self, r: int, day: float) -> float:
        """Share of the learned knowledge above the floor still held at ``day``."""
        if self.last[r] < 0:
            return 0.0
        return 2.0 ** (-self.forgetting * (day - self.last[r]) / self.half_life[r])

    def knowledge(self, r: int, day: float) -> float:
        f = self.floor[r]
        return f + (self.know[r] - f) * self.retained(r, day)

    def p_right(self, r: int, day: float) -> float:
        """True probability of setting a hand of rule ``r`` right at ``day``."""
        return GUESS + (1 - GUESS - SLIP) * self.knowledge(r, day)

    def answer(self, r: int, day: float) -> bool:
        """Answer a hand of rule ``r`` at ``day``, then learn from the feedback."""
        k = self.knowledge(r, day)
        right = self.rng.random() < GUESS + (1 - GUESS - SLIP) * k
        if self.last[r] < 0:
            self.half_life[r] = self.first_half_life
        else:
            kept = self.retained(r, day)
            if right:
                self.half_life[r] = min(MAX_HALF_LIFE, self.half_life[r] * (
                    1 + GROWTH * (MASSED + (1 - MASSED) * (1 - kept))))
            else:
                self.half_life[r] = max(self.first_half_life, self.half_life[r] * LAPSE)
        self.know[r] = k + (self.learn_right if right else self.learn_wrong) * (1 - k)
        self.last[r] = day
        return right

    def accuracy(self, shares: Sequence[float], day: float) -> list[float]:
        return [self.p_right(r, day) for r in range(len(shares))]


def ready(acc: Sequence[float], shares: Sequence[float], major: Sequence[int]) -> bool:
    """The floor criterion: 98% weighted accuracy, every rule of 0.1% or more at 95%."""
    if sum(a * s for a, s in zip(acc, shares, strict=True)) < READY_MEAN:
        return False
    return all(acc[r] >= READY_RULE for r in major)


# --- FSRS memory ----------------------------------------------------------------------------

class Memory:
    """FSRS cards of one trainee, one per rule seen; stored and reloaded as JSON."""

    def __init__(self, cards: dict[int, Card] | None = None) -> None:
        self.cards: dict[int, Card] = cards or {}

    def review(self, rule: int, right: bool, when: datetime) -> Card:
        card = self.cards.get(rule)
        if card is None:
            card = Card(card_id=rule + 1, due=when)
        card, _ = SCHEDULER.review_card(card, Rating.Good if right else Rating.Again, when)
        self.cards[rule] = card
        return card

    def recall(self, rule: int, when: datetime) -> float:
        card = self.cards.get(rule)
        return 0.0 if card is None else SCHEDULER.get_card_retrievability(card, when)

    def to_json(self) -> str:
        return json.dumps({str(r): c.to_dict() for r, c in sorted(self.cards.items())},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Memory:
        return cls({int(r): Card.from_dict(d) for r, d in json.loads(text).items()})


def clock(day: int, question: int) -> datetime:
    return EPOCH + timedelta(days=day, seconds=question * ANSWER_SECONDS)


# --- policies ---------------------------------------------------------------------------------

class Uniform:
    """The unbiased generator: a rule by its share of all hands."""

    def __init__(self, way: Way, rng: random.Random) -> None:
        self.cum = list(np.cumsum(way.hands) / TOTAL_HANDS)
        self.cum[-1] = 1.0
        self.rng = rng

    def draw(self) -> int:
        return bisect.bisect_right(self.cum, self.rng.random())

    def start(self, day: int) -> None:
        pass

    def pick(self, day: int, q: int) -> int:
        return self.draw()

    def seen(self, rule: int, right: bool, day: int, q: int) -> None:
        pass


class Mistakes(Uniform):
    """The app's "my mistakes": families of the latest missed rules, else uniform."""

    def __init__(self, way: Way, rng: random.Random) -> None:
        super().__init__(way, rng)
        self.way = way
        self.misses: list[int] = []
        self.focus: list[str] = []
        fams: dict[str, list[int]] = {}
        for r, rule in enumerate(way.rules):
            fams.setdefault(rule_family(rule), []).append(r)
        self.family_cum: dict[str, tuple[list[int], list[float]]] = {}
        for fam, rules in fams.items():
            w = np.cumsum([way.hands[r] for r in rules], dtype=float)
            self.family_cum[fam] = (rules, list(w / w[-1]))

    def start(self, day: int) -> None:
        latest: list[int] = []
        for r in reversed(self.misses[-MISTAKE_LOOKBACK:]):
            if r not in latest:
                latest.append(r)
            if len(latest) == MISTAKE_RULES:
                break
        self.focus = [rule_family(self.way.rules[r]) for r in latest]

    def pick(self, day: int, q: int) -> int:
        if not self.focus:
            return self.draw()
        rules, cum = self.family_cum[self.rng.choice(self.focus)]
        return rules[min(len(rules) - 1, bisect.bisect_right(cum, self.rng.random()))]

    def seen(self, rule: int, right: bool, day: int, q: int) -> None:
        if not right:
            self.misses.append(rule)
            del self.misses[:-MISTAKE_LOOKBACK]


class Adaptive(Uniform):
    """FSRS per rule: due and least retrievable first, a few new rules, 1 in 5 unbiased.

    The floor's rules (deciding at least 0.1% of hands) come before the rarer ones.
    Each question: with probability ``UNBIASED_SHARE`` the unbiased generator; else
    the floor rule due now (FSRS ``due`` at or before the clock) with the lowest
    retrievability now (ties: earliest due, then most frequent); else, while the
    session's budget of ``NEW_PER_SESSION`` lasts, the most frequent unseen floor
    rule; else a due rarer rule (the same order); else, budget left, the most frequent
    unseen rarer rule; else the seen floor rule with the lowest retrievability at the
    next session (ties: most frequent); else the unbiased generator. Every answer,
    whatever picked it, updates that rule's card.
    """

    def __init__(self, way: Way, rng: random.Random) -> None:
        super().__init__(way, rng)
        self.memory = Memory()
        self.n = len(way.rules)
        self.due: dict[int, datetime] = {}
        self.now_r: dict[int, float] = {}
        self.next_r: dict[int, float] = {}
        self.new_left = 0
        self.floor_rules = frozenset(way.major)
        # Floor rules first, each group most frequent first.
        self.unseen = sorted(range(self.n), key=lambda r: (r not in self.floor_rules, r))

    def start(self, day: int) -> None:
        self.new_left = NEW_PER_SESSION
        now, tomorrow = clock(day, 0), clock(day + 1, 0)
        for r in self.memory.cards:
            self.now_r[r] = self.memory.recall(r, now)
            self.next_r[r] = self.memory.recall(r, tomorrow)

    def pick(self, day: int, q: int) -> int:
        choice = app_policy.pick(self.rng, clock(day, q), due=self.due, recall_now=self.now_r,
                                 recall_next=self.next_r, floor=self.floor_rules,
                                 unseen=self.unseen, new_left=self.new_left,
                                 unbiased_share=UNBIASED_SHARE)
        if choice.skill is None:
            return self.draw()
        if choice.new:
            self.new_left -= 1
        return choice.skill

    def seen(self, rule: int, right: bool, day: int, q: int) -> None:
        when = clock(day, q)
        card = self.memory.review(rule, right, when)
        self.due[rule] = card.due
        self.now_r[rule] = SCHEDULER.get_card_retrievability(card, when)
        self.next_r[rule] = SCHEDULER.get_card_retrievability(card, clock(day + 1, 0))
        if rule in self.unseen:
            self.unseen.remove(rule)


POLICY_CLASSES = {"uniform": Uniform, "mistakes": Mistakes, "adaptive": Adaptive}


# --- one run --------------------------------------------------------------------------------

@dataclass
class Run:
    hands: int
    capped: bool
    rare_mean: float | None            # rarer rules' mean true accuracy at the end
    rare_at_95: float | None           # their share at 95% or more
    end_mean: float                    # weighted true accuracy at the end
    end_below: int                     # rules of 0.1% or more still under 95% at the end
    calibration: Any = None            # (predicted, true) pairs; an array once shipped


def simulate(way: Way, policy: str, seed: int, trainee: int, scale_learning: float = 1.0,
             scale_forgetting: float = 1.0) -> Run:
    """One trainee under one policy until ready or capped."""
    person = Trainee.make(way, seed, trainee, policy, scale_learning, scale_forgetting)
    chooser = POLICY_CLASSES[policy](
        way, random.Random(_seed(seed, trainee, way.name, policy, "policy")))
    shares, major = way.shares, way.major
    rare = [r for r in range(len(way.rules)) if r not in set(major)]
    pairs: list[tuple[float, float]] = []
    hands, day = 0, 0
    adaptive = isinstance(chooser, Adaptive)
    while True:
        acc = person.accuracy(shares, day)
        if ready(acc, shares, major) or hands >= CAP:
            break
        chooser.start(day)
        for q in range(SESSION):
            rule = chooser.pick(day, q)
            t = day + q * ANSWER_SECONDS / DAY_SECONDS
            if adaptive and rule in chooser.memory.cards:  # type: ignore[attr-defined]
                pairs.append((chooser.memory.recall(rule, clock(day, q)),  # type: ignore[attr-defined]
                              person.p_right(rule, t)))
            right = person.answer(rule, t)
            chooser.seen(rule, right, day, q)
        hands += SESSION
        day += 1
    capped = hands >= CAP and not ready(acc, shares, major)
    rare_acc = [acc[r] for r in rare]
    return Run(min(hands, CAP), capped,
               statistics.fmean(rare_acc) if rare_acc else None,
               sum(a >= READY_RULE for a in rare_acc) / len(rare_acc) if rare_acc else None,
               sum(a * s for a, s in zip(acc, shares, strict=True)),
               sum(acc[r] < READY_RULE for r in major), pairs)


def _task(args: tuple[Way, str, int, Sequence[int], float, float]) -> tuple[str, str, list[Run]]:
    way, policy, seed, trainees, sl, sf = args
    runs = [simulate(way, policy, seed, t, sl, sf) for t in trainees]
    for run in runs:      # compact for the trip to the parent: 8 bytes a pair, not ~100
        run.calibration = np.array(run.calibration, dtype=np.float32).reshape(-1, 2)
    return way.name, policy, runs


# --- figures --------------------------------------------------------------------------------

def calibration(pairs: Iterable[Any]) -> dict[str, Any]:
    """FSRS's predicted recall against the simulated truth over deciles of the prediction.

    ``pairs``: arrays (or lists) of (predicted, true) rows. The answers are sorted by
    predicted recall and cut into ten groups of (nearly) equal size; the error is the
    mean over the groups of |mean predicted - mean true|.
    """
    parts = [np.asarray(p, dtype=float).reshape(-1, 2) for p in pairs]
    data = np.concatenate(parts) if parts else np.zeros((0, 2))
    if not len(data):
        return {"mae": None, "answers": 0, "deciles": []}
    data = data[np.lexsort((data[:, 1], data[:, 0]))]
    groups = [g for g in np.array_split(data, 10) if len(g)]
    deciles = [[round(float(g[:, 0].mean()), 4), round(float(g[:, 1].mean()), 4)]
               for g in groups]
    mae = statistics.fmean(abs(p - t) for p, t in deciles)
    return {"mae": round(mae, 4), "answers": len(data),
            "deciles": deciles}


def summary(runs: Sequence[Run]) -> dict[str, Any]:
    hands = np.array([r.hands for r in runs], dtype=float)
    rare_mean = [r.rare_mean for r in runs if r.rare_mean is not None]
    rare_95 = [r.rare_at_95 for r in runs if r.rare_at_95 is not None]
    return {
        "median": float(np.percentile(hands, 50)),
        "p90": float(np.percentile(hands, 90)),
        "capped_share": round(sum(r.capped for r in runs) / len(runs), 4),
        "rare_mean_accuracy": round(statistics.fmean(rare_mean), 4) if rare_mean else None,
        "rare_share_at_95": round(statistics.fmean(rare_95), 4) if rare_95 else None,
        "end_mean_accuracy_median": round(float(np.median([r.end_mean for r in runs])), 4),
        "end_major_below_95_mean": round(statistics.fmean(r.end_below for r in runs), 2),
    }


def run_all(ways: Sequence[Way], trainees: int, seed: int, scale_learning: float = 1.0,
            scale_forgetting: float = 1.0, workers: int = 2) -> list[dict[str, Any]]:
    """Every preset x policy x trainee; one result dict per preset."""
    chunk = max(1, math.ceil(trainees / 8))
    tasks = [(way, policy, seed, range(s, min(trainees, s + chunk)), scale_learning,
              scale_forgetting)
             for way in ways for policy in POLICIES for s in range(0, trainees, chunk)]
    start = time.perf_counter()
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            done = pool.map(_task, tasks, chunksize=1)
    else:
        done = [_task(t) for t in tasks]
    seconds = time.perf_counter() - start
    runs: dict[tuple[str, str], list[Run]] = {}
    for name, policy, rs in done:
        runs.setdefault((name, policy), []).extend(rs)
    sensitivity = scale_learning != 1.0 or scale_forgetting != 1.0
    goal = GOAL_SENSITIVITY if sensitivity else GOAL
    out = []
    for way in ways:
        major = way.major
        line: dict[str, Any] = {
            "preset": way.name, "trainees": trainees, "seed": seed,
            "scale_learning": scale_learning, "scale_forgetting": scale_forgetting,
            "session": SESSION, "cap": CAP, "rules": len(way.rules),
            "major_rules": len(major),
            "rare_rules": [r for i, r in enumerate(way.rules) if i not in set(major)],
            "rare_share_of_hands": round(
                sum(h for i, h in enumerate(way.hands) if i not in set(major)) / TOTAL_HANDS, 6),
            "policies": {p: summary(runs[way.name, p]) for p in POLICIES},
        }
        line["ratio"] = round(line["policies"]["adaptive"]["median"]
                              / line["policies"]["uniform"]["median"], 3)
        line["goal"] = goal
        line["meets_goal"] = line["ratio"] <= goal
        line["calibration"] = calibration(r.calibration for r in runs[way.name, "adaptive"])
        line["seconds_all_presets"] = round(seconds, 1)
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*")
    parser.add_argument("--trainees", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--scale-learning", type=float, default=1.0)
    parser.add_argument("--scale-forgetting", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2))
    args = parser.parse_args(argv)
    if args.trainees < 1 or not (0 < args.scale_learning <= 10) or \
            not (0 < args.scale_forgetting <= 10):
        parser.error("--trainees must be at least 1 and the scales in (0, 10].")
    start = time.perf_counter()
    ways = load_ways(args.presets or None)
    for line in run_all(ways, args.trainees, args.seed, args.scale_learning,
                        args.scale_forgetting, args.workers):
        line["seconds_total"] = round(time.perf_counter() - start, 1)
        line["load_average"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()

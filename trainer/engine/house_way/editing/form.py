"""What the rule form offers, in words: the rule kinds, the condition fields, the labels.

``RULE_KIND_INFO`` (``KindInfo``: the hands a kind sets, where its cards go) and
``CONDITION_FIELDS`` (``ConditionField``: the input each condition needs), with
``pair_group_choices(data)`` for a way's rank groups; the shape and hold labels the
problems quote.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...messages import N_, Capital, Joined, Message
from .. import kinds as K
from .values import parse_range

# The labels are marked for the catalogues: the editor's problems quote them as values
# the web translates (``Message(label)``, issue 19).
SHAPE_LABELS: dict[str, str] = {
    "no-pair": N_("no-pair"), "one-pair": N_("one-pair"), "two-pair": N_("two-pair"),
    "three-pair": N_("three-pair"), "trips": N_("trips"), "full-house": N_("full house"),
    "trips-two-pair": N_("trips + two pair"), "two-trips": N_("two sets of trips"),
    "quads": N_("four of a kind"), "quads-pair": N_("four of a kind + a pair"),
    "quads-trips": N_("four of a kind + trips"), "five-aces": N_("five aces"),
}
CODE_LABELS: dict[str, str] = {code: SHAPE_LABELS[name] for code, name in K.SHAPE_NAMES.items()}
CODE_LABELS.update({"511": N_("five aces without a pair"), "52": N_("five aces with a pair")})
HOLD_LABELS: dict[str, str] = {"straight": "a straight", "flush": "a flush",
                               "straight-flush": "a straight flush", "royal": "a royal flush"}
TEXT_FIELDS = {"name": N_("The short name"), "title": N_("The title"),
               "casino": N_("The casino's name"), "thresholds": N_("The thresholds text"),
               "source": N_("The source"), "authority": N_("The authority")}


@dataclass(frozen=True, slots=True)
class KindInfo:
    """A rule kind as the form shows it: which hands it sets and where the cards go."""

    name: str
    shapes: tuple[str, ...]
    front_text: str
    back_text: str
    takes_pool: bool
    label: str = ""


@dataclass(frozen=True, slots=True)
class ConditionField:
    """One condition the rule form can edit. ``kind`` says which input it needs:
    shapes, bool, range (a rank or rank range), ranks (a list of ranks), pair-groups
    (choices from ``pair_group_choices(data)``), holds, pool, threshold, any (a list of
    flat conditions) or not (one flat condition). ``choices`` are (value, words)."""

    key: str
    label: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""


def kind_words(kind: K.Kind) -> Message:
    """Return ``_kind_label`` as a message: the shape's label and the placing's words
    (``front_text``, ``N_``-marked in kinds.py) translated."""
    if kind.front is None:
        return Message(N_("Straight or flush: the best S/F setting of a pool"))
    shape = SHAPE_LABELS[next(s for s in K.SHAPES if s in kind.shapes)]
    return Message(N_("%(shape)s: %(front)s in front"), shape=Capital(Message(shape)),
                   front=Message(kind.front_text))


def shape_message(shapes: Iterable[str]) -> Message | Joined | str:
    """Return ``_shape_words`` as a message whose labels are translated."""
    names = [Message(SHAPE_LABELS[s]) for s in K.SHAPES if s in set(shapes)]
    if len(names) <= 1:
        return names[0] if names else Message(N_("such"))
    return Message(N_("%(some)s or %(last)s"), some=Joined(names[:-1], ", "), last=names[-1])


def _kind_label(kind: K.Kind) -> str:
    if kind.front is None:
        return "Straight or flush: the best S/F setting of a pool"
    shape = SHAPE_LABELS[next(s for s in K.SHAPES if s in kind.shapes)]
    return f"{shape[0].upper()}{shape[1:]}: {kind.front_text} in front"


RULE_KIND_INFO: list[KindInfo] = [
    KindInfo(k.name, tuple(s for s in K.SHAPES if s in k.shapes), k.front_text, k.back_text,
             k.front is None, _kind_label(k)) for k in K.RULE_KINDS.values()]

_SHAPE_CHOICES = tuple((s, SHAPE_LABELS[s]) for s in K.SHAPES)
_YES_NO = (("true", "yes"), ("false", "no"))
_POOL_CHOICES = tuple((p, desc) for p, (desc, _) in K.POOLS.items())
CONDITION_FIELDS: list[ConditionField] = [
    ConditionField("shapes", N_("Hand shapes"), "shapes", _SHAPE_CHOICES,
                   "The rule is for these hands only."),
    ConditionField("sf", N_("Has a straight or flush"), "bool", _YES_NO),
    ConditionField("pair", N_("The pair (one pair only)"), "range", (), "A rank or a range: 9, 2-6, J-K."),
    ConditionField("high_pair", N_("The higher pair"), "range", (), "A rank or a range: A, T-K."),
    ConditionField("low_pair", N_("The lower pair"), "range", (), "A rank or a range: 2-6."),
    ConditionField("trips", N_("The trips"), "range", (), "A rank or a range."),
    ConditionField("quads", N_("The four of a kind"), "range", (), "A rank or a range."),
    ConditionField("pair_groups", N_("The two pairs' rank groups"), "pair-groups", (),
                   "Combinations of this sheet's rank groups."),
    ConditionField("singletons", N_("The singletons, exactly"), "ranks", (),
                   "Every singleton's rank, such as A K."),
    ConditionField("ace", N_("An ace singleton (the joker counts)"), "bool", _YES_NO),
    ConditionField("king_or_ace", N_("A king or ace singleton"), "bool", _YES_NO),
    ConditionField("ace_and_face", N_("An ace and a J, Q or K singleton"), "bool", _YES_NO),
    ConditionField("holds", N_("Holds (all of these)"), "holds", tuple(HOLD_LABELS.items())),
    ConditionField("pool_empty", N_("No straight-or-flush setting in the pool"), "pool", _POOL_CHOICES),
    ConditionField("beats_pool", N_("This rule's front beats the best front of the pool"), "pool",
                   _POOL_CHOICES),
    ConditionField("front_at_least", N_("This rule's front is at least"), "threshold", (),
                   "K (a king or better), A-J, J."),
    ConditionField("any", N_("Any one of these"), "any", (), "Alternatives: one must hold."),
    ConditionField("not", N_("Not this"), "not", (), "A condition that must not hold."),
]
FIELD_LABEL = {f.key: f.label for f in CONDITION_FIELDS}
RANGE_KEYS = ("pair", "high_pair", "low_pair", "trips", "quads")
BOOL_KEYS = ("sf", "ace", "king_or_ace", "ace_and_face")
RANK_KEYS = frozenset({"shapes", "pair", "high_pair", "low_pair", "trips", "quads",
                        "pair_groups", "singletons", "ace", "king_or_ace", "ace_and_face"})


def group_label(name: str) -> str:
    return name[:1].upper() + name[1:]


def _rank_groups(data: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """The rank groups that parse (the others are reported by ``validate``)."""
    groups = data.get("rank_groups")
    out: dict[str, tuple[int, int]] = {}
    if isinstance(groups, Mapping):
        for name, text in groups.items():
            parsed, _ = parse_range(text)
            if parsed is not None and isinstance(name, str):
                out[name] = parsed
    return out


def pair_group_choices(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return the two-pair combinations of a way's rank groups: ("low+high", "Low + High").

    Lower group first; a one-rank group (aces) is not paired with itself, since two
    pairs have two different ranks.
    """
    groups = sorted(_rank_groups(data).items(), key=lambda kv: kv[1])
    out = []
    for i, (a, (lo, hi)) in enumerate(groups):
        for b, _ in groups[i:]:
            if a == b and lo == hi:
                continue
            out.append((f"{a}+{b}", f"{group_label(a)} + {group_label(b)}"))
    return out

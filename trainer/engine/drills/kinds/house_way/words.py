"""The house-way drill's words: its skills (the way's rules), hints and feedback.

The skills of the house-way drill are the rules of the group's house way, so they come
from the way's own data (``skills_of``): each rule's short name and number, its sheet
sentence, and a hint made from the rule (``way_hint``), never a fixed sentence per
family, so a casino's own way is taught as it plays. The feedback on a set hand
(``set_hand_feedback``) is shared with the round's banker step.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ....cards import parse_cards
from ....hands import evaluate2
from ....house_way import RULE_KINDS, HouseWay, HouseWaySetting
from ....messages import N_, Joined, Lowered, Message, Translated
from ....setting import is_foul
from ...context import DrillContext, Grade
from ...explain import NO_ANSWER, Feedback, Text, cards_words, house_way_feedback, house_way_name
from ...explain import hint as book_hint
from ...skills import Skill, Words
from .questions import SetAnswer, SetKey

# The house-way families in words, for a hint's start ("Two sets of three: ..."). What the
# way does with the hand is never written here: it comes from the way's deciding rule
# (``way_hint``), so a casino's own way is taught as it plays.
FAMILY_WORDS: dict[str, str] = {
    "pai-gow": N_("No pair (pai gow)"),
    "one-pair": N_("One pair"),
    "two-pair": N_("Two pair"),
    "three-pair": N_("Three pair"),
    "trips": N_("Three of a kind"),
    "two-trips": N_("Two sets of three"),
    "full-house": N_("A full house"),
    "trips-two-pair": N_("Three of a kind with two pair"),
    "quads": N_("Four of a kind"),
    "quads-pair": N_("Four of a kind with a pair"),
    "quads-trips": N_("Four of a kind with three of a kind"),
    "five-aces": N_("Five aces (four aces and the joker)"),
    "sf": N_("A straight or a flush"),
}
RANK_WORDS = {"A": N_("aces"), "K": N_("kings"), "Q": N_("queens"), "J": N_("jacks"),
              "T": N_("tens"), "9": N_("nines"), "8": N_("eights"), "7": N_("sevens"),
              "6": N_("sixes"), "5": N_("fives"), "4": N_("fours"), "3": N_("threes"),
              "2": N_("twos")}


def way_hint(way: HouseWay, rule_id: str) -> Message | Joined | None:
    """Return what ``way`` does with the hands its rule ``rule_id`` decides, or None.

    Made of the way's data: the hand's family in words, where the rule's kind puts the
    cards (``Kind.front_text``/``back_text``) and the rule's own sheet sentence, which
    says when it applies (in the reader's language when the sheet has it translated):
    "Two sets of three, Acme: two cards of the lower trips in front, higher trips + the
    third card + the singleton in back (rule 6: ...)." A rule whose setting would foul
    says the fallback plays.
    No table is built and nothing is read: the rule is looked up in the loaded way.
    """
    try:
        rule = way.rule(rule_id)
    except (ValueError, LookupError):
        return None
    kind = RULE_KINDS.get(rule.kind)
    if kind is None:
        return None
    hand = Message(FAMILY_WORDS.get(rule.family, N_("This hand")))
    name = Translated(house_way_name(way),
                      {lang: way.title_in(lang).removesuffix(" house way")
                       for lang in way.translations})
    # The sheet's sentence inside the hint's brackets, without its own full stop.
    sheet = Translated(rule.text.rstrip(". "),
                       {lang: words[0].rstrip(". ") for lang, words in rule.words.items()})
    said: Message
    if kind.front is None:  # the straight-or-flush kind: the best setting of its pool
        said = Message(N_("%(hand)s, %(way)s: the straight or flush in back, the best "
                          "front beside it (rule %(number)s: %(rule)s)."),
                       hand=hand, way=name, number=rule.number, rule=sheet)
    else:
        said = Message(N_("%(hand)s, %(way)s: %(front)s in front, %(back)s in back "
                          "(rule %(number)s: %(rule)s)."),
                       hand=hand, way=name, front=Message(kind.front_text),
                       back=Message(kind.back_text), number=rule.number, rule=sheet)
    if rule_id.endswith(".fallback"):
        return Joined((said, Message(N_("Here that would foul the hand, so the house way's "
                                        "fallback setting plays."))))
    return said


def hint(rule_id: str, way: HouseWay | None) -> Words:
    """Return the practice hint of a hand the way sets by ``rule_id``: what the way does
    with it (``way_hint``), or, without a way, what to look at."""
    found = way_hint(way, rule_id) if way is not None else None
    return found if found is not None else book_hint(rule_id)


def skills_of(way: HouseWay) -> tuple[Skill, ...]:
    """Return the way's rules as skills, in the sheet's order: each rule's short name and
    number, its sheet sentence and its hint, in the way's own words and translations.

    A hand whose rule's setting would foul is graded ``<rule>.fallback``; that id is its
    rule's skill (no preset has such a hand; ``dealing.reachable_rules`` lists them).
    """
    skills = []
    for rule in way.rules:
        short = Translated(rule.short, {lang: words[1] for lang, words in rule.words.items()})
        skills.append(Skill(
            id=rule.id, section="",
            name=Message(N_("%(short)s (rule %(number)s)"), short=short, number=rule.number),
            short=short,
            sentence=Translated(rule.text, {lang: words[0] for lang, words in rule.words.items()}),
            hint=hint(rule.id, way)))
    return tuple(skills)


def setting_explanation(key: HouseWaySetting | SetKey, fouled: bool) -> Message | Joined:
    """How the house way sets the hand (the sheet's explanation, a house way's own text,
    which the web puts in the reader's language) and, when the trainee's setting fouls, so."""
    said = Message(N_("%(explanation)s."), explanation=key.explanation)
    return Joined((said, Message(N_("Your setting was fouled.")))) if fouled else said


def setting_said(seven: Sequence[Any], front: Sequence[Any]) -> Message:
    """Describe how the trainee set seven cards, in the sheet's terms where it can."""
    ranks = Counter(str(c)[0] for c in seven if str(c) != "JK")
    pairs = sorted((r for r, n in ranks.items() if n >= 2), key="23456789TJQKA".index)
    front_ranks = [str(c)[0] for c in front]
    shown = cards_words(front)
    if len(pairs) >= 2:
        if front_ranks[0] == front_ranks[1] and front_ranks[0] in pairs:
            return Message(N_("You split the pairs: %(ranks)s in front"),
                           ranks=Message(RANK_WORDS[front_ranks[0]]))
        if not set(front_ranks) & set(pairs):
            return Message(N_("You kept the pairs together: %(cards)s in front"), cards=shown)
    if len(pairs) == 1 and front_ranks[0] == front_ranks[1] == pairs[0]:
        return Message(N_("You put the pair of %(ranks)s in front"),
                       ranks=Message(RANK_WORDS[pairs[0]]))
    return Message(N_("You put %(cards)s in front"), cards=shown)


def set_hand_feedback(seven: Sequence[str], answer: SetAnswer | None, grade: Grade,
                      context: DrillContext, timed_out: bool,
                      rule_id: str | None = None) -> Feedback:
    """Return the feedback on a banker's hand set by the trainee (this drill, a round's step).

    ``grade.correct_answer`` is the house way's setting (``SetKey``); ``rule_id`` the
    rule the feedback is filed under when it is not the setting's own (a round's step).
    """
    key: SetKey = grade.correct_answer
    said: Text = NO_ANSWER if answer is None else setting_said(seven, answer.front)
    if answer is not None and not grade.correct:
        front = parse_cards(answer.front, 2)
        back = tuple(c for c in parse_cards(seven, 7) if c not in front)
        if is_foul(back, front, context.table.wheel):
            said = Message(N_("%(setting)s, which fouls the hand"), setting=said)
    right: Text = Message(N_("the house way puts %(cards)s in front"),
                          cards=cards_words(key.front))
    if len(key.front) == 2:
        name = evaluate2(parse_cards(key.front, 2)).name
        # "Pair of eights" -> "pair of eights"; "K-7" stays
        words: Any = Lowered(name) if name.english[1:2].islower() else name
        right = Message(N_("the house way puts %(cards)s in front (%(hand)s)"),
                        cards=cards_words(key.front), hand=words)
    correct = grade.correct and answer is not None and not timed_out
    return house_way_feedback(correct, said, right, context.way, rule_id or grade.rule_id,
                              detail=grade.explanation, timed_out=timed_out, shown_rule=key.rule)

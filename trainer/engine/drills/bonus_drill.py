"""The ``bonus`` drill: name a bonus hand, answer the dealer's cue, and pay the bonus bet.

Seven cards are shown, either as dealt or as the player set them (the setting does
not matter: a bonus is judged on all seven cards, docs/rules.md "Side bets"). The
trainee answers three parts, each graded with the pay line's rule id:

1. ``qualifies``: the dealer's cue "does this qualify?": does the hand make a
   category that pays Envy to the other bonus bets at the table (four of a kind
   or better on the common Envy table);
2. ``category``: the bonus category, one of the twelve in pay order;
3. ``paid_cents``: what the bonus bet shown is paid, in cents (the win: on a "to 1"
   table the bet itself stays; the progressive is paid "for 1", its $1 collected
   when the cards were dealt and not returned; a losing bonus bet is paid nothing).
   A question records a "for 1" payment (``question_payment``), so one dealt under
   the side-bet rules before it (the progressive paid "to 1") replays as it was.

The pay table is the group's profile's first bonus or progressive table; a
profile with none (nevada, california, no-commission, ez) drills the standard
Fortune table and the question says so.

Questions are drawn by category, not from the deck: half of them make a
qualifying category (each of those equally often), half do not (each of those
equally often), so the cue's yes and no are even, every category above a straight
appears one question in fourteen, and no constant answer beats chance.
"""
from __future__ import annotations

import random
from typing import Any

from ..cards import Card, card_list, parse_cards
from ..messages import N_, Joined, Lowered, Message, Money
from ..profiles import SideBetOffer, TableProfile
from ..setting import is_foul, splits
from ..side_bets import (
    PAY_ORDER,
    BonusCategory,
    PayTable,
    TableKind,
    bonus_hand,
    load_table,
    question_payment,
    question_table,
    sample_hand,
)
from .base import Drill, register
from .context import DrillContext, Grade
from .explain import NO_ANSWER, NO_ANSWER_WORDS, Feedback, Part, Text
from .schema import Fields, Flag, OneOf, Schema, Whole

# The table drilled when the group's profile offers no bonus bet, and its Envy table.
STANDARD_TABLE = "fortune-standard"
ENVY_TABLE = "envy"
# Bonus bets shown (dollars), within the offer's limits ($1 to $25 by default).
BETS_DOLLARS = (1, 2, 3, 5, 5, 5, 10, 10, 15, 20, 25, 25)
# A progressive's meter: whole dollars from this to that (cents shown are whole dollars).
METER_DOLLARS = (10_000, 250_000)
# How the seven are shown: as dealt, set the house way, or set another way (fouled or not).
LAYOUTS = ("dealt", "house-way", "other")
PART_NAMES = ("qualifies", "category", "paid")
# The most an answer may pay: $1,000,000 (8,000 to 1 on $25 is $200,000; a meter less).
MAX_PAID_CENTS = 100_000_000
CATEGORY_SLUGS = tuple(c.slug for c in PAY_ORDER)


def offered_table(profile: TableProfile) -> tuple[SideBetOffer, bool]:
    """Return the bonus offer a drill settles under this profile, and whether the profile offers it.

    The profile's first bonus or progressive table; else the standard Fortune table
    with Envy (not offered: the drill says so).
    """
    for offer in profile.side_bets:
        if load_table(offer.table).kind in (TableKind.BONUS, TableKind.PROGRESSIVE):
            return offer, True
    return SideBetOffer(STANDARD_TABLE, envy=ENVY_TABLE), False


def envy_table(offer: SideBetOffer) -> PayTable:
    """Return the Envy table whose categories make the cue's "qualifies" (the offer's, or the common one)."""
    return load_table(offer.envy or ENVY_TABLE)


def qualifying(offer: SideBetOffer) -> tuple[BonusCategory, ...]:
    """Return the categories that qualify (pay Envy), best first."""
    envy = envy_table(offer)
    return tuple(c for c in PAY_ORDER if envy.line_for(c) is not None)


def dollars(cents: int) -> str:
    """Write an amount in dollars and cents: $1,234.50 (English; a sentence takes ``Money``)."""
    return str(Money(cents, grouped=True))


def bet_words(cents: int) -> str:
    """Write a bet as said at the table: $5, or $2.50 (English)."""
    return str(Money(cents, grouped=True, short=True))


# The cue's answer in words, by the answer's ``qualifies``.
QUALIFIES_WORDS = {True: N_("qualifies"), False: N_("does not qualify")}
# The three parts' names as people read them.
PART_LABELS = {"qualifies": N_("Does it qualify for Envy?"), "category": N_("Bonus hand"),
               "paid": N_("Amount paid")}


def _offer_of(question: dict[str, Any]) -> SideBetOffer:
    envy = question.get("envy")
    return SideBetOffer(question["table"], envy=envy if isinstance(envy, str) else None)


@register
class BonusDrill(Drill):
    """Name the bonus hand of seven cards, say whether it qualifies, and pay the bonus bet."""

    slug = "bonus"
    title = "Pay the bonus"
    default_time_limit_s = 20
    families = {"bonus": 1}
    # Twelve categories; a constant answer names one of them (the cue's yes or no
    # and the amount follow from it): the categories are drawn so none is right
    # more than one time in ten, and the cue is yes half the time.
    chance_level = 1 / len(PAY_ORDER)

    # --- the deal --------------------------------------------------------------

    def generate(self, rng: random.Random, context: DrillContext) -> dict[str, Any]:
        """Pick qualifying or not (evenly), then a category (evenly), then deal seven cards of it."""
        profile = context.table
        offer, offered = offered_table(profile)
        table = load_table(offer.table)
        good = qualifying(offer)
        rest = tuple(c for c in PAY_ORDER if c not in good)
        category = rng.choice(good if rng.random() < 0.5 else rest)
        seven = list(sample_hand(category, rng, table.match))
        rng.shuffle(seven)
        if table.fixed_bet_cents is not None:
            bet = table.fixed_bet_cents
        else:
            bets = [d * 100 for d in BETS_DOLLARS if offer.min_cents <= d * 100 <= offer.max_cents]
            bet = rng.choice(bets or [offer.min_cents])
        question: dict[str, Any] = {"table": offer.table, "offered": offered,
                                    "envy": offer.envy, "bet_cents": bet,
                                    **question_payment(offer.table, context.side_bet_rules)}
        if table.kind is TableKind.PROGRESSIVE:
            question["meter_cents"] = rng.randint(*METER_DOLLARS) * 100
        layout = rng.choice(LAYOUTS)
        if layout == "dealt":
            question["cards"] = card_list(seven)
        else:
            if layout == "house-way":
                s = context.way.set(seven, profile.wheel)
                back, front = list(s.back), list(s.front)
            else:
                w = rng.choice(splits(seven))
                back, front = list(w.back), list(w.front)
            rng.shuffle(back)
            rng.shuffle(front)
            question["back"], question["front"] = card_list(back), card_list(front)
        return question

    @staticmethod
    def seven(question: dict[str, Any]) -> tuple[Card, ...]:
        """Return the question's seven cards."""
        if "cards" in question:
            return parse_cards(question["cards"], 7)
        return parse_cards(list(question["back"]) + list(question["front"]), 7)

    # --- the key ---------------------------------------------------------------

    def key(self, question: dict[str, Any]) -> dict[str, Any]:
        """Work out the answer: the hand, its pay line, the cue and the amount paid."""
        offer = _offer_of(question)
        table = question_table(question)
        hand = bonus_hand(self.seven(question), table.match)
        line = table.line_for(hand.category)
        envy_line = envy_table(offer).line_for(hand.category)
        bet = question["bet_cents"]
        paid = line.win_cents(bet, question.get("meter_cents")) if line is not None else 0
        return {"hand": hand, "line": line, "envy_line": envy_line, "table": table,
                "qualifies": envy_line is not None, "category": hand.category.slug,
                "paid_cents": paid,
                "rule_id": line.rule_id if line is not None else table.losing_rule_id,
                "envy_rule_id": (envy_line.rule_id if envy_line is not None
                                 else envy_table(offer).losing_rule_id)}

    def answer_choices(self, question: dict[str, Any], context: DrillContext
                       ) -> dict[str, dict[str, Any]]:
        """Return, per category, the answer that names it (its cue and its pay for this bet)."""
        offer = _offer_of(question)
        table, envy = question_table(question), envy_table(offer)
        meter = question.get("meter_cents")
        choices = {}
        for category in PAY_ORDER:
            line = table.line_for(category)
            choices[category.slug] = {
                "qualifies": envy.line_for(category) is not None,
                "category": category.slug,
                "paid_cents": line.win_cents(question["bet_cents"], meter) if line else 0}
        return choices

    def rule_of(self, question: dict[str, Any], context: DrillContext) -> str:
        """Return the pay line's rule id (the table's losing rule for a hand that pays nothing)."""
        rule: str = self.key(question)["rule_id"]
        return rule

    def answer_schema(self, question: dict[str, Any], context: DrillContext | None) -> Schema:
        """Answer ``{"qualifies": true|false, "category": <slug>, "paid_cents": <whole cents>}``."""
        return Fields({
            "qualifies": Flag(N_("Answer the dealer's cue \"does this qualify?\" with yes or no.")),
            "category": OneOf(CATEGORY_SLUGS, N_("Name the bonus hand: pick one of the categories.")),
            "paid_cents": Whole(0, MAX_PAID_CENTS, N_("Enter the amount paid (0 when the bonus "
                                                  "bet loses).")),
        })

    def probe(self, question: dict[str, Any]) -> dict[str, Any]:
        """Answer "nothing, does not qualify, pays nothing"."""
        return {"qualifies": False, "category": "nothing", "paid_cents": 0}

    def part_results(self, answer: Any, correct_answer: Any, timed_out: bool) -> list[bool]:
        """Return the three parts of a recorded attempt: the cue, the category, the amount."""
        key = correct_answer if isinstance(correct_answer, dict) else {}
        given = answer if isinstance(answer, dict) and not timed_out else {}
        return [name in key and given.get(name) == key.get(name)
                for name in ("qualifies", "category", "paid_cents")]

    # --- grading ---------------------------------------------------------------

    def grade(self, question: dict[str, Any], answer: dict[str, Any], context: DrillContext) -> Grade:
        """Grade the cue, the category and the amount, each with its pay line's rule id."""
        given = self.validate_answer(question, answer, context)
        key = self.key(question)
        hand, line, table = key["hand"], key["line"], key["table"]
        bet = question["bet_cents"]
        names = {c.slug: self.category_name(table, c) for c in PAY_ORDER}
        right_name = names[key["category"]]
        yes_no = {True: "qualifies", False: "does not qualify"}
        words = {"qualifies": Message(QUALIFIES_WORDS[given["qualifies"]]),
                 "category": Message(names[given["category"]]),
                 "paid": Money(given["paid_cents"], grouped=True)}
        parts = (
            {"part": "qualifies", "correct": given["qualifies"] == key["qualifies"],
             "rule_id": key["envy_rule_id"], "chance": 1 / 2,
             "given": yes_no[given["qualifies"]], "right": yes_no[key["qualifies"]]},
            {"part": "category", "correct": given["category"] == key["category"],
             "rule_id": key["rule_id"], "chance": 1 / len(PAY_ORDER),
             "given": names[given["category"]], "right": right_name},
            # The amount is free-form (the balance rule scores the fixed parts only).
            {"part": "paid", "correct": given["paid_cents"] == key["paid_cents"],
             "rule_id": key["rule_id"], "chance": None,
             "given": dollars(given["paid_cents"]), "right": dollars(key["paid_cents"])},
        )
        wrong = [p for p in parts if not p["correct"]]
        # The hand in words: the web says it in the reader's language (categories.py, ``said``).
        text: list[Any] = [Message(N_("The seven cards make %(hand)s: %(name)s."),
                                   hand=Lowered(hand.said), name=Message(right_name))]
        if "cards" not in question:
            fouled = is_foul(parse_cards(question["back"], 5), parse_cards(question["front"], 2),
                             context.table.wheel)
            text.append(Message(N_("The bonus is judged on all seven cards, whatever the "
                                   "setting (this one is fouled).") if fouled
                                else N_("The bonus is judged on all seven cards, whatever the "
                                        "setting.")))
        text.append(self.pay_sentence(table, line, bet, question.get("meter_cents")))
        text.append(self.cue_sentence(key, _offer_of(question)))
        if not question.get("offered", True):
            text.append(Message(N_("This group's table offers no bonus bet, so the drill uses "
                                   "the %(table)s."), table=Message(table.title)))
        if wrong:
            text.insert(0, Message(N_("You answered %(answers)s."),
                                   answers=Joined((words[p["part"]] for p in wrong), "; ")))
        return Grade(
            correct=not wrong,
            rule_id=wrong[0]["rule_id"] if wrong else key["rule_id"],
            correct_answer={"qualifies": key["qualifies"], "category": key["category"],
                            "paid_cents": key["paid_cents"]},
            explanation=Joined(text),
            parts=parts,
        )

    def feedback(self, question: dict[str, Any], answer: dict[str, Any] | None,
                 context: DrillContext, grade: Grade | None = None,
                 timed_out: bool = False) -> Feedback:
        """Say what was answered and what was right, part by part, and the pay line's sentence."""
        grade = grade or self.grade(question, answer or self.probe(question), context)
        correct = grade.correct and answer is not None and not timed_out
        key = self.key(question)
        table = key["table"]

        def words(name: str, value: Any) -> Text:
            if name == "qualifies":
                return Message(QUALIFIES_WORDS[bool(value)])
            if name == "category":
                found = next(c for c in PAY_ORDER if c.slug == value)
                return Message(self.category_name(table, found))
            return Money(value, grouped=True)

        fields = {"qualifies": "qualifies", "category": "category", "paid": "paid_cents"}
        parts = tuple(Part(PART_LABELS[p["part"]], bool(p["correct"]) and answer is not None
                           and not timed_out,
                           words(p["part"], answer[fields[p["part"]]]) if answer is not None
                           else NO_ANSWER_WORDS,
                           words(p["part"], grade.correct_answer[fields[p["part"]]]),
                           label=Message(PART_LABELS[p["part"]]))
                      for p in grade.parts)
        right = Joined((p.right for p in parts), ", ")
        said: Text = (NO_ANSWER if answer is None
                      else Message(N_("You answered %(parts)s"),
                                   parts=Joined((p.said for p in parts), ", ")))
        why = self.pay_sentence(table, key["line"], question["bet_cents"],
                                question.get("meter_cents"))
        return Feedback(correct, said,
                        Message(N_("it %(parts)s"), parts=right) if not correct else right,
                        why, grade.rule_id, section=Message(N_("Side bets")),
                        detail=grade.explanation, parts=parts, timed_out=timed_out)

    @staticmethod
    def category_name(table: PayTable, category: BonusCategory) -> str:
        """Return a category's name in this table's words."""
        line = table.line_for(category)
        return line.name if line is not None else category.title

    @staticmethod
    def pay_sentence(table: PayTable, line: Any, bet: int, meter: int | None) -> Message:
        """Say what the line pays and why, for the bet shown ("... pays 25 to 1: $125.00 on a $5 bet.").

        The table's payment decides the end: a "to 1" bet stays; a "for 1" bet (the
        progressive) was collected when the cards were dealt and is not returned.
        """
        on = Money(bet, grouped=True, short=True)
        if line is None:
            if table.for_one:
                return Message(N_("It pays nothing on the %(table)s: the %(bet)s bet, collected "
                                  "when the cards were dealt, is lost."),
                               table=Message(table.title), bet=on)
            return Message(N_("It pays nothing on the %(table)s: the %(bet)s bonus bet is taken."),
                           table=Message(table.title), bet=on)
        values = {"hand": Message(line.name), "amount": Money(line.win_cents(bet, meter),
                                                              grouped=True), "bet": on}
        if table.for_one and line.meter_percent is not None:
            return Message(N_("%(hand)s pays %(percent)s%% of the meter (%(meter)s) for 1: "
                              "%(amount)s, and the %(bet)s bet, collected when the cards were "
                              "dealt, is not returned."),
                           percent=line.meter_percent, meter=Money(meter or 0, grouped=True),
                           **values)
        if table.for_one:
            return Message(N_("%(hand)s pays a fixed %(fixed)s for 1: %(amount)s, and the "
                              "%(bet)s bet, collected when the cards were dealt, is not "
                              "returned."), fixed=Money(line.amount_cents or 0, grouped=True),
                           **values)
        if line.odds is not None:
            return Message(N_("%(hand)s pays %(odds)s to 1: %(amount)s on a %(bet)s bet, and "
                              "the bet stays."), odds=line.odds, **values)
        if line.meter_percent is not None:
            return Message(N_("%(hand)s pays %(percent)s%% of the meter (%(meter)s): %(amount)s "
                              "on a %(bet)s bet, and the bet stays."),
                           percent=line.meter_percent, meter=Money(meter or 0, grouped=True),
                           **values)
        return Message(N_("%(hand)s pays a fixed %(fixed)s: %(amount)s on a %(bet)s bet, and "
                          "the bet stays."), fixed=Money(line.amount_cents or 0, grouped=True),
                       **values)

    @staticmethod
    def cue_sentence(key: dict[str, Any], offer: SideBetOffer) -> Message:
        """Say whether the hand qualifies (pays Envy to the other bonus bets)."""
        envy = key["envy_line"]
        if envy is not None:
            return Message(N_("It qualifies: every other player with a qualifying bonus bet is "
                              "paid %(amount)s Envy."),
                           amount=Money(envy.amount_cents or 0, grouped=True))
        lowest = envy_table(offer).line_for(qualifying(offer)[-1])
        start = Lowered(Message(lowest.name), whole=True) if lowest is not None \
            else Message(N_("the Envy table"))
        return Message(N_("It does not qualify: Envy starts at %(start)s."), start=start)

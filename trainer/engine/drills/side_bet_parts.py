"""Side bets at a settled table: the bonus bets, envies and Queen's Dragon of the settlement
and round drills (docs/drills.md "Side bets at the table", docs/side-bets.md).

When the group's profile offers a side bet, some seats carry one; the trainee pays
each seat's side bet (0 when it loses) and, at a table with Envy, the envy each
seat with a bonus bet collects (0 when it collects none: no other qualifying
hand, or a bonus bet under the Envy minimum). Each is a graded part carrying its
pay line's rule id (``bonus.<table>.<slug>``, ``bonus.envy.<slug>``; the table's
``...nothing`` when it pays nothing). A profile without side bets draws nothing
here, so its questions replay exactly as before.

Everything is settled by ``trainer.engine.bonus_settlement``, against the house. A
seat's pay is what the dealer hands over: the win beside a "to 1" bet that stays, or
the progressive's amount "for 1", its wager collected when the cards were dealt. The
question records a "for 1" payment (``question_payment``), so a question dealt under
the side-bet rules before it (the progressive paid "to 1") replays and says what it did.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..bonus_settlement import envy_payments, queens_dragon, settle_bonus
from ..cards import Card
from ..messages import N_, Joined, Lowered, Message, Money
from ..profiles import SideBetOffer, TableProfile
from ..side_bets import (
    PAY_ORDER,
    SIDE_BET_RULES,
    BonusCategory,
    PayLine,
    PayTable,
    TableKind,
    bonus_category,
    load_table,
    question_payment,
    question_rules,
    question_table,
    sample_hand,
)
from ..side_bets.paytables import RULE_FAMILY
from .explain import NO_ANSWER_WORDS, Part, Text, amount
from .schema import Fields, Schema, Whole

# Side bets shown (dollars), within the offer's limits: some under the $5 Envy minimum.
SIDE_BETS_DOLLARS = (1, 2, 3, 5, 5, 5, 10, 10, 15, 20, 25, 25)
# How often a seat carries a side bet.
SIDE_BET_RATE = 0.6
# A progressive's meter shown: whole dollars from this to that.
METER_DOLLARS = (10_000, 250_000)
# The most a side bet's answer may pay: $1,000,000 (far above 8,000 to 1 on $25).
MAX_SIDE_CENTS = 100_000_000
# A seat's side bet in its key and its graded part (``"part"``, stored with every grade):
# named as the side bets' rule family (``bonus.<table>.<line>``), whatever its table (a
# Queen's Dragon bet too); its Envy beside it.
BONUS_PART = RULE_FAMILY
ENVY_PART = "envy"


def offer_of(profile: TableProfile) -> SideBetOffer | None:
    """Return the side bet a table drill deals under this profile (its first offer), or None."""
    return profile.side_bets[0] if profile.side_bets else None


def side_bet_question(rng: random.Random, offer: SideBetOffer,
                      rules: int = SIDE_BET_RULES) -> dict[str, Any]:
    """Return the question's side-bet header: the table, its Envy table, a progressive's meter.

    ``rules``: the context's side-bet rules; a table paid "for 1" under them says so.
    """
    side: dict[str, Any] = {"table": offer.table, "envy": offer.envy,
                            **question_payment(offer.table, rules)}
    if load_table(offer.table).kind is TableKind.PROGRESSIVE:
        side["meter_cents"] = rng.randint(*METER_DOLLARS) * 100
    return side


def draw_side_bets(rng: random.Random, offer: SideBetOffer, seats: int) -> list[int]:
    """Return each seat's side bet in cents (0: none); at least one seat carries one."""
    sizes = [d * 100 for d in SIDE_BETS_DOLLARS if offer.min_cents <= d * 100 <= offer.max_cents]
    sizes = sizes or [offer.min_cents]
    bets = [rng.choice(sizes) if rng.random() < SIDE_BET_RATE else 0 for _ in range(seats)]
    if seats and not any(bets):
        bets[rng.randrange(seats)] = rng.choice(sizes)
    return bets


def special_category(rng: random.Random, offer: SideBetOffer) -> BonusCategory | None:
    """Pick a paying category to deal one seat (the deck alone almost never pays), or None.

    Half the tables get one: at a table with Envy, a qualifying category half of
    those times; otherwise any category the bonus table pays.
    """
    table = load_table(offer.table)
    if table.kind not in (TableKind.BONUS, TableKind.PROGRESSIVE) or rng.random() < 0.5:
        return None
    paying = [c for c in PAY_ORDER if table.line_for(c) is not None]
    if offer.envy and rng.random() < 0.5:
        envy = load_table(offer.envy)
        paying = [c for c in PAY_ORDER if envy.line_for(c) is not None]
    return rng.choice(paying)


def special_hand(rng: random.Random, category: BonusCategory, offer: SideBetOffer,
                 used: set[int], tries: int = 40) -> tuple[Card, ...] | None:
    """Deal seven cards of ``category`` that avoid ``used``, or None."""
    match = load_table(offer.table).match
    for _ in range(tries):
        seven = sample_hand(category, rng, match)
        if not used.intersection(seven):
            return tuple(seven)
    return None


def envy_minimum(side: dict[str, Any]) -> int | None:
    """Return the Envy table's smallest qualifying bonus bet, or None without Envy."""
    envy = side.get("envy")
    return (load_table(envy).min_bonus_bet_cents or 0) if isinstance(envy, str) else None


def answer_fields(side: dict[str, Any] | None, bet_cents: int, seat: int) -> dict[str, Schema]:
    """Return the answer fields a seat's side bet takes: its pay, and its envy at an Envy table.

    A seat without a side bet takes none (the schema refuses them).
    """
    if not side or not bet_cents:
        return {}
    paid = (N_("Seat %(seat)s: enter what the Queen's Dragon bet is paid, in cents "
               "(0 when it loses).")
            if load_table(side["table"]).kind is TableKind.QUEENS_DRAGON
            else N_("Seat %(seat)s: enter what the bonus bet is paid, in cents (0 when it loses)."))
    fields: dict[str, Schema] = {"bonus_paid_cents": Whole(0, MAX_SIDE_CENTS,
                                                           Message(paid, seat=seat))}
    if side.get("envy"):
        fields["envy_paid_cents"] = Whole(
            0, MAX_SIDE_CENTS, Message(N_("Seat %(seat)s: enter the Envy paid, in cents "
                                          "(0 for none)."), seat=seat))
    return fields


def side_fields_schema(side: dict[str, Any] | None, bet_cents: int, seat: int) -> Schema:
    """Return one seat's side-bet answer as an object of its own (a round's ``side`` list)."""
    return Fields({"seat": Whole(seat, seat, Message(N_("Give the side bets in seat order: seat "
                                                        "%(seat)s here."), seat=seat)),
                   **answer_fields(side, bet_cents, seat)})


def settle_side(side: dict[str, Any], seats: Sequence[int], sevens: Sequence[Sequence[int]],
                bets: Sequence[int], profile: TableProfile, banker_seven: Sequence[int],
                others: Sequence[Sequence[int]] = (),
                dealer_seven: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Return the key of every side bet at the table: per seat with one, its pay and envy.

    ``seats``, ``sevens`` and ``bets`` are the betting seats' numbers, seven cards and
    side bets (0: none); ``others`` are other players' hands that pay envy and carry no
    side bet here (a player-banker's); ``dealer_seven`` is the dealer's hand (pays envy
    only if the Envy table says so). Each entry: ``seat``, ``bet_cents``, the bet's pay
    under ``BONUS_PART`` (``rule_id``, ``name``, ``category``, ``win_cents``) and, at an
    Envy table, ``envy``
    (``rule_id``, ``paid_cents``, ``from``: [(seat or None, name, cents)]).
    """
    table, rules = question_table(side), question_rules(side)
    keys: list[dict[str, Any]] = []
    hands: list[Sequence[int] | None] = [*sevens, *others]
    all_bets = [*bets, *([0] * len(others))]
    names = [*seats, *([None] * len(others))]
    envies = (envy_payments(hands, all_bets, profile, dealer_seven)
              if side.get("envy") else [])
    for index, (seat, seven, bet) in enumerate(zip(seats, sevens, bets, strict=True)):
        if not bet:
            continue
        if table.kind is TableKind.QUEENS_DRAGON:
            result = queens_dragon(banker_seven, bet, profile, side["table"], rules)
            category = None
        else:
            result = settle_bonus(seven, bet, profile, side["table"], side.get("meter_cents"),
                                  rules)
            category = bonus_category(seven, table.match).slug
        key: dict[str, Any] = {"seat": seat, "bet_cents": bet, BONUS_PART: {
            "rule_id": result.rule_id, "name": result.name, "category": category,
            "win_cents": result.paid_cents}}
        if side.get("envy"):
            mine = [e for e in envies if e.seat == index]
            envy_table = load_table(side["envy"])
            best = max(mine, key=lambda e: e.category, default=None)
            key["envy"] = {
                "rule_id": best.rule_id if best is not None else envy_table.losing_rule_id,
                "paid_cents": sum(e.amount_cents for e in mine),
                "from": [[names[e.from_seat] if e.from_seat is not None else None, e.name,
                          e.amount_cents] for e in mine]}
        keys.append(key)
    return keys


def key_answer(key: dict[str, Any]) -> dict[str, int]:
    """Return the right answer's side-bet fields of one seat."""
    out = {"bonus_paid_cents": key[BONUS_PART]["win_cents"]}
    if "envy" in key:
        out["envy_paid_cents"] = key["envy"]["paid_cents"]
    return out


def graded_parts(keys: Sequence[dict[str, Any]], given: dict[int, dict[str, Any]]
                 ) -> list[dict[str, Any]]:
    """Grade each seat's side bet and envy against the answer's fields (by seat).

    Each part: ``seat``, ``part`` (``BONUS_PART`` or ``ENVY_PART``), ``correct``, ``rule_id``,
    ``paid_cents`` (right), ``given_cents``, ``bet_cents`` and the words' pieces;
    ``chance`` None (an amount is free-form, docs/drills.md "Guessing does not pay").
    """
    parts = []
    for key in keys:
        said = given.get(key["seat"], {})
        bonus = key[BONUS_PART]
        parts.append({"seat": key["seat"], "part": BONUS_PART, "chance": None,
                      "correct": said.get("bonus_paid_cents") == bonus["win_cents"],
                      "rule_id": bonus["rule_id"], "paid_cents": bonus["win_cents"],
                      "given_cents": said.get("bonus_paid_cents"), "bet_cents": key["bet_cents"],
                      "name": bonus["name"], "category": bonus["category"]})
        if "envy" in key:
            envy = key["envy"]
            parts.append({"seat": key["seat"], "part": "envy", "chance": None,
                          "correct": said.get("envy_paid_cents") == envy["paid_cents"],
                          "rule_id": envy["rule_id"], "paid_cents": envy["paid_cents"],
                          "given_cents": said.get("envy_paid_cents"),
                          "bet_cents": key["bet_cents"], "from": envy["from"]})
    return parts


def pays_words(line: Any) -> Message | Money:
    """Return a pay line's payout for a sentence ("25 to 1", "$500", "100% of the meter")."""
    if line.odds is not None:
        return Message(N_("%(odds)s to 1"), odds=line.odds)
    if line.amount_cents is not None:
        return Money(line.amount_cents, grouped=True, short=True)
    return Message(N_("%(percent)s%% of the meter"), percent=line.meter_percent)


class _Said:
    """A side-bet sentence's words: the big-letter template or the small-letter one
    (``small``), with the part's seat and amounts and any more values."""

    __slots__ = ("small", "values")

    def __init__(self, values: dict[str, Any], small: bool) -> None:
        self.values = values
        self.small = small

    def __call__(self, big: str, little: str, **more: Any) -> Message:
        return Message(little if self.small else big, **self.values, **more)


def side_sentence(part: dict[str, Any], side: dict[str, Any], small: bool = False) -> Message:
    """Say what one side-bet part pays and why: "Seat 2: four of a kind pays 25 to 1: $125.00".

    ``small``: the sentence's second half, starting with a small letter ("seat 2: ...").
    """
    seat, paid, bet = part["seat"], part["paid_cents"], part["bet_cents"]
    table = question_table(side)
    said = _Said({"seat": seat, "amount": amount(paid), "bet": amount(bet)}, small)
    if part["part"] == "envy":
        return _envy_sentence(part, side, said)
    line = table.line_by_slug(part["rule_id"].rsplit(".", 1)[-1]) if paid else None
    if table.kind is TableKind.QUEENS_DRAGON:
        return _dragon_sentence(line, said)
    if line is not None:
        return _paid_line_sentence(line, table, side, said)
    return _nothing_paid_sentence(part, table, said)


def _envy_sentence(part: dict[str, Any], side: dict[str, Any], said: _Said) -> Message:
    """An Envy part: the hands it collects for, or why it collects nothing."""
    bet = part["bet_cents"]
    minimum = envy_minimum(side) or 0
    if part["from"]:
        each = Joined((Message(N_("the dealer's %(hand)s, %(amount)s"),
                               hand=Lowered(Message(name), whole=True), amount=amount(c))
                       if s is None else
                       Message(N_("seat %(seat)s's %(hand)s, %(amount)s"), seat=s,
                               hand=Lowered(Message(name), whole=True), amount=amount(c))
                       for s, name, c in part["from"]), N_(" and "))
        return said(N_("Seat %(seat)s: Envy for %(each)s: %(amount)s"),
                    N_("seat %(seat)s: Envy for %(each)s: %(amount)s"), each=each)
    if bet < minimum:
        return said(N_("Seat %(seat)s: no Envy: the %(bet)s bonus bet is under the "
                       "%(minimum)s minimum"),
                    N_("seat %(seat)s: no Envy: the %(bet)s bonus bet is under the "
                       "%(minimum)s minimum"), minimum=amount(minimum))
    return said(N_("Seat %(seat)s: no other hand qualifies for Envy: %(none)s"),
                N_("seat %(seat)s: no other hand qualifies for Envy: %(none)s"),
                none=amount(0))


def _dragon_sentence(line: PayLine | None, said: _Said) -> Message:
    """A Queen's Dragon bet: paid on the banker's queen-high pai gow, else taken."""
    if line is not None:
        return said(N_("Seat %(seat)s: the banker's queen-high pai gow pays %(pays)s on "
                       "Queen's Dragon: %(amount)s"),
                    N_("seat %(seat)s: the banker's queen-high pai gow pays %(pays)s on "
                       "Queen's Dragon: %(amount)s"), pays=pays_words(line))
    return said(N_("Seat %(seat)s: the banker's hand is no queen-high pai gow: the "
                   "%(bet)s Queen's Dragon bet is taken"),
                N_("seat %(seat)s: the banker's hand is no queen-high pai gow: the "
                   "%(bet)s Queen's Dragon bet is taken"))


def _paid_line_sentence(line: PayLine, table: PayTable, side: dict[str, Any],
                        said: _Said) -> Message:
    """A bonus bet its pay line pays: "for 1" (its bet collected at the deal) or "to 1",
    a progressive's line with its share of the meter."""
    hand = Lowered(Message(line.name))
    if table.for_one:
        if line.meter_percent is not None:
            return said(N_("Seat %(seat)s: %(hand)s pays %(pays)s (%(meter)s) for 1: %(amount)s; "
                           "the %(bet)s bet was collected when the cards were dealt"),
                        N_("seat %(seat)s: %(hand)s pays %(pays)s (%(meter)s) for 1: %(amount)s; "
                           "the %(bet)s bet was collected when the cards were dealt"),
                        hand=hand, pays=pays_words(line), meter=amount(side.get("meter_cents")))
        return said(N_("Seat %(seat)s: %(hand)s pays %(pays)s for 1: %(amount)s; the %(bet)s "
                       "bet was collected when the cards were dealt"),
                    N_("seat %(seat)s: %(hand)s pays %(pays)s for 1: %(amount)s; the %(bet)s "
                       "bet was collected when the cards were dealt"),
                    hand=hand, pays=pays_words(line))
    if line.meter_percent is not None:
        return said(N_("Seat %(seat)s: %(hand)s pays %(pays)s (%(meter)s): %(amount)s"),
                    N_("seat %(seat)s: %(hand)s pays %(pays)s (%(meter)s): %(amount)s"),
                    hand=hand, pays=pays_words(line), meter=amount(side.get("meter_cents")))
    return said(N_("Seat %(seat)s: %(hand)s pays %(pays)s: %(amount)s"),
                N_("seat %(seat)s: %(hand)s pays %(pays)s: %(amount)s"),
                hand=hand, pays=pays_words(line))


def _nothing_paid_sentence(part: dict[str, Any], table: PayTable, said: _Said) -> Message:
    """A bonus bet no pay line pays: no bonus hand, or a hand this table pays nothing on."""
    category = part.get("category")
    title = next((c.title for c in PAY_ORDER if c.slug == category and c.value), None)
    if table.for_one:
        if title is None:
            return said(N_("Seat %(seat)s: no bonus hand: the %(bet)s bet, collected when the "
                           "cards were dealt, is lost"),
                        N_("seat %(seat)s: no bonus hand: the %(bet)s bet, collected when the "
                           "cards were dealt, is lost"))
        return said(N_("Seat %(seat)s: %(hand)s pays nothing on the %(table)s: the %(bet)s "
                       "bet, collected when the cards were dealt, is lost"),
                    N_("seat %(seat)s: %(hand)s pays nothing on the %(table)s: the %(bet)s "
                       "bet, collected when the cards were dealt, is lost"),
                    hand=Lowered(Message(title), whole=True), table=Message(table.title))
    if title is None:
        return said(N_("Seat %(seat)s: no bonus hand: the %(bet)s bonus bet is taken"),
                    N_("seat %(seat)s: no bonus hand: the %(bet)s bonus bet is taken"))
    return said(N_("Seat %(seat)s: %(hand)s pays nothing on the %(table)s: the %(bet)s "
                   "bonus bet is taken"),
                N_("seat %(seat)s: %(hand)s pays nothing on the %(table)s: the %(bet)s "
                   "bonus bet is taken"),
                hand=Lowered(Message(title), whole=True), table=Message(table.title))


# A side bet's name in a part's name and sentences: (English name, its label).
SIDE_WHAT = {"envy": ("Envy", N_("seat %(seat)s Envy")),
             "dragon": ("Queen's Dragon", N_("seat %(seat)s Queen's Dragon")),
             BONUS_PART: (BONUS_PART, N_("seat %(seat)s bonus"))}
SIDE_PAID = {"envy": N_("You paid seat %(seat)s's Envy %(amount)s"),
             "dragon": N_("You paid seat %(seat)s's Queen's Dragon %(amount)s"),
             BONUS_PART: N_("You paid seat %(seat)s's bonus %(amount)s")}
SIDE_UNPAID = {"envy": N_("You left seat %(seat)s's Envy unpaid"),
               "dragon": N_("You left seat %(seat)s's Queen's Dragon unpaid"),
               BONUS_PART: N_("You left seat %(seat)s's bonus unpaid")}


def side_feedback_parts(parts: Sequence[dict[str, Any]], side: dict[str, Any],
                        answered: bool, timed_out: bool) -> tuple[Part, ...]:
    """Return the side-bet parts in words, right or wrong (``explain.Part``)."""
    out = []
    dragon = load_table(side["table"]).kind is TableKind.QUEENS_DRAGON
    for part in parts:
        seat = part["seat"]
        which = "envy" if part["part"] == "envy" else ("dragon" if dragon else BONUS_PART)
        what, label = SIDE_WHAT[which]
        why = side_sentence(part, side)
        given = part.get("given_cents") if answered else None
        said: Text = amount(given) if answered else NO_ANSWER_WORDS
        fix = side_sentence(part, side, small=True)
        you = (Message(SIDE_PAID[which], seat=seat, amount=amount(given)) if answered
               else Message(SIDE_UNPAID[which], seat=seat))
        out.append(Part(f"seat {seat} {what}", bool(part["correct"]) and answered
                        and not timed_out, said, amount(part["paid_cents"]), why, you, fix,
                        label=Message(label, seat=seat)))
    return tuple(out)

"""Feedback in words: what the trainee answered, what was right, and why.

Every drill kind builds its feedback here from the same pieces (``Drill.feedback``
in each kind's module puts them together): the trainee's answer and the right one
in words, one sentence of the house-way sheet or of the rule book (docs/rules.md)
that says why, and, for an answer of several parts (a table settled seat by seat,
a round's settle step with the player-banker's commission), each part right or
wrong. The practice hint (``hint``) says what to look at (the rule book's drills) or, for
a hand to set, what the house way does with it: made from the way's deciding rule
(``way_hint``), never a fixed sentence per family, so a casino's own way is taught as
it plays. Pure: the sentences are the engine's own, like the grades' explanations.

Each sentence is a ``Message`` (``messages.py``: an ``N_``-marked template with named
values, money as ``Money``), so the web writes it in the reader's language
(``web/engine_words.say``); ``str()`` of it is the English the engine always wrote, and
``as_dict`` (the answer's JSON) gives that English. A house-way sheet's own sentence
(``why`` quoting a sheet) stays its text, translated by the web from the sheet's data.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..house_way import KINDS, HouseWay, load, rule_family
from ..messages import N_, Joined, Message, Money, Translated
from ..profiles import TableProfile

# A sentence, or a sentence's value: a Message (translated when shown), an amount, a
# list of those, or text as it is.
Text = Message | Money | Joined | str

SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
RANK_WORDS = {"A": N_("aces"), "K": N_("kings"), "Q": N_("queens"), "J": N_("jacks"),
              "T": N_("tens"), "9": N_("nines"), "8": N_("eights"), "7": N_("sevens"),
              "6": N_("sixes"), "5": N_("fives"), "4": N_("fours"), "3": N_("threes"),
              "2": N_("twos")}


def card_text(card: Any) -> str:
    """Return a card as people write it: ``10♥``, ``Q♠``, ``joker``."""
    text = str(card)
    if text == "JK":
        return "joker"
    if len(text) != 2 or text[1] not in SUIT_SYMBOLS:
        return text
    return ("10" if text[0] == "T" else text[0]) + SUIT_SYMBOLS[text[1]]


def cards_text(cards: Iterable[Any]) -> str:
    """Return cards as people write them, separated by spaces."""
    return " ".join(card_text(c) for c in cards)


def cards_words(cards: Iterable[Any]) -> Joined:
    """Return cards for a sentence: ``10♥ Q♠``, the joker as a word to translate."""
    return Joined(Message(N_("joker")) if str(c) == "JK" else card_text(c) for c in cards)


def money(cents: int | None) -> str:
    """Return whole cents as dollars (``$47.50``), computed in integers (English; a
    sentence takes ``amount``)."""
    return str(amount(cents))


def amount(cents: int | None) -> Money | Message:
    """Return whole cents for a sentence (``$1,234.50`` in English), or "nothing"."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        return Message(N_("nothing"))
    return Money(cents, grouped=True)


def commission_words(table: TableProfile) -> str:
    """Return how a winner's pay is worked out at the table, in English words."""
    return str(commission_message(table))


def commission_message(table: TableProfile) -> Message:
    """Return how a winner's pay is worked out at the table, in words."""
    if table.no_commission:
        return Message(N_("even money, no commission"))
    if table.fee_cents is not None:
        return Message(N_("even money (the %(fee)s fee is charged win or lose)"),
                       fee=amount(table.fee_cents))
    return Message(N_("even money less %(rate)s"), rate=rate_message(table))


def rate_words(table: TableProfile) -> str:
    """Return the commission rate in English words ("5% commission")."""
    return str(rate_message(table))


def rate_message(table: TableProfile) -> Message:
    """Return the commission rate in words ("5% commission"), or why there is none."""
    if table.no_commission:
        return Message(N_("no commission (a no-commission table)"))
    if table.fee_cents is not None:
        return Message(N_("no commission (the table charges a fee instead)"))
    return Message(N_("%(percent)s%% commission"),
                   percent=f"{(table.commission_rate * 100).normalize():f}")


@dataclass(frozen=True, slots=True)
class Part:
    """One graded part of an answer: a seat, the settling order, a commission."""

    name: str
    correct: bool
    said: Text
    right: Text
    why: Text = ""
    # The part's mistake as the two halves of a sentence: "You paid $50.00" and
    # "even money less 5% commission is $47.50".
    you: Text = ""
    fix: Text = ""
    # The part's name as people read it ("Seat 3", "Amount paid"); ``name`` stays the
    # English name the JSON and the page's data-part carry. None: the name itself.
    label: Message | None = None

    @property
    def shown_name(self) -> Text:
        """Return the part's name as shown (its label, or its name)."""
        return self.label if self.label is not None else self.name

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form (the sentences in English)."""
        return {"name": self.name, "correct": self.correct, "said": str(self.said),
                "right": str(self.right), "why": str(self.why)}


@dataclass(frozen=True, slots=True)
class Feedback:
    """What one answer gets back, in words.

    ``said`` is what the trainee answered ("You paid $50.00"), ``right`` what was
    right ("even money less 5% commission is $47.50"), ``why`` the sentence of the
    sheet or rule book behind it. ``sheet_rule`` and ``house_way`` name the line of
    the printable sheet ``why`` quotes, when it quotes one; ``section`` the rule
    book's section otherwise. ``parts`` lists each part of a multi-part answer.
    """

    correct: bool
    said: Text
    right: Text
    why: Text
    rule_id: str
    house_way: str | None = None
    sheet_rule: str | None = None
    section: Text = ""
    detail: Text = ""
    parts: tuple[Part, ...] = ()
    timed_out: bool = False

    @property
    def wrong_parts(self) -> tuple[str, ...]:
        """Return the names of the parts answered wrong, in order."""
        return tuple(p.name for p in self.parts if not p.correct)

    @property
    def wrong_labels(self) -> tuple[Text, ...]:
        """Return the names of the parts answered wrong as people read them, in order."""
        return tuple(p.shown_name for p in self.parts if not p.correct)

    @property
    def sentence(self) -> Message:
        """Return the answer and the right one in one sentence."""
        if self.correct:
            return Message(N_("%(said)s: right."), said=self.said)
        return Message(N_("%(said)s; %(right)s."), said=self.said, right=self.right)

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form (the answer's response carries it), in English."""
        return {"correct": self.correct, "said": str(self.said), "right": str(self.right),
                "why": str(self.why), "rule_id": self.rule_id, "sentence": str(self.sentence),
                "house_way": self.house_way, "sheet_rule": self.sheet_rule,
                "section": str(self.section), "wrong_parts": list(self.wrong_parts),
                "parts": [p.as_dict() for p in self.parts]}


# --- the rule book, rule by rule ---------------------------------------------------
#
# Each drill rule id (house-way rules come from their sheet) with the rule book's
# section and its sentence. The rules' short names are the web's (trainer/web/names.py).

RULE_BOOK: dict[str, tuple[str, str]] = {
    "settlement.win": ("§7", N_("Two wins win: the bet is paid even money less the commission.")),
    "settlement.push": ("§7", N_("One win and one loss push: the bet is returned.")),
    "settlement.lose": ("§7", N_("No win loses: the bet is taken.")),
    "settlement.copy-push": ("§7",
                             N_("A copy goes to the banker; with a win on the other hand the bet pushes.")),
    "settlement.copy-lose": ("§7",
                             N_("A copy goes to the banker; without a win on the other hand the bet loses.")),
    "settlement.foul": ("§8", N_("A fouled player hand loses its bet, whatever the cards.")),
    "settlement.queen-high": ("§11",
                              N_("At a no-commission table every bet pushes when the banker's seven "
                              "cards are a queen-high pai gow.")),
    "foul.pair-over-no-pair": ("§3",
                               N_("A pair in front over a back with no pair is a foul: the back must "
                               "rank above the front.")),
    "foul.higher-pair-in-front": ("§3",
                                  N_("A front pair higher than the back's pair is a foul.")),
    "foul.higher-cards-in-front": ("§3",
                                   N_("With no pair on either side the front is compared with the "
                                   "back's two highest cards in order: a higher front is a foul.")),
    "foul.legal.same-pair": ("§3",
                             N_("The same pair in front and in back is legal: the back counts as higher.")),
    "foul.legal.same-top-ranks": ("§3",
                                  N_("A front equal to the back's two highest ranks is legal: the "
                                  "back counts as higher.")),
    "foul.legal.pair-under-pair": ("§3",
                                   N_("A front pair lower than the back's pair is legal.")),
    "foul.legal.pair-under-better": ("§3",
                                     N_("A front pair under a back of two pair or better is legal.")),
    "foul.legal.no-pair": ("§3",
                           N_("No pair on either side and the back's highest cards above the "
                              "front's: legal.")),
    "foul.legal": ("§3",
                   N_("A back with a pair or better over a front with no pair is legal.")),
    "reading.compare.five": ("§4",
                             N_("Hands compare by category first, then by the ranks that make "
                             "them, high to low; suits never break a tie.")),
    "reading.compare.two": ("§6",
                            N_("A pair beats no pair; otherwise the higher card, then the lower, decides.")),
    "reading.copy.five": ("§4",
                          N_("Hands of the same ranks are a copy: neither wins (at the table a copy "
                          "goes to the banker).")),
    "reading.copy.two": ("§6",
                         N_("Two-card hands of the same ranks are a copy: neither wins (at the table "
                         "a copy goes to the banker).")),
    "action.banker": ("§2",
                      N_("Count the dice total counter-clockwise with the banker's seat as 1: "
                      "totals of 1, 8 and 15 land on the banker.")),
    "action.count": ("§2",
                     N_("Count the dice total counter-clockwise with the banker's seat as 1; the "
                     "first pile goes to the seat counted to.")),
    "action.player-banker": ("§2",
                             N_("When a player banks, the count starts at the player-banker's seat, "
                             "which is 1.")),
    "round.action": ("§2",
                     N_("Count the dice total counter-clockwise with the banker's seat as 1; the "
                     "piles follow counter-clockwise and a pile on an empty seat is dead.")),
    "round.action.player-banker": ("§2",
                                   N_("When a player banks, the count starts at the player-banker's "
                                   "seat, which is 1.")),
    "round.settle": ("§9",
                     N_("Losing bets are taken first, then winners are paid net of commission; "
                     "pushes stay where they are.")),
    "round.settle.player-banker": ("§10",
                                   N_("The player-banker pays the winners, takes the losers and pays "
                                   "commission on the bank's net win.")),
    "round.settle.outcome": ("§7",
                             N_("Two wins win, one win pushes, no win loses; a copy goes to the banker.")),
    "round.settle.order": ("§9",
                           N_("Losing bets are taken first, then winners are paid.")),
    "round.settle.amount": ("§9",
                            N_("A winner is paid even money less the commission.")),
    "round.settle.banker-commission": ("§10",
                                       N_("The player-banker pays commission on the bank's net win: "
                                       "what the losers lost less what the winners won.")),
}

READING_CATEGORY = ("§4",
                    N_("From high to low: five aces, royal flush, straight flush, four of a kind, "
                    "full house, flush, straight, three of a kind, two pair, one pair, high card."))
READING_JOKER = ("§5",
                 N_("The joker counts as an ace, or completes a straight, a flush or a straight flush."))

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
DRILL_HINTS: dict[str, str] = {
    "settlement": N_("Settling: look at each back against the banker's back and each front "
                  "against the banker's front; a copy goes to the banker, and a winner is "
                  "paid less the commission."),
    "foul": N_("A foul: look at the front against the back's best cards; the back must rank "
            "above it."),
    "reading": N_("Reading a hand: look for pairs, three or four of a kind first, then a "
               "straight or a flush, and where the joker fits."),
    "action": N_("The action: add the dice, look at where the banker sits, and count "
              "counter-clockwise from the banker's seat as 1."),
    "round": N_("A round: look at the banker's seat to count the action, set the banker's hand "
             "the house way, then take the losers before paying the winners."),
}


def _way(house_way: HouseWay | str) -> HouseWay:
    """Return the house way itself (a drill's ``context.way``), or load it by name."""
    return house_way if isinstance(house_way, HouseWay) else load(house_way)


def house_way_name(house_way: HouseWay | str) -> str:
    """Return a house way's name for sentences ("Trump Plaza (Atlantic City)")."""
    try:
        return _way(house_way).title.removesuffix(" house way")
    except (ValueError, LookupError, OSError, RuntimeError):
        return house_way if isinstance(house_way, str) else house_way.name


def sheet_rule(house_way: HouseWay | str, rule_id: str) -> tuple[str, str, str] | None:
    """Return a house-way rule's (number, sheet text, id on the sheet), or None."""
    try:
        rule = _way(house_way).rule(rule_id)
    except (ValueError, LookupError, OSError, RuntimeError):
        return None
    return rule.number, rule.text, rule.id


def sheet_sentence(house_way: HouseWay | str, rule_id: str) -> str:
    """Return a house-way rule as its sheet says it: "Trump Plaza (Atlantic City) 3.2: ..."."""
    found = sheet_rule(house_way, rule_id)
    if found is None:
        return ""
    number, text, _ = found
    return f"{house_way_name(house_way)} {number}: {text}"


def rule_book(rule_id: str) -> tuple[str, str] | None:
    """Return a drill rule's (rule book section, sentence), or None."""
    if rule_id in RULE_BOOK:
        return RULE_BOOK[rule_id]
    if rule_id.startswith("reading."):
        return READING_JOKER if rule_id.endswith(".joker") else READING_CATEGORY
    if rule_id.startswith("round.banker."):
        # How the banker's hand is set is the house way's, never the rule book's: the
        # feedback quotes the way's own rule (``house_way_feedback``).
        return ("§13", N_("Set the banker's hand by the house way."))
    return None


def hint(rule_id: str, way: HouseWay | None = None, decided: str | None = None) -> Text:
    """Return the practice hint of a rule: what to look at, or what the house way does.

    A house-way rule (and a round's banker step, whose ``decided`` is the rule of the way
    that sets the banker's hand) is hinted from ``way``'s own deciding rule
    (``way_hint``); the rule book's rules by the drill's sentence (``DRILL_HINTS``).
    """
    if rule_id.startswith("round."):
        if rule_id.startswith("round.banker."):
            found = way_hint(way, decided) if way is not None and decided else None
            return found if found is not None else DRILL_HINTS["round"]
        if rule_id.startswith("round.action"):
            return DRILL_HINTS["action"]
        if rule_id.startswith("round.settle"):
            return DRILL_HINTS["settlement"]
    family = rule_family(rule_id)
    if family in DRILL_HINTS:
        return DRILL_HINTS[family]
    found = way_hint(way, rule_id) if way is not None else None
    return found if found is not None else N_("Look at the cards the rule turns on.")


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
    kind = KINDS.get(rule.kind)
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


def book_why(rule_id: str) -> tuple[str, str]:
    """Return (rule book sentence, section) of a drill rule, or empty strings."""
    book = rule_book(rule_id)
    return (book[1], book[0]) if book is not None else ("", "")


def house_way_feedback(correct: bool, said: Text, right: Text, house_way: HouseWay | str,
                       rule_id: str,
                       detail: str = "", timed_out: bool = False,
                       parts: tuple[Part, ...] = (), shown_rule: str | None = None) -> Feedback:
    """Return feedback whose reason is a line of the house-way sheet."""
    rule = shown_rule or rule_id
    found = sheet_rule(house_way, rule)
    if found is None:
        return book_feedback(correct, said, right, rule_id, detail, timed_out, parts)
    return Feedback(correct, said, right, sheet_sentence(house_way, rule), rule_id,
                    house_way=house_way if isinstance(house_way, str) else house_way.name,
                    sheet_rule=found[2], detail=detail, parts=parts,
                    timed_out=timed_out)


def book_feedback(correct: bool, said: Text, right: Text, rule_id: str, detail: str = "",
                  timed_out: bool = False, parts: tuple[Part, ...] = ()) -> Feedback:
    """Return feedback whose reason is a sentence of the rule book."""
    why, section = book_why(rule_id)
    return Feedback(correct, said, right, Message(why) if why else "", rule_id,
                    section=section, detail=detail, parts=parts, timed_out=timed_out)


NO_ANSWER = Message(N_("You gave no answer in time"))
NO_ANSWER_WORDS = Message(N_("no answer"))


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


OUTCOME_WORDS = {"win": N_("win"), "push": N_("push"), "lose": N_("lose")}


def outcome_message(outcome: str) -> Text:
    """Return a settled outcome ("win", "push", "lose") as a word to translate."""
    return Message(OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS else str(outcome)


def outcome_words(outcome: str | None, paid_cents: int | None = None) -> Text:
    """Return a settled position in words: "win, paid $47.50", "push", "lose"."""
    if outcome is None:
        return Message(N_("not settled"))
    if outcome == "win" and paid_cents is not None:
        return Message(N_("win, paid %(amount)s"), amount=amount(paid_cents))
    return outcome_message(outcome)


RESULT_WORDS = {"win": N_("wins"), "loss": N_("loses"), "copy": N_("copies")}


def _result(value: str) -> Text:
    return Message(RESULT_WORDS[value]) if value in RESULT_WORDS else value


def hands_words(back: str, front: str, fouled: bool, reset: bool, queen_high: bool) -> Message:
    """Describe why a seat settles as it does, from its back and front results."""
    if fouled and not reset:
        return Message(N_("is fouled, and a fouled hand loses"))
    how = _settles(back, front, queen_high)
    if fouled:
        return Message(N_("is fouled and reset the house way; it then %(how)s"), how=how)
    return how


def _settles(back: str, front: str, queen_high: bool) -> Message:
    if queen_high:
        return Message(N_("plays a queen-high pai gow banker at a no-commission table, so "
                          "every bet pushes"))
    if back == front == "copy":
        return Message(N_("copies the back and the front, and copies go to the banker"))
    if back == "copy":
        return Message(N_("copies the back, and copies go to the banker"))
    if front == "copy":
        return Message(N_("copies the front, and copies go to the banker"))
    if back == front:
        return Message(N_("%(result)s both hands"), result=_result(back))
    return Message(N_("%(back)s the back and %(front)s the front"),
                   back=_result(back), front=_result(front))


def parts_feedback(parts: tuple[Part, ...], answered: bool, correct: bool, rule_id: str,
                   detail: str, timed_out: bool) -> Feedback:
    """Return the feedback on a multi-part answer: the first wrong part's sentence leads."""
    wrong = [p for p in parts if not p.correct]
    said: Text
    right: Text
    if not answered:
        said, right = NO_ANSWER, Message(N_("every part counts as wrong"))
    elif wrong:
        said, right = wrong[0].you, wrong[0].fix
    else:
        # Not "right" here: the sentence adds it ("You settled every part: right.", issue 26).
        said, right = Message(N_("You settled every part")), ""
    return book_feedback(correct and answered and not timed_out, said, right, rule_id,
                         detail, timed_out, parts)

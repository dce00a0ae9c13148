"""Feedback in words: what the trainee answered, what was right, and why.

Every drill kind builds its feedback here from the same pieces (``Drill.feedback``
in each kind's module puts them together): the trainee's answer and the right one
in words, one sentence of the house-way sheet or of the rule book (docs/rules.md)
that says why, and, for an answer of several parts (a table settled seat by seat,
a round's settle step with the player-banker's commission), each part right or
wrong. A rule's section, sentence and practice hint are its kind's (each kind's home
declares its skills, ``skills.BOOK``); ``rule_book`` and ``hint`` look them up and hold
no kind's data. A hand to set is hinted by what the
house way does with it (the house-way home's ``way_hint``). Pure: the sentences are the
engine's own, like the grades' explanations.

Each sentence is a ``Message`` (``messages.py``: an ``N_``-marked template with named
values, money as ``Money``), so the web writes it in the reader's language
(``web/engine_words.message_words``); ``str()`` of it is the English the engine always wrote, and
``as_dict`` (the answer's JSON) gives that English. A house-way sheet's own sentence
(``why`` quoting a sheet) stays its text, translated by the web from the sheet's data.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..cards import SUIT_SYMBOLS
from ..house_way import HouseWay
from ..messages import N_, Joined, Message, Money, Translated
from ..profiles import TableProfile
from .skills import Words, skill

# A sentence, or a sentence's value: a Message (translated when shown), an amount, a
# list of those, a house way's own words (``Translated``: a rule's hint, its sheet line),
# or text as it is.
Text = Message | Money | Joined | Translated | str


def card_text(card: Any) -> str:
    """Return a card as people write it: ``10♥``, ``Q♠``, ``joker``."""
    text = str(card)
    if text == "JK":
        return "joker"
    if len(text) != 2 or text[1] not in SUIT_SYMBOLS:
        return text
    return ("10" if text[0] == "T" else text[0]) + SUIT_SYMBOLS[text[1]]


def cards_words(cards: Iterable[Any]) -> Joined:
    """Return cards for a sentence: ``10♥ Q♠``, the joker as a word to translate."""
    return Joined(Message(N_("joker")) if str(c) == "JK" else card_text(c) for c in cards)


def amount(cents: int | None) -> Money | Message:
    """Return whole cents for a sentence (``$1,234.50`` in English), or "nothing"."""
    if not isinstance(cents, int) or isinstance(cents, bool):
        return Message(N_("nothing"))
    return Money(cents, grouped=True)


def commission_message(table: TableProfile) -> Message:
    """Return how a winner's pay is worked out at the table, in words."""
    if table.no_commission:
        return Message(N_("even money, no commission"))
    if table.fee_cents is not None:
        return Message(N_("even money (the %(fee)s fee is charged win or lose)"),
                       fee=amount(table.fee_cents))
    return Message(N_("even money less %(rate)s"), rate=rate_message(table))


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


def house_way_name(way: HouseWay) -> str:
    """Return a house way's name for sentences ("Trump Plaza (Atlantic City)").

    The way itself (a drill's ``context.way``): the engine looks no house way up by name.
    """
    return way.title.removesuffix(" house way")


def sheet_rule(way: HouseWay, rule_id: str) -> tuple[str, str, str] | None:
    """Return a house-way rule's (number, sheet text, id on the sheet), or None."""
    try:
        rule = way.rule(rule_id)
    except (ValueError, LookupError):
        return None
    return rule.number, rule.text, rule.id


def sheet_sentence(way: HouseWay, rule_id: str) -> str:
    """Return a house-way rule as its sheet says it: "Trump Plaza (Atlantic City) 3.2: ..."."""
    found = sheet_rule(way, rule_id)
    if found is None:
        return ""
    number, text, _ = found
    return f"{house_way_name(way)} {number}: {text}"


def rule_book(rule_id: str) -> tuple[str, Any] | None:
    """Return a drill rule's (rule book section, sentence), or None: the skill a kind's
    home declares (``skills.BOOK``)."""
    found = skill(rule_id)
    return (found.section, found.sentence) if found is not None else None


def hint(rule_id: str) -> Words:
    """Return the practice hint of a rule: what to look at.

    The hint its kind's home declares for the skill (``skills.BOOK``). A hand to set is
    hinted by what the house way does with it (the house-way home's ``way_hint``, from
    the way's deciding rule), which the kind asks for itself.
    """
    found = skill(rule_id)
    return found.hint if found is not None else N_("Look at the cards the rule turns on.")


def book_why(rule_id: str) -> tuple[str, str]:
    """Return (rule book sentence, section) of a drill rule, or empty strings."""
    book = rule_book(rule_id)
    return (book[1], book[0]) if book is not None else ("", "")


def house_way_feedback(correct: bool, said: Text, right: Text, house_way: HouseWay,
                       rule_id: str,
                       detail: str = "", timed_out: bool = False,
                       parts: tuple[Part, ...] = (), shown_rule: str | None = None) -> Feedback:
    """Return feedback whose reason is a line of the house-way sheet."""
    rule = shown_rule or rule_id
    found = sheet_rule(house_way, rule)
    if found is None:
        return book_feedback(correct, said, right, rule_id, detail, timed_out, parts)
    return Feedback(correct, said, right, sheet_sentence(house_way, rule), rule_id,
                    house_way=house_way.name,
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

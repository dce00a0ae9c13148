"""The bonus drill's words: its sentences, its feedback part by part, its skills and hint.

Each sentence is a ``Message`` (``messages.py``), said in the reader's language by the
web; ``str()`` of it is the English. The pay tables' names and sheet sentences are the
tables' own data (``side_bets/tables/``), translated by the web from the data's words.
"""
from __future__ import annotations

from ....messages import N_, Joined, Lowered, Message, Money
from ....profiles import SideBetOffer
from ....side_bets import PAY_ORDER, BonusCategory, PayLine, PayTable, TableKind, load_table, table_names
from ...context import DrillContext, Grade
from ...explain import NO_ANSWER, NO_ANSWER_WORDS, Feedback, Part, Text
from ...skills import Skill
from .key import Reckoning, reckon
from .questions import BonusAnswer, BonusQuestion, PartName, envy_table, offered_table, qualifying

# The cue's answer in words, by the answer's ``qualifies`` (a part's ``given`` and
# ``right`` keep the English).
QUALIFIES_WORDS = {True: N_("qualifies"), False: N_("does not qualify")}
# The three parts' names as people read them (also each part's English ``name``).
PART_LABELS: dict[PartName, str] = {"qualifies": N_("Does it qualify for Envy?"),
                                    "category": N_("Bonus hand"), "paid": N_("Amount paid")}
# The practice hint of every pay line: what to look at (the hand's category decides the line).
HINT = N_("Look at the cards the rule turns on.")


def dollars(cents: int) -> str:
    """Write an amount in dollars and cents: $1,234.50 (English; a sentence takes ``Money``)."""
    return str(Money(cents, grouped=True))


def category_name(table: PayTable, category: BonusCategory) -> str:
    """Return a category's name in this table's words."""
    line = table.line_for(category)
    return line.name if line is not None else category.title


def answer_value(answer: BonusAnswer, part: PartName) -> bool | str | int:
    """Return what an answer says in one part: its cue, its category or its amount."""
    if part == "qualifies":
        return answer.qualifies
    if part == "category":
        return answer.category
    return answer.paid_cents


def part_words(table: PayTable, part: PartName, value: bool | str | int) -> Text:
    """Say one part's value: the cue's words, the category's name, or the amount."""
    if part == "qualifies":
        return Message(QUALIFIES_WORDS[bool(value)])
    if part == "category":
        found = next(c for c in PAY_ORDER if c.slug == value)
        return Message(category_name(table, found))
    return Money(int(value), grouped=True)


def pay_sentence(table: PayTable, line: PayLine | None, bet: int, meter: int | None) -> Message:
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


def cue_sentence(worked: Reckoning, offer: SideBetOffer) -> Message:
    """Say whether the hand qualifies (pays Envy to the other bonus bets)."""
    envy = worked.envy_line
    if envy is not None:
        return Message(N_("It qualifies: every other player with a qualifying bonus bet is "
                          "paid %(amount)s Envy."),
                       amount=Money(envy.amount_cents or 0, grouped=True))
    lowest = envy_table(offer).line_for(qualifying(offer)[-1])
    start = Lowered(Message(lowest.name), whole=True) if lowest is not None \
        else Message(N_("the Envy table"))
    return Message(N_("It does not qualify: Envy starts at %(start)s."), start=start)


def feedback(question: BonusQuestion, answer: BonusAnswer | None, grade: Grade,
             timed_out: bool) -> Feedback:
    """Say what was answered and what was right, part by part, and the pay line's sentence."""
    correct = grade.correct and answer is not None and not timed_out
    worked = reckon(question)
    key: BonusAnswer = grade.correct_answer
    parts = tuple(Part(PART_LABELS[p.part], p.correct and answer is not None and not timed_out,
                       part_words(worked.table, p.part, answer_value(answer, p.part))
                       if answer is not None else NO_ANSWER_WORDS,
                       part_words(worked.table, p.part, answer_value(key, p.part)),
                       label=Message(PART_LABELS[p.part]))
                  for p in grade.parts)
    right = Joined((p.right for p in parts), ", ")
    said: Text = (NO_ANSWER if answer is None
                  else Message(N_("You answered %(parts)s"),
                               parts=Joined((p.said for p in parts), ", ")))
    why = pay_sentence(worked.table, worked.line, question.bet_cents, question.meter_cents)
    return Feedback(correct, said,
                    Message(N_("it %(parts)s"), parts=right) if not correct else right,
                    why, grade.rule_id, section=Message(N_("Side bets")),
                    detail=grade.explanation, parts=parts, timed_out=timed_out)


# --- skills -------------------------------------------------------------------------
# Each pay line the drill grades by is a skill: the lines of a bonus or progressive
# table (the category's part and the amount's) and of an Envy table (the cue's part),
# and each table's "nothing" (a losing bonus bet; a hand that does not qualify). Its name
# is the table's and the line's ("Fortune bonus (standard table): four of a kind"), its
# short name the line's. It has no rule-book sentence of its own (none before either):
# the feedback says what the line pays on the bet shown (``pay_sentence``), and the
# settlement's and round's side-bet parts, graded with the same rule ids, word theirs.


def table_skills(table: PayTable) -> tuple[Skill, ...]:
    """Return the skills of one pay table: its lines, best first, then its "nothing"."""
    none = N_("no qualifying hand") if table.kind is TableKind.ENVY else N_("no bonus hand")
    named = [(line.rule_id, Message(line.name), line.name) for line in table.lines]
    named.append((table.losing_rule_id, Message(none), none))
    return tuple(Skill(rule_id, "", Message(N_("%(table)s: %(line)s"), table=Message(table.title),
                                            line=Lowered(line)), short, "", HINT)
                 for rule_id, line, short in named)


def skills_of(context: DrillContext) -> tuple[Skill, ...]:
    """Return the skills a question under ``context`` grades: its table's lines and its Envy's."""
    offer, _offered = offered_table(context.table)
    return (*table_skills(load_table(offer.table)), *table_skills(envy_table(offer)))


def all_skills() -> tuple[Skill, ...]:
    """Return the skills of every shipped bonus, progressive and Envy table."""
    tables = [load_table(name) for name in table_names()]
    return tuple(s for table in tables
                 if table.kind in (TableKind.BONUS, TableKind.PROGRESSIVE, TableKind.ENVY)
                 for s in table_skills(table))

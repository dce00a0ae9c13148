"""The foul check's words: its skills (the parts of the foul rule, rules.md §3) and feedback."""
from __future__ import annotations

from ....cards import parse_cards
from ....hands import evaluate2, evaluate5
from ....messages import N_, Message
from ...context import DrillContext, Grade
from ...explain import NO_ANSWER, Feedback, Text, book_feedback, cards_words
from ...skills import Skill
from .questions import FoulAnswer, FoulKey, FoulQuestion

HINT = N_("A foul: look at the front against the back's best cards; the back must rank "
          "above it.")


def _skill(rule_id: str, name: str, sentence: str) -> Skill:
    return Skill(id=rule_id, section="§3", name=name, short=name, sentence=sentence, hint=HINT)


SKILLS = (
    _skill("foul.pair-over-no-pair", N_("Pair in front over no pair: foul"),
           N_("A pair in front over a back with no pair is a foul: the back must "
              "rank above the front.")),
    _skill("foul.higher-pair-in-front", N_("Higher pair in front: foul"),
           N_("A front pair higher than the back's pair is a foul.")),
    _skill("foul.higher-cards-in-front", N_("Higher cards in front: foul"),
           N_("With no pair on either side the front is compared with the "
              "back's two highest cards in order: a higher front is a foul.")),
    _skill("foul.legal.same-pair", N_("Same pair in both hands: legal"),
           N_("The same pair in front and in back is legal: the back counts as higher.")),
    _skill("foul.legal.same-top-ranks", N_("Same top cards: legal"),
           N_("A front equal to the back's two highest ranks is legal: the "
              "back counts as higher.")),
    _skill("foul.legal.pair-under-pair", N_("Lower pair in front: legal"),
           N_("A front pair lower than the back's pair is legal.")),
    _skill("foul.legal.pair-under-better", N_("Pair in front under a better back: legal"),
           N_("A front pair under a back of two pair or better is legal.")),
    _skill("foul.legal.no-pair", N_("Higher cards in back: legal"),
           N_("No pair on either side and the back's highest cards above the "
              "front's: legal.")),
    _skill("foul.legal", N_("Legal setting"),
           N_("A back with a pair or better over a front with no pair is legal.")),
)


def foul_feedback(question: FoulQuestion, answer: FoulAnswer | None, grade: Grade,
                  context: DrillContext, timed_out: bool) -> Feedback:
    """Say legal or fouled as called and as it is, with the rule book's foul rule."""
    key: FoulKey = grade.correct_answer
    wheel = context.table.wheel
    back = evaluate5(parse_cards(question.back, 5), wheel).name
    front = evaluate2(parse_cards(question.front, 2)).name
    said: Text
    if answer is None:
        said = NO_ANSWER
    elif answer.fouled and answer.front is not None:
        said = Message(N_("You called it fouled and reset it with %(cards)s in front"),
                       cards=cards_words(answer.front))
    else:
        said = Message(N_("You called it fouled") if answer.fouled
                       else N_("You called it legal"))
    if key.fouled and key.reset is not None:
        right = Message(N_("it is fouled: the front (%(front)s) outranks the back (%(back)s); "
                           "the house way resets it with %(cards)s in front"),
                        front=front, back=back, cards=cards_words(key.reset.front))
    elif key.fouled:
        right = Message(N_("it is fouled: the front (%(front)s) outranks the back (%(back)s)"),
                        front=front, back=back)
    else:
        right = Message(N_("it is legal: the back (%(back)s) ranks above the front (%(front)s)"),
                        front=front, back=back)
    correct = grade.correct and answer is not None and not timed_out
    return book_feedback(correct, said, right, grade.rule_id, grade.explanation, timed_out)

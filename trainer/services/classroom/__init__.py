"""Classroom mode (issue 31): an instructor deals one hand to every trainee of a group at once,
sees the answers arrive, locks them, reveals who was right and why, and moves on.

``from trainer.services import classroom`` gives the use cases. The package's modules, one
job each:

- ``rows``: refusals, limits (the poll interval), the one poll read (``poll_row``), the
  contexts (the one builder's, from the group's settings or a hand's stored JSON);
- ``running``: start, offer, join, poll (a timer run out locks there), presence, end, and
  the change tokens a poll is answered 304 by;
- ``dealing``: a hand dealt at random, for a rule, from the group's weakest rules, or
  typed in;
- ``answers``: a hand's first delivery, answers (changeable until the lock), the lock
  (answers graded and recorded as class attempts), the reveal and the timer;
- ``views``: what the pages are handed (the instructor's view, a trainee's, the summary).

State lives in the database only, so any web server answers any device; there is no
service of its own (docs/classroom.md, "Real time").
"""
from trainer.services.classroom.answers import Ack, answer, lock, reveal, set_timer
from trainer.services.classroom.dealing import (
    WEAKEST_DAYS,
    DealOrder,
    deal,
    next_hand,
    typed_question,
    warm_dealing,
    weakest_rules,
)
from trainer.services.classroom.rows import (
    CLASS_DEALT,
    POLL_MS,
    PRESENT_FOR,
    TIMER_MAX_S,
    ClassClosed,
    ClassError,
    ClassNotFound,
    NotAdmitted,
    PollRow,
    class_drill,
    get_class,
    group_context,
)
from trainer.services.classroom.running import (
    Offer,
    Present,
    admit,
    end_class,
    held_number,
    instructor_token,
    join,
    offer_for,
    poll,
    roster,
    running_class_of,
    start_class,
    touch,
    trainee_token,
)
from trainer.services.classroom.views import (
    AnswerGroup,
    ClassOrigin,
    HandSummary,
    HandView,
    InstructorView,
    Reveal,
    TraineeResult,
    TraineeView,
    class_origin,
    class_summary,
    instructor_view,
    rule_skill,
    shown_question_of,
    trainee_view,
)

__all__ = [
    "CLASS_DEALT", "POLL_MS", "PRESENT_FOR", "TIMER_MAX_S", "WEAKEST_DAYS", "Ack", "AnswerGroup",
    "ClassClosed", "ClassError", "ClassNotFound", "ClassOrigin", "DealOrder", "HandSummary",
    "HandView",
    "InstructorView", "NotAdmitted", "Offer", "PollRow", "Present", "Reveal", "TraineeResult",
    "TraineeView", "admit", "answer", "class_drill", "class_origin", "class_summary", "deal",
    "end_class",
    "get_class", "group_context", "held_number", "instructor_token", "instructor_view", "join", "lock",
    "next_hand", "offer_for", "poll", "reveal", "roster", "rule_skill", "running_class_of",
    "set_timer", "shown_question_of", "start_class", "touch", "trainee_token", "trainee_view",
    "typed_question", "warm_dealing", "weakest_rules",
]

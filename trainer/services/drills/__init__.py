"""Drill sessions on the server: start one, issue its questions, grade and record answers.

``from trainer.services import drills as drill_service`` gives the public use cases.
The package's modules, one job each:

- ``sessions``: the session use cases (start, the next question, an answer, the
  summary) and the drill questions the demo class deals (``deal_question``,
  ``grade_answer``);
- ``views``: what they hand to the web (a question to show, an answer's result, a
  summary);
- ``context``: the one builder of a drill's context from a group's settings
  (``build``), and a stored context read back with its house way resolved
  (``context_from_json``);
- ``store``: the hand-built fast store of the hot path (plain rows, Core statements
  built once a process), and the stored shapes of a question's and an attempt's rows;
- ``timeouts``: the sweeper that records unanswered clocked questions as timed out;
- ``replay``: an attempt dealt again from its seed and graded again.
"""
from trainer.services.drills.context import build, context_from_json, group_of, settings_for
from trainer.services.drills.replay import regrade, replay_question
from trainer.services.drills.sessions import (
    DEALT,
    MISTAKE_LOOKBACK,
    MISTAKE_RULES,
    MODES,
    AlreadyAnswered,
    DrillError,
    MalformedAnswer,
    SessionFinished,
    SessionNotFound,
    answer_key,
    answer_question,
    deal_question,
    get_session,
    grade_answer,
    issue_question,
    missed_rules,
    session_length,
    start_session,
    summary,
)
from trainer.services.drills.timeouts import settle_overdue, timeout_deadline
from trainer.services.drills.views import AnswerResult, IssuedView, Summary
from trainer.services.timing import GRACE_MS

__all__ = [
    "DEALT", "GRACE_MS", "MISTAKE_LOOKBACK", "MISTAKE_RULES", "MODES", "AlreadyAnswered",
    "AnswerResult", "DrillError", "IssuedView", "MalformedAnswer", "SessionFinished",
    "SessionNotFound", "Summary", "answer_key", "answer_question", "build", "context_from_json",
    "deal_question", "get_session", "grade_answer", "group_of", "issue_question", "missed_rules",
    "regrade", "replay_question", "session_length", "settings_for", "settle_overdue",
    "start_session", "summary", "timeout_deadline",
]

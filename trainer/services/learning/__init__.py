"""Practice that adapts (issue 30): memories per trainee and skill, targeted practice, forecasts.

``from trainer.services import learning`` gives what the pages call (docs/learning.md,
"In the app"). The package's modules, one job each:

- ``records``: the stored memories (``SkillMemory``), read and written here only; the
  memories an answer reads in its own statement (``aggregate_column``);
- ``memory``: when memories change: at the answer (``review_answer``), at an exam's end
  (``exam_ended``), at a class's lock (``record_class_attempts``), and made whole from the
  answers on record before anything reads them (``bring_up_to_date``);
- ``rating``: the answer time a session's right answers are rated Hard or Easy by;
- ``plan``: the next question's skill in a targeted session (the engine's policy);
- ``assignments``: a supervisor's assigned rules and families;
- ``standing``: a trainee's standing per skill and family, the class heat map;
- ``outlook``: the forecast;
- ``practice``: starting targeted practice, or the practice of one rule.

The drill sessions call ``memory``, ``plan``, ``rating`` and ``records`` (through
``services/drills/targeting.py``); nothing here imports the sessions but ``practice``.
"""
from trainer.services.learning.assignments import (
    Assignment,
    AssignmentError,
    assign,
    end,
    in_force,
    of_group,
)
from trainer.services.learning.memory import bring_up_to_date, exam_ended, record_class_attempts
from trainer.services.learning.outlook import Outcome, forecast
from trainer.services.learning.practice import start_rule_practice, start_targeted
from trainer.services.learning.standing import (
    FamilyStanding,
    GroupKnowledge,
    Knowledge,
    SkillStanding,
    TraineeRow,
    group_knowledge,
    knowledge,
)

__all__ = [
    "Assignment", "AssignmentError", "FamilyStanding", "GroupKnowledge", "Knowledge",
    "Outcome", "SkillStanding", "TraineeRow", "assign", "bring_up_to_date", "end",
    "exam_ended", "forecast", "group_knowledge", "in_force", "knowledge", "of_group",
    "record_class_attempts", "start_rule_practice", "start_targeted",
]

"""Practice that adapts (issue 30): what a trainee remembers of each skill, and what to ask next.

Pure, like the rest of the engine: no Flask, no SQLAlchemy, no I/O. The services keep
the memories in the database and call these modules with plain values:

- ``keys``: the skill one graded answer exercised (``SkillKey``): the rule the attempt
  records, scoped to the house way and rules version when it is one of the way's rules;
- ``memory``: the pinned FSRS scheduler (PyPI ``fsrs``), the rating of an answer
  (Again, Hard, Good, Easy) and a skill's memory (``CardState``) reviewed and recalled;
- ``policy``: the targeted-practice policy that picks the next question's skill, shared
  with ``bench/learning_sim.py`` (docs/learning.md, "The policies");
- ``forecast``: how many sessions and hands until the trainee is ready, at their pace.
"""

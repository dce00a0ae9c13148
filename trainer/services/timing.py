"""Clock allowances shared by the drills and the exams."""
from __future__ import annotations

# Allowance for the question's trip to the browser and the answer's trip back:
# an answer is late only once the limit plus this grace has passed on the server.
GRACE_MS = 1000

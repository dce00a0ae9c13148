"""Every action the services write to the audit log is named in words on the audit page."""
from __future__ import annotations

import re
from pathlib import Path

from trainer.web.words.change_history import ACTIONS

ROOT = Path(__file__).resolve().parents[2]
# An audited action as the services and web write it: "<area>.<what>" or a sign-in's.
ACTION = re.compile(r"""["']((?:account|group|house_way|profile|exam|installation|learning|class)"""
                    r"""\.[a-z_.-]+|sign-in(?:\.failed)?|sign-out)["']""")


def _written_actions() -> set[str]:
    """Return the action names written as literals where the audit log is written."""
    found: set[str] = set()
    for path in (ROOT / "trainer").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "audit" not in text or path.name == "change_history.py":
            continue
        found.update(ACTION.findall(text))
    return found


def test_every_audited_action_has_words_on_the_audit_page() -> None:
    written = _written_actions()
    # The search must see the actions it is about (so it cannot pass by finding nothing).
    assert {"account.create", "learning.assign", "learning.unassign", "sign-in"} <= written
    missing = sorted(a for a in written if a not in ACTIONS)
    assert not missing, f"audit actions without words in change_history.ACTIONS: {missing}"

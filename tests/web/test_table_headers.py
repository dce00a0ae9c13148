"""Every table header cell has a name (issue 16, item 8: axe-core's empty-table-header).

A column without a visible heading (a right-or-wrong tag, a row's buttons) names
itself in visually hidden text, so a screen reader reads each cell with its column
and a stacked table labels the cell.
"""
from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A header cell with nothing in it but spaces or Jinja comments.
EMPTY_TH = re.compile(r"<th\b[^>]*>(?:\s|\{#.*?#\})*</th>", re.S)


def test_every_table_header_cell_has_a_name() -> None:
    empty = [f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
             for path in sorted(TEMPLATES.rglob("*.html"))
             for match in EMPTY_TH.finditer(path.read_text(encoding="utf-8"))]
    assert empty == []
    assert any(TEMPLATES.rglob("*.html"))

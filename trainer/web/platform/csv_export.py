"""CSV downloads that a spreadsheet opens as plain text, never as formulas.

Every CSV the app sends goes through ``csv_response``, which passes each cell
through ``neutralise`` and quotes every text cell. The rule (docs/operations.md,
"CSV exports"):

- a quote mark ``'`` goes before every formula sign (``= + - @`` and their
  full-width forms) that starts the cell or follows a separator: any character
  other than a letter, a digit, ``.``, ``_``, ``'`` or another formula sign
  (so spaces, tabs, line breaks, ``,``, ``;``, ``|``, ``:``, brackets, quotes);
- a cell that then starts with a tab, a carriage return or a line feed gets a
  leading ``'`` too;
- text cells are written in double quotes, so a ``;`` or ``,`` inside a cell
  does not split it in a spreadsheet set to that separator; numbers stay numbers.

A cell split anyway (an import that ignores quotes) still begins each piece with
``'``, so no piece is read as a formula. Ordinary values ("2024-05-01",
"Mary-Jane", "a+b@x.org", "hw.pair.split") are left as they are.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from typing import Any

from flask import Response, stream_with_context

FORMULA_SIGNS = "=+-@\uff1d\uff0b\uff0d\uff20"
LINE_STARTS = ("\t", "\r", "\n")
# A formula sign at the start, or after a character that is not a letter, a digit,
# ".", "_", "'" or another formula sign.
_SIGNS = re.escape(FORMULA_SIGNS)
_FORMULA_START = re.compile(rf"(?:^|(?<=[^\w.'{_SIGNS}]))(?=[{_SIGNS}])")


def neutralise(value: Any) -> Any:
    """Return a cell a spreadsheet cannot read as a formula; numbers pass unchanged."""
    if not isinstance(value, str):
        return value
    text = _FORMULA_START.sub("'", value)
    if text.startswith(LINE_STARTS):
        text = "'" + text
    return text


def csv_response(rows: Iterable[list[Any]], filename: str) -> Response:
    """Stream ``rows`` as a UTF-8 CSV download, every cell neutralised."""

    def generate() -> Iterator[str]:
        buffer = io.StringIO()
        writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)
        yield "\ufeff"  # tells spreadsheet programs the file is UTF-8
        for row in rows:
            writer.writerow([neutralise(value) for value in row])
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()

    return Response(
        stream_with_context(generate()), mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )

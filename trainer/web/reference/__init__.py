"""The reference pages: the house-way sheet and its PDF, the commission chart, the look-up.

The sheet itself, drawn and printed, is ``platform/sheets.py`` (the supervisor's and the
manager's changes queue its PDFs too)."""
from trainer.web.reference.pages import bp

__all__ = ["bp"]

"""Side bets: bonus categories of seven cards, pay tables as data, and exact figures.

See docs/side-bets.md. Settlement with side bets is one floor up, in
``trainer.engine.bonus_settlement``.
"""
from .categories import PAY_ORDER, BonusCategory, BonusHand, Match, bonus_category, bonus_hand, sample_hand
from .paytables import PayLine, PayTable, TableKind, load_table, table_names

__all__ = [
    "PAY_ORDER", "BonusCategory", "BonusHand", "Match", "PayLine", "PayTable", "TableKind",
    "bonus_category", "bonus_hand", "load_table", "sample_hand", "table_names",
]

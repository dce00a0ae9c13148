"""Side bets: bonus categories of seven cards, pay tables as data, and exact figures.

See docs/side-bets.md. Settlement with side bets is one floor up, in
``trainer.engine.bonus_settlement``.
"""
from .categories import PAY_ORDER, BonusCategory, BonusHand, Match, bonus_category, bonus_hand, sample_hand
from .paytables import (
    SIDE_BET_RULES,
    PayLine,
    Payment,
    PayTable,
    TableKind,
    load_table,
    question_payment,
    question_rules,
    question_table,
    table_names,
    verify_rules,
)

__all__ = [
    "PAY_ORDER", "SIDE_BET_RULES", "BonusCategory", "BonusHand", "Match", "PayLine", "PayTable",
    "Payment", "TableKind", "bonus_category", "bonus_hand", "load_table", "question_payment",
    "question_rules", "question_table", "sample_hand", "table_names", "verify_rules",
]

"""The ``settlement`` drill's home: settle a whole table against the banker.

``kind`` holds the drill (and ``SLUG``), ``questions`` its question, answer, key and
graded seats, ``side`` the side bets at the table (typed), ``deal`` its generator and
dealing for one rule, ``grade`` its grader, ``words`` its skills, hint and feedback,
``legacy`` its first generator. A round's settle step reuses the hands, the seats'
parts and words, and the side bets.
"""
from .deal import BETS_DOLLARS, bet_sizes, queen_high_banker
from .grade import position_results, settle_all, settled_right
from .kind import SLUG, SettlementDrill
from .questions import (
    Hand,
    Position,
    PositionAnswer,
    PositionKey,
    Reset,
    SeatPart,
    SettlementAnswer,
    SettlementKey,
    SettlementQuestion,
    position_schema,
)
from .side import BonusPart, EnvyPart, SideBet, SidePaid, paid_of, read_side_parts, side_parts_json
from .words import HINT, queen_high, queen_high_message, seat_part, seat_parts

__all__ = ["BETS_DOLLARS", "HINT", "SLUG", "BonusPart", "EnvyPart", "Hand", "Position",
           "PositionAnswer", "PositionKey", "Reset", "SeatPart", "SettlementAnswer",
           "SettlementDrill", "SettlementKey", "SettlementQuestion", "SideBet", "SidePaid",
           "bet_sizes", "paid_of", "position_results", "position_schema", "queen_high", "queen_high_banker",
           "queen_high_message", "read_side_parts", "seat_part", "seat_parts",
           "settle_all", "settled_right", "side_parts_json"]

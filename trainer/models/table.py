"""The player's game: a balance of play chips and the hands played against the banker.

The balance changes only when a hand is settled, by the hand's net, in the same
transaction that marks the hand settled (see ``trainer.services.table``). A hand is
dealt only when the balance covers its worst loss, and a game has at most one
open hand, so the balance can never go below zero (a check constraint says so too).
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from trainer.extensions import Model
from trainer.models.types import UTCDateTime, utcnow


class PlayerGame(Model):
    """One run of the player's game by one user: the balance and the last bet."""

    __tablename__ = "player_games"
    __table_args__ = (
        CheckConstraint("balance_cents >= 0", name="balance"),
        Index("ix_player_games_user_id_started_at", "user_id", "started_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    balance_cents: Mapped[int]
    starting_cents: Mapped[int]
    last_bet_cents: Mapped[int | None]
    # The side bet of the last deal (None or 0: none), repeated by Re-Bet.
    last_bonus_cents: Mapped[int | None]
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    hands: Mapped[list[GameHand]] = relationship(
        back_populates="game", order_by="GameHand.number", cascade="all, delete-orphan"
    )


class GameHand(Model):
    """One hand of the player's game: the deal, both settings, the banker's, the result.

    The cards are dealt from ``seed`` and stored; the settings and results are
    filled in when the hand is settled, never from anything but the server's deal.
    """

    __tablename__ = "game_hands"
    __table_args__ = (
        # One hand per place in a game, so two deals at once cannot both open a hand.
        UniqueConstraint("game_id", "number"),
        CheckConstraint("state IN ('dealt', 'settled')", name="state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("player_games.id", ondelete="CASCADE"))
    number: Mapped[int]
    seed: Mapped[int] = mapped_column(BigInteger)
    house_way: Mapped[str] = mapped_column(String(64))
    # The rules digest of the house way it was dealt under (issue 18); None: hands before it.
    house_way_digest: Mapped[str | None] = mapped_column(String(64))
    profile: Mapped[str] = mapped_column(String(64))
    bet_cents: Mapped[int]
    state: Mapped[str] = mapped_column(String(16), default="dealt")
    player_cards: Mapped[list[str]] = mapped_column(JSON)
    banker_cards: Mapped[list[str]] = mapped_column(JSON)
    # Filled in at settlement.
    used_house_way: Mapped[bool] = mapped_column(default=False)
    player_back: Mapped[list[str] | None] = mapped_column(JSON)
    player_front: Mapped[list[str] | None] = mapped_column(JSON)
    house_back: Mapped[list[str] | None] = mapped_column(JSON)
    house_front: Mapped[list[str] | None] = mapped_column(JSON)
    house_rule: Mapped[str | None] = mapped_column(String(64))
    banker_back: Mapped[list[str] | None] = mapped_column(JSON)
    banker_front: Mapped[list[str] | None] = mapped_column(JSON)
    banker_rule: Mapped[str | None] = mapped_column(String(64))
    outcome: Mapped[str | None] = mapped_column(String(8))
    commission_cents: Mapped[int | None]
    net_cents: Mapped[int | None]
    house_outcome: Mapped[str | None] = mapped_column(String(8))
    house_net_cents: Mapped[int | None]
    balance_after_cents: Mapped[int | None]
    # The side bet (docs/side-bets.md): its pay table and stake at the deal (None: no side
    # bet), its pay line's rule id, win and net (against the house) at settlement.
    bonus_table: Mapped[str | None] = mapped_column(String(64))
    bonus_bet_cents: Mapped[int | None]
    bonus_rule: Mapped[str | None] = mapped_column(String(64))
    bonus_win_cents: Mapped[int | None]
    bonus_net_cents: Mapped[int | None]
    dealt_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    game: Mapped[PlayerGame] = relationship(back_populates="hands")

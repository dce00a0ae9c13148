"""The player's game: a practice table where anyone signed in bets, sets and settles."""
from trainer.web.play.pages import bp

__all__ = ["bp"]

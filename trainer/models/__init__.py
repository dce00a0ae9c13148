"""The database models, re-exported so callers import from ``trainer.models``."""
from trainer.models.attempt import AppendOnlyError, Attempt, DrillSession
from trainer.models.certification import AuditLog, CertificationExam, ExamStatus
from trainer.models.drill import IssuedQuestion
from trainer.models.game import GameHand, PlayerGame
from trainer.models.security import LoginFailure, UserSession
from trainer.models.group import DEFAULT_HOUSE_WAY, DEFAULT_PROFILE, Group, Membership
from trainer.models.types import UTCDateTime, utcnow
from trainer.models.user import MIN_PASSWORD_LENGTH, Role, User, normalize_login

__all__ = [
    "AppendOnlyError",
    "Attempt",
    "AuditLog",
    "CertificationExam",
    "DEFAULT_HOUSE_WAY",
    "DEFAULT_PROFILE",
    "DrillSession",
    "ExamStatus",
    "GameHand",
    "Group",
    "LoginFailure",
    "IssuedQuestion",
    "MIN_PASSWORD_LENGTH",
    "Membership",
    "PlayerGame",
    "Role",
    "UTCDateTime",
    "User",
    "UserSession",
    "normalize_login",
    "utcnow",
]

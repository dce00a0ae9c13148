"""The database models, re-exported so callers import from ``trainer.models``."""
from trainer.models.audit import AuditLog
from trainer.models.classroom import ClassAnswer, ClassHand, ClassPresence, LiveClass
from trainer.models.drill import AppendOnlyError, Attempt, DrillSession, IssuedQuestion
from trainer.models.exam import CertificationExam, ExamStatus
from trainer.models.group import DEFAULT_HOUSE_WAY, DEFAULT_PROFILE, Group, Membership
from trainer.models.house_way import (
    CustomHouseWay,
    HouseWaySnapshot,
    HouseWayTable,
    HouseWayVersion,
)
from trainer.models.installation import InstallationSetting
from trainer.models.job import Job
from trainer.models.learning import LearningAssignment, SkillMemory
from trainer.models.profile import CustomProfile
from trainer.models.security import LoginFailure, UserSession
from trainer.models.table import GameHand, PlayerGame
from trainer.models.types import UTCDateTime, utcnow
from trainer.models.user import MIN_PASSWORD_LENGTH, Role, User, normalize_login

__all__ = [
    "DEFAULT_HOUSE_WAY",
    "DEFAULT_PROFILE",
    "MIN_PASSWORD_LENGTH",
    "AppendOnlyError",
    "Attempt",
    "AuditLog",
    "CertificationExam",
    "ClassAnswer",
    "ClassHand",
    "ClassPresence",
    "CustomHouseWay",
    "CustomProfile",
    "DrillSession",
    "ExamStatus",
    "GameHand",
    "Group",
    "HouseWaySnapshot",
    "HouseWayTable",
    "HouseWayVersion",
    "InstallationSetting",
    "IssuedQuestion",
    "Job",
    "LearningAssignment",
    "LiveClass",
    "LoginFailure",
    "Membership",
    "PlayerGame",
    "Role",
    "SkillMemory",
    "UTCDateTime",
    "User",
    "UserSession",
    "normalize_login",
    "utcnow",
]

"""Settings of the whole installation (one row per setting), such as the room's time zone."""
from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from trainer.extensions import Model


class InstallationSetting(Model):
    """One installation-wide setting by key; the admin changes it (``services/time_zones.py``)."""

    __tablename__ = "installation_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(255))

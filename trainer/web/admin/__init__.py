"""The admin's pages: accounts, the audit log, the room's time zone and the installation's
language, currency and cards' letters."""
from trainer.web.admin.pages import bp

__all__ = ["bp"]

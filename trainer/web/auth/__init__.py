"""Signing in and out, one's own password, language and time zone, remembered devices."""
from trainer.web.auth.pages import bp

__all__ = ["bp"]

"""Classroom mode (issue 31): the instructor's projector and drive, the trainee's class page
(``pages``), their pieces (``parts``) and the devices' quiet poll, answered before Flask
(``poll``)."""
from trainer.web.classroom.pages import bp

__all__ = ["bp"]

"""Certification: sealed exams scheduled for trainees and their kept results (``exams``)."""

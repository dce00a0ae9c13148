"""Supervisors' reports: figures per trainee, drill and rule, readiness (``pages`` for now)."""

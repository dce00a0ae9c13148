"""The app's use cases: drills, the player's table, certification, reports, audit, backup.

Services take plain arguments (ids, settings) and work on the models and the
engine; they never read a Flask request or the signed-in user.
"""

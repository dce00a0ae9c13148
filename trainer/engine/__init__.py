"""The Pai Gow engine: pure Python, no Flask, no SQLAlchemy, no I/O.

Layers, each importing only the ones before it:
cards -> hands -> setting -> house_way -> profiles -> settlement -> action -> game
-> drills.
"""

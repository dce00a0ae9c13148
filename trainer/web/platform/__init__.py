"""The web's app-wide pieces, under every area: the Flask and Jinja set-up, errors, security
headers, request limits, server-side sessions, static files, the template filters, the
reader's language, money and time zone, the role gate and ownership checks, the forms
every area shares, CSV downloads, the drill kinds as pages offer them, sealed exams, the
printed house-way sheet and its PDF job, and the speed tweaks (``fast_paths``).

Any area may import these modules; they never import an area (tests/test_web_areas.py).
"""

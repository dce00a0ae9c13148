"""The web layer, by area: each area a package holding its blueprints, registered in
``create_app``; beneath them two shared floors, ``platform`` (the app-wide pieces) and
``words`` (what turns the machine's things into words). An area never imports another
area's module (docs/architecture.md, "The areas of web/"; tests/test_web_areas.py).
"""

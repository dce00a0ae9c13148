"""The web layer: one blueprint per area, registered in ``create_app``."""

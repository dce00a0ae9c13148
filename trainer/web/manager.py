"""The table-games manager's pages: the installation's house ways and table rules.

A manager owns the house ways and the table-rules profiles. Today this page lists
them in words with their printable sheets, PDFs, look-up and commission charts;
the house-way editor (issue 18) makes it its home. Admins, who outrank managers,
may open it too.
"""
from __future__ import annotations

from flask import Blueprint, render_template

from trainer.models import Role
from trainer.services import house_ways as catalogue
from trainer.web.access import role_required
from trainer.web.reference import PAPER_SIZES, money

bp = Blueprint("manager", __name__, url_prefix="/manager")


@bp.route("/house-ways")
@role_required(Role.MANAGER, Role.ADMIN)
def house_ways() -> str:
    """List every house way and table-rules profile, with links to print each."""
    return render_template("manager/house_ways.html", ways=catalogue.house_ways(),
                           profiles=catalogue.profiles(), papers=PAPER_SIZES, money=money)

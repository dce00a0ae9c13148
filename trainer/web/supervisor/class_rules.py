"""The class by house-way rule: every rule of the group's house way, the class's answers on
it, its accuracy and who errs (issue 27; docs/dashboards.md, "The class by rule")."""
from __future__ import annotations

from flask import render_template, request

from trainer.services.reports import pages as reports
from trainer.web.platform import languages
from trainer.web.supervisor.base import (
    PERIOD_NAMES,
    bp,
    drill_kinds,
    get_group_or_404,
    request_period,
)
from trainer.web.words.names import house_way_name

# The page's orders: the sheet's, or the weakest rules first (the rules never met last).
ORDERS = ("sheet", "weakest")


@bp.route("/groups/<id:group_id>/rules")
def group_rules(group_id: int) -> str:
    """Show each rule of the group's house way with the class's answers, accuracy and who errs."""
    group = get_group_or_404(group_id)
    period = request_period()
    wanted = request.args.get("drill")
    report = reports.class_by_rule(group.id, period,
                                   drill=wanted if wanted in drill_kinds() else None)
    order = request.args.get("order")
    order = order if order in ORDERS else ORDERS[0]
    rows = report.weakest_first() if order == "weakest" else report.rules
    return render_template(
        "supervisor/group_rules.html", group=group, report=report, rows=rows, order=order,
        # The drill filter's choices, in the drills page's order (as on the overview).
        kinds=[k for k in drill_kinds() if k in report.kinds], drill=report.drill,
        period_names=PERIOD_NAMES, lang=languages.language(),
        way_name=house_way_name(report.house_way),
    )

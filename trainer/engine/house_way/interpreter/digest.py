"""The rules digest: a hash of what decides a hand in a house way's data, not its words."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .. import kinds as K


def rules_digest(data: Mapping[str, Any]) -> str:
    """Return a hash of a house way's rule data: what decides a hand, not its words.

    The rank groups, each section's condition, resolved and decided lines, and each
    rule's id (its kind), pool, condition, resolved and decided lines, in the sheet's
    order. Titles, sheet sentences, explanations, examples and translations are left
    out, so rewording a sheet keeps its class tables.
    """
    rule_data = {
        "rank_groups": data.get("rank_groups", {}),
        "sections": [
            {"when": s.get("when", {}), "resolved": s.get("resolved"),
             "decided": s.get("decided"),
             "rules": [{"id": r["id"], "kind": K.kind_of(r["id"]), "pool": r.get("pool"),
                        "when": r.get("when", {}), "resolved": r.get("resolved"),
                        "decided": r.get("decided")} for r in s.get("rules", [])]}
            for s in data["sections"]],
    }
    return hashlib.sha256(json.dumps(rule_data, sort_keys=True, default=str).encode()
                          ).hexdigest()

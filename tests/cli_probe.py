"""Run ``trainer.cli.main`` in a fresh interpreter and report which app packages it loaded.

Shared by the engine's CLI tests (tests/engine/test_cli_loads_no_app.py and
test_cli_custom_way.py): an engine command must load no Flask or SQLAlchemy.
"""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

APP_PACKAGES = ("flask", "flask_babel", "flask_login", "flask_migrate", "flask_sqlalchemy",
                "flask_wtf", "sqlalchemy", "werkzeug")

SCRIPT = """
import json, sys
from trainer.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(%r)))
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def run_trainer(*args: str, timeout: float = 120) -> tuple[str, dict[str, Any]]:
    """Run ``trainer ARGS``; return its standard output and {"code", "loaded"}."""
    result = subprocess.run([sys.executable, "-c", SCRIPT % json.dumps(APP_PACKAGES), *args],
                            capture_output=True, text=True, timeout=timeout, check=False)
    return result.stdout, json.loads(result.stderr.strip().splitlines()[-1])

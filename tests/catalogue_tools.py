"""The catalogue tool (``tools/catalogues.py``, not a package) for the tests, and the
pseudo-locale's translations that the tests of unmarked text read (issue 19)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _load() -> Any:
    known = sys.modules.get("catalogues")
    if known is not None:
        return known
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "tools" / "catalogues.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogues"] = module
    spec.loader.exec_module(module)
    return module


catalogues: Any = _load()


def pseudo_folder(factory: Any) -> Path:
    """Write the pseudo-locale's catalogue (every message accented) into a new folder."""
    folder = Path(factory.mktemp("pseudo-translations"))
    catalogues.write_pseudo(catalogues.extract(), folder)
    return folder


def pseudo_config(app_config: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Return the app's settings with every request read in the pseudo-locale
    (trainer/__init__.py, ``_select_locale``)."""
    return {**app_config, "BABEL_TRANSLATION_DIRECTORIES": str(folder), "PSEUDO_LOCALE": True}

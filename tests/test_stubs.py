"""The type stubs of the untyped Flask extensions (``stubs/``) match the installed libraries.

mypy checks ``trainer/`` strictly against ``stubs/flask_babel``, ``stubs/flask_login``
and ``stubs/flask_wtf`` (pyproject.toml, ``mypy_path``). A stub that no longer says
what the library does (an argument renamed or dropped by an upgrade, a function gone)
would let mypy pass code that fails when run, so mypy's own ``stubtest`` compares each
stub with the library as imported. The stubs are partial on purpose (what ``trainer/``
uses): names the library has and the stubs do not are not reported.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import trainer

REPO_ROOT = Path(trainer.__file__).resolve().parent.parent
STUBS = REPO_ROOT / "stubs"
STUBBED = ("flask_babel", "flask_login", "flask_wtf")


def test_every_stubbed_library_has_its_stubs_in_the_mypy_path():
    config = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'mypy_path = "stubs"' in config
    for name in STUBBED:
        assert (STUBS / name / "__init__.pyi").is_file(), name


def test_the_stubs_match_the_installed_libraries(tmp_path):
    # Run outside the repository: the stubs alone, without the project's mypy settings.
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", *STUBBED, "--ignore-missing-stub"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "MYPYPATH": str(STUBS)},
    )
    assert run.returncode == 0, run.stdout + run.stderr

#!/usr/bin/env bash
# Set up and start the trainer (web server and job worker) on this machine:   ./run.sh
# Run the whole test suite instead:                ./run.sh test [pytest args]
# Run the lint and type checks (ruff, mypy):        ./run.sh lint
# Safe to run again: the venv, the install, the migrations and the demo accounts
# are each skipped or brought up to date when already there.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-5000}

if [ ! -x .venv/bin/python ]; then
    echo "Creating the virtual environment in .venv ..."
    "$PYTHON" -m venv .venv
fi

# Install the project (with extras) unless this exact pyproject.toml is already installed.
install() {
    local spec=$1 stamp
    stamp=".venv/.installed-$(sha256sum < pyproject.toml | cut -c1-16)-${spec//[^a-z]/}"
    if [ ! -e "$stamp" ]; then
        echo "Installing $spec into .venv ..."
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
        touch "$stamp"
    fi
}

if [ "${1:-}" = "test" ]; then
    shift
    install ".[test]"
    # axe-core for the accessibility check (tests/e2e/package.json), when npm is here.
    if command -v npm >/dev/null && [ ! -e tests/e2e/node_modules/axe-core ]; then
        echo "Installing axe-core into tests/e2e/node_modules ..."
        (cd tests/e2e && npm ci --no-audit --no-fund --silent)
    fi
    # On SQLite (each test its own file) the tests run in one process per CPU, whole files
    # to a process; on PostgreSQL (TEST_DATABASE_URL: one database) in one process. An
    # explicit -n wins (-n 0: one process).
    parallel=()
    if [ -z "${TEST_DATABASE_URL:-}" ] && ! printf '%s\n' "$@" | grep -qE '^(-n|--numprocesses)'; then
        parallel=(-n auto --dist loadfile)
    fi
    exec .venv/bin/pytest "${parallel[@]}" "$@"
fi

if [ "${1:-}" = "lint" ]; then
    install ".[test]"
    # Both read their settings (rules, paths, strictness) from pyproject.toml.
    .venv/bin/ruff check .
    exec .venv/bin/mypy
fi

install "."
.venv/bin/trainer db upgrade
.venv/bin/trainer seed-demo
echo
echo "Pai Gow Trainer: open http://$HOST:$PORT/ in a browser (Ctrl-C stops the server and the job worker)."
echo
# The web server and one job worker (issue 25: jobs and PDFs run in the worker, never in
# the web server); stopping this script, or either of them ending, stops both.
.venv/bin/trainer worker &
worker=$!
.venv/bin/trainer run --host "$HOST" --port "$PORT" &
web=$!
stop() {
    trap - EXIT INT TERM
    kill -TERM "$web" "$worker" 2>/dev/null || true
    wait "$web" "$worker" 2>/dev/null || true
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
status=0
wait -n "$web" "$worker" || status=$?
exit "$status"

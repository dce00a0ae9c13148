"""Input and output of the engine commands: one JSON answer per line, errors on stderr, exit 2."""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import NoReturn

import click


def emit(obj: dict) -> None:
    """Print one JSON answer on its own line."""
    sys.stdout.write(json.dumps(obj) + "\n")


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2."""
    click.echo(f"error: {' '.join(str(message).split())}", err=True)
    sys.exit(2)


def run_one(handler: Callable[[], dict]) -> None:
    """Run one request: print its answer, or fail with its readable error."""
    try:
        answer = handler()
    except ValueError as exc:
        fail(str(exc))
    else:
        emit(answer)


def stream_jsonl(handler: Callable[[str], dict]) -> None:
    """Answer one request per stdin line, in order, streaming; exit 2 if any failed."""
    failed = False
    write = sys.stdout.write
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        try:
            answer = handler(text)
        except (ValueError, TypeError, KeyError) as exc:
            failed = True
            message = str(exc) if isinstance(exc, ValueError) else f"bad request: {exc}"
            answer = {"error": message}
        write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    if failed:
        sys.exit(2)


def json_object(text: str, keys: tuple[str, ...]) -> dict:
    """Parse a JSON request line and check it names the required keys."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError("The request line is not valid JSON.") from None
    if not isinstance(obj, dict):
        raise ValueError("The request line must be a JSON object.")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise ValueError(f"The request is missing {', '.join(missing)}.")
    return obj

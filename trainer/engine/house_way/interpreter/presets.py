"""The shipped presets: their names (the default first), each loaded once a process.

The presets are the engine's own package data, one TOML file per casino in
``house_way/presets/``; ``set_hand`` is the dealer's "set the player's hand the house
way" by a preset's name.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from ...hands import Wheel
from .results import HouseWayError, HouseWaySetting
from .way import HouseWay

DEFAULT_HOUSE_WAY = "trump-plaza"
_PRESETS = "presets"
# The package whose data the presets are: ``trainer.engine.house_way``.
_HOUSE_WAY_PACKAGE = __name__.rsplit(".", 2)[0]


def _preset_dir() -> Traversable:
    return resources.files(_HOUSE_WAY_PACKAGE).joinpath(_PRESETS)


@cache
def _preset_names() -> tuple[str, ...]:
    names = sorted(p.name.removesuffix(".toml") for p in _preset_dir().iterdir()
                   if p.name.endswith(".toml"))
    if DEFAULT_HOUSE_WAY in names:
        names.remove(DEFAULT_HOUSE_WAY)
        names.insert(0, DEFAULT_HOUSE_WAY)
    return tuple(names)


def preset_names() -> list[str]:
    """Return the shipped presets, the default first."""
    return list(_preset_names())


def load(name: str = DEFAULT_HOUSE_WAY, table: bool = True) -> HouseWay:
    """Return a shipped preset house way by name, loaded once a process.

    Its class tables load on first use; ``table=False`` gives a separate copy that
    never uses them (the interpreter path, for comparison). The engine knows the presets
    only (its own package data): a manager's published version or a preset's earlier
    rules are the services' (``services/house_ways/``), which hand the house way itself
    down (a drill's ``context.way``). ValueError "Unknown house way" for any other name.
    """
    return _load(name, bool(table))


@cache
def _load(name: str, table: bool) -> HouseWay:
    if name not in _preset_names():
        raise ValueError(f"Unknown house way {name!r}; the presets are "
                         f"{', '.join(preset_names())}.")
    text = _preset_dir().joinpath(f"{name}.toml").read_text(encoding="utf-8")
    way = HouseWay.from_toml(text, table)
    if way.name != name:
        raise HouseWayError(f"Preset file {name}.toml names itself {way.name!r}.")
    return way


def set_hand(seven: Iterable[int | str] | str, house_way: str = DEFAULT_HOUSE_WAY,
             wheel: str = Wheel.SECOND_HIGHEST) -> HouseWaySetting:
    """Set seven cards by a named house way (the dealer's procedure and foul policy)."""
    return load(house_way).set(seven, wheel)

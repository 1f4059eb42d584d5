"""dunlua: a scriptable roguelike dungeon generator.

Lua scripts decide the layout; dunlua's Rust host runs them in a sandbox
and hands the maps to Python as numpy arrays::

    import dunlua
    gen = dunlua.Generator("scripts/rooms.lua", params={"max_rooms": 12}, size=(80, 50))
    m = gen.generate(7)
    m.tiles        # numpy uint8 (height, width): tile ids, index into m.kinds
    m.transparent  # numpy bool (height, width), for tcod.map.compute_fov

The same script, seed, parameters and size give the same map as the
``dunlua`` command (``m.hash`` is what ``dunlua SCRIPT --seed N --hash``
prints), on every machine.
"""

from __future__ import annotations

import atexit
import os
from typing import Any, Mapping

from ._dunlua import Generator, Map, __version__, _shutdown, prove
from ._errors import (
    BudgetExceeded,
    LimitExceeded,
    MemoryExceeded,
    Rejected,
    ScriptError,
    TimedOut,
)

__all__ = [
    "Generator",
    "Map",
    "generate",
    "prove",
    "ScriptError",
    "LimitExceeded",
    "BudgetExceeded",
    "MemoryExceeded",
    "TimedOut",
    "Rejected",
    "__version__",
]

# Before Python finalizes: cancel the runs under way and start no more (a
# daemon thread still generating then would otherwise abort the process).
atexit.register(_shutdown)


def generate(
    path: str | os.PathLike[str],
    seed: int = 0,
    size: tuple[int, int] | None = None,
    params: Mapping[str, Any] | None = None,
    budget: int | None = None,
    memory: int | None = None,
    timeout: float | None = None,
    levels: int | None = None,
    max_attempts: int | None = None,
) -> Map:
    """One map of the script at ``path``: ``Generator(path, ...).generate(seed)``.

    For many seeds, make one ``Generator`` and call ``generate`` on it: the
    script is compiled once.
    """
    gen = Generator(
        path,
        params=dict(params) if params is not None else None,
        size=size,
        budget=budget,
        memory=memory,
        timeout=timeout,
        levels=levels,
        max_attempts=max_attempts,
    )
    return gen.generate(seed)

"""Type stubs of dunlua's extension module (re-exported by ``dunlua``)."""

import os
from typing import Any, Mapping, Sequence, TypedDict

import numpy as np
import numpy.typing as npt

__version__: str

def _shutdown() -> None:
    """Cancels the runs under way and starts no more (registered with atexit)."""

def prove(levels: Sequence[Map]) -> dict[str, Any] | None:
    """The completion proof of a dungeon's levels (level 1 first) against the
    puzzle its script declares: ``{"outcome": "finishable" | "unfinishable" |
    "softlock" | "too_many_states", "sentence": str, "cells": [(level, x, y)]}``,
    or None when the script declares none."""

class Kind(TypedDict):
    """A tile kind; its index in ``Map.kinds`` is its tile id."""

    name: str
    glyph: str
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]
    walkable: bool
    transparent: bool

class Marker(TypedDict):
    """A named point the script marked (``map:mark(x, y, name, props)``)."""

    x: int
    y: int
    name: str
    props: dict[str, bool | int | float | str]

class Generator:
    """A compiled script that makes a map per seed.

    ``budget`` (instructions), ``memory`` (MiB) and ``timeout`` (seconds, 0
    for no deadline) are the command line's ``--max-instructions``,
    ``--max-memory`` and ``--timeout``; ``None`` is the command line's
    default (400,000,000, 512, 10). Bad arguments raise ``ValueError`` /
    ``TypeError``; a script that fails to compile or load raises
    ``dunlua.ScriptError``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        params: Mapping[str, bool | int | float | str] | None = None,
        size: tuple[int, int] | None = None,
        budget: int | None = None,
        memory: int | None = None,
        timeout: float | None = None,
        levels: int | None = None,
        max_attempts: int | None = None,
    ) -> None: ...
    @staticmethod
    def from_source(
        text: str,
        modules: Mapping[str, str] | None = None,
        name: str = "script.lua",
        params: Mapping[str, bool | int | float | str] | None = None,
        size: tuple[int, int] | None = None,
        budget: int | None = None,
        memory: int | None = None,
        timeout: float | None = None,
        levels: int | None = None,
        max_attempts: int | None = None,
    ) -> Generator:
        """A generator for script text; ``modules`` maps names as ``require``
        takes them (``"lib.walls"``) to their source."""
    def generate(self, seed: int) -> Map:
        """The map of one seed (level 1 of a linked dungeon). The GIL is
        released while the script runs; Ctrl-C stops it."""
    def generate_levels(self, seed: int) -> list[Map]:
        """Every level of one seed's dungeon, level 1 first."""
    @property
    def levels(self) -> int:
        """How many levels each seed makes."""
    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the maps it makes."""
    @property
    def params(self) -> dict[str, bool | int | float | str]:
        """Every declared parameter with the value this generator uses."""
    @property
    def name(self) -> str:
        """The script's ``name``."""

class Map:
    """One generated map. Coordinates are 0-based ``(x, y)``, as in the
    scripts; arrays are ``(height, width)``, indexed ``[y, x]``."""

    @property
    def tiles(self) -> npt.NDArray[np.uint8]:
        """Tile ids, ``(height, width)``, read-only; ``tiles.T`` is the
        ``[x, y]`` view (no copy). An id indexes ``kinds``."""
    @property
    def walkable(self) -> npt.NDArray[np.bool_]:
        """Whether each cell can be walked on, ``(height, width)``."""
    @property
    def transparent(self) -> npt.NDArray[np.bool_]:
        """Whether each cell lets light through, ``(height, width)``."""
    @property
    def kinds(self) -> list[Kind]:
        """The tile kinds; index = tile id."""
    def name_at(self, x: int, y: int) -> str:
        """The kind's name at ``(x, y)``; ``IndexError`` outside the map."""
    @property
    def start(self) -> tuple[int, int]:
        """Where the player starts, ``(x, y)``."""
    @property
    def rooms(self) -> list[tuple[int, int, int, int]]:
        """The recorded rooms as ``(x, y, w, h)`` (``Rect.new``'s arguments)."""
    @property
    def markers(self) -> list[Marker]:
        """The script's markers."""
    @property
    def hash(self) -> str:
        """The 16-hex-digit hash ``dunlua SCRIPT --seed N --hash`` prints."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def level(self) -> int:
        """Which level of its dungeon this map is (1-based)."""
    @property
    def level_count(self) -> int:
        """How many levels its dungeon has."""
    @property
    def params(self) -> dict[str, bool | int | float | str]:
        """Every declared parameter with the value used."""
    @property
    def rejections(self) -> list[tuple[int, str]]:
        """The attempts the script rejected before this map, and why."""
    def prove(self) -> dict[str, Any] | None:
        """The completion proof of this map alone: ``{"outcome": ...,
        "sentence": ..., "cells": [(level, x, y), ...]}``, or None when the
        script declares no puzzle."""
    def to_json(self) -> str:
        """The JSON ``dunlua SCRIPT --out map.json`` writes for this map;
        ``ValueError`` when it would take more than 512 MB (the exports' bound)."""
    def __str__(self) -> str:
        """The map as text, as ``dunlua SCRIPT --ascii`` prints it."""


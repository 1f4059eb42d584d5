"""The tutorial's field of view: `tcod.map.compute_fov` on `m.transparent`
from the start sees the whole start room."""

from __future__ import annotations

import os

import numpy as np
import pytest

import dunlua

if os.environ.get("CI"):
    import tcod.map  # CI installs tcod: a missing one fails there
else:
    tcod = pytest.importorskip("tcod")
    import tcod.map


def test_fov_from_the_start_sees_the_start_room():
    m = dunlua.Generator("scripts/rooms.lua", params={"max_rooms": 12}, size=(80, 50)).generate(7)
    x, y = m.start
    visible = tcod.map.compute_fov(m.transparent, (y, x), radius=0, light_walls=True)
    assert visible.shape == (m.height, m.width) and visible[y, x]
    room = next((rx, ry, w, h) for rx, ry, w, h in m.rooms if rx < x < rx + w and ry < y < ry + h)
    rx, ry, w, h = room
    assert visible[ry + 1 : ry + h, rx + 1 : rx + w].all()
    # It does not see through walls: most of the map is out of sight.
    assert visible.sum() < m.walkable.sum()
    # The [x, y] view (tcod's order="F" maps) gives the same field of view.
    seen_xy = tcod.map.compute_fov(m.transparent.T, (x, y), radius=0, light_walls=True)
    assert np.array_equal(seen_xy.T, visible)


def test_pathfinding_on_walkable_reaches_every_room():
    import tcod.path

    m = dunlua.Generator("scripts/rooms.lua").generate(3)
    cost = m.walkable.astype(np.int8)
    graph = tcod.path.SimpleGraph(cost=cost, cardinal=1, diagonal=0)
    finder = tcod.path.Pathfinder(graph)
    x, y = m.start
    finder.add_root((y, x))
    for rx, ry, w, h in m.rooms:
        path = finder.path_to((ry + h // 2, rx + w // 2))
        assert len(path) >= 1 and tuple(path[-1]) == (ry + h // 2, rx + w // 2)

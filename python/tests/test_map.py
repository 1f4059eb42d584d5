"""What a Python game reads from a map: numpy arrays of the right shape and
type, read-only, with a no-copy transposed view; kinds, rooms, markers and
start as the scripts name them."""

from __future__ import annotations

import numpy as np
import pytest

import dunlua

MARKED = """
return { width = 12, height = 8, generate = function(map)
  map:carve_room(Rect.new(1, 1, 10, 6))
  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })
  map:set_start(2, 2)
  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })
  map:mark(9, 5, 'exit')
end }
"""


@pytest.fixture(scope="module")
def rooms_map():
    return dunlua.Generator("scripts/rooms.lua", params={"max_rooms": 12}, size=(80, 50)).generate(7)


def test_arrays_shape_dtype_order(rooms_map):
    m = rooms_map
    assert (m.width, m.height) == (80, 50)
    assert m.tiles.shape == (50, 80) and m.tiles.dtype == np.uint8
    assert m.tiles.flags.c_contiguous
    assert m.walkable.shape == m.transparent.shape == (50, 80)
    assert m.walkable.dtype == m.transparent.dtype == np.bool_


def test_arrays_are_read_only(rooms_map):
    for array in (rooms_map.tiles, rooms_map.walkable, rooms_map.transparent):
        assert not array.flags.writeable
        with pytest.raises(ValueError):
            array[0, 0] = 1
        with pytest.raises(ValueError):
            array.T[0, 0] = 1


def test_transpose_is_an_x_y_view_without_a_copy(rooms_map):
    t = rooms_map.tiles
    assert t.T.shape == (80, 50)
    assert np.shares_memory(t, t.T)
    assert t.T.flags.f_contiguous and not t.T.flags.owndata
    x, y = rooms_map.start
    assert t.T[x, y] == t[y, x]
    assert rooms_map.tiles is rooms_map.tiles or np.shares_memory(rooms_map.tiles, t)


def test_kinds_index_by_tile_id(rooms_map):
    m = rooms_map
    kinds = m.kinds
    assert [k["name"] for k in kinds[:6]] == ["wall", "floor", "door", "stairs_down", "stairs_up", "water"]
    assert set(kinds[0]) == {"name", "glyph", "fg", "bg", "walkable", "transparent"}
    assert kinds[0]["glyph"] == "#" and kinds[1]["walkable"] and not kinds[0]["transparent"]
    assert all(len(k["fg"]) == 3 and len(k["bg"]) == 3 for k in kinds)
    walkable = np.array([k["walkable"] for k in kinds])[m.tiles]
    transparent = np.array([k["transparent"] for k in kinds])[m.tiles]
    assert np.array_equal(walkable, m.walkable)
    assert np.array_equal(transparent, m.transparent)
    x, y = m.start
    assert m.walkable[y, x]
    assert m.name_at(x, y) == kinds[m.tiles[y, x]]["name"]
    with pytest.raises(IndexError):
        m.name_at(80, 0)


def test_rooms_are_rect_arguments(rooms_map):
    rooms = rooms_map.rooms
    assert rooms and all(len(r) == 4 for r in rooms)
    for x, y, w, h in rooms:
        # Rect.new(x, y, w, h) carves its interior (x+1..x+w-1, y+1..y+h-1).
        assert rooms_map.walkable[y + 1 : y + h, x + 1 : x + w].all()


def test_markers_and_typed_props():
    m = dunlua.Generator.from_source(MARKED).generate(1)
    assert m.markers == [
        {"x": 3, "y": 3, "name": "goblin", "props": {"boss": True, "hp": 7, "loot": "gold", "speed": 1.5}},
        {"x": 9, "y": 5, "name": "exit", "props": {}},
    ]
    props = m.markers[0]["props"]
    assert type(props["hp"]) is int and type(props["speed"]) is float and type(props["boss"]) is bool
    assert m.start == (2, 2)
    assert m.rooms == [(1, 1, 5, 6)]


def test_hash_json_and_text(rooms_map):
    assert len(rooms_map.hash) == 16 and int(rooms_map.hash, 16) >= 0
    assert f'"hash": "{rooms_map.hash}"' in rooms_map.to_json() or rooms_map.hash in rooms_map.to_json()
    rows = str(rooms_map).splitlines()
    assert len(rows) == 50 and all(len(r) == 80 for r in rows)
    assert "@" in str(rooms_map)
    assert "dunlua.Map" in repr(rooms_map)


def test_levels_of_a_linked_dungeon():
    gen = dunlua.Generator("scripts/levels.lua")
    levels = gen.generate_levels(3)
    assert len(levels) == gen.levels > 1
    assert [m.level for m in levels] == list(range(1, gen.levels + 1))
    assert all(m.level_count == gen.levels for m in levels)
    assert levels[0].hash == gen.generate(3).hash


def test_generator_reports_what_it_uses():
    gen = dunlua.Generator("scripts/rooms.lua", params={"max_rooms": 12}, size=(60, 40))
    assert gen.size == (60, 40)
    assert gen.params["max_rooms"] == 12 and gen.params["min_size"] == 6
    assert gen.levels == 1
    assert "Rooms" in gen.name


def test_modules_by_require_name():
    main = "local walls = require('lib.walls')\nreturn { width = 20, height = 10, generate = function(map)\n  walls.outline(map)\n  map:set_start(3, 3)\nend }\n"
    walls = "return { outline = function(map)\n  map:fill('wall')\n  map:carve_room(Rect.new(0, 0, map.width - 1, map.height - 1))\nend }\n"
    m = dunlua.Generator.from_source(main, modules={"lib.walls": walls}).generate(1)
    assert m.name_at(0, 0) == "wall" and m.name_at(3, 3) == "floor"
    m2 = dunlua.Generator.from_source(main, modules={"lib/walls.lua": walls}).generate(1)
    assert m2.hash == m.hash
    with pytest.raises(dunlua.ScriptError, match="lib/walls.lua"):
        dunlua.Generator.from_source(main).generate(1)


def test_prove_gives_a_game_the_verdict_and_the_sentence():
    """A level a game generated, proved at run time (as dunlua check does)."""
    gen = dunlua.Generator("tests/completion/drop_dead_end.lua")
    good = dunlua.prove(gen.generate_levels(0))
    assert good["outcome"] == "finishable"
    bad = dunlua.prove(gen.generate_levels(1))
    assert bad["outcome"] == "softlock"
    assert bad["sentence"] == (
        "falling through the chasm at (2, 2) on level 1 onto (2, 2) on level 2 "
        "leaves the exit unreachable (softlock)"
    )
    assert bad["cells"] == [(1, 2, 2)]
    keys = dunlua.Generator("scripts/keys.lua").generate(7)
    assert keys.prove()["outcome"] == "finishable"
    rooms = dunlua.Generator("scripts/rooms.lua").generate(7)
    assert rooms.prove() is None

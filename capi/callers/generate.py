"""A Python game's use of dunlua through ctypes (no build step): generate
rooms.lua, read the map, and show that errors come back as a status and a
message. Prints the same lines as generate.c, for capi/tests/callers.rs.

    python3 generate.py ../../target/debug/libdunlua_capi.so ../../scripts/rooms.lua
"""
import ctypes
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_bool, c_char_p,
                    c_double, c_int, c_int32, c_int64, c_size_t, c_uint8,
                    c_uint32, c_uint64, c_void_p)

MAIN_SCRIPT = b"""local room = require('lib.room')
return { width = 20, height = 10, generate = function(map)
  room.carve(map)
  map:set_start(2, 2)
end }
"""
LEVELS_SCRIPT = b"""return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)
  map:carve_room(Rect.new(1, 1, 17, 7))
  map:set_start(2 + ctx.level, 3)
end }
"""
MARKED_SCRIPT = b"""return { width = 12, height = 8, generate = function(map)
  map:carve_room(Rect.new(1, 1, 10, 6))
  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })
  map:add_room(Rect.new(6, 1, 5, 6))
  map:set_start(2, 2)
  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })
end }
"""
ROOM_MODULE = b"""return { carve = function(map)
  map:fill('wall')
  map:carve_room(Rect.new(1, 1, 10, 6))
end }
"""


class TileKind(Structure):
    _fields_ = [("name", c_char_p), ("glyph", c_char_p), ("codepoint", c_uint32),
                ("color", c_uint32), ("background", c_uint32),
                ("walkable", c_bool), ("transparent", c_bool)]


class Room(Structure):
    _fields_ = [("x1", c_int32), ("y1", c_int32), ("x2", c_int32), ("y2", c_int32)]


class Marker(Structure):
    _fields_ = [("x", c_int32), ("y", c_int32), ("name", c_char_p)]


class Property(Structure):
    _fields_ = [("key", c_char_p), ("kind", c_int), ("integer", c_int64),
                ("number", c_double), ("boolean", c_bool), ("text", c_char_p)]


LOADER = CFUNCTYPE(None, c_void_p, c_char_p, c_void_p)


def bind(path):
    lib = ctypes.CDLL(path)
    sig = {
        "dunlua_version": (c_char_p, []),
        "dunlua_status_name": (c_char_p, [c_int32]),
        "dunlua_last_error": (c_char_p, []),
        "dunlua_generator_from_file": (c_void_p, [c_char_p]),
        "dunlua_generator_from_source": (c_void_p, [c_char_p, c_char_p, LOADER, c_void_p]),
        "dunlua_module_set_source": (c_int, [c_void_p, c_char_p, c_size_t]),
        "dunlua_generator_set_int": (c_int, [c_void_p, c_char_p, c_int64]),
        "dunlua_generator_set_string": (c_int, [c_void_p, c_char_p, c_char_p]),
        "dunlua_generator_set_limits": (c_int, [c_void_p, c_uint64, c_uint64, c_double]),
        "dunlua_generator_status": (c_int, [c_void_p]),
        "dunlua_generator_error": (c_char_p, [c_void_p]),
        "dunlua_generate": (c_int, [c_void_p, c_uint64, POINTER(c_void_p)]),
        "dunlua_generate_levels": (c_int, [c_void_p, c_uint64, POINTER(c_void_p), c_size_t, POINTER(c_size_t)]),
        "dunlua_generator_levels": (c_uint32, [c_void_p]),
        "dunlua_generator_set_levels": (c_int, [c_void_p, c_uint32]),
        "dunlua_map_level": (c_uint32, [c_void_p]),
        "dunlua_generator_free": (None, [c_void_p]),
        "dunlua_map_width": (c_int32, [c_void_p]),
        "dunlua_map_height": (c_int32, [c_void_p]),
        "dunlua_map_tiles": (POINTER(c_uint8), [c_void_p]),
        "dunlua_map_tile_kind_count": (c_size_t, [c_void_p]),
        "dunlua_map_tile_kind": (c_int, [c_void_p, c_size_t, POINTER(TileKind)]),
        "dunlua_map_room_count": (c_size_t, [c_void_p]),
        "dunlua_map_room": (c_int, [c_void_p, c_size_t, POINTER(Room)]),
        "dunlua_map_start": (c_int, [c_void_p, POINTER(c_int32), POINTER(c_int32)]),
        "dunlua_map_marker": (c_int, [c_void_p, c_size_t, POINTER(Marker)]),
        "dunlua_map_marker_property_count": (c_size_t, [c_void_p, c_size_t]),
        "dunlua_map_marker_property": (c_int, [c_void_p, c_size_t, c_size_t, POINTER(Property)]),
        "dunlua_map_room_name": (c_char_p, [c_void_p, c_size_t]),
        "dunlua_map_room_kind": (c_char_p, [c_void_p, c_size_t]),
        "dunlua_map_hash": (c_uint64, [c_void_p]),
        "dunlua_map_json": (c_char_p, [c_void_p]),
        "dunlua_map_free": (None, [c_void_p]),
    }
    for name, (restype, argtypes) in sig.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def main():
    lib = bind(sys.argv[1])
    out = lambda *words: print(*words, flush=True)
    error = lambda what, g, status: out(what, status, lib.dunlua_generator_error(g).decode())
    out("version", lib.dunlua_version().decode())
    out("status_names", *(lib.dunlua_status_name(s).decode() for s in (8, 15, -1)))

    g = lib.dunlua_generator_from_file(sys.argv[2].encode())
    if lib.dunlua_generator_status(g) != 0:
        sys.exit("cannot load: " + lib.dunlua_generator_error(g).decode())
    m = c_void_p()
    if lib.dunlua_generate(g, 7, byref(m)) != 0:
        sys.exit("generate: " + lib.dunlua_generator_error(g).decode())
    out("hash", "%016x" % lib.dunlua_map_hash(m))
    width, height = lib.dunlua_map_width(m), lib.dunlua_map_height(m)
    out("size", width, height)
    tiles = lib.dunlua_map_tiles(m)
    sx, sy = c_int32(), c_int32()
    lib.dunlua_map_start(m, byref(sx), byref(sy))
    kind = TileKind()
    lib.dunlua_map_tile_kind(m, tiles[sy.value * width + sx.value], byref(kind))
    out("start_walkable", int(kind.walkable), kind.name.decode())
    lib.dunlua_map_tile_kind(m, 0, byref(kind))
    out("kinds", lib.dunlua_map_tile_kind_count(m), kind.name.decode(), kind.glyph.decode(),
        "%06x" % kind.color)
    cells = bytes(tiles[:width * height])
    out("floors", cells.count(1))
    room = Room()
    lib.dunlua_map_room(m, 0, byref(room))
    out("rooms", lib.dunlua_map_room_count(m), "first", room.x1, room.y1, room.x2, room.y2)
    out("json_has_hash", int(b'"hash"' in lib.dunlua_map_json(m)))
    out("out_of_range", lib.dunlua_map_room(m, 100000, byref(room)))
    lib.dunlua_map_free(m)

    if lib.dunlua_generator_set_int(g, b"max_rooms", 12) != 0:
        sys.exit("set max_rooms: " + lib.dunlua_generator_error(g).decode())
    lib.dunlua_generate(g, 7, byref(m))
    out("hash_param", "%016x" % lib.dunlua_map_hash(m))
    lib.dunlua_map_free(m)
    error("unknown_param", g, lib.dunlua_generator_set_int(g, b"max_room", 12))
    error("wrong_type", g, lib.dunlua_generator_set_string(g, b"max_rooms", b"many"))
    lib.dunlua_generator_free(g)

    # The game's module loader: here from a string, in a game from its pack.
    @LOADER
    def load_module(user_data, path, module):
        if path == b"lib/room.lua":
            lib.dunlua_module_set_source(module, ROOM_MODULE, len(ROOM_MODULE))

    g = lib.dunlua_generator_from_source(b"mods/cave.lua", MAIN_SCRIPT, load_module, None)
    if lib.dunlua_generate(g, 1, byref(m)) != 0:
        sys.exit("loader: " + lib.dunlua_generator_error(g).decode())
    out("loader", "%016x" % lib.dunlua_map_hash(m))
    lib.dunlua_map_free(m)
    lib.dunlua_generator_free(g)

    g = lib.dunlua_generator_from_source(
        b"broken.lua", b"return { generate = function(map)\n  map:fill(\nend }\n", LOADER(), None)
    error("syntax", g, lib.dunlua_generator_status(g))
    status = lib.dunlua_generate(g, 1, byref(m))
    out("syntax_generate", status, int(not m.value))
    lib.dunlua_generator_free(g)

    g = lib.dunlua_generator_from_source(
        b"spin.lua", b"return { generate = function(map) while true do end end }\n", LOADER(), None)
    lib.dunlua_generator_set_limits(g, 1000000, 0, 0)
    error("limit", g, lib.dunlua_generate(g, 1, byref(m)))
    lib.dunlua_generator_free(g)

    # Every level of a dungeon at once, a map handle each.
    g = lib.dunlua_generator_from_source(b"deep.lua", LEVELS_SCRIPT, LOADER(), None)
    levels, count = (c_void_p * 4)(), c_size_t(0)
    status = lib.dunlua_generate_levels(g, 5, levels, 4, byref(count))
    hashes = ["%016x" % lib.dunlua_map_hash(levels[i]) for i in range(count.value)]
    out("levels", lib.dunlua_generator_levels(g), status, count.value, *hashes,
        "last", lib.dunlua_map_level(levels[count.value - 1]))
    for i in range(count.value):
        lib.dunlua_map_free(levels[i])
    status = lib.dunlua_generate_levels(g, 5, levels, 2, byref(count))
    out("levels_room", status, count.value, lib.dunlua_generator_error(g).decode())
    lib.dunlua_generator_set_levels(g, 2)
    status = lib.dunlua_generate_levels(g, 5, levels, 4, byref(count))
    out("set_levels", status, count.value)
    for i in range(count.value):
        lib.dunlua_map_free(levels[i])
    lib.dunlua_generator_free(g)

    # A marker's properties, typed, and the rooms' names and kinds.
    g = lib.dunlua_generator_from_source(b"marked.lua", MARKED_SCRIPT, LOADER(), None)
    if lib.dunlua_generate(g, 1, byref(m)) != 0:
        sys.exit("marked: " + lib.dunlua_generator_error(g).decode())
    marker, prop = Marker(), Property()
    lib.dunlua_map_marker(m, 0, byref(marker))
    count = lib.dunlua_map_marker_property_count(m, 0)
    words = []
    for i in range(count):
        lib.dunlua_map_marker_property(m, 0, i, byref(prop))
        key = prop.key.decode()
        words.append({0: lambda: "%s=i:%d" % (key, prop.integer),
                      1: lambda: "%s=n:%g" % (key, prop.number),
                      2: lambda: "%s=b:%d" % (key, prop.boolean),
                      3: lambda: "%s=t:%s" % (key, prop.text.decode())}[prop.kind]())
    out("props", marker.name.decode(), count, *words,
        "past_end", lib.dunlua_map_marker_property(m, 0, count, byref(prop)))
    unnamed = lib.dunlua_map_room_name(m, 1)
    out("room_names", lib.dunlua_map_room_name(m, 0).decode(), lib.dunlua_map_room_kind(m, 0).decode(),
        unnamed.decode() if unnamed else "(none)")
    lib.dunlua_map_free(m)
    lib.dunlua_generator_free(g)

    out("bad_handle", lib.dunlua_generate(None, 1, byref(m)), lib.dunlua_generate(g, 1, byref(m)),
        lib.dunlua_generate(0x1234, 1, byref(m)), lib.dunlua_generator_status(None))
    out("bad_handle_message", lib.dunlua_last_error().decode())
    lib.dunlua_generator_free(g)
    lib.dunlua_map_free(None)


if __name__ == "__main__":
    main()

-- A LuaJIT game's use of dunlua through the FFI (as a LÖVE game would):
-- generate rooms.lua, read the map, and show that errors come back as a
-- status and a message. Prints the same lines as generate.c, for
-- capi/tests/callers.rs.
--
--   luajit generate.lua ../../target/debug/libdunlua_capi.so ../../scripts/rooms.lua
local ffi = require("ffi")

ffi.cdef[[
typedef struct DunluaGenerator DunluaGenerator;
typedef struct DunluaMap DunluaMap;
typedef struct DunluaModule DunluaModule;
typedef void (*DunluaModuleLoader)(void *user_data, const char *relative_path, DunluaModule *module);
typedef struct { const char *name; const char *glyph; uint32_t codepoint; uint32_t color;
                 uint32_t background; bool walkable; bool transparent; } DunluaTileKind;
typedef struct { int32_t x1, y1, x2, y2; } DunluaRoom;
typedef struct { int32_t x, y; const char *name; } DunluaMarker;
typedef struct { const char *key; int kind; int64_t integer; double number; bool boolean;
                 const char *text; } DunluaProperty;
const char *dunlua_version(void);
const char *dunlua_status_name(int32_t status);
const char *dunlua_last_error(void);
DunluaGenerator *dunlua_generator_from_file(const char *path);
DunluaGenerator *dunlua_generator_from_source(const char *name, const char *source,
                                              DunluaModuleLoader loader, void *user_data);
int dunlua_module_set_source(DunluaModule *module, const char *text, size_t length);
int dunlua_generator_set_int(DunluaGenerator *g, const char *name, int64_t value);
int dunlua_generator_set_string(DunluaGenerator *g, const char *name, const char *value);
int dunlua_generator_set_limits(DunluaGenerator *g, uint64_t max_instructions,
                                uint64_t max_memory_mb, double timeout_seconds);
int dunlua_generator_status(const DunluaGenerator *g);
const char *dunlua_generator_error(const DunluaGenerator *g);
int dunlua_generate(DunluaGenerator *g, uint64_t seed, DunluaMap **out);
int dunlua_generate_levels(DunluaGenerator *g, uint64_t seed, DunluaMap **out, size_t capacity,
                           size_t *count);
uint32_t dunlua_generator_levels(const DunluaGenerator *g);
int dunlua_generator_set_levels(DunluaGenerator *g, uint32_t levels);
uint32_t dunlua_map_level(const DunluaMap *m);
void dunlua_generator_free(DunluaGenerator *g);
int32_t dunlua_map_width(const DunluaMap *m);
int32_t dunlua_map_height(const DunluaMap *m);
const uint8_t *dunlua_map_tiles(const DunluaMap *m);
size_t dunlua_map_tile_kind_count(const DunluaMap *m);
int dunlua_map_tile_kind(const DunluaMap *m, size_t id, DunluaTileKind *out);
size_t dunlua_map_room_count(const DunluaMap *m);
int dunlua_map_room(const DunluaMap *m, size_t index, DunluaRoom *out);
int dunlua_map_start(const DunluaMap *m, int32_t *x, int32_t *y);
int dunlua_map_marker(const DunluaMap *m, size_t index, DunluaMarker *out);
size_t dunlua_map_marker_property_count(const DunluaMap *m, size_t marker);
int dunlua_map_marker_property(const DunluaMap *m, size_t marker, size_t index, DunluaProperty *out);
const char *dunlua_map_room_name(const DunluaMap *m, size_t index);
const char *dunlua_map_room_kind(const DunluaMap *m, size_t index);
uint64_t dunlua_map_hash(const DunluaMap *m);
const char *dunlua_map_json(const DunluaMap *m);
void dunlua_map_free(DunluaMap *m);
]]

local MAIN_SCRIPT = [[
local room = require('lib.room')
return { width = 20, height = 10, generate = function(map)
  room.carve(map)
  map:set_start(2, 2)
end }
]]
local LEVELS_SCRIPT = [[
return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)
  map:carve_room(Rect.new(1, 1, 17, 7))
  map:set_start(2 + ctx.level, 3)
end }
]]
local MARKED_SCRIPT = [[
return { width = 12, height = 8, generate = function(map)
  map:carve_room(Rect.new(1, 1, 10, 6))
  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })
  map:add_room(Rect.new(6, 1, 5, 6))
  map:set_start(2, 2)
  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })
end }
]]
local ROOM_MODULE = [[
return { carve = function(map)
  map:fill('wall')
  map:carve_room(Rect.new(1, 1, 10, 6))
end }
]]

local lib = ffi.load(arg[1])
local function out(...) print(table.concat({...}, " ")) io.stdout:flush() end
local function hex(u64) return (string.format("%016x", u64)) end
local function error_line(what, g, status)
  out(what, tostring(status), ffi.string(lib.dunlua_generator_error(g)))
end

out("version", ffi.string(lib.dunlua_version()))
out("status_names", ffi.string(lib.dunlua_status_name(8)), ffi.string(lib.dunlua_status_name(15)),
    ffi.string(lib.dunlua_status_name(-1)))
local g = lib.dunlua_generator_from_file(arg[2])
if lib.dunlua_generator_status(g) ~= 0 then
  error("cannot load: " .. ffi.string(lib.dunlua_generator_error(g)))
end
local m = ffi.new("DunluaMap *[1]")
assert(lib.dunlua_generate(g, 7, m) == 0, ffi.string(lib.dunlua_generator_error(g)))
out("hash", hex(lib.dunlua_map_hash(m[0])))
local width, height = lib.dunlua_map_width(m[0]), lib.dunlua_map_height(m[0])
out("size", width, height)
local tiles = lib.dunlua_map_tiles(m[0])
local sx, sy = ffi.new("int32_t[1]"), ffi.new("int32_t[1]")
lib.dunlua_map_start(m[0], sx, sy)
local kind = ffi.new("DunluaTileKind")
lib.dunlua_map_tile_kind(m[0], tiles[sy[0] * width + sx[0]], kind)
out("start_walkable", kind.walkable and 1 or 0, ffi.string(kind.name))
lib.dunlua_map_tile_kind(m[0], 0, kind)
out("kinds", tonumber(lib.dunlua_map_tile_kind_count(m[0])), ffi.string(kind.name),
    ffi.string(kind.glyph), string.format("%06x", kind.color))
local floors = 0
for i = 0, width * height - 1 do
  if tiles[i] == 1 then floors = floors + 1 end
end
out("floors", floors)
local room = ffi.new("DunluaRoom")
lib.dunlua_map_room(m[0], 0, room)
out("rooms", tonumber(lib.dunlua_map_room_count(m[0])), "first", room.x1, room.y1, room.x2, room.y2)
out("json_has_hash", ffi.string(lib.dunlua_map_json(m[0])):find('"hash"', 1, true) and 1 or 0)
out("out_of_range", lib.dunlua_map_room(m[0], 100000, room))
lib.dunlua_map_free(m[0])

assert(lib.dunlua_generator_set_int(g, "max_rooms", 12) == 0)
lib.dunlua_generate(g, 7, m)
out("hash_param", hex(lib.dunlua_map_hash(m[0])))
lib.dunlua_map_free(m[0])
error_line("unknown_param", g, lib.dunlua_generator_set_int(g, "max_room", 12))
error_line("wrong_type", g, lib.dunlua_generator_set_string(g, "max_rooms", "many"))
lib.dunlua_generator_free(g)

-- The game's module loader: here from a string, in a game from its pack
-- (LÖVE: love.filesystem.read).
local load_module = ffi.cast("DunluaModuleLoader", function(user_data, path, module)
  if ffi.string(path) == "lib/room.lua" then
    lib.dunlua_module_set_source(module, ROOM_MODULE, #ROOM_MODULE)
  end
end)
g = lib.dunlua_generator_from_source("mods/cave.lua", MAIN_SCRIPT, load_module, nil)
assert(lib.dunlua_generate(g, 1, m) == 0, ffi.string(lib.dunlua_generator_error(g)))
out("loader", hex(lib.dunlua_map_hash(m[0])))
lib.dunlua_map_free(m[0])
lib.dunlua_generator_free(g)
load_module:free()

g = lib.dunlua_generator_from_source("broken.lua",
  "return { generate = function(map)\n  map:fill(\nend }\n", nil, nil)
error_line("syntax", g, lib.dunlua_generator_status(g))
local status = lib.dunlua_generate(g, 1, m)
out("syntax_generate", status, m[0] == nil and 1 or 0)
lib.dunlua_generator_free(g)

g = lib.dunlua_generator_from_source("spin.lua",
  "return { generate = function(map) while true do end end }\n", nil, nil)
lib.dunlua_generator_set_limits(g, 1000000, 0, 0)
error_line("limit", g, lib.dunlua_generate(g, 1, m))
lib.dunlua_generator_free(g)

-- Every level of a dungeon at once, a map handle each.
g = lib.dunlua_generator_from_source("deep.lua", LEVELS_SCRIPT, nil, nil)
local levels, count = ffi.new("DunluaMap *[4]"), ffi.new("size_t[1]")
local level_status = lib.dunlua_generate_levels(g, 5, levels, 4, count)
local words = { "levels", tostring(lib.dunlua_generator_levels(g)), tostring(level_status),
                tostring(tonumber(count[0])) }
for i = 0, tonumber(count[0]) - 1 do words[#words + 1] = hex(lib.dunlua_map_hash(levels[i])) end
words[#words + 1] = "last"
words[#words + 1] = tostring(lib.dunlua_map_level(levels[tonumber(count[0]) - 1]))
out(unpack(words))
for i = 0, tonumber(count[0]) - 1 do lib.dunlua_map_free(levels[i]) end
level_status = lib.dunlua_generate_levels(g, 5, levels, 2, count)
out("levels_room", level_status, tonumber(count[0]), ffi.string(lib.dunlua_generator_error(g)))
lib.dunlua_generator_set_levels(g, 2)
level_status = lib.dunlua_generate_levels(g, 5, levels, 4, count)
out("set_levels", level_status, tonumber(count[0]))
for i = 0, tonumber(count[0]) - 1 do lib.dunlua_map_free(levels[i]) end
lib.dunlua_generator_free(g)

-- A marker's properties, typed, and the rooms' names and kinds.
g = lib.dunlua_generator_from_source("marked.lua", MARKED_SCRIPT, nil, nil)
assert(lib.dunlua_generate(g, 1, m) == 0, ffi.string(lib.dunlua_generator_error(g)))
local marker, prop = ffi.new("DunluaMarker"), ffi.new("DunluaProperty")
lib.dunlua_map_marker(m[0], 0, marker)
local props = tonumber(lib.dunlua_map_marker_property_count(m[0], 0))
words = { "props", ffi.string(marker.name), tostring(props) }
for i = 0, props - 1 do
  lib.dunlua_map_marker_property(m[0], 0, i, prop)
  local key = ffi.string(prop.key)
  if prop.kind == 0 then words[#words + 1] = string.format("%s=i:%d", key, tonumber(prop.integer))
  elseif prop.kind == 1 then words[#words + 1] = string.format("%s=n:%g", key, prop.number)
  elseif prop.kind == 2 then words[#words + 1] = string.format("%s=b:%d", key, prop.boolean and 1 or 0)
  else words[#words + 1] = string.format("%s=t:%s", key, ffi.string(prop.text)) end
end
words[#words + 1] = "past_end"
words[#words + 1] = tostring(lib.dunlua_map_marker_property(m[0], 0, props, prop))
out(unpack(words))
local unnamed = lib.dunlua_map_room_name(m[0], 1)
out("room_names", ffi.string(lib.dunlua_map_room_name(m[0], 0)),
    ffi.string(lib.dunlua_map_room_kind(m[0], 0)), unnamed == nil and "(none)" or ffi.string(unnamed))
lib.dunlua_map_free(m[0])
lib.dunlua_generator_free(g)

out("bad_handle", lib.dunlua_generate(nil, 1, m), lib.dunlua_generate(g, 1, m),
    lib.dunlua_generate(ffi.cast("DunluaGenerator *", 0x1234), 1, m), lib.dunlua_generator_status(nil))
out("bad_handle_message", ffi.string(lib.dunlua_last_error()))
lib.dunlua_generator_free(g)
lib.dunlua_map_free(nil)

-- The test driver of lua/dunlua.lua under plain LuaJIT, for
-- capi/tests/love.rs: prints what a game reads through the module, one
-- fact a line; the test prints the same from the Rust library.
--
--   luajit driver.lua LIBRARY REPO SEEDS SCRIPT...   (run from REPO)
local library, repo, seeds = arg[1], arg[2], tonumber(arg[3])
package.path = repo .. "/lua/?.lua;" .. package.path
local dunlua = require("dunlua")

local function out(...)
  io.write(table.concat({ ... }, " "), "\n")
end

local ok, err = pcall(dunlua.load, { "/nonexistent/libdunlua_capi.so" })
out("load_error", tostring(ok), (tostring(err):gsub("\n", "|")))
-- Loaded on first use from the default places (none holds it here): the
-- error names no line of the module's own, it is "dunlua: ..." as above.
ok, err = pcall(dunlua.version)
out("default_load_error", tostring(ok), tostring(err):sub(1, 40))
dunlua.load(library)
out("loaded", tostring(dunlua.library_path == library), dunlua.version())

local function marker_text(m)
  local keys = {}
  for key in pairs(m.props) do
    keys[#keys + 1] = key
  end
  table.sort(keys)
  local words = { string.format("%s@%d,%d", m.name, m.x, m.y) }
  for _, key in ipairs(keys) do
    local v = m.props[key]
    local shown = tostring(v)
    if type(v) == "number" then
      -- The shortest text that reads back the same, as Rust prints an f64.
      for digits = 1, 17 do
        shown = string.format("%." .. digits .. "g", v)
        if tonumber(shown) == v then
          break
        end
      end
    end
    words[#words + 1] = string.format("%s=%s:%s", key, type(v), shown)
  end
  return table.concat(words, ",")
end

local function describe(label, map)
  local rooms = {}
  for i, r in ipairs(map.rooms) do
    assert(r.x2 == r.x + r.w and r.y2 == r.y + r.h and r.x1 == r.x and r.y1 == r.y)
    rooms[i] = string.format("%d,%d,%d,%d", r.x, r.y, r.w, r.h)
  end
  out("rooms", label, #map.rooms, table.concat(rooms, ";"))
  local markers = {}
  for i, m in ipairs(map.markers) do
    markers[i] = marker_text(m)
  end
  out("markers", label, #map.markers, table.concat(markers, ";"))
  local kinds = {}
  for i, k in ipairs(map.kinds) do
    assert(k.id == i - 1)
    assert(k.fg[1] == bit.rshift(k.color, 16) / 255 and k.bg[3] == bit.band(k.background, 0xff) / 255)
    kinds[i] = string.format("%s,%s,%06x,%06x,%s,%s", k.name, k.glyph, k.color, k.background,
      tostring(k.walkable), tostring(k.transparent))
  end
  out("kinds", label, table.concat(kinds, ";"))
  local sx, sy = map:start()
  assert(sx == map.start.x and sy == map.start.y)
  out("start", label, sx, sy, map:get(sx, sy), tostring(map:walkable(sx, sy)))
  -- The grid as map:each walks it, placed by the coordinates it gives.
  local rows, count, last = {}, 0, -1
  map:each(function(x, y, id, name)
    assert(y * map.width + x == last + 1, "each walks row by row")
    last = y * map.width + x
    assert(map:get(x, y) == name and map:id(x, y) == id and map.kinds[id + 1].name == name)
    rows[y + 1] = rows[y + 1] or {}
    rows[y + 1][x + 1] = string.char(65 + id)
    count = count + 1
  end)
  assert(count == map.width * map.height)
  for y = 1, map.height do
    rows[y] = table.concat(rows[y])
  end
  out("grid", label, map.width, map.height, table.concat(rows, "/"))
  out("outside", label, tostring(map:get(-1, 0)), tostring(map:get(map.width, 0)),
    tostring(map:get(0, map.height)), tostring(map:walkable(-1, -1)))
end

-- Every script, seeds 0..SEEDS-1: the map's hash (and every level's).
for i = 4, #arg do
  local script = arg[i]
  local gen = dunlua.new(script)
  for seed = 0, seeds - 1 do
    local map = gen:generate(seed)
    out("hash", script, seed, map:hash(), map.seed, map.level)
    if gen.levels > 1 then
      local words = { "levels", script, seed }
      for level, m in ipairs(gen:generate_levels(seed)) do
        assert(m.level == level)
        words[#words + 1] = m:hash()
      end
      out(unpack(words))
    end
  end
  describe(script, gen:generate(1))
end

local ROOM_MODULE = [[
return { carve = function(map)
  map:fill('wall')
  map:carve_room(Rect.new(1, 1, 10, 6))
end }
]]
local MAIN_SCRIPT = [[
local room = require('lib.room')
return { width = 20, height = 10, generate = function(map)
  room.carve(map)
  map:set_start(2, 2)
end }
]]
local MARKED_SCRIPT = [[
return { width = 12, height = 8, generate = function(map)
  map:carve_room(Rect.new(1, 1, 10, 6))
  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })
  map:add_room(Rect.new(6, 1, 5, 6))
  map:set_start(2, 2)
  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })
  map:mark(9, 5, 'chest')
end }
]]
local LEVELS_SCRIPT = [[
return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)
  map:carve_room(Rect.new(1, 1, 17, 7))
  map:set_start(2 + ctx.level, 3)
end }
]]
-- Fails on seed 2 only, to show the generator works on after a failure.
local FLAKY_SCRIPT = [[
return { width = 10, height = 8, params = { size = 3 }, generate = function(map, rng, p)
  map:carve_room(Rect.new(1, 1, 6, 5))
  if rng.seed == 2 then
    local t = nil
    return t.field
  end
  map:set_start(p.size, 2)
end }
]]

local ONE_LINE = "return { width = 10, height = 8, generate = function(map) "
  .. "map:carve_room(Rect.new(1, 1, 6, 5)) map:set_start(2, 2) end }"

local function try(label, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, label .. " should fail")
  out("error", label, tostring(err))
end

-- Modules: from the `modules` table (both spellings), from a loader function.
local gen = dunlua.new(MAIN_SCRIPT, { name = "mods/cave.lua", modules = { ["lib.room"] = ROOM_MODULE } })
out("module_table", gen:generate(1):hash())
gen = dunlua.new({ source = MAIN_SCRIPT, name = "mods/cave.lua", modules = { ["lib/room.lua"] = ROOM_MODULE } })
out("module_path", gen:generate(1):hash())
local asked = {}
gen = dunlua.new(MAIN_SCRIPT, { name = "mods/cave.lua", loader = function(path)
  asked[#asked + 1] = path
  return path == "lib/room.lua" and ROOM_MODULE or nil
end })
out("module_loader", gen:generate(1):hash(), gen:generate(2):hash(), table.concat(asked, ","))
try("missing_module", dunlua.new, MAIN_SCRIPT, { name = "mods/cave.lua" })
try("loader_error", dunlua.new, MAIN_SCRIPT, { name = "mods/cave.lua", loader = function(path)
  error("the pack is locked", 0)
end })
-- A script file whose module comes from the table, the rest as a file's.
gen = dunlua.new(repo .. "/scripts/levels.lua", { modules = { ["lib.spawn"] = io.open(repo .. "/scripts/lib/spawn.lua"):read("*a") } })
out("file_with_modules", gen:generate(4):hash())

-- How a script is told from a path: one line of text, an explicit path.
out("one_line", dunlua.new(ONE_LINE):generate(1):hash(), dunlua.new({ source = ONE_LINE }):generate(1):hash())
out("explicit_path", dunlua.new({ path = repo .. "/scripts/rooms.lua" }):generate(7):hash())

-- Options: params, size, levels.
gen = dunlua.new("scripts/rooms.lua", { params = { max_rooms = 12 } })
out("params", gen:generate(7):hash())
gen = dunlua.new("scripts/caves.lua", { size = { 40, 30 }, params = { fill = 0.5 } })
local map = gen:generate(3)
out("size", map.width, map.height, map:hash())
gen = dunlua.new("scripts/caves.lua", { size = { width = 40, height = 30 }, params = { fill = 0.5 } })
out("size_named", gen:generate(3):hash())
gen = dunlua.new(LEVELS_SCRIPT, { name = "deep.lua" })
local words = { "levels_script", gen.levels }
for _, m in ipairs(gen:generate_levels(5)) do
  words[#words + 1] = m:hash() .. "@" .. m.level
end
out(unpack(words))
gen = dunlua.new(LEVELS_SCRIPT, { name = "deep.lua", levels = 2 })
out("levels_option", gen.levels, #gen:generate_levels(5))

-- Markers' typed props, rooms' names and kinds, the JSON export.
map = dunlua.new(MARKED_SCRIPT, { name = "marked.lua" }):generate(1)
describe("marked", map)
out("room_names", map.rooms[1].name, map.rooms[1].kind, tostring(map.rooms[2].name),
  tostring(map.rooms[2].kind))
out("types", type(map.markers[1].props.hp), type(map.markers[1].props.boss),
  type(map.markers[1].props.loot))
out("json", (map:json():gsub("\n", "\\n")))
map = dunlua.new(repo .. "/scripts/rooms.lua"):generate(1)
out("json_rooms", (map:json():gsub("\n", "\\n")))

-- Hostile scripts and wrong calls: Lua errors with clear messages.
try("syntax", dunlua.new, "return { generate = function(map)\n  map:fill(\nend }\n", { name = "broken.lua" })
gen = dunlua.new(FLAKY_SCRIPT, { name = "flaky.lua" })
out("before", gen:generate(1):hash())
try("runtime", gen.generate, gen, 2)
out("traceback", (gen:traceback():gsub("\n", "|")))
out("after", gen:generate(3):hash())
out("try", tostring(gen:try_generate(2)), select(2, gen:try_generate(2)), select(3, gen:try_generate(2)))
out("try_ok", gen:try_generate(1):hash())
try("unknown_param", dunlua.new, FLAKY_SCRIPT, { name = "flaky.lua", params = { sise = 3 } })
try("wrong_type", dunlua.new, FLAKY_SCRIPT, { name = "flaky.lua", params = { size = "big" } })
try("wrong_type_number", dunlua.new, FLAKY_SCRIPT, { name = "flaky.lua", params = { size = 2.5 } })
try("table_param", dunlua.new, FLAKY_SCRIPT, { name = "flaky.lua", params = { size = {} } })
try("unknown_option", dunlua.new, FLAKY_SCRIPT, { name = "flaky.lua", budjet = 5 })
try("bad_size", dunlua.new, FLAKY_SCRIPT, { name = "flaky.lua", size = { 0, 5 } })
try("missing_file", dunlua.new, "no/such/script.lua")
try("bad_seed", gen.generate, gen, -1)
try("fraction_seed", gen.generate, gen, 1.5)
out("string_seed", gen:generate("1"):hash(), gen:generate(require("ffi").new("uint64_t", 1)):hash())
out("big_seed", dunlua.new("scripts/rooms.lua"):generate("18446744073709551615"):hash())
local spin = "return { generate = function(map) while true do end end }\n"
gen = dunlua.new(spin, { name = "spin.lua", budget = 1000000 })
try("budget", gen.generate, gen, 1)
try("budget_again", gen.generate, gen, 2)
gen = dunlua.new(spin, { name = "spin.lua", timeout = 0.2, budget = 1e15 })
local started = os.clock()
local _, message, status = gen:try_generate(1)
out("timeout", status, message, tostring(os.clock() - started < 5))
gen = dunlua.new("return { generate = function(map) local t = {} while true do t[#t + 1] = {} end end }\n",
  { name = "hog.lua", memory = 16 })
out("memory", select(3, gen:try_generate(1)))
-- Giving one limit keeps the others' defaults: the 10 s deadline too.
gen = dunlua.new(spin, { name = "spin.lua", memory = 64, budget = 1e15 })
local _, deadline_message, deadline_status = gen:try_generate(1)
out("default_deadline", deadline_status,
  tostring(deadline_message:find("timed out after 10 s", 1, true) ~= nil))
-- The game's limits hold for the script's top level too: it runs when the
-- generator is built.
try("top_level_budget", dunlua.new, "local n = 0 while true do n = n + 1 end\nreturn { generate = function() end }\n",
  { name = "top.lua", budget = 1000000 })
-- A script text holding a NUL byte (Lua allows one in a long string) comes whole.
local nul = "local s = [[a\0b]]\nreturn { width = 8, height = 8, generate = function(map)\n"
  .. "  map:fill('wall')\n  map:carve_room(Rect.new(1, 1, 4 + #s, 5))\n  map:set_start(2, 2)\nend }\n"
out("nul_text", dunlua.new(nul, { name = "nul.lua" }):generate(3):hash())
gen = dunlua.new(FLAKY_SCRIPT, { name = "flaky.lua" })
gen:free()
try("freed", gen.generate, gen, 1)
map = dunlua.new(FLAKY_SCRIPT, { name = "flaky.lua" }):generate(1)
map:free()
try("freed_map", map.get, map, 1, 1)
map = dunlua.new(FLAKY_SCRIPT, { name = "flaky.lua" }):generate(1)
local each_ok, each_error = pcall(map.each, map, function() map:free() end)
out("each_freed", tostring(each_ok), each_error)

-- Many generators with loaders, made and collected in a JIT-compiled loop:
-- no "bad callback", no callbacks used up.
local hashes = {}
for i = 1, 300 do
  local g = dunlua.new(MAIN_SCRIPT, { name = "mods/cave.lua", loader = function(path)
    return ROOM_MODULE
  end })
  hashes[g:generate(1):hash()] = true
  if i % 50 == 0 then
    collectgarbage()
  end
end
local distinct = 0
for _ in pairs(hashes) do
  distinct = distinct + 1
end
out("loop", distinct)

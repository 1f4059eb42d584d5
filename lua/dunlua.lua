-- dunlua.lua: dunlua's dungeons in LÖVE and LuaJIT, through the C ABI
-- (libdunlua_capi, `cargo build --release -p dunlua-capi`) and LuaJIT's ffi.
-- One file: copy it and the library next to your game.
--
--   local dunlua = require("dunlua")
--   local gen = dunlua.new("scripts/rooms.lua", {params = {max_rooms = 12}})
--   local map = gen:generate(seed)       -- a Lua error with the script's file:line on failure
--   map:get(x, y)                        -- "wall", "floor", ... at 0-based x, y (nil outside)
--
-- Loading the library: dunlua.load(path) or dunlua.load({path, ...}) loads
-- the first that works; without it, the first dunlua.new tries
-- $DUNLUA_LIBRARY, then ffi.load("dunlua_capi") (the system's search),
-- then in LÖVE the game's folder, the folder the game (or .love) is in
-- (love.filesystem.getSourceBaseDirectory()) and the save folder, then the
-- current folder. The error names every place it looked; dunlua.library_path
-- says which one loaded.
--
-- dunlua.new(script, options) makes a generator. `script` is a path or the
-- script's text: a string with a newline in it is text, a one-line string
-- ending in `.lua` is a path, and any other one-line string is text if it
-- has the word `return` in it, else a path. Or say which: dunlua.new({path = ...}) /
-- dunlua.new({source = text, name = "mods/cave.lua"}) with the options in
-- the same table. Options (all optional; an unknown one is an error):
--   params   = {max_rooms = 12, ...}  typed as the script's defaults (-p k=v)
--   size     = {w, h} or {width = w, height = h}             (--size WxH)
--   budget   = instructions per generate, 0: 400,000,000     (--max-instructions)
--   memory   = MiB per generate, 0: 512                      (--max-memory)
--   timeout  = seconds per generate (default 10), 0: none      (--timeout)
--   levels   = levels per seed, instead of the script's `levels`
--   attempts = tries for a script that rejects its maps (default 20)
--   modules  = {["lib.walls"] = text} or {["lib/walls.lua"] = text}
--   loader   = function(relative_path) return text or nil end
--   name     = the name text is known by in messages ("script.lua")
-- A module (require("lib.walls") asks for "lib/walls.lua", relative to the
-- script's folder; a text script's name is its path) comes from `modules`,
-- else from `loader`, else from beside the script:
--   a script path LÖVE's filesystem has (so scripts and modules inside a
--   .love work), or a text script in LÖVE: from love.filesystem, read
--   here as the library reads a file: a regular file (not a folder, FIFO
--   or device) of at most 16 MiB, and no symlink on the way, since
--   love.filesystem cannot say where one leads;
--   any other script path (on disk): read by the library itself, with
--   its modules from the script's folder as the command line reads them
--   (regular files whose real path is inside the script's real folder, 16
--   MiB at most), unless `modules` or `loader` is given: then from those
--   alone, as the library's own Generator module and loader options;
--   a text script outside LÖVE: none.
-- This file opens no file on disk: files on disk are the library's to read.
--
-- A generator:
--   gen:generate(seed)         a map; seed: integer >= 0 (number, uint64
--                              cdata or decimal string)
--   gen:try_generate(seed)     map, or nil, message, status name
--                              ("DUNLUA_STATUS_RUNTIME", ...)
--   gen:generate_levels(seed)  {map, ...}: every level of a linked dungeon
--   gen:try_generate_levels(seed)
--   gen.levels                 how many levels a seed makes
--   gen:traceback()            the Lua traceback of the last failure
--   gen:free()                 frees it now (else the collector does)
-- A map (tiles read straight from the library's memory, freed with it):
--   map.width, map.height, map.seed, map.level (1-based)
--   map:get(x, y)              the kind's name, nil outside the map
--   map:id(x, y)               the tile id (0-based index into kinds), nil outside
--   map:kind(x, y)             the kind table, nil outside
--   map:walkable(x, y)         false outside the map
--   map:each(function(x, y, id, name) end)   every cell, row by row
--   map.kinds                  {{id=, name=, glyph=, codepoint=, fg = {r, g, b},
--                              bg = {r, g, b} (0..1, for love.graphics.setColor),
--                              color = 0xRRGGBB, background = 0xRRGGBB, walkable=,
--                              transparent=}, ...}: map.kinds[id + 1]
--   map.rooms                  {{x=, y=, w=, h=, x1=, y1=, x2=, y2=, name=, kind=}, ...}
--                              as the script's Rect.new(x, y, w, h): x2 = x + w, inclusive
--   map.start                  {x=, y=}; map:start() also returns x, y
--   map.markers                {{x=, y=, name=, props = {hp = 7, boss = true}}, ...}
--   map:hash()                 16 lowercase hex digits, what `dunlua SCRIPT --seed N --hash` prints
--   map:json()                 the .json export's text
--   map:free()                 frees it now (else the collector does)
-- Errors are Lua errors "dunlua: <message>", the message naming the
-- script's file and line ("dunlua: mods/cave.lua:12: map:set: ...").
local ffi = require("ffi")
local jit = require("jit")

local dunlua = { _VERSION = "dunlua.lua 0.1.0" }

-- The command line's --timeout default, in seconds.
local DEFAULT_TIMEOUT = 10

ffi.cdef [[
typedef struct DunluaGenerator DunluaGenerator;
typedef struct DunluaMap DunluaMap;
typedef struct DunluaModule DunluaModule;
typedef void (*DunluaModuleLoader)(void *user_data, const char *relative_path, DunluaModule *module);
typedef struct { const char *name; const char *glyph; uint32_t codepoint; uint32_t color;
                 uint32_t background; bool walkable; bool transparent; } DunluaTileKind;
typedef struct { int32_t x1, y1, x2, y2; } DunluaRoom;
typedef struct { int32_t x, y; const char *name; } DunluaMarker;
typedef struct { const char *key; int32_t kind; int64_t integer; double number; bool boolean;
                 const char *text; } DunluaProperty;
const char *dunlua_version(void);
const char *dunlua_status_name(int32_t status);
const char *dunlua_last_error(void);
DunluaGenerator *dunlua_generator_from_file(const char *path);
DunluaGenerator *dunlua_generator_from_file_with_loader(const char *path,
                                                        DunluaModuleLoader loader, void *user_data);
DunluaGenerator *dunlua_generator_from_source(const char *name, const char *source,
                                              DunluaModuleLoader loader, void *user_data);
DunluaGenerator *dunlua_generator_from_text(const char *name, const char *text, size_t length,
                                            DunluaModuleLoader loader, void *user_data);
int32_t dunlua_module_set_source(DunluaModule *module, const char *text, size_t length);
int32_t dunlua_generator_set_int(DunluaGenerator *g, const char *name, int64_t value);
int32_t dunlua_generator_set_number(DunluaGenerator *g, const char *name, double value);
int32_t dunlua_generator_set_bool(DunluaGenerator *g, const char *name, int value);
int32_t dunlua_generator_set_string(DunluaGenerator *g, const char *name, const char *value);
int32_t dunlua_generator_set_size(DunluaGenerator *g, int64_t width, int64_t height);
int32_t dunlua_generator_set_limits(DunluaGenerator *g, uint64_t max_instructions,
                                    uint64_t max_memory_mb, double timeout_seconds);
int32_t dunlua_generator_set_max_attempts(DunluaGenerator *g, uint32_t attempts);
int32_t dunlua_generator_status(const DunluaGenerator *g);
const char *dunlua_generator_error(const DunluaGenerator *g);
const char *dunlua_generator_traceback(const DunluaGenerator *g);
int32_t dunlua_generate(DunluaGenerator *g, uint64_t seed, DunluaMap **out);
uint32_t dunlua_generator_levels(const DunluaGenerator *g);
int32_t dunlua_generator_set_levels(DunluaGenerator *g, uint32_t levels);
int32_t dunlua_generate_levels(DunluaGenerator *g, uint64_t seed, DunluaMap **out,
                               size_t capacity, size_t *count);
uint32_t dunlua_map_level(const DunluaMap *m);
void dunlua_generator_free(DunluaGenerator *g);
int32_t dunlua_generator_cancel(DunluaGenerator *g);
int32_t dunlua_map_width(const DunluaMap *m);
int32_t dunlua_map_height(const DunluaMap *m);
const uint8_t *dunlua_map_tiles(const DunluaMap *m);
size_t dunlua_map_tile_kind_count(const DunluaMap *m);
int32_t dunlua_map_tile_kind(const DunluaMap *m, size_t id, DunluaTileKind *out);
size_t dunlua_map_room_count(const DunluaMap *m);
int32_t dunlua_map_room(const DunluaMap *m, size_t index, DunluaRoom *out);
int32_t dunlua_map_start(const DunluaMap *m, int32_t *x, int32_t *y);
size_t dunlua_map_marker_count(const DunluaMap *m);
int32_t dunlua_map_marker(const DunluaMap *m, size_t index, DunluaMarker *out);
size_t dunlua_map_marker_property_count(const DunluaMap *m, size_t marker);
int32_t dunlua_map_marker_property(const DunluaMap *m, size_t marker, size_t index,
                                   DunluaProperty *out);
const char *dunlua_map_room_name(const DunluaMap *m, size_t index);
const char *dunlua_map_room_kind(const DunluaMap *m, size_t index);
uint64_t dunlua_map_hash(const DunluaMap *m);
uint64_t dunlua_map_seed(const DunluaMap *m);
const char *dunlua_map_json(const DunluaMap *m);
void dunlua_map_free(DunluaMap *m);
]]

local OK = 0
-- dunlua's limit (script::MAX_LEVELS): generate_levels never makes more.
local MAX_LEVELS = 32

local lib -- the loaded library, once dunlua.load has found it

local function in_love()
  return type(love) == "table" and type(love.filesystem) == "table"
end

local function library_name()
  if ffi.os == "Windows" then
    return "dunlua_capi.dll"
  elseif ffi.os == "OSX" then
    return "libdunlua_capi.dylib"
  end
  return "libdunlua_capi.so"
end

local function default_places()
  local places, name = {}, library_name()
  local env = os.getenv("DUNLUA_LIBRARY")
  if env and env ~= "" then
    places[#places + 1] = env
  end
  places[#places + 1] = "dunlua_capi"
  if in_love() then
    local fs = love.filesystem
    local folders = {}
    -- A game run from a folder: that folder (not a .love or a fused game).
    local source = fs.getSource and fs.getSource()
    local fused = fs.isFused and fs.isFused()
    if source and not fused and not source:lower():match("%.love$") then
      folders[#folders + 1] = source
    end
    if fs.getSourceBaseDirectory then
      folders[#folders + 1] = fs.getSourceBaseDirectory()
    end
    if fs.getSaveDirectory then
      folders[#folders + 1] = fs.getSaveDirectory()
    end
    for _, folder in ipairs(folders) do
      if folder and folder ~= "" then
        places[#places + 1] = folder .. "/" .. name
      end
    end
  end
  places[#places + 1] = "./" .. name
  return places
end

--- Loads the C library from `where` (a path, a name ffi.load understands,
--- or a list of them, tried in order; nil: the default places). Returns the
--- ffi library; raises an error naming every place tried.
function dunlua.load(where)
  local places
  if where == nil then
    places = default_places()
  elseif type(where) == "string" then
    places = { where }
  elseif type(where) == "table" then
    places = where
  else
    error("dunlua.load: expected a path or a list of paths, got " .. type(where), 2)
  end
  local tried = {}
  for _, place in ipairs(places) do
    local ok, loaded = pcall(ffi.load, place)
    if ok then
      lib = loaded
      dunlua.library_path = place
      return lib
    end
    local why = tostring(loaded)
    if why:sub(1, #place) ~= place then
      why = place .. ": " .. why
    end
    tried[#tried + 1] = "  " .. why
  end
  error("dunlua: cannot load the dunlua C library (" .. library_name()
    .. "; build it with `cargo build --release -p dunlua-capi` and put it beside the game, "
    .. "or call dunlua.load(path)). Tried:\n" .. table.concat(tried, "\n"), 0)
end

local function library()
  if not lib then
    dunlua.load()
  end
  return lib
end

--- dunlua's version ("0.1.0").
function dunlua.version()
  return ffi.string(library().dunlua_version())
end

local function fail(message)
  error("dunlua: " .. message, 0)
end

local function status_name(status)
  return ffi.string(lib.dunlua_status_name(status))
end

-- Module loaders: one ffi callback for the whole module (callbacks are a
-- scarce resource in LuaJIT), given each generator's id as user_data; the
-- generator's lookup function sits in `loaders` until it is collected.
local loaders = {}
local next_loader_id = 0
local loader_callback

local function module_loader()
  if loader_callback then
    return loader_callback
  end
  loader_callback = ffi.cast("DunluaModuleLoader", function(user_data, relative_path, module)
    -- No Lua error may cross the library's frames: a lookup that raised
    -- is handed back as a module raising its message.
    local lookup = loaders[tonumber(ffi.cast("intptr_t", user_data))]
    if not lookup then
      return
    end
    local ok, text = pcall(lookup, ffi.string(relative_path))
    if ok and type(text) == "string" then
      lib.dunlua_module_set_source(module, text, #text)
    elseif not ok then
      local message = "error(" .. string.format("%q", "loading module: " .. tostring(text)) .. ", 0)"
      lib.dunlua_module_set_source(module, message, #message)
    end
  end)
  return loader_callback
end

-- The most bytes a script or module may have: the library's cap
-- (dunlua::files::SOURCE), which its own reader applies to files on disk.
local MAX_SOURCE = 16 * 1024 * 1024

-- What love.filesystem has at `path` (its getInfo table), or nil: nothing
-- there, or not in LÖVE.
local function love_info(path)
  if not in_love() then
    return nil
  end
  local fs = love.filesystem
  if fs.getInfo then
    return fs.getInfo(path)
  end
  -- LÖVE before 11.0.
  if fs.isFile and fs.isFile(path) then
    return { type = "file", size = fs.getSize and fs.getSize(path) or nil }
  elseif fs.isDirectory and fs.isDirectory(path) then
    return { type = "directory" }
  elseif fs.isSymlink and fs.isSymlink(path) then
    return { type = "symlink" }
  elseif fs.exists and fs.exists(path) then
    return { type = "other" }
  end
  return nil
end

local function love_has(path)
  return love_info(path) ~= nil
end

-- What love.filesystem's types are, as the library names them ("other":
-- a FIFO, device or socket, which love.filesystem does not tell apart).
local WHAT = { directory = "a folder", symlink = "a symlink", other = "neither a file nor a folder" }

-- The text of `path` in love.filesystem as dunlua's own reader reads a
-- file on disk (src/files.rs): only a regular file, at most MAX_SOURCE
-- bytes. `inside` is the part of `path` below the script's folder (a
-- module's relative path): none of its folders may be a symlink either,
-- so a module cannot lead out of the script's folder (love.filesystem
-- cannot say where a link leads; with its symlinks off, as by default,
-- it has none). Returns the text, or nil (not there), or nil and why
-- it was refused, as the library says it ("not a regular file (a FIFO)").
local function love_read(path, inside)
  if inside then
    local base = path:sub(1, #path - #inside)
    for folder in inside:gmatch("([^/]+)/") do
      base = base .. folder
      local info = love_info(base)
      if info and info.type == "symlink" then
        return nil, base .. " is a symlink (love.filesystem's modules are read only "
          .. "from regular files and folders)"
      end
      base = base .. "/"
    end
  end
  local info = love_info(path)
  if not info then
    return nil
  end
  if info.type ~= "file" then
    return nil, "not a regular file (" .. (WHAT[info.type] or tostring(info.type)) .. ")"
  end
  local function too_big(size)
    return "too big: " .. (size and (size .. " bytes is ") or "")
      .. "more than the 16 MiB a script or module may have"
  end
  if info.size and info.size > MAX_SOURCE then
    return nil, too_big(info.size)
  end
  -- One byte past the cap tells a file that grew from one that did not.
  local text = love.filesystem.read(path, MAX_SOURCE + 1)
  if not text then
    return nil, "love.filesystem.read failed"
  end
  if #text > MAX_SOURCE then
    return nil, too_big(nil)
  end
  return text
end

local function folder_of(path)
  return path:match("^(.*[/\\])") or ""
end

local OPTIONS = {
  params = true, size = true, budget = true, memory = true, timeout = true, levels = true,
  attempts = true, modules = true, loader = true, name = true, source = true, path = true,
}

local function option_list()
  local names = {}
  for name in pairs(OPTIONS) do
    names[#names + 1] = name
  end
  table.sort(names)
  return table.concat(names, ", ")
end

local function is_integer(v)
  return type(v) == "number" and v == math.floor(v) and v > -2 ^ 63 and v < 2 ^ 63
end

local function check_count(options, key, low, high)
  local v = options[key]
  if v ~= nil and not (is_integer(v) and v >= low and v <= high) then
    fail(string.format("option %s: expected an integer in %s..%s, got %s", key, low, high,
      tostring(v)))
  end
  return v
end

-- Generator and map objects.
local Generator = {}
Generator.__index = Generator
local Map = {}
Map.__index = Map

local function generator_check(g, status)
  if status ~= OK then
    fail(ffi.string(lib.dunlua_generator_error(g)))
  end
end

local function set_param(g, name, value)
  local t = type(value)
  if t == "boolean" then
    return lib.dunlua_generator_set_bool(g, name, value and 1 or 0)
  elseif t == "string" then
    return lib.dunlua_generator_set_string(g, name, value)
  elseif t == "number" then
    if is_integer(value) then
      return lib.dunlua_generator_set_int(g, name, value)
    end
    return lib.dunlua_generator_set_number(g, name, value)
  elseif t == "cdata" and (ffi.istype("int64_t", value) or ffi.istype("uint64_t", value)) then
    return lib.dunlua_generator_set_int(g, name, value)
  end
  fail(string.format("param '%s': a %s is no parameter value (integer, number, boolean or string)",
    tostring(name), t))
end

-- Builds the generator handle, from a file or from text with a loader.
-- Calls into the library, which may call the module loader back: never
-- JIT-compiled (a trace calling C that calls Lua is LuaJIT's "bad callback").
local function make_handle(script, options)
  local path, text = options.path, options.source
  if path == nil and text == nil then
    if type(script) ~= "string" then
      fail("dunlua.new: expected a script path or text, got " .. type(script))
    end
    local one_line = not script:find("\n", 1, true)
    if one_line and (script:find("%.lua$") or not script:find("%f[%w_]return%f[^%w_]")) then
      path = script
    else
      text = script
    end
  end
  if path ~= nil and type(path) ~= "string" then
    fail("option path: expected a string, got " .. type(path))
  end
  if text ~= nil and type(text) ~= "string" then
    fail("option source: expected a string, got " .. type(text))
  end
  local name = options.name
  if name ~= nil and type(name) ~= "string" then
    fail("option name: expected a string, got " .. type(name))
  end
  local modules, custom = options.modules, options.loader
  if modules ~= nil and type(modules) ~= "table" then
    fail("option modules: expected a table of module name to text, got " .. type(modules))
  end
  if custom ~= nil and type(custom) ~= "function" then
    fail("option loader: expected a function(relative_path), got " .. type(custom))
  end
  local supplied = {}
  for key, value in pairs(modules or {}) do
    if type(key) ~= "string" or type(value) ~= "string" then
      fail("option modules: expected module names to texts, got " .. type(key) .. " = " .. type(value))
    end
    -- "lib.walls" and "lib/walls.lua" name the same module.
    local relative = key:match("%.lua$") and key:gsub("^%./", "") or (key:gsub("%.", "/") .. ".lua")
    supplied[relative] = value
  end

  -- Files on disk are read only by the library's own reader (regular
  -- files, size-capped, modules inside the script's real folder): this
  -- file never opens one. love.filesystem (a game's folder or .love and
  -- its save folder) is what the library cannot read; its files are read
  -- here, by the same rules as far as love.filesystem can tell.
  local from_love = path ~= nil and love_has(path)
  if path ~= nil and not from_love and modules == nil and not custom then
    -- A file on disk: read natively, modules from its folder, as the CLI.
    return lib.dunlua_generator_from_file(path), nil
  end
  if from_love then
    local why
    text, why = love_read(path)
    if not text then
      fail(string.format("cannot read script '%s': %s", path, why or "not in love.filesystem"))
    end
    name = name or path
  end
  local folder = folder_of(name or path or "script.lua")
  -- A module not supplied: from love.filesystem beside a script that came
  -- from it (or a text script, in LÖVE); else none (a script on disk with
  -- modules or a loader gets only those, as the library's own
  -- Generator:module and loader give).
  local beside = in_love() and (path == nil or from_love)
  local function lookup(relative)
    local found = supplied[relative]
    if found then
      return found
    end
    if custom then
      return custom(relative)
    end
    if beside then
      local text, why = love_read(folder .. relative, relative)
      if why then
        error(string.format("refused: cannot read %s: %s", folder .. relative, why), 0)
      end
      return text
    end
    return nil
  end
  next_loader_id = next_loader_id + 1
  local id = next_loader_id
  loaders[id] = lookup
  local user_data = ffi.cast("void *", ffi.cast("intptr_t", id))
  if path ~= nil and not from_love then
    -- The script read natively; its modules through the loader.
    return lib.dunlua_generator_from_file_with_loader(path, module_loader(), user_data), id
  end
  name = name or "script.lua"
  -- With its length: a script may hold NUL bytes, as its file may.
  local g = lib.dunlua_generator_from_text(name, text, #text, module_loader(), user_data)
  return g, id
end
jit.off(make_handle)

local function unpack_options(script, options)
  if type(script) == "table" and options == nil then
    return nil, script
  end
  if options == nil then
    return script, {}
  end
  if type(options) ~= "table" then
    fail("dunlua.new: options must be a table, got " .. type(options))
  end
  return script, options
end

local function build(script, options)
  library()
  script, options = unpack_options(script, options)
  for key in pairs(options) do
    if not OPTIONS[key] then
      fail(string.format("unknown option '%s'; options: %s", tostring(key), option_list()))
    end
  end
  local handle, id = make_handle(script, options)
  if handle == nil then
    if id then
      loaders[id] = nil
    end
    fail(ffi.string(lib.dunlua_last_error()))
  end
  local g = ffi.gc(handle, function(h)
    lib.dunlua_generator_free(h)
    if id then
      loaders[id] = nil
    end
  end)
  -- The limits first: the generator is built (its top level run) by its
  -- first setter or by the status, and the game's limits hold for that
  -- run too.
  local budget = check_count(options, "budget", 0, 2 ^ 53)
  local memory = check_count(options, "memory", 0, 2 ^ 53)
  local timeout = options.timeout
  if timeout ~= nil and not (type(timeout) == "number" and timeout >= 0 and timeout < math.huge) then
    fail("option timeout: expected seconds (a number >= 0), got " .. tostring(timeout))
  end
  if budget or memory or timeout then
    -- The C call takes all three; one not given keeps the command line's
    -- default (0 is the default for budget and memory, but no deadline
    -- for timeout, so the default deadline is passed as it is).
    generator_check(g, lib.dunlua_generator_set_limits(g, budget or 0, memory or 0,
      timeout or DEFAULT_TIMEOUT))
  else
    generator_check(g, lib.dunlua_generator_status(g))
  end

  local params = options.params
  if params ~= nil then
    if type(params) ~= "table" then
      fail("option params: expected a table of name = value, got " .. type(params))
    end
    local names = {}
    for key in pairs(params) do
      if type(key) ~= "string" then
        fail("option params: parameter names are strings, got " .. type(key))
      end
      names[#names + 1] = key
    end
    table.sort(names)
    for _, key in ipairs(names) do
      generator_check(g, set_param(g, key, params[key]))
    end
  end
  local size = options.size
  if size ~= nil then
    local w = type(size) == "table" and (size.width or size.w or size[1])
    local h = type(size) == "table" and (size.height or size.h or size[2])
    if not (is_integer(w) and is_integer(h)) then
      fail("option size: expected {width, height} in cells, got " .. tostring(size))
    end
    generator_check(g, lib.dunlua_generator_set_size(g, w, h))
  end
  local levels = check_count(options, "levels", 1, MAX_LEVELS)
  if levels then
    generator_check(g, lib.dunlua_generator_set_levels(g, levels))
  end
  local attempts = check_count(options, "attempts", 1, 2 ^ 32 - 1)
  if attempts then
    generator_check(g, lib.dunlua_generator_set_max_attempts(g, attempts))
  end
  return setmetatable({ _g = g, _loader = id, levels = tonumber(lib.dunlua_generator_levels(g)) },
    Generator)
end
jit.off(build)

--- A generator for a script (see the header). Raises on a script that
--- does not compile, an unknown parameter or a value of the wrong type.
function dunlua.new(script, options)
  return build(script, options)
end

--- dunlua.new without raising: generator, or nil and the message.
function dunlua.try_new(script, options)
  local ok, gen = pcall(build, script, options)
  if ok then
    return gen
  end
  return nil, (tostring(gen):gsub("^dunlua: ", ""))
end

local function to_seed(seed)
  if type(seed) == "number" then
    if seed >= 0 and seed == math.floor(seed) and seed < 2 ^ 64 then
      return seed
    end
  elseif type(seed) == "string" and seed:match("^%d+$") and #seed <= 20 then
    local value = ffi.new("uint64_t", 0)
    for digit in seed:gmatch("%d") do
      local next_value = value * 10 + tonumber(digit)
      if next_value < value or (next_value - tonumber(digit)) / 10 ~= value then
        return nil
      end
      value = next_value
    end
    return value
  elseif type(seed) == "cdata" then
    if ffi.istype("uint64_t", seed) then
      return seed
    elseif ffi.istype("int64_t", seed) and seed >= 0 then
      return ffi.cast("uint64_t", seed)
    end
  end
  return nil
end

local function seed_error(seed)
  return "a seed is an integer from 0 to 2^64-1 (a number, uint64 cdata or decimal string), got "
    .. tostring(seed)
end

local function rgb(color)
  return {
    bit.band(bit.rshift(color, 16), 0xff) / 255,
    bit.band(bit.rshift(color, 8), 0xff) / 255,
    bit.band(color, 0xff) / 255,
  }
end

local function start_call(start)
  return start.x, start.y
end
local Start = { __call = start_call }

local function property_value(p)
  if p.kind == 0 then
    return tonumber(p.integer)
  elseif p.kind == 1 then
    return p.number
  elseif p.kind == 2 then
    return p.boolean
  end
  return ffi.string(p.text)
end

-- Wraps a map handle into the Lua map: sizes, kinds, rooms, start and
-- markers are read once; tiles are read from the library's memory.
local function wrap_map(handle)
  local m = ffi.gc(handle, lib.dunlua_map_free)
  local width, height = lib.dunlua_map_width(m), lib.dunlua_map_height(m)
  local kinds, names = {}, {}
  local kind = ffi.new("DunluaTileKind")
  for id = 0, tonumber(lib.dunlua_map_tile_kind_count(m)) - 1 do
    lib.dunlua_map_tile_kind(m, id, kind)
    local k = {
      id = id,
      name = ffi.string(kind.name),
      glyph = ffi.string(kind.glyph),
      codepoint = kind.codepoint,
      color = kind.color,
      background = kind.background,
      fg = rgb(kind.color),
      bg = rgb(kind.background),
      walkable = kind.walkable,
      transparent = kind.transparent,
    }
    kinds[id + 1] = k
    names[id] = k.name
  end
  local rooms = {}
  local room = ffi.new("DunluaRoom")
  for i = 0, tonumber(lib.dunlua_map_room_count(m)) - 1 do
    lib.dunlua_map_room(m, i, room)
    local name, kind_name = lib.dunlua_map_room_name(m, i), lib.dunlua_map_room_kind(m, i)
    rooms[i + 1] = {
      x = room.x1, y = room.y1, w = room.x2 - room.x1, h = room.y2 - room.y1,
      x1 = room.x1, y1 = room.y1, x2 = room.x2, y2 = room.y2,
      name = name ~= nil and ffi.string(name) or nil,
      kind = kind_name ~= nil and ffi.string(kind_name) or nil,
    }
  end
  local markers = {}
  local marker, prop = ffi.new("DunluaMarker"), ffi.new("DunluaProperty")
  for i = 0, tonumber(lib.dunlua_map_marker_count(m)) - 1 do
    lib.dunlua_map_marker(m, i, marker)
    local props = {}
    for j = 0, tonumber(lib.dunlua_map_marker_property_count(m, i)) - 1 do
      lib.dunlua_map_marker_property(m, i, j, prop)
      props[ffi.string(prop.key)] = property_value(prop)
    end
    markers[i + 1] = { x = marker.x, y = marker.y, name = ffi.string(marker.name), props = props }
  end
  local sx, sy = ffi.new("int32_t[1]"), ffi.new("int32_t[1]")
  lib.dunlua_map_start(m, sx, sy)
  local seed = lib.dunlua_map_seed(m)
  return setmetatable({
    _m = m,
    _tiles = lib.dunlua_map_tiles(m),
    _names = names,
    width = width,
    height = height,
    level = lib.dunlua_map_level(m),
    seed = seed < 2 ^ 53 and tonumber(seed) or seed,
    kinds = kinds,
    rooms = rooms,
    markers = markers,
    start = setmetatable({ x = sx[0], y = sy[0] }, Start),
  }, Map)
end

-- The calls that may run the script (and so the module loader): never
-- JIT-compiled, see make_handle.
local function run(gen, seed)
  local g = gen._g
  if g == nil then
    return nil, "this generator was freed", "DUNLUA_STATUS_BAD_HANDLE"
  end
  local value = to_seed(seed)
  if value == nil then
    return nil, seed_error(seed), "DUNLUA_STATUS_USAGE"
  end
  local out = ffi.new("DunluaMap *[1]")
  local status = lib.dunlua_generate(g, value, out)
  if status ~= OK then
    return nil, ffi.string(lib.dunlua_generator_error(g)), status_name(status)
  end
  return wrap_map(out[0])
end
jit.off(run)

local function run_levels(gen, seed)
  local g = gen._g
  if g == nil then
    return nil, "this generator was freed", "DUNLUA_STATUS_BAD_HANDLE"
  end
  local value = to_seed(seed)
  if value == nil then
    return nil, seed_error(seed), "DUNLUA_STATUS_USAGE"
  end
  local out, count = ffi.new("DunluaMap *[?]", MAX_LEVELS), ffi.new("size_t[1]")
  local status = lib.dunlua_generate_levels(g, value, out, MAX_LEVELS, count)
  if status ~= OK then
    return nil, ffi.string(lib.dunlua_generator_error(g)), status_name(status)
  end
  local maps = {}
  for i = 0, tonumber(count[0]) - 1 do
    maps[i + 1] = wrap_map(out[i])
  end
  return maps
end
jit.off(run_levels)

function Generator:try_generate(seed)
  return run(self, seed)
end

function Generator:generate(seed)
  local map, message = run(self, seed)
  if not map then
    fail(message)
  end
  return map
end

function Generator:try_generate_levels(seed)
  return run_levels(self, seed)
end

function Generator:generate_levels(seed)
  local maps, message = run_levels(self, seed)
  if not maps then
    fail(message)
  end
  return maps
end

function Generator:traceback()
  if self._g == nil then
    return ""
  end
  return ffi.string(lib.dunlua_generator_traceback(self._g))
end

function Generator:free()
  local g = self._g
  if g ~= nil then
    self._g = nil
    ffi.gc(g, nil)
    lib.dunlua_generator_free(g)
    if self._loader then
      loaders[self._loader] = nil
    end
  end
end

local function cell(map, x, y)
  if type(x) ~= "number" or type(y) ~= "number" then
    error(string.format("map: expected x, y numbers, got %s, %s", type(x), type(y)), 3)
  end
  if map._tiles == nil then
    error("map: this map was freed", 3)
  end
  if x < 0 or y < 0 or x >= map.width or y >= map.height or x % 1 ~= 0 or y % 1 ~= 0 then
    return nil
  end
  return map._tiles[y * map.width + x]
end

function Map:get(x, y)
  local id = cell(self, x, y)
  return id and self._names[id]
end

function Map:id(x, y)
  return cell(self, x, y)
end

function Map:kind(x, y)
  local id = cell(self, x, y)
  return id and self.kinds[id + 1]
end

function Map:walkable(x, y)
  local id = cell(self, x, y)
  return id ~= nil and self.kinds[id + 1].walkable
end

function Map:each(fn)
  if self._tiles == nil then
    error("map: this map was freed", 2)
  end
  local tiles, names, width = self._tiles, self._names, self.width
  for y = 0, self.height - 1 do
    local row = y * width
    for x = 0, width - 1 do
      local id = tiles[row + x]
      fn(x, y, id, names[id])
      if self._tiles == nil then
        -- The callback freed the map: its tiles are gone.
        error("map: this map was freed during map:each", 2)
      end
    end
  end
end

function Map:hash()
  if self._tiles == nil then
    error("map: this map was freed", 2)
  end
  return string.format("%016x", lib.dunlua_map_hash(self._m))
end

function Map:json()
  if self._tiles == nil then
    error("map: this map was freed", 2)
  end
  local json = lib.dunlua_map_json(self._m)
  if json == nil then
    -- Past the exports' bound (a script that marked a million cells).
    error("dunlua: " .. ffi.string(lib.dunlua_last_error()), 2)
  end
  return ffi.string(json)
end

function Map:free()
  local m = self._m
  if m ~= nil and self._tiles ~= nil then
    self._tiles = nil
    ffi.gc(m, nil)
    lib.dunlua_map_free(m)
  end
end

return dunlua

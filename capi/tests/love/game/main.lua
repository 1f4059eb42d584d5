-- A headless LÖVE game for capi/tests/love.rs: reads scripts and modules
-- through love.filesystem (from a folder or a .love archive) with
-- lua/dunlua.lua, prints what it generated, and quits.
--
--   love GAME SEEDS SCRIPT...    (the library beside GAME)
local dunlua = require("dunlua")

local function out(...)
  io.write(table.concat({ ... }, " "), "\n")
end

local function run(args)
  local seeds = tonumber(args[1])
  dunlua.load()
  out("library", dunlua.library_path)
  for i = 2, #args do
    local script = args[i]
    out("in_love", script, tostring(love.filesystem.getInfo(script) ~= nil),
      tostring(io.open(script, "rb") ~= nil))
    local gen = dunlua.new(script)
    for seed = 0, seeds - 1 do
      out("hash", script, seed, gen:generate(seed):hash())
      if gen.levels > 1 then
        local words = { "levels", script, seed }
        for _, map in ipairs(gen:generate_levels(seed)) do
          words[#words + 1] = map:hash()
        end
        out(unpack(words))
      end
    end
  end
  -- The game's own script and module, only in the game's files.
  out("mod", dunlua.new("mods/cave.lua"):generate(1):hash())
  -- Text the game holds, its module found beside its name.
  local text = love.filesystem.read("mods/cave.lua")
  out("mod_text", dunlua.new(text, { name = "mods/cave.lua" }):generate(1):hash())
  local ok, err = pcall(dunlua.new, "mods/broken.lua")
  out("broken", tostring(ok), err)
  ok, err = pcall(dunlua.new, "mods/needs_missing.lua")
  out("missing", tostring(ok), err)
  -- A module missing only when generate asks for it: an error, then the
  -- generator goes on with the next seed.
  local gen = dunlua.new("mods/sometimes.lua")
  local map, message, status = gen:try_generate(1)
  out("sometimes", tostring(map), status, message)
  out("sometimes_next", gen:generate(2):hash())
end

function love.load(args)
  local ok, err = pcall(run, args)
  io.stdout:flush()
  if not ok then
    io.stderr:write("error ", tostring(err), "\n")
    love.event.quit(1)
  else
    love.event.quit(0)
  end
end

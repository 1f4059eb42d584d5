-- examples/love: walk a dunlua dungeon in LÖVE.
--
--   cargo build --release -p dunlua-capi
--   love examples/love                    # the game's own dungeon.lua
--   love examples/love scripts/caves.lua  # a script on disk (from the current folder)
--   love examples/love scripts/caves.lua 42   # ... from seed 42
--
-- Arrow keys walk (walkable cells only), R (or the stairs down) makes the
-- next seed's map, Escape quits. Gold piles (markers) are picked up.
--
-- What it finds where: dunlua.lua beside this file (a shipped game copies
-- lua/dunlua.lua there), else the repository's lua/ folder two levels up;
-- the library where dunlua.load() looks (beside the game, ...), else in
-- the repository's target/release or target/debug; dungeon.lua and
-- lib/treasure.lua through love.filesystem, so zipping this folder into a
-- .love (with dunlua.lua inside, the library beside it) works too.
--
-- `love examples/love --smoke` draws a few frames, walks, prints the seed,
-- hash and where the player went, and quits (capi/tests/love.rs runs it).

local repo = (love.filesystem.getSource() or "."):gsub("[/\\]+$", "") .. "/../.."
if not love.filesystem.getInfo("dunlua.lua") then
  package.path = repo .. "/lua/?.lua;" .. package.path
end
local dunlua = require("dunlua")

local STATUS_HEIGHT = 22
local game = {
  script = "dungeon.lua",
  seed = 1,
  message = nil, -- what went wrong, shown instead of a map
  map = nil,
  player = { x = 0, y = 0 },
  gold = 0,
  taken = {},
  cell = 16,
  font = nil,
}

local function load_library()
  local ok, err = pcall(dunlua.load)
  if ok then
    return
  end
  local places = {}
  for _, build in ipairs({ "release", "debug" }) do
    for _, file in ipairs({ "libdunlua_capi.so", "libdunlua_capi.dylib", "dunlua_capi.dll" }) do
      places[#places + 1] = repo .. "/target/" .. build .. "/" .. file
    end
  end
  if not pcall(dunlua.load, places) then
    error(err .. "\nnor in " .. repo .. "/target/release or target/debug", 0)
  end
end

local function fit()
  local w, h = love.graphics.getDimensions()
  local map = game.map
  if not map then
    return
  end
  local cell = math.max(4, math.min(math.floor(w / map.width), math.floor((h - STATUS_HEIGHT) / map.height)))
  if cell ~= game.cell or not game.font then
    game.cell = cell
    game.font = love.graphics.newFont(math.max(6, cell - 2))
  end
end

local function generate()
  local ok, gen = pcall(dunlua.new, game.script)
  local map, message = nil, nil
  if ok then
    map, message = gen:try_generate(game.seed)
  else
    message = gen
  end
  game.map, game.message = map, message
  game.taken = {}
  if map then
    game.player.x, game.player.y = map:start()
    fit()
  end
end

local function step(dx, dy)
  local map, p = game.map, game.player
  if not map or not map:walkable(p.x + dx, p.y + dy) then
    return
  end
  p.x, p.y = p.x + dx, p.y + dy
  for i, marker in ipairs(map.markers) do
    if marker.name == "gold" and marker.x == p.x and marker.y == p.y and not game.taken[i] then
      game.taken[i] = true
      game.gold = game.gold + (marker.props.amount or 1)
    end
  end
  if map:get(p.x, p.y) == "stairs_down" then
    game.seed = game.seed + 1
    generate()
  end
end

local smoke -- frames left in --smoke mode

function love.load(args)
  for _, a in ipairs(args) do
    if a == "--smoke" then
      smoke = 5
    elseif tonumber(a) then
      game.seed = tonumber(a)
    else
      game.script = a
    end
  end
  local ok, err = pcall(load_library)
  if not ok then
    game.message = err
    return
  end
  generate()
end

local MOVES = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }

function love.keypressed(key)
  if MOVES[key] then
    step(MOVES[key][1], MOVES[key][2])
  elseif key == "r" then
    game.seed = game.seed + 1
    generate()
  elseif key == "escape" then
    love.event.quit()
  end
end

function love.resize()
  fit()
end

function love.update()
  if not smoke then
    return
  end
  smoke = smoke - 1
  if smoke == 2 then
    local from = game.player.x .. "," .. game.player.y
    for _, key in ipairs({ "right", "right", "down", "left", "up", "up" }) do
      love.keypressed(key)
    end
    print("walked from " .. from .. " to " .. game.player.x .. "," .. game.player.y)
  elseif smoke == 0 then
    print("seed " .. game.seed .. " hash " .. (game.map and game.map:hash() or "none")
      .. " message " .. tostring(game.message))
    io.stdout:flush()
    love.event.quit(game.map and 0 or 1)
  end
end

function love.draw()
  local map = game.map
  if not map then
    love.graphics.setColor(1, 0.4, 0.4)
    love.graphics.printf(tostring(game.message), 10, 10, love.graphics.getWidth() - 20)
    return
  end
  local cell, font = game.cell, game.font
  love.graphics.setFont(font)
  local dy = math.floor((cell - font:getHeight()) / 2)
  local function glyph(text, x, y, color)
    love.graphics.setColor(color)
    love.graphics.print(text, x * cell + math.floor((cell - font:getWidth(text)) / 2), y * cell + dy)
  end
  map:each(function(x, y, id)
    local kind = map.kinds[id + 1]
    if kind.background ~= 0 then
      love.graphics.setColor(kind.bg)
      love.graphics.rectangle("fill", x * cell, y * cell, cell, cell)
    end
    glyph(kind.glyph, x, y, kind.fg)
  end)
  for i, marker in ipairs(map.markers) do
    if not game.taken[i] then
      glyph(marker.name == "gold" and "$" or marker.name:sub(1, 1), marker.x, marker.y, { 1, 0.8, 0.2 })
    end
  end
  glyph("@", game.player.x, game.player.y, { 1, 1, 1 })
  game.status_font = game.status_font or love.graphics.newFont(12)
  love.graphics.setFont(game.status_font)
  love.graphics.setColor(0.8, 0.8, 0.8)
  love.graphics.print(string.format("%s  seed %d  hash %s  gold %d   arrows walk, R next seed, Esc quits",
    game.script, game.seed, map:hash(), game.gold), 6, love.graphics.getHeight() - STATUS_HEIGHT + 4)
end

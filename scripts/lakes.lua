-- lakes.lua: Brogue's lakes. Rooms and corridors first (as rooms.lua, the
-- corridors by map:connect_regions); then lakes of deep water where a noise
-- field is low, each kept only if the level stays in one walkable piece:
-- a lake is filled unless it would cut the level in two (map:disconnects,
-- Brogue's levelIsDisconnectedWithBlockingMap). Water is measured as
-- regions of its own kind (map:regions("water")).
--
-- Draw order: the room tries (w, h, x, y each), connect_regions' shuffles,
-- then the noise lattice; lakes are tried largest first.
--
-- floor ratio: 0.09..0.28 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Lakes (Brogue)",
  width = 80,
  height = 50,
  params = { max_rooms = 24, min_size = 6, max_size = 12, lake_level = 0.35, scale = 10, doors = true, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.min_size < 1 or p.min_size > p.max_size then
      error(("need 1 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size >= W or p.max_size >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end
    if p.max_rooms < 1 then
      error(("need max_rooms >= 1, got %d"):format(p.max_rooms))
    end
    if not (p.lake_level > 0 and p.lake_level < 1) then
      error(("need 0 < lake_level < 1, got %s"):format(p.lake_level))
    end
    if p.scale < 1 or p.scale > 4096 then
      error(("need 1 <= scale <= 4096, got %s"):format(p.scale))
    end
    map:fill("wall")
    local placed = Rect.index()
    for _ = 1, p.max_rooms do
      local w, h = rng:range(p.min_size, p.max_size), rng:range(p.min_size, p.max_size)
      local room = Rect.new(rng:int(W - w), rng:int(H - h), w, h)
      if not placed:intersects_any(room) then
        placed:insert(room)
        map:carve_room(room)
        map:add_room(room)
      end
    end
    map:connect_regions(rng)

    -- Where lakes may go: low noise on floor, away from the map's edge.
    local field = map:noise(rng, { scale = p.scale, octaves = 3 })
    local wet = field:select(0, p.lake_level):intersect(map:select("floor"))
    map:fill_selection(wet, "water")
    local lakes = map:regions("water")
    map:fill_selection(wet, "floor")
    -- The level is one piece here (joined above), and stays so: a lake
    -- that would cut it stays dry.
    local kept = 0
    for _, lake in ipairs(lakes) do
      if not map:disconnects(lake.cells) then
        map:fill_selection(lake.cells, "water")
        kept = kept + 1
      end
    end

    local first = map:rooms()[1]
    local sx, sy = first:center()
    if map:get(sx, sy) ~= "floor" then
      sx, sy = map:random_cell("floor", rng)
      if sx == nil then
        error(("the lakes left no floor (lake_level = %s): lower lake_level"):format(p.lake_level))
      end
    end
    map:set_start(sx, sy)
    if p.doors then features.doors(map) end
    if p.stairs then features.stairs(map) end
  end,

  -- One walkable piece, and some water to show for it.
  validate = function(map)
    return #map:regions() == 1 and map:count("water") > 0
  end,
}

-- lib/spawn.lua: depth-scaled spawn tables with rng:weighted.
--
--   local spawn = require("lib.spawn")
--   local placed = spawn.populate(map, rng, { depth = 3, per_room = 2 })
--
-- Each entry of a table names a thing, a weight at depth 1 and how much the
-- weight grows (or shrinks) per level down; an entry whose weight drops to
-- 0 or below is left out at that depth, so orcs give way to trolls as the
-- player descends. Every placed thing is a marker with data the game
-- reads from the exports: {kind = "monster"|"item", hp = ..., depth = ...}.

local M = {}

M.monsters = {
  { name = "rat",    weight = 60, per_depth = -12, hp = 3 },
  { name = "goblin", weight = 30, per_depth = 2,   hp = 7 },
  { name = "orc",    weight = 10, per_depth = 8,   hp = 15 },
  { name = "troll",  weight = 0,  per_depth = 6,   hp = 40 },
}

M.items = {
  { name = "potion", weight = 50, per_depth = 0 },
  { name = "scroll", weight = 30, per_depth = 2 },
  { name = "sword",  weight = 15, per_depth = 3 },
  { name = "crown",  weight = 0,  per_depth = 1 },
}

-- The {value, weight} list rng:weighted takes, for one table at a depth.
function M.at_depth(entries, depth)
  local list = {}
  for _, e in ipairs(entries) do
    local w = e.weight + e.per_depth * (depth - 1)
    if w > 0 then list[#list + 1] = { e, w } end
  end
  return list
end

-- Places up to `per_room` things in each recorded room (none in the first,
-- where the player starts): each a monster or an item by a coin toss, the
-- kind by weighted choice at `depth`, on a random floor cell of the room
-- where populate has not put a thing yet. Markers placed before it are not
-- looked at: a floor cell already marked (a key, an amulet) may get a
-- monster or an item too. (Skipping them would spend the draws otherwise
-- and change the maps of every seed that meets one, levels.lua's among
-- them.) A try on a cell that is not floor or already taken places
-- nothing; a room with no cell inside its walls draws its count of tries
-- and makes none. Returns how many it placed. `opts` may be left out
-- (depth 1, one a room).
function M.populate(map, rng, opts)
  opts = opts or {}
  local depth, per_room = opts.depth or 1, opts.per_room or 1
  if type(depth) ~= "number" or depth ~= depth then
    error(("spawn.populate: depth must be a number, got %s"):format(tostring(depth)), 2)
  end
  if type(per_room) ~= "number" or per_room % 1 ~= 0 or per_room < 0 or per_room > 4294967295 then
    error(("spawn.populate: per_room must be a whole number 0..4294967295, got %s"):format(tostring(per_room)), 2)
  end
  local monsters, items = M.at_depth(M.monsters, depth), M.at_depth(M.items, depth)
  local placed, taken = 0, {}
  for i, room in ipairs(map:rooms()) do
    -- A room with no inside still draws its count (a map whose draw was 0
    -- was made before), then tries nothing: rng:range raised in here.
    local inside = room.x2 - room.x1 >= 2 and room.y2 - room.y1 >= 2
    if i > 1 then
      local tries = rng:int(per_room + 1)
      if not inside then tries = 0 end
      for _ = 1, tries do
        local x = rng:range(room.x1 + 1, room.x2 - 1)
        local y = rng:range(room.y1 + 1, room.y2 - 1)
        if map:get(x, y) == "floor" and not taken[y * map.width + x] then
          taken[y * map.width + x] = true
          if rng:coin() then
            local m = rng:weighted(monsters)
            map:mark(x, y, m.name, { kind = "monster", hp = m.hp, depth = depth })
          else
            local it = rng:weighted(items)
            map:mark(x, y, it.name, { kind = "item", depth = depth })
          end
          placed = placed + 1
        end
      end
    end
  end
  return placed
end

return M

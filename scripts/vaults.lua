-- vaults.lua: rooms and corridors with prefab vaults written as ASCII, in
-- the way of DCSS's .des vaults and NetHack's special rooms.
--
-- Rooms are placed and joined as in rooms.lua. Then each room after the
-- first whose interior is big enough gets, with probability `vault_chance`,
-- one of the vaults below stamped into its interior (map:stamp): pillars,
-- a moat, a treasure chamber behind a door. Vault legends can mark cells
-- ("treasure", "altar"), which the JSON export lists as markers. A final
-- map:connect_regions keeps every cell reachable whatever a vault walled
-- off. Doors and stairs come from lib/features.lua.
--
-- floor ratio: 0.10..0.40 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")
local rooms_lib = require("lib.rooms")

local LEGEND = {
  ["."] = "floor",
  ["#"] = "wall",
  ["+"] = "door",
  ["~"] = "water",
  ["$"] = { tile = "floor", mark = "treasure" },
  ["_"] = { tile = "floor", mark = "altar" },
}

local VAULTS = {
  {
    name = "pillars",
    rows = {
      ".......",
      ".#.#.#.",
      ".......",
      ".#.#.#.",
      ".......",
    },
  },
  {
    name = "moat",
    rows = {
      ".......",
      ".~~~~~.",
      ".~._.~.",
      ".~...~.",
      ".~~.~~.",
      ".......",
    },
  },
  {
    name = "treasury",
    rows = {
      ".......",
      ".##+##.",
      ".#.$.#.",
      ".#$.$#.",
      ".#####.",
      ".......",
    },
  },
}

return {
  name = "Rooms with vaults",
  width = 80,
  height = 50,
  params = { max_rooms = 30, min_size = 7, max_size = 12, vault_chance = 0.5, doors = true, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.max_rooms < 0 then
      error(("need max_rooms >= 0, got %d"):format(p.max_rooms))
    end
    if p.min_size < 3 or p.min_size > p.max_size or p.max_size >= W or p.max_size >= H then
      error(("rooms of %d..%d tiles do not fit a %dx%d map"):format(p.min_size, p.max_size, W, H))
    end
    map:fill("wall")
    local rooms = rooms_lib.place(map, rng, p)
    rooms_lib.carve_and_join(map, rng, rooms)

    for i = 2, #rooms do
      local x1, y1, x2, y2 = rooms[i]:interior()
      local iw, ih = x2 - x1 + 1, y2 - y1 + 1
      if rng:chance(p.vault_chance) then
        local vault = rng:pick(VAULTS)
        local vw, vh = #vault.rows[1], #vault.rows
        if vw <= iw and vh <= ih then
          map:stamp(x1 + (iw - vw) // 2, y1 + (ih - vh) // 2, vault.rows, LEGEND)
          map:snapshot("vault " .. vault.name)
        end
      end
    end
    map:connect_regions(rng)
    map:set_start(rooms[1]:center())
    features.add(map, p)
  end,
}

-- mixed.lua: rooms and corridors with a drunkard's-walk cave in the middle,
-- as jsrlt's live demo shows ("a natural cave in the middle of an
-- artificial dungeon", part 3).
--
-- A cave area is kept free in the middle of the map; rooms are placed
-- around it as in rooms.lua (tries, inclusive intersection, carved
-- interiors, L-tunnels to the previous room with a coin flip). Then
-- walkers dig the cave from its centre (map:walk), and map:connect_regions
-- joins the cave and anything cut off to the rest by the shortest tunnels.
-- The player starts in the first room; doors and stairs from lib/features.lua.
--
-- floor ratio: 0.10..0.40 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")
local rooms_lib = require("lib.rooms")

return {
  name = "Rooms around a cave",
  width = 80,
  height = 50,
  params = { max_rooms = 30, min_size = 6, max_size = 10, cave = 0.3, cave_walk = 300, doors = true, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.max_rooms < 0 then
      error(("need max_rooms >= 0, got %d"):format(p.max_rooms))
    end
    if p.min_size < 3 or p.min_size > p.max_size or p.max_size >= W or p.max_size >= H then
      error(("rooms of %d..%d tiles do not fit a %dx%d map"):format(p.min_size, p.max_size, W, H))
    end
    if not (p.cave >= 0 and p.cave < 1) then
      error(("need 0 <= cave < 1, got %s"):format(p.cave))
    end
    map:fill("wall")
    local cw, ch = math.max(3, math.floor(W * p.cave)), math.max(3, math.floor(H * p.cave))
    local cave = Rect.new((W - cw) // 2, (H - ch) // 2, cw, ch)
    -- A room must clear the cave's left or top side (the wider margins).
    if p.min_size >= cave.x1 and p.min_size >= cave.y1 then
      error(("a %dx%d cave (cave = %s) leaves no room of min_size %d beside it on a %dx%d map"):format(
        cw, ch, p.cave, p.min_size, W, H))
    end

    local rooms = rooms_lib.place(map, rng, p, cave)
    if #rooms == 0 then
      reject("no room fits around the cave")
    end
    rooms_lib.carve_and_join(map, rng, rooms)
    map:snapshot("rooms")

    -- Each walker starts at the cave's centre; longer walks on bigger maps
    -- keep this loop short whatever the size.
    local cx, cy = cave:center()
    local target = cave.w * cave.h // 3
    local steps = math.max(p.cave_walk, target)
    local dug = 0
    while dug < target do
      local _, _, changed = map:walk(cx, cy, steps, rng)
      dug = dug + changed
    end
    map:snapshot("cave")
    map:connect_regions(rng)
    map:set_start(rooms[1]:center())
    features.add(map, p)
  end,
}

-- rooms.lua: rooms and corridors, as in "Grogue: A Roguelike Tutorial in Go"
-- (part 3), the reference algorithm every other script varies.
--
--   * max_rooms + 1 placement tries (Grogue loops `i <= MaxRooms`);
--   * each try: width and height in min_size..max_size, then
--     x = rng:int(W - w), y = rng:int(H - h), so the room stays on the map;
--   * a room that touches or overlaps an accepted one is rejected
--     (inclusive intersection, which keeps a wall between rooms);
--   * accepted rooms are carved (interior only) and each is joined to the
--     previous one by an L-shaped tunnel; a coin flip picks the bend;
--   * the player starts at the centre of the first room.
--
-- With -p features=true, lib/features.lua adds doors and stairs (off by
-- default, so the map is the tutorial's).
-- Draw order (the guide's Determinism chapter): all tries first (w, h, x, y per
-- try), then one rng:int(2) per tunnel while carving, 0 = horizontal first.
-- Any implementation of that spec gives these maps for the same seed.
--
-- floor ratio: 0.10..0.40 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Rooms and corridors (Grogue)",
  width = 80,
  height = 50,
  params = { features = false, max_rooms = 30, min_size = 6, max_size = 10 },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.max_rooms < 0 then
      error(("need max_rooms >= 0, got %d"):format(p.max_rooms))
    end
    if p.min_size < 1 or p.min_size > p.max_size then
      error(("need 1 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size >= W or p.max_size >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end

    map:fill("wall")

    -- `placed:intersects_any(room)` is the tutorial's loop over every
    -- accepted room, answered natively from a spatial index.
    local rooms, placed = {}, Rect.index()
    for _ = 0, p.max_rooms do
      local w = rng:range(p.min_size, p.max_size)
      local h = rng:range(p.min_size, p.max_size)
      local room = Rect.new(rng:int(W - w), rng:int(H - h), w, h)
      if not placed:intersects_any(room) then
        rooms[#rooms + 1] = room
        placed:insert(room)
      end
    end

    for i, room in ipairs(rooms) do
      map:carve_room(room)
      map:add_room(room)
      if i > 1 then
        local px, py = rooms[i - 1]:center()
        local nx, ny = room:center()
        map:l_tunnel(px, py, nx, ny, rng:int(2) == 0)
      end
    end

    map:set_start(rooms[1]:center())
    features.add(map, { doors = p.features, stairs = p.features })
  end,
}

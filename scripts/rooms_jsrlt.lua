-- rooms_jsrlt.lua: rooms and passages, as in the jsrlt tutorial (JavaScript,
-- geotic ECS), part 3 "Generating a dungeon".
--
-- What differs from rooms.lua (Grogue):
--   * 30 tries (lodash `times(maxRoomCount)`), not max_rooms + 1;
--   * sizes 6..12 (lodash `random(min, max)` is inclusive);
--   * x = random(0, W - w - 1), which is the same draw as rng:int(W - w);
--   * no coin flip: every passage runs horizontally along the new room's
--     row, then vertically along the previous room's column;
--   * all rooms are placed first, then carved, then joined (the tutorial
--     merges tile sets), which gives the same tiles as carving as you go.
-- The player starts at the centre of the first room. With -p features=true,
-- lib/features.lua adds doors and stairs (off by default: the seed's map).
--
-- floor ratio: 0.10..0.45 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Rooms and passages (jsrlt)",
  width = 80,
  height = 50,
  params = { features = false, max_rooms = 30, min_size = 6, max_size = 12 },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.max_rooms < 1 then
      error(("need max_rooms >= 1, got %d"):format(p.max_rooms))
    end
    if p.min_size < 1 or p.min_size > p.max_size then
      error(("need 1 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size >= W or p.max_size >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end

    map:fill("wall")

    local rooms = {}
    for _ = 1, p.max_rooms do
      local w = rng:range(p.min_size, p.max_size)
      local h = rng:range(p.min_size, p.max_size)
      local candidate = Rect.new(rng:range(0, W - w - 1), rng:range(0, H - h - 1), w, h)
      local overlaps = false
      for _, room in ipairs(rooms) do
        if candidate:intersects(room) then
          overlaps = true
          break
        end
      end
      if not overlaps then
        rooms[#rooms + 1] = candidate
      end
    end

    for _, room in ipairs(rooms) do
      map:carve_room(room)
      map:add_room(room)
    end

    for i = 2, #rooms do
      local px, py = rooms[i - 1]:center()
      local cx, cy = rooms[i]:center()
      map:h_tunnel(px, cx, cy)
      map:v_tunnel(py, cy, px)
    end

    map:set_start(rooms[1]:center())
    features.add(map, { doors = p.features, stairs = p.features })
  end,
}

-- rooms_malwoden.lua: rooms and corridors, as in the malwoden tutorial
-- (TypeScript), chapter 5 "Rooms and Corridors".
--
-- What differs from rooms.lua (Grogue):
--   * 30 tries (`i < MAX_ROOMS`);
--   * malwoden's nextInt(min, max) excludes max, so sizes are
--     min_size..max_size-1 (6..9 with the tutorial's 6 and 10) and
--     x = nextInt(1, W - w - 1) - 1 lies in 0..W-w-3: rng:int(W - w - 2);
--   * rooms are whole rects (applyRoomToMap fills corners included), so
--     rooms one tile apart merge with no wall between them;
--   * each accepted room is dug at once and tunnelled to the previous one
--     straight away, a coin flip (nextBoolean) picking the bend:
--     horizontal along the previous room's row, or vertical first.
-- The player starts at the centre of the first room. With -p features=true,
-- lib/features.lua adds doors and stairs (off by default: the seed's map).
--
-- floor ratio: 0.15..0.50 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Rooms and corridors (malwoden)",
  width = 80,
  height = 50,
  params = { features = false, max_rooms = 30, min_size = 6, max_size = 10 },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.max_rooms < 1 then
      error(("need max_rooms >= 1, got %d"):format(p.max_rooms))
    end
    if p.min_size < 1 or p.min_size >= p.max_size then
      error(("need 1 <= min_size < max_size (max is exclusive), got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size + 2 >= W or p.max_size + 2 >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end

    map:fill("wall")

    local rooms = {}
    for _ = 1, p.max_rooms do
      local w = rng:range(p.min_size, p.max_size - 1)
      local h = rng:range(p.min_size, p.max_size - 1)
      local new_room = Rect.new(rng:int(W - w - 2), rng:int(H - h - 2), w, h)
      local intersects = false
      for _, room in ipairs(rooms) do
        if room:intersects(new_room) then
          intersects = true
          break
        end
      end
      if not intersects then
        map:fill_rect(new_room, "floor")
        if #rooms > 0 then
          local nx, ny = new_room:center()
          local px, py = rooms[#rooms]:center()
          map:l_tunnel(px, py, nx, ny, rng:coin())
        end
        rooms[#rooms + 1] = new_room
        map:add_room(new_room)
      end
    end

    map:set_start(rooms[1]:center())
    features.add(map, { doors = p.features, stairs = p.features })
  end,
}

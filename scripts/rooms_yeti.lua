-- rooms_yeti.lua: rooms, as in "Fat Old Yeti"'s Roguelike in Go, part 5
-- (Rooms), with corridors added so the map can be walked.
--
-- What differs from rooms.lua (Grogue):
--   * 30 tries (`idx < MAX_ROOMS`);
--   * dice-roll placement: GetDiceRoll(n) is 1..n (rng:range(1, n)), and
--     GetRandomBetween(low, high) rolls a d(high) until it is >= low;
--     x = GetDiceRoll(W - w - 1) - 1, so x lies in 0..W-w-2;
--   * the tutorial's intersection test compares y1 with the other room's
--     y1 instead of its y2, letting rooms overlap vertically. That bug is
--     reproduced behind `buggy_intersection` (off by default);
--   * part 5 has no corridors yet: here each room is joined to the
--     previous one by an L-shaped tunnel, a d2 roll picking the bend
--     (1 = horizontal first), so every room is reachable.
-- The player starts at the centre of the first room. With -p features=true,
-- lib/features.lua adds doors and stairs (off by default: the seed's map).
--
-- floor ratio: 0.10..0.40 (walkable cells over all cells, defaults, 500 seeds)

local function dice(rng, sides)
  return rng:range(1, sides)
end

local function random_between(rng, low, high)
  local roll
  repeat
    roll = dice(rng, high)
  until roll >= low
  return roll
end

-- The tutorial's Rect.Intersect, bug included.
local function yeti_intersects(r, other)
  return r.x1 <= other.x2 and r.x2 >= other.x1 and r.y1 <= other.y1 and r.y2 >= other.y1
end

local features = require("lib.features")

return {
  name = "Rooms by dice (Fat Old Yeti)",
  width = 80,
  height = 50,
  params = { features = false, max_rooms = 30, min_size = 6, max_size = 10, buggy_intersection = false },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.max_rooms < 1 then
      error(("need max_rooms >= 1, got %d"):format(p.max_rooms))
    end
    if p.min_size < 1 or p.min_size > p.max_size then
      error(("need 1 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size + 1 >= W or p.max_size + 1 >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end

    map:fill("wall")

    local rooms = {}
    for _ = 1, p.max_rooms do
      local w = random_between(rng, p.min_size, p.max_size)
      local h = random_between(rng, p.min_size, p.max_size)
      local x = dice(rng, W - w - 1) - 1
      local y = dice(rng, H - h - 1) - 1
      local new_room = Rect.new(x, y, w, h)
      local ok = true
      for _, other in ipairs(rooms) do
        local hit
        if p.buggy_intersection then
          hit = yeti_intersects(new_room, other)
        else
          hit = new_room:intersects(other)
        end
        if hit then
          ok = false
        end
      end
      if ok then
        rooms[#rooms + 1] = new_room
      end
    end

    for i, room in ipairs(rooms) do
      map:carve_room(room)
      map:add_room(room)
      if i > 1 then
        local px, py = rooms[i - 1]:center()
        local nx, ny = room:center()
        map:l_tunnel(px, py, nx, ny, dice(rng, 2) == 1)
      end
    end

    map:set_start(rooms[1]:center())
    features.add(map, { doors = p.features, stairs = p.features })
  end,
}

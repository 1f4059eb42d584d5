-- lib/rooms.lua: the rooms-and-corridors steps the variants share.
--
--   local rooms_lib = require("lib.rooms")
--   local rooms = rooms_lib.place(map, rng, p, avoid)   -- p.max_rooms, p.min_size, p.max_size
--   rooms_lib.carve_and_join(map, rng, rooms)
--
-- The seed scripts (rooms.lua and its tutorial variants) spell these steps
-- out themselves, so each reads like its tutorial.

local M = {}

-- Places rooms as rooms.lua does: max_rooms + 1 tries; per try a width and
-- height in min_size..max_size, then x = rng:int(W - w), y = rng:int(H - h);
-- a room touching an accepted one (or the rect `avoid`, if given) is
-- rejected, natively through Rect.index(). Returns the rooms in order.
function M.place(map, rng, p, avoid)
  local rooms, placed = {}, Rect.index()
  if avoid then
    placed:insert(avoid)
  end
  for _ = 0, p.max_rooms do
    local w = rng:range(p.min_size, p.max_size)
    local h = rng:range(p.min_size, p.max_size)
    local room = Rect.new(rng:int(map.width - w), rng:int(map.height - h), w, h)
    if not placed:intersects_any(room) then
      placed:insert(room)
      rooms[#rooms + 1] = room
    end
  end
  return rooms
end

-- Carves and records each room and joins it to the previous one with an
-- L-shaped tunnel, rng:coin() choosing horizontal first.
function M.carve_and_join(map, rng, rooms)
  for i, room in ipairs(rooms) do
    map:carve_room(room)
    map:add_room(room)
    if i > 1 then
      local px, py = rooms[i - 1]:center()
      local nx, ny = room:center()
      map:l_tunnel(px, py, nx, ny, rng:coin())
    end
  end
end

return M

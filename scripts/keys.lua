-- keys.lua: lock and key. Rooms and corridors joined as a tree (each room
-- to the previous by an L-tunnel, as rooms.lua); the exit (stairs down)
-- goes on the cell farthest from the start; a locked door goes on the
-- cheapest path from start to exit, on a cell every way to the exit
-- crosses (a chokepoint, map:chokepoints, that map:flood{avoid = the
-- door} confirms cuts the exit off); the key goes on the
-- cell farthest from the door among those reachable without crossing it.
-- A level with no such cell (none on the path cuts it) is rejected.
--
-- The key and the exit are markers with data a game reads:
--   key  {opens = "locked_door"},  exit {locked = true}
-- and the puzzle is declared (goal, locks), so `dunlua check` proves every
-- seed can be finished: the key reachable before the door, the exit after.
--
-- floor ratio: 0.10..0.25 (walkable cells over all cells, defaults, 500 seeds)

tiles.define("locked_door", { glyph = "+", color = "#ff4040", walkable = true, transparent = false })

return {
  name = "Lock and key",
  width = 80,
  height = 50,
  params = { max_rooms = 16, min_size = 5, max_size = 10 },
  goal = { goals = { "exit" } },
  locks = { locked_door = { key = "key" } },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if p.min_size < 1 or p.min_size > p.max_size then
      error(("need 1 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size >= W or p.max_size >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end
    map:fill("wall")
    local rooms, placed = {}, Rect.index()
    for _ = 1, p.max_rooms do
      local w, h = rng:range(p.min_size, p.max_size), rng:range(p.min_size, p.max_size)
      local room = Rect.new(rng:int(W - w), rng:int(H - h), w, h)
      if not placed:intersects_any(room) then
        rooms[#rooms + 1] = room
        placed:insert(room)
      end
    end
    if #rooms < 3 then reject("fewer than 3 rooms") end
    for i, room in ipairs(rooms) do
      map:carve_room(room)
      map:add_room(room)
      if i > 1 then
        local px, py = rooms[i - 1]:center()
        local nx, ny = room:center()
        map:l_tunnel(px, py, nx, ny, rng:int(2) == 0)
      end
    end
    local sx, sy = rooms[1]:center()
    map:set_start(sx, sy)

    local ex, ey = map:dijkstra(sx, sy):farthest()
    map:set(ex, ey, "stairs_down")

    -- The door: the cell nearest the exit on the path that cuts it off.
    -- Only a chokepoint can cut anything off, so the flood that checks a
    -- cell runs for those alone (the same door as checking every cell).
    local path = map:path(sx, sy, ex, ey)
    local chokes = map:chokepoints()
    local door
    for i = #path - 1, 2, -1 do
      local x, y = path[i].x, path[i].y
      if map:get(x, y) == "floor" and chokes:contains(x, y) then
        map:set(x, y, "locked_door")
        local before = map:flood(sx, sy, { avoid = map:select("locked_door") })
        if not before:contains(ex, ey) and before:count() > 1 then
          door = { x = x, y = y, side = before }
          break
        end
        map:set(x, y, "floor")
      end
    end
    if not door then reject("no cell on the way to the exit cuts it off") end

    -- As far from the door as the near side allows, so the key is a trip.
    local kx, ky = map:dijkstra(door.x, door.y):farthest({ within = door.side })
    if kx == sx and ky == sy then reject("nowhere for the key but the start") end
    map:mark(kx, ky, "key", { opens = "locked_door" })
    map:mark(ex, ey, "exit", { locked = true })
    map:mark(door.x, door.y, "locked_door")
  end,
}

-- levels.lua: five linked levels, as NetHack's and DCSS's stairs: going
-- down lands on the up stairs of the level below, under the down stairs
-- of the level above. Each level is rooms and corridors (a tree of
-- L-tunnels, as rooms.lua, with loops where walking round took 30 steps); level k > 1 first
-- carves a room around the cell under level k-1's down stairs (read from
-- ctx.above) and puts its up stairs and the start there. The down stairs
-- go on the cell farthest from the start; the last level has none and
-- keeps an amulet there instead. Monsters and items are markers placed by
-- lib/spawn.lua at the level's depth, so rats give way to orcs and trolls
-- and crowns turn up only deep down: {kind = "monster", hp = .., depth = ..}.
-- `stairs = "aligned"` makes `dunlua check` fail a seed whose stairs do
-- not line up.
--
-- floor ratio: 0.10..0.32 (walkable cells over all cells, defaults, 500 seeds)

local spawn = require("lib.spawn")

return {
  name = "Five linked levels",
  width = 80,
  height = 50,
  levels = 5,
  stairs = "aligned",
  params = { max_rooms = 20, min_size = 5, max_size = 10, per_room = 2, loop_distance = 30 },

  generate = function(map, rng, p, ctx)
    local W, H = map.width, map.height
    if p.min_size < 2 or p.min_size > p.max_size then
      error(("need 2 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size >= W or p.max_size >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end
    if p.max_rooms < 1 then
      error(("need max_rooms >= 1, got %d"):format(p.max_rooms))
    end
    if p.per_room < 0 or p.per_room > 10000 then
      error(("need 0 <= per_room <= 10000, got %d"):format(p.per_room))
    end
    if p.loop_distance < 1 or p.loop_distance > 10000 then
      error(("need 1 <= loop_distance <= 10000, got %d"):format(p.loop_distance))
    end
    map:fill("wall")
    local rooms, placed = {}, Rect.index()
    local function keep(room)
      rooms[#rooms + 1] = room
      placed:insert(room)
    end

    -- Under the stairs down of the level above: a room around that cell.
    local ux, uy
    if ctx.above then
      for _, m in ipairs(ctx.above:markers()) do
        if m.name == "stairs_down" then ux, uy = m.x, m.y end
      end
      local w, h = rng:range(p.min_size, p.max_size), rng:range(p.min_size, p.max_size)
      -- Its interior (x+1 .. x+w-1) holds ux, and the room stays inside the map.
      local x = rng:range(math.max(0, ux - w + 1), math.max(0, math.min(ux - 1, W - 1 - w)))
      local y = rng:range(math.max(0, uy - h + 1), math.max(0, math.min(uy - 1, H - 1 - h)))
      keep(Rect.new(x, y, w, h))
    end

    for _ = 1, p.max_rooms do
      local w, h = rng:range(p.min_size, p.max_size), rng:range(p.min_size, p.max_size)
      local room = Rect.new(rng:int(W - w), rng:int(H - h), w, h)
      if not placed:intersects_any(room) then keep(room) end
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
    map:add_loops({ min_distance = p.loop_distance, tile = "floor", rng = rng })

    local sx, sy
    if ux then
      sx, sy = ux, uy
      map:set(ux, uy, "stairs_up")
      map:mark(ux, uy, "stairs_up", { to = ctx.level - 1 })
    else
      sx, sy = rooms[1]:center()
    end
    map:set_start(sx, sy)

    local ex, ey = map:dijkstra(sx, sy):farthest()
    if ctx.level < ctx.levels then
      map:set(ex, ey, "stairs_down")
      map:mark(ex, ey, "stairs_down", { to = ctx.level + 1 })
    else
      map:mark(ex, ey, "amulet", { kind = "item", depth = ctx.level })
    end
    spawn.populate(map, rng, { depth = ctx.level, per_room = p.per_room })
  end,
}

-- crypt.lua: a crypt of two levels joined by a pit, with consumed keys.
-- Each level is rooms and corridors joined as a tree (each room to the
-- previous by an L-tunnel, as keys.lua). On level 1 the pit (a chasm,
-- declared one_way "down") goes on the cell farthest from the start, and
-- a small_lock on a chokepoint of the way to it, with a small_key on the
-- near side; falling through the pit lands the player on the same cell of
-- level 2, where a room is carved around it. Level 2's exit goes on the
-- cell farthest from the landing, behind a second small_lock whose
-- small_key lies on the landing's side. Each small_key opens one
-- small_lock and is spent (Zelda's small keys), so the proof checks that
-- no key can be spent where it strands the player.
--
-- floor ratio: 0.06..0.28 (walkable cells over all cells, defaults, 1000 seeds)

tiles.define("small_lock", { glyph = "+", color = "#40a0ff", walkable = true, transparent = false })
tiles.define("chasm", { glyph = ":", color = "#604080", walkable = false, transparent = true })

--- Rooms that do not overlap, carved and joined in a chain; `first`, when
--- given, is placed (and carved) before the random ones.
local function rooms_chain(map, rng, p, first)
  local W, H = map.width, map.height
  local rooms, placed = {}, Rect.index()
  if first then
    rooms[1] = first
    placed:insert(first)
  end
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
  return rooms
end

--- A small_lock on the cell of the way from (sx, sy) to (tx, ty) nearest
--- the target that cuts the target off, and its small_key as far from the
--- lock as the near side allows. Rejects the level when there is none.
local function lock_the_way(map, sx, sy, tx, ty)
  local path = map:path(sx, sy, tx, ty)
  local chokes = map:chokepoints()
  for i = #path - 1, 2, -1 do
    local x, y = path[i].x, path[i].y
    if map:get(x, y) == "floor" and chokes:contains(x, y) then
      map:set(x, y, "small_lock")
      local near = map:flood(sx, sy, { avoid = map:select("small_lock") })
      if not near:contains(tx, ty) and near:count() > 1 then
        local kx, ky = map:dijkstra(x, y):farthest({ within = near })
        if kx == sx and ky == sy then reject("nowhere for the small_key but the start") end
        map:mark(kx, ky, "small_key")
        map:mark(x, y, "small_lock")
        return
      end
      map:set(x, y, "floor")
    end
  end
  reject("no cell on the way cuts the target off")
end

return {
  name = "Crypt (consumed keys, a pit between levels)",
  width = 60,
  height = 40,
  levels = 2,
  params = { max_rooms = 12, min_size = 5, max_size = 9 },
  goal = { goals = { "exit" } },
  locks = { small_lock = { key = "small_key", consumed = true } },
  one_way = { chasm = "down" },

  generate = function(map, rng, p, ctx)
    local W, H = map.width, map.height
    if ctx.levels ~= 2 then
      error(("the crypt is two levels joined by a pit: it needs --levels 2, got %d"):format(ctx.levels))
    end
    if p.min_size < 1 or p.min_size > p.max_size then
      error(("need 1 <= min_size <= max_size, got %d and %d"):format(p.min_size, p.max_size))
    end
    if p.max_size >= W or p.max_size >= H then
      error(("a %dx%d map is too small for rooms up to %d tiles"):format(W, H, p.max_size))
    end
    if W < 8 or H < 8 then
      error(("a %dx%d map is too small for the 7x7 room under the pit"):format(W, H))
    end
    map:fill("wall")
    if ctx.level == 1 then
      local rooms = rooms_chain(map, rng, p)
      local sx, sy = rooms[1]:center()
      map:set_start(sx, sy)
      local px, py = map:dijkstra(sx, sy):farthest()
      lock_the_way(map, sx, sy, px, py)
      map:set(px, py, "chasm")
      map:mark(px, py, "pit")
    else
      -- Land in a room carved around the pit above.
      local pit
      for _, m in ipairs(ctx.above:markers()) do
        if m.name == "pit" then pit = m end
      end
      -- Its interior (x + 1 .. x + 6) holds the pit's cell, whatever the edge.
      local x = math.max(0, math.min(W - 8, pit.x - 3))
      local y = math.max(0, math.min(H - 8, pit.y - 3))
      local landing = Rect.new(x, y, 7, 7)
      rooms_chain(map, rng, p, landing)
      if not map:is_walkable(pit.x, pit.y) then reject("the landing is not floor") end
      map:set_start(pit.x, pit.y)
      local ex, ey = map:dijkstra(pit.x, pit.y):farthest()
      lock_the_way(map, pit.x, pit.y, ex, ey)
      map:mark(ex, ey, "exit")
    end
  end,
}

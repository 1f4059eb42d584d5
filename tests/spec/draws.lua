-- The draws and edge cases docs/guide/src/api.md writes out, replayed in
-- Lua on a copy of the stream (rng:fork twice by one name) and checked
-- against the primitives: a map by the book must be the native map, and
-- the two streams must be at the same place after. Run by tests/spec.rs.
local function same_stream(a, b, what)
  local x, y = a:int(1 << 32), b:int(1 << 32)
  assert(x == y, what .. ": the streams part after it (" .. x .. " vs " .. y .. ")")
end

local function maze_by_the_book(map, r, rng, loops)
  local cw, ch = r.w // 2, r.h // 2
  local function at(c) return r.x1 + 1 + 2 * (c % cw), r.y1 + 1 + 2 * (c // cw) end
  local visited, stack = {}, {}
  local first = rng:int(cw * ch)
  visited[first] = true
  stack[1] = first
  local fx, fy = at(first)
  map:set(fx, fy, "floor")
  while #stack > 0 do
    local c = stack[#stack]
    local cx, cy = c % cw, c // cw
    local next = {}
    if cy > 0 and not visited[c - cw] then next[#next + 1] = c - cw end
    if cx + 1 < cw and not visited[c + 1] then next[#next + 1] = c + 1 end
    if cy + 1 < ch and not visited[c + cw] then next[#next + 1] = c + cw end
    if cx > 0 and not visited[c - 1] then next[#next + 1] = c - 1 end
    if #next == 0 then
      stack[#stack] = nil
    else
      local pick = #next > 1 and next[rng:int(#next) + 1] or next[1]
      visited[pick] = true
      local ax, ay = at(c)
      local bx, by = at(pick)
      map:set((ax + bx) // 2, (ay + by) // 2, "floor")
      map:set(bx, by, "floor")
      stack[#stack + 1] = pick
    end
  end
  if loops > 0 then
    for cy = 0, ch - 1 do
      for cx = 0, cw - 1 do
        local ax, ay = at(cy * cw + cx)
        for _, d in ipairs({ { 1, 0 }, { 0, 1 } }) do
          if cx + d[1] < cw and cy + d[2] < ch then
            local wx, wy = ax + d[1], ay + d[2]
            if map:get(wx, wy) ~= "floor" and rng:float() < loops then
              map:set(wx, wy, "floor")
            end
          end
        end
      end
    end
  end
end

return {
  width = 23, height = 17,
  generate = function(map, rng)
    -- map:maze, with and without loops, against the transcription.
    for _, loops in ipairs({ 0, 0.3 }) do
      for _, r in ipairs({ Rect.new(0, 0, 22, 16), Rect.new(1, 2, 9, 5), Rect.new(3, 3, 2, 2) }) do
        local a, b = rng:fork("maze" .. loops .. tostring(r)), rng:fork("maze" .. loops .. tostring(r))
        map:fill("wall")
        map:maze(r, a, { loops = loops })
        local native = map:select("floor")
        map:fill("wall")
        maze_by_the_book(map, r, b, loops)
        assert(native:count() == map:select("floor"):count()
          and native:subtract(map:select("floor")):count() == 0, "maze " .. tostring(r) .. " loops " .. loops)
        same_stream(a, b, "map:maze")
      end
    end

    -- map:connect_regions: one shuffle of four directions (3 draws) at the
    -- start and after each tunnel but the last; none for one region.
    map:fill("wall")
    for i = 0, 4 do map:carve_room(Rect.new(1 + 4 * i, 1 + 3 * (i % 2), 2, 2)) end
    local a, b = rng:fork("connect"), rng:fork("connect")
    local dug = map:connect_regions(a)
    assert(dug == 4, "4 tunnels, got " .. dug)
    for _ = 1, dug do b:shuffle({ 1, 2, 3, 4 }) end
    same_stream(a, b, "map:connect_regions")
    a, b = rng:fork("one"), rng:fork("one")
    assert(map:connect_regions(a) == 0)
    same_stream(a, b, "map:connect_regions of one region")
    -- A region it cannot reach: one shuffle more.
    map:fill("wall")
    map:carve_room(Rect.new(1, 1, 4, 4))
    map:carve_room(Rect.new(10, 1, 4, 4))
    map:carve_room(Rect.new(1, 9, 4, 4))
    local wall = map:select_rect(Rect.new(8, 0, 1, 16))
    a, b = rng:fork("walled"), rng:fork("walled")
    assert(map:connect_regions(a, { avoid = wall }) == 1)
    b:shuffle({ 1, 2, 3, 4 }); b:shuffle({ 1, 2, 3, 4 })
    same_stream(a, b, "map:connect_regions with a region out of reach")

    -- map:place_prefab in a rect: x = r.x1 + rng:int(r.w - w + 2).
    local seen = {}
    for i = 1, 200 do
      map:fill("wall")
      a, b = rng:fork("prefab" .. i), rng:fork("prefab" .. i)
      local x, y = map:place_prefab({ "..." }, { ["."] = "floor" }, a, { within = Rect.new(5, 5, 3, 1) })
      seen[x] = true
      assert(x == 5 + b:int(3 - 3 + 2) and y == 5 + b:int(1 - 1 + 2), "place_prefab within")
      same_stream(a, b, "map:place_prefab")
      -- Without within: the whole map.
      x, y = map:place_prefab({ "..", ".." }, { ["."] = "floor" }, a)
      assert(x == b:int(map.width - 2 + 1) and y == b:int(map.height - 2 + 1), "place_prefab on the map")
      same_stream(a, b, "map:place_prefab")
    end
    assert(seen[5] and seen[6] and not seen[7], "x in {5, 6}")

    -- Rect:center truncates toward zero.
    local cx, cy = Rect.new(-3, -3, 1, 1):center()
    assert(cx == -2 and cy == -2, "center " .. cx)

    -- Searches from and to cells that are not walkable.
    map:fill("wall")
    map:carve_room(Rect.new(0, 0, 5, 5))
    assert(map:flood(0, 0):count() == 0, "flood from a wall is empty")
    local d = map:dijkstra(0, 1)
    assert(d:get(0, 1) == 0 and d:get(1, 1) == 1 and d:get(0, 0) == nil, "dijkstra from a wall")
    local p = map:path(0, 1, 3, 3)
    assert(p and p[1].x == 0 and p[1].y == 1 and #p == 6, "path from a wall")
    assert(map:path(1, 1, 0, 1) == nil, "path to a wall")
    assert(#map:path(0, 1, 0, 1) == 1, "path from a wall to itself")

    -- map:add_loops opens any cell that is not walkable, water too.
    map:fill("wall")
    map:h_tunnel(1, 21, 1)
    map:v_tunnel(1, 15, 1)
    map:v_tunnel(1, 15, 21)
    map:h_tunnel(1, 10, 15)
    map:h_tunnel(12, 21, 15)
    map:set(11, 15, "water")
    assert(map:add_loops({ min_distance = 5 }) == 1 and map:get(11, 15) == "door", "add_loops opens water")

    map:fill("floor")
    map:set_start(1, 1)
  end,
}

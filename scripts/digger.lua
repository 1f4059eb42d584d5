-- digger.lua: rot.js's Digger (and Brogue's room accretion): features grown
-- one at a time off the walls of what is already dug, so every cell is
-- reachable by construction. A feature is a rect room, a cross-shaped room
-- (one room of two rects, recorded as a selection) or a corridor; it is
-- written as a prefab with a wall border and put down with map:place_prefab
-- on a site just past a wall cell that has floor on one side only, fitting
-- only where its border and inside are all rock. Then Brogue's loops
-- (map:add_loops) and doors, some of them secret (map:add_doors{secret}).
--
-- Draw order per try: a wall cell next to the dug cells (random_cell of
-- that selection), the feature kind and size, place_prefab's draws (one
-- rng:int(1) each way: the site is fixed); then add_loops' shuffle and one
-- rng:chance per door.
--
-- floor ratio: 0.10..0.30 (walkable cells over all cells, defaults, 500 seeds)

-- A w x h floor area inside a one-cell wall border; a cross keeps its
-- corners as rock. Built a row at a time with string.rep, once per shape.
local shapes = {}
local function prefab(w, h, cross)
  local key = w .. "x" .. h .. (cross and "+" or "")
  if shapes[key] then return shapes[key] end
  local arm_w, arm_h = math.max(1, w // 3), math.max(1, h // 3)
  local full = "#" .. string.rep(".", w) .. "#"
  local arm = "#" .. string.rep("#", arm_w) .. string.rep(".", w - 2 * arm_w) .. string.rep("#", arm_w) .. "#"
  local rows = { string.rep("#", w + 2) }
  for y = 1, h do
    local in_row = y > arm_h and y <= h - arm_h
    rows[#rows + 1] = (cross and not in_row) and arm or full
  end
  rows[#rows + 1] = string.rep("#", w + 2)
  shapes[key] = rows
  return rows
end

local LEGEND = { ["#"] = "wall", ["."] = "floor" }
local DIRS = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 } }

return {
  name = "Digger (rot.js, Brogue)",
  width = 80,
  height = 50,
  params = { max_features = 40, tries = 600, loops = 14, secret = 0.15, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if W < 9 or H < 7 then
      error(("a %dx%d map is too small for the first room (8x6 corners): it needs at least 9x7"):format(W, H))
    end
    if p.loops < 1 or p.loops > 10000 then
      error(("need 1 <= loops <= 10000 (the walk a loop shortens), got %d"):format(p.loops))
    end
    if not (p.secret >= 0 and p.secret <= 1) then
      error(("need 0 <= secret <= 1, got %s"):format(p.secret))
    end
    map:fill("wall")
    local first = Rect.new(W // 2 - 4, H // 2 - 3, 8, 6)
    map:carve_room(first)
    map:add_room(first, { kind = "start" })
    local dug = 1
    -- Wall cells next to what is dug: where sites can be (recomputed,
    -- natively, only when something new is dug). While digging the map
    -- holds only wall and floor, so these are the dug cells' neighbours
    -- that are not floor (no selection of every wall of a big map).
    local function frontier()
      local dug_cells = map:select("floor")
      return dug_cells:grow():subtract(dug_cells)
    end
    local near = frontier()
    for _ = 1, p.tries do
      if dug >= p.max_features then break end
      local x, y = near:random_cell(rng)
      -- A site: floor on exactly one side; the feature grows the other way.
      local open, dir = 0, nil
      for _, d in ipairs(DIRS) do
        if map:in_bounds(x + d[1], y + d[2]) and map:is_walkable(x + d[1], y + d[2]) then
          open = open + 1
          dir = { -d[1], -d[2] }
        end
      end
      if open == 1 then
        local kind = rng:int(3)
        local w, h
        if kind == 0 then
          w, h = rng:range(4, 9), rng:range(3, 7)
        elseif kind == 1 then
          w, h = rng:range(6, 11), rng:range(6, 9)
        elseif dir[1] ~= 0 then
          w, h = rng:range(3, 9), 1
        else
          w, h = 1, rng:range(3, 7)
        end
        local rows = prefab(w, h, kind == 1)
        local pw, ph = w + 2, h + 2
        -- The prefab's border touches the site; its inside starts one past it.
        local ox, oy
        if dir[1] == 1 then ox, oy = x, y - ph // 2
        elseif dir[1] == -1 then ox, oy = x - pw + 1, y - ph // 2
        elseif dir[2] == 1 then ox, oy = x - pw // 2, y
        else ox, oy = x - pw // 2, y - ph + 1 end
        if ox >= 1 and oy >= 1 and ox + pw <= W - 1 and oy + ph <= H - 1 then
          local px = map:place_prefab(rows, LEGEND, rng,
            { on = "wall", within = Rect.new(ox, oy, pw - 1, ph - 1), tries = 1 })
          if px then
            -- The new feature's cells, before the site joins it to the rest.
            local cx, cy = x + dir[1], y + dir[2]
            if not map:is_walkable(cx, cy) then cx, cy = x + 2 * dir[1], y + 2 * dir[2] end
            local cells = map:flood(cx, cy)
            map:set(x, y, "floor")
            if h > 1 and w > 1 then
              map:add_room(cells, { kind = kind == 1 and "cross" or "room" })
            end
            dug = dug + 1
            near = frontier()
          end
        end
      end
    end
    map:add_loops({ min_distance = p.loops, tile = "floor", rng = rng })
    map:add_doors({ secret = p.secret, rng = rng })
    local sx, sy = first:center()
    map:set_start(sx, sy)
    if p.stairs then
      local ex, ey = map:dijkstra(sx, sy):farthest()
      map:set(ex, ey, "stairs_down")
      map:mark(ex, ey, "stairs_down")
    end
  end,
}

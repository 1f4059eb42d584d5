-- bsp.lua: binary space partition rooms, the classic of RogueBasin and
-- libtcod's BSP toolkit.
--
-- The map is split in two, across its longer side or by a coin flip when
-- both can be cut, again and again until a part is smaller than twice
-- min_leaf or depth runs out. Each leaf gets one room of random size and
-- place inside it; then, walking back up the tree, one room of each half is
-- joined to one room of the other half by an L-shaped tunnel, so every room
-- is reachable and sibling rooms are joined first. Doors and stairs come
-- from lib/features.lua. The player starts in the first leaf's room.
--
-- floor ratio: 0.20..0.55 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

local function split(rng, part, p, depth, leaves)
  local can_cut_rows = part.h >= 2 * p.min_leaf
  local can_cut_cols = part.w >= 2 * p.min_leaf
  if depth == 0 or not (can_cut_rows or can_cut_cols) then
    leaves[#leaves + 1] = part
    return { leaf = part }
  end
  local across_rows
  if can_cut_rows and can_cut_cols then
    across_rows = rng:coin()
  else
    across_rows = can_cut_rows
  end
  local a, b
  if across_rows then
    local cut = rng:range(p.min_leaf, part.h - p.min_leaf)
    a = { x = part.x, y = part.y, w = part.w, h = cut }
    b = { x = part.x, y = part.y + cut, w = part.w, h = part.h - cut }
  else
    local cut = rng:range(p.min_leaf, part.w - p.min_leaf)
    a = { x = part.x, y = part.y, w = cut, h = part.h }
    b = { x = part.x + cut, y = part.y, w = part.w - cut, h = part.h }
  end
  return { split(rng, a, p, depth - 1, leaves), split(rng, b, p, depth - 1, leaves) }
end

-- A room inside a leaf: its rect's corners stay within the leaf's cells.
local function room_in(rng, leaf, p)
  local w = rng:range(p.min_room, leaf.w - 1)
  local h = rng:range(p.min_room, leaf.h - 1)
  return Rect.new(leaf.x + rng:int(leaf.w - w), leaf.y + rng:int(leaf.h - h), w, h)
end

-- Joins the two halves of every node, bottom up; returns the node's rooms.
local function join(map, rng, node)
  if node.leaf then
    return { node.room }
  end
  local left, right = join(map, rng, node[1]), join(map, rng, node[2])
  local ax, ay = rng:pick(left):center()
  local bx, by = rng:pick(right):center()
  map:l_tunnel(ax, ay, bx, by, rng:coin())
  for _, r in ipairs(right) do
    left[#left + 1] = r
  end
  return left
end

return {
  name = "Binary space partition",
  width = 80,
  height = 50,
  params = { min_leaf = 10, min_room = 5, depth = 6, doors = true, stairs = true },

  generate = function(map, rng, p)
    if p.min_room < 3 or p.min_leaf <= p.min_room then
      error(("need 3 <= min_room < min_leaf, got min_room %d, min_leaf %d"):format(p.min_room, p.min_leaf))
    end
    if map.width < p.min_leaf or map.height < p.min_leaf then
      error(("a %dx%d map is smaller than one leaf of %d"):format(map.width, map.height, p.min_leaf))
    end
    map:fill("wall")
    local leaves = {}
    local tree = split(rng, { x = 0, y = 0, w = map.width, h = map.height }, p, p.depth, leaves)
    local function place(node)
      if node.leaf then
        node.room = room_in(rng, node.leaf, p)
        map:carve_room(node.room)
        map:add_room(node.room)
      else
        place(node[1])
        place(node[2])
      end
    end
    place(tree)
    join(map, rng, tree)
    map:set_start(map:rooms()[1]:center())
    features.add(map, p)
  end,
}

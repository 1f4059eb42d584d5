-- lib/features.lua: doors and stairs for any map, shared by the scripts.
--
--   local features = require("lib.features")
--   features.add(map, { doors = true, stairs = true })
--
-- Doors go where a corridor enters a recorded room through a one-cell
-- opening (map:add_doors, never two side by side). Stairs down go on the
-- walkable cell farthest from the start by walking distance (map:dijkstra),
-- marked "stairs_down"; the start becomes stairs up, marked "stairs_up".
-- All the per-cell work is native.

local M = {}

function M.doors(map)
  return map:add_doors()
end

-- `level` is error()'s level for the script's line: 3 when a public
-- function (M.stairs, M.add) calls it, so the message names the script's
-- call, not a line in here.
local function stairs(map, level)
  local sx, sy = map:start()
  local x, y = map:dijkstra(sx, sy):farthest()
  if x == nil or (x == sx and y == sy) then
    error(("no room for stairs on the %dx%d map: the start reaches no other cell"):format(map.width, map.height), level)
  end
  map:set(x, y, "stairs_down")
  map:mark(x, y, "stairs_down")
  map:set(sx, sy, "stairs_up")
  map:mark(sx, sy, "stairs_up")
  return x, y
end

function M.stairs(map)
  local x, y = stairs(map, 3) -- not a tail call: its frame is counted
  return x, y
end

-- Adds what `opts` asks for (doors before stairs, so stairs never sit in a doorway).
function M.add(map, opts)
  if opts.doors then
    M.doors(map)
  end
  if opts.stairs then
    stairs(map, 3)
  end
end

return M

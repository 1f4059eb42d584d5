-- Modules loaded before the VM's first run (literal names) beside one
-- loaded in the run (a computed name), each keeping state in upvalues;
-- the heap's count and the order of keys that are functions show in the map.
local literal = require("lib.stateful")
return { generate = function(map, rng)
  local dynamic = require("lib." .. "counter")
  local again = require "lib.stateful"
  assert(again == literal)
  local keyed = {}
  keyed[literal.bump] = 1
  keyed[dynamic.next] = 2
  keyed[function() end] = 3
  local order = 0
  for _, v in pairs(keyed) do order = order * 4 + v end
  local kb = math.floor(collectgarbage("count"))
  map:fill("wall")
  local w = 3 + (literal.bump() + dynamic.next() + order + kb + rng:int(5)) % 30
  map:carve_room(Rect.new(1, 1, w, 4))
  map:set_start(2, 2)
end }

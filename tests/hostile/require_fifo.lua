-- expect: not a regular file
-- setup: fifo lib/fifo.lua
local f = require("lib.fifo")
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)

end }

-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- setup: file lib/spin.lua while true do end
local spin = require("lib.spin")
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)

end }

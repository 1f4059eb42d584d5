-- expect: refused
-- setup: symlink lib/zero.lua /dev/zero
local z = require("lib.zero")
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)

end }

-- expect: outside the script's folder
-- setup: symlink lib/evil.lua /etc/hostname
local evil = require("lib.evil")
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)

end }

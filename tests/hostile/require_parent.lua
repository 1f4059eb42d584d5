-- expect: bad module name
local p = require("..secret")
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)

end }

-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local counter = require("lib.counter")
  counter.n = counter.n + 1
  if counter.n > 1 then map:fill("wall") map:set(1, 1, "floor") end
end }

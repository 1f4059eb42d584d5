-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local ok = pcall(require, "lib.flaky")
  local mod = require("lib.flaky")
  if not mod.loaded then map:fill("wall") map:set(1, 1, "floor") end
end }

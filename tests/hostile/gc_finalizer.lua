-- expect: __gc finalizers are not allowed
-- line: 6
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  setmetatable({}, { __gc = function() while true do end end })
end }

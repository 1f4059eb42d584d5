-- expect: __gc finalizers are not allowed
-- line: 7
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local mt = { __gc = true }
  setmetatable({}, mt)
  mt.__gc = function() while true do end end
end }

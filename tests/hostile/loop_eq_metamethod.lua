-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local mt = { __eq = function() while true do end end }
  local a, b = setmetatable({}, mt), setmetatable({}, mt)
  local _ = a == b
end }

-- expect: bad argument #1 to 'setmetatable' (table expected, got map)
-- line: 6
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  setmetatable(map, {})
end }

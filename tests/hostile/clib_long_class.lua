-- args: --max-instructions 20000000
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s, p = ("x"):rep(100000), "[" .. ("a"):rep(1000000) .. "]"
  while true do s:find(p) end
end }

-- args: --max-instructions 20000000
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = ("("):rep(1000000)
  while true do s:find("%b()") end
end }

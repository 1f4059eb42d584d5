-- args: --max-instructions 20000000
-- expect: instruction budget
return { width = 2000, height = 2000, generate = function(map, rng)
  while true do map:fill("floor") end
end }

-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local co = coroutine.wrap(function() while true do coroutine.yield() end end)
  while true do co() end
end }

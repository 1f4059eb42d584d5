-- expect: coroutine.yield: not inside a coroutine
-- line: 6
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  coroutine.yield(1)
end }

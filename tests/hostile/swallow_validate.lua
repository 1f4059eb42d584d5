-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 10
-- validate swallows the stop in a coroutine and accepts the map.
return { width = 20, height = 20,
  generate = function(map, rng)
    map:fill("floor")
    map:set_start(0, 0)
  end,
  validate = function(map) coroutine.resume(coroutine.create(function() while true do end end))
    return true
  end,
}

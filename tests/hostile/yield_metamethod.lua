-- expect: coroutine.yield: not inside a coroutine
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  coroutine.wrap(function()
    table.sort({ 3, 2, 1 }, function(a, b) coroutine.yield() return a < b end)
  end)()
end }

-- args: --max-memory 64
-- expect: memory limit
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  while true do
    pcall(function() local t = {} while true do t[#t + 1] = "item" .. #t end end)
  end
end }

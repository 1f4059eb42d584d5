-- args: --max-memory 32
-- expect: memory limit
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local ix = Rect.index()
  local i = 0
  while true do i = i + 1 ix:insert(Rect.new(i * 20, 0, 10, 10)) end
end }

-- args: --max-instructions 30000000
-- expect: instruction budget
-- line: 8
-- Fills swallowed by pcall, again and again: the budget they spent is gone.
return { width = 120, height = 80, generate = function(map, rng)
  map:fill("wall")
  map:set_start(1, 1)
  while true do pcall(wfc.fill, map, Rect.new(0, 0, 119, 79), { sample = { "#..#.", ".....", "#..##", "##.#.", "..#.." }, connected = true }, rng) end
end }

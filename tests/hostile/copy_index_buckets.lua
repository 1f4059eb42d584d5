-- args: --max-memory 64
-- expect: memory limit of 64 MiB exceeded
-- line: 11
-- ulimit: yes
-- Sixteen huge rects in a Rect.index, then a small one: the buckets of all
-- seventeen were made in one go before the memory limit saw any (20 times
-- the limit, an abort under the process's own). Each big rect now makes
-- its own as it is inserted, counted at once.
return { width = 10, height = 10, generate = function(map)
  local idx = Rect.index()
  for i = 0, 15 do idx:insert(Rect.new(i * 24000, 0, 24000, 24000)) end
  idx:insert(Rect.new(0, 0, 1, 1))
  map:fill("wall") map:carve_room(Rect.new(1, 1, 5, 5)) map:set_start(2, 2)
end }

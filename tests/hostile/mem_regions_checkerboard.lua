-- args: --max-memory 100 --size 3000x3000
-- expect: memory limit
-- line: 16
-- ulimit: yes
-- A checkerboard is 4.5 million one-cell regions. map:regions used to
-- build every one natively (about 1.2 GB at 5000x5000) before it reserved
-- their memory or charged for them; the count is known once the runs are
-- joined, and the regions are refused then, before any is made.
return { width = 20, height = 20, generate = function(map)
  local w, h = map.width, map.height
  local a, b, rows = string.rep(".#", w // 2), string.rep("#.", w // 2), {}
  for i = 1, h do rows[i] = (i % 2 == 1) and a or b end
  map:stamp(0, 0, rows, { ["."] = "floor", ["#"] = "wall" })
  rows = nil
  collectgarbage()
  local regions = map:regions()
  map:set_start(0, 0)
end }

-- What Lua grows once and keeps: the main thread's stack (a run returning
-- thousands of values raised its base frame for good), mlua's stack of
-- references (one host call given hundreds of arguments) and the string
-- table (hundreds of new strings). Some seeds grow them, every seed
-- measures the heap after doing the same: in a reused VM those measures
-- must be what a fresh VM's first run sees. Also a long string built in a
-- buffer (whose box's metatable Lua makes on first need and keeps).
local function emit(map, values)
  map:fill("wall")
  for row, v in ipairs(values) do
    v = math.floor(v)
    for bit = 0, 30 do
      if (v >> bit) & 1 == 1 then map:set(1 + bit, row, "floor") end
    end
  end
  map:carve_room(Rect.new(1, #values + 1, 4, 3))
  map:set_start(2, #values + 2)
end

local function deep(n)
  if n == 0 then return collectgarbage("count") * 1024 end
  local a, b, c, d, e, f, g, h = n, n, n, n, n, n, n, n
  return deep(n - 1) + 0
end

return { width = 40, height = 12, generate = function(map, rng, p, ctx)
  local heap = { collectgarbage("count") * 1024, deep(300) }
  local long = string.rep("ab", 3000)
  heap[#heap + 1] = collectgarbage("count") * 1024 + #long
  local many = {}
  for i = 1, 500 do many[i] = { i } end
  local cells = map:select("floor")
  pcall(cells.contains, cells, 1, 1, table.unpack(many, 1, ctx.seed % 3 == 0 and 500 or 5))
  heap[#heap + 1] = collectgarbage("count") * 1024
  local names = {}
  for i = 1, ctx.seed % 2 == 0 and 300 or 3 do names[i] = "name" .. i end
  heap[#heap + 1] = collectgarbage("count") * 1024
  emit(map, heap)
  if ctx.seed % 4 == 1 then
    return table.unpack(many)
  end
end }

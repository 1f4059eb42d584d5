-- args: --max-instructions 8000000
-- expect: instruction budget of 8000000 exceeded: graph:layout needs about
-- line: 31
-- The pre-check of graph:layout over 401 edges between rooms whose 39
-- templates of 100 door places each have sockets of their own: every
-- edge's doors must be looked at, and the last edge's never meet, so no
-- search follows. Comparing every door of one end with every door of the
-- other took seconds charged as a few thousand units; looked up in a set,
-- each door looked at is charged, and the budget stops it.
return { width = 200, height = 40, params = { T = 40, S = 100, N = 20 }, generate = function(map, rng, p)
  map:fill("wall")
  map:set(1, 1, "floor"); map:set_start(1, 1)
  local function template(prefix, meet)
    local row, legend = {}, { ["."] = "floor", ["#"] = "wall" }
    for i = 1, p.S do local ch = utf8.char(0x4E00 + i); row[i] = ch
      legend[ch] = { tile = "wall", door = true, socket = (meet and i == p.S) and "zz" or (prefix .. i) } end
    return { rows = { table.concat(row), string.rep(".", p.S), string.rep("#", p.S) }, legend = legend, rotate = false, mirror = false }
  end
  -- Templates are read in the order of their names: "z" last, so the
  -- shared socket is the last one named.
  local templates = { z = template("z_", true) }
  for k = 1, p.T - 1 do templates["a"..k] = template("a"..k.."_"); templates["b"..k] = template("b"..k.."_") end
  local g = graph.new()
  -- Each room's list is its own (one template left out), so no two edges
  -- have the same answer; the B rooms have the shared socket last.
  for i = 1, p.N do local l = { "z" } for k = 1, p.T - 1 do if k ~= i then l[#l + 1] = "a"..k end end g:room("A"..i, { templates = l }) end
  for j = 1, p.N do local l = {} for k = 1, p.T - 1 do if k ~= j then l[#l + 1] = "b"..k end end l[#l + 1] = "z"; g:room("B"..j, { templates = l }) end
  g:room("X", { templates = { "a1" } })
  for j = 1, p.N do for i = 1, p.N do g:connect("A"..i, "B"..j) end end
  g:connect("X", "B1")
  local ok, why = g:layout(map, rng, { templates = templates, corridors = { length = { 1, 3 } }, attempts = 1 })
end }

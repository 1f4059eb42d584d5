-- args: --max-instructions 40000000 --timeout 5
-- expect: instruction budget of 40000000 exceeded: tiles.names needs about
-- line: 10
-- tiles.names() with 256 tile names made 256 strings a call and was
-- charged nothing: a loop of it ran 70 times as long as the budget
-- promised. Charged per name now.
for i = 1, 248 do tiles.define("k" .. i, { glyph = "x" }) end
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  while true do tiles.names() end
end }

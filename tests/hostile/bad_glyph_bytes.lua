-- expect: tiles.define: 'x' needs glyph = one character, got bytes that are not UTF-8
-- line: 3
tiles.define("x", { glyph = "\xff" })
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
end }

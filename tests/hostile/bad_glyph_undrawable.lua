-- expect: tiles.define: glyph '€' (U+20AC) has no bitmap in dunlua's font
-- line: 4
-- A glyph no font covers would be drawn as a hollow box: refused where it is defined.
tiles.define("coin", { glyph = "€", color = "#ffd700", walkable = true })
return { generate = function(map) map:fill("floor") map:set_start(1, 1) end }

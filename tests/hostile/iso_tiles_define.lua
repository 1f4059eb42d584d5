-- exit: 0
tiles.define("lava", { glyph = "L", color = "#ff5000", walkable = false })
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  map:set(3, 3, "lava")
end }

-- expect: map:add_room: name "a\0b" holds a NUL byte, which a name cannot (C strings end at it)
-- line: 6
return { width = 20, height = 10, generate = function(map)
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 8, 6))
  map:add_room(Rect.new(1, 1, 8, 6), { name = "a\0b" })
  map:set_start(3, 3)
end }

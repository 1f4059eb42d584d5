-- expect: map:add_room: kind must not be empty (leave it out for none)
-- line: 6
return { width = 20, height = 10, generate = function(map)
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 8, 6))
  map:add_room(Rect.new(1, 1, 8, 6), { name = "hall", kind = "" })
  map:set_start(3, 3)
end }

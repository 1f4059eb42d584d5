-- expect: map: validate may only look at the map, not change it
-- line: 11
-- validate judges the map generate made; a change it made was kept in the
-- map written out, and a start it walled over was blamed on generate
-- ("generate left the start at (3, 3) on 'wall'").
return {
  width = 20,
  height = 10,
  generate = function(map) map:fill("floor") map:set_start(3, 3) end,
  validate = function(map)
    map:fill("wall")
    return true
  end,
}

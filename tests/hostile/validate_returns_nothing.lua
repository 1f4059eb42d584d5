-- expect: validate returned nothing (nil): return true to accept the map
-- line: 10
-- A validate with no `return` (a forgotten `return true`) was taken for
-- false: every attempt was rejected, and the run ended after 20 of them
-- saying "validate returned false". It is the script's mistake, said at once.
return {
  width = 20,
  height = 10,
  generate = function(map) map:fill("floor") map:set_start(1, 1) end,
  validate = function(map)
    local _ = map:count("floor")
  end,
}

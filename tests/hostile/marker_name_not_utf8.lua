-- expect: map:mark: name "a\xFF" is not UTF-8 text
-- line: 7
-- Marker names that are not UTF-8 became U+FFFD: "a\xff" and "a\xfe" were
-- one marker, the second's properties written over the first's.
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(0, 0)
  map:mark(1, 1, "a\xff", { v = 1 })
  map:mark(1, 1, "a\xfe", { v = 2 })
end }

-- expect: map:stamp: legend 'a': unknown field "props"; an entry takes tile, mark
-- line: 7
-- A legend entry's misspelled or unknown field was read as nothing: the
-- props of a mark were dropped without a word.
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(0, 0)
  map:stamp(1, 1, { "a" }, { a = { mark = "chest", props = { gold = 5 } } })
end }

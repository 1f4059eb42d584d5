-- args: --max-instructions 100000
-- expect: instruction budget of 100000 exceeded: rect_index:insert needs about
-- line: 9
-- One insert of a huge rect into a Rect.index is paid for by the buckets
-- it touches; refused, the stop said "a runaway loop?" of one call. It
-- names the call and what it needed, as the bindings' refusals do.
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  Rect.index():insert(Rect.new(0, 0, 100000, 100000))
end }

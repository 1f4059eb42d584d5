-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- An integer written as text is snprintf's work and a new string, where
-- '..' counts as one instruction: each integer written is charged.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0
  for i = 1, 1000000 do n = n + #("a" .. i) end
end }

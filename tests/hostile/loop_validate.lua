-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map) map:fill("floor") map:set_start(1, 1) end,
  validate = function(map) while true do end end }

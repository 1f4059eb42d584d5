-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 4
return setmetatable({}, { __index = function() while true do end end })

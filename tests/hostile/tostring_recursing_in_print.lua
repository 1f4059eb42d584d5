-- expect: C stack overflow
-- line: 9
-- A __tostring that calls tostring on itself, printed: Lua raises "C stack
-- overflow" inside the C function tostring, with no line of its own; the
-- message named only the script. The traceback's innermost line is it.
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  local mt = { __tostring = function(a) return tostring(a) end }
  print(setmetatable({}, mt))
end }

-- expect: instruction budget
-- line: 7
-- A loop of 16 MiB concatenations: the budget runs out inside the
-- allocator, which still names the line.
return { generate = function(map, rng)
  local a = string.rep("a", 16 * 1024 * 1024)
  while true do local s = a .. "b" end
end }

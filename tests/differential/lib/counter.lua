-- Required by a computed name: loaded in the run, not before the first one.
local n = 0
local seen = setmetatable({}, { __mode = "k" })
return {
  next = function() n = n + 1; seen[{}] = n; return n end,
}

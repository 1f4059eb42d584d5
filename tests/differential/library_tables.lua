-- Libraries, the strings' metatable and globals changed by a run.
local seen = (string.seen or 0) + (rawget(math, "seen") or 0) + (SEEN or 0)
string.seen = seen + 1
rawset(math, "seen", seen + 1)
SEEN = seen + 1
local mt = getmetatable("")
local before = mt.__index.trim ~= nil and 1 or 0
mt.__index = setmetatable({ trim = function(s) return s end }, { __index = string })
function table.count(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end
return { generate = function(map, rng)
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + seen + before, 4))
  map:set_start(2, 2)
end }

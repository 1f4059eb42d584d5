-- args: --max-instructions 10000000
-- expect: instruction budget
-- Reading a number from 8 MiB of spaces (tonumber, or arithmetic on the
-- string) scans all of it in one call. Texts over 256 bytes are charged
-- by their length: 40 reads spend more than this budget (uncharged, the
-- run needed under 2 million units).
return { generate = function(map, rng)
  local s = string.rep(" ", 1 << 23) .. "1"
  local sum = 0
  for _ = 1, 20 do sum = sum + tonumber(s) + (s + 0) end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }

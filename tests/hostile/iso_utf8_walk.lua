-- exit: 0
-- A legitimate walk over a long UTF-8 string pays for the bytes it walks,
-- not for the whole string on every step.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = ("é"):rep(200000)
  local i, n = 1, 0
  while i and i <= #s do i = utf8.offset(s, 2, i) n = n + 1 end
  assert(n == 200000, n)
end }

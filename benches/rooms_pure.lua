-- rooms_pure.lua: the Grogue rooms-and-corridors algorithm of
-- scripts/rooms.lua in plain Lua 5.4, with no host at all: a flat table of
-- tiles, the naive loop over every accepted room, and the RNG written out
-- from the guide's Determinism chapter (PCG-XSH-RR 64/32 and Lemire's bounded integers) on Lua's
-- 64-bit integers. The benchmark's pure-Lua baseline; tests/pure_lua.rs
-- checks it makes the same maps as rooms.lua.

local MULT = 6364136223846793005
local STREAM = 0xa02bdbf7bb3c0a7

local function pcg32(seed)
  local inc = (STREAM << 1) | 1
  local state = 0
  local function next_u32()
    local old = state
    state = old * MULT + inc
    local xorshifted = (((old >> 18) ~ old) >> 27) & 0xffffffff
    local rot = old >> 59
    return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xffffffff
  end
  next_u32()
  state = state + seed
  next_u32()
  -- Lemire's multiply-shift with rejection, n in 1..2^32.
  local function int(n)
    local m = next_u32() * n
    local low = m & 0xffffffff
    if low < n then
      local t = ((1 << 32) - n) % n
      while low < t do
        m = next_u32() * n
        low = m & 0xffffffff
      end
    end
    return m >> 32
  end
  return int
end

-- Returns the flat tile table (1 floor, 0 wall; index y*W + x + 1), the
-- rooms as {x1, y1, x2, y2} and the start.
return function(seed, W, H, max_rooms, min_size, max_size)
  local int = pcg32(seed)
  local tiles = {}
  for i = 1, W * H do
    tiles[i] = 0
  end
  local rooms = {}
  for _ = 0, max_rooms do
    local w = min_size + int(max_size - min_size + 1)
    local h = min_size + int(max_size - min_size + 1)
    local x = int(W - w)
    local y = int(H - h)
    local x1, y1, x2, y2 = x, y, x + w, y + h
    local ok = true
    for i = 1, #rooms do
      local o = rooms[i]
      if x1 <= o[3] and x2 >= o[1] and y1 <= o[4] and y2 >= o[2] then
        ok = false
        break
      end
    end
    if ok then
      rooms[#rooms + 1] = { x1, y1, x2, y2 }
    end
  end
  local function dig(x, y)
    tiles[y * W + x + 1] = 1
  end
  local function center(r)
    return (r[1] + r[3]) // 2, (r[2] + r[4]) // 2
  end
  for i, r in ipairs(rooms) do
    for y = r[2] + 1, r[4] - 1 do
      for x = r[1] + 1, r[3] - 1 do
        dig(x, y)
      end
    end
    if i > 1 then
      local sx, sy = center(rooms[i - 1])
      local ex, ey = center(r)
      if int(2) == 0 then
        for x = math.min(sx, ex), math.max(sx, ex) do dig(x, sy) end
        for y = math.min(sy, ey), math.max(sy, ey) do dig(ex, y) end
      else
        for y = math.min(sy, ey), math.max(sy, ey) do dig(sx, y) end
        for x = math.min(sx, ex), math.max(sx, ex) do dig(x, ey) end
      end
    end
  end
  local sx, sy = center(rooms[1])
  return tiles, rooms, sx, sy
end

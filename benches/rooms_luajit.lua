-- rooms_luajit.lua: the Grogue rooms-and-corridors algorithm of
-- scripts/rooms.lua for LuaJIT, with no host: a flat table of tiles and
-- the RNG written out from the guide's Determinism chapter (PCG-XSH-RR 64/32, Lemire's bounded
-- integers). LuaJIT numbers are doubles, so the 64-bit state is an ffi
-- uint64_t (wrapping arithmetic) and the 32-bit rotate is `bit.ror`.
-- The LuaJIT peer of the speed comparison (benches/peers.rs);
-- tests/luajit.rs checks it makes the same maps as rooms.lua.
--
--   luajit benches/rooms_luajit.lua [COUNT] [W H]    time seeds 0..COUNT-1
--   luajit benches/rooms_luajit.lua --map SEED       print one map as text
--
-- The first prints, like `dunlua bench`:
--   maps=N size=WxH floors=F rooms=R elapsed_ms=T maps_per_s=M us_per_map=U
-- (floors: floor tiles over all maps; rooms: accepted rooms over all maps).

local ffi = require("ffi")
local bit = require("bit")

local MULT = 6364136223846793005ULL
local INC = bit.bor(bit.lshift(0xa02bdbf7bb3c0a7ULL, 1), 1ULL)
local TWO32 = 4294967296

-- The generator's state lives in an ffi array: a store there is a plain
-- 64-bit write, with no boxed cdata per draw.
local state = ffi.new("uint64_t[1]")

local function next_u32()
  local old = state[0]
  state[0] = old * MULT + INC
  local xorshifted = tonumber(bit.band(bit.rshift(bit.bxor(bit.rshift(old, 18), old), 27), 0xffffffffULL))
  local rot = tonumber(bit.rshift(old, 59))
  local r = bit.ror(xorshifted, rot)
  if r < 0 then
    r = r + TWO32
  end
  return r
end

local function seed_rng(seed)
  state[0] = 0ULL
  next_u32()
  state[0] = state[0] + ffi.cast("uint64_t", seed)
  next_u32()
end

-- Lemire's multiply-shift with rejection, n in 1..2^32. Below 2^21 the
-- product of a 32-bit draw and n fits a double's 53 bits exactly.
local function int(n)
  if n < 2097152 then
    local m = next_u32() * n
    local low = m % TWO32
    if low < n then
      local t = (TWO32 - n) % n
      while low < t do
        m = next_u32() * n
        low = m % TWO32
      end
    end
    return (m - low) / TWO32
  end
  local m = ffi.cast("uint64_t", next_u32()) * n
  local low = tonumber(bit.band(m, 0xffffffffULL))
  if low < n then
    local t = (TWO32 - n) % n
    while low < t do
      m = ffi.cast("uint64_t", next_u32()) * n
      low = tonumber(bit.band(m, 0xffffffffULL))
    end
  end
  return tonumber(bit.rshift(m, 32))
end

local floor = math.floor
local min, max = math.min, math.max

-- Fills `tiles` (1 floor, 0 wall; index y*W + x + 1) and returns the
-- number of rooms and the start.
local function generate(tiles, seed, W, H, max_rooms, min_size, max_size)
  seed_rng(seed)
  for i = 1, W * H do
    tiles[i] = 0
  end
  local rx1, ry1, rx2, ry2 = {}, {}, {}, {}
  local n = 0
  for _ = 0, max_rooms do
    local w = min_size + int(max_size - min_size + 1)
    local h = min_size + int(max_size - min_size + 1)
    local x = int(W - w)
    local y = int(H - h)
    local x1, y1, x2, y2 = x, y, x + w, y + h
    local ok = true
    for i = 1, n do
      if x1 <= rx2[i] and x2 >= rx1[i] and y1 <= ry2[i] and y2 >= ry1[i] then
        ok = false
        break
      end
    end
    if ok then
      n = n + 1
      rx1[n], ry1[n], rx2[n], ry2[n] = x1, y1, x2, y2
    end
  end
  for i = 1, n do
    for y = ry1[i] + 1, ry2[i] - 1 do
      local row = y * W + 1
      for x = rx1[i] + 1, rx2[i] - 1 do
        tiles[row + x] = 1
      end
    end
    if i > 1 then
      local sx, sy = floor((rx1[i - 1] + rx2[i - 1]) / 2), floor((ry1[i - 1] + ry2[i - 1]) / 2)
      local ex, ey = floor((rx1[i] + rx2[i]) / 2), floor((ry1[i] + ry2[i]) / 2)
      if int(2) == 0 then
        for x = min(sx, ex), max(sx, ex) do tiles[sy * W + x + 1] = 1 end
        for y = min(sy, ey), max(sy, ey) do tiles[y * W + ex + 1] = 1 end
      else
        for y = min(sy, ey), max(sy, ey) do tiles[y * W + sx + 1] = 1 end
        for x = min(sx, ex), max(sx, ex) do tiles[ey * W + x + 1] = 1 end
      end
    end
  end
  return n, floor((rx1[1] + rx2[1]) / 2), floor((ry1[1] + ry2[1]) / 2)
end

-- A monotonic wall clock (what the Rust peers time with), or CPU time.
local clock = os.clock
if ffi.os ~= "Windows" then
  ffi.cdef([[
    typedef struct { long tv_sec; long tv_nsec; } dunlua_timespec;
    int clock_gettime(int clk, dunlua_timespec *tp);
  ]])
  local ts = ffi.new("dunlua_timespec")
  local MONOTONIC = ffi.os == "OSX" and 6 or 1
  clock = function()
    ffi.C.clock_gettime(MONOTONIC, ts)
    return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
  end
end

local MAX_ROOMS, MIN_SIZE, MAX_SIZE = 30, 6, 10

if arg[1] == "--map" then
  local W, H = 80, 50
  local tiles = {}
  local _, sx, sy = generate(tiles, tonumber(arg[2]), W, H, MAX_ROOMS, MIN_SIZE, MAX_SIZE)
  local out = {}
  for y = 0, H - 1 do
    local row = {}
    for x = 0, W - 1 do
      if x == sx and y == sy then
        row[#row + 1] = "@"
      elseif tiles[y * W + x + 1] == 1 then
        row[#row + 1] = "."
      else
        row[#row + 1] = "#"
      end
    end
    out[#out + 1] = table.concat(row)
  end
  io.write(table.concat(out, "\n"), "\n")
  return
end

local count = tonumber(arg[1] or "1000")
local W, H = tonumber(arg[2] or "80"), tonumber(arg[3] or "50")
local tiles = {}
-- The checksums first, in a pass of their own that also warms the traces
-- up (dunlua's VM is as warm when it is timed: a reused one, as `dunlua
-- bench` and `check` run it); then the timed pass, the algorithm alone.
local floors, rooms = 0, 0
for seed = 0, count - 1 do
  rooms = rooms + generate(tiles, seed, W, H, MAX_ROOMS, MIN_SIZE, MAX_SIZE)
  for i = 1, W * H do
    floors = floors + tiles[i]
  end
end
local started = clock()
for seed = 0, count - 1 do
  generate(tiles, seed, W, H, MAX_ROOMS, MIN_SIZE, MAX_SIZE)
end
local elapsed = clock() - started
io.write(string.format(
  "maps=%d size=%dx%d floors=%d rooms=%d elapsed_ms=%.1f maps_per_s=%.0f us_per_map=%.2f\n",
  count, W, H, floors, rooms, elapsed * 1000, count / elapsed, elapsed / count * 1e6))

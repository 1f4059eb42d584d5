-- wfc_caves.lua: caves grown from a drawn sample by wave function collapse.
--
-- The 16x16 sample below is the whole design: rock, cave floor and pools.
-- wfc.fill learns every 3x3 window of it (turned and mirrored, 8 ways) and
-- fills the map so that every 3x3 window of the result is one of them;
-- the map's edge is rock (border), the walkable cells form one cave
-- (connected), and a start near the left edge and an exit near the right
-- are walkable and joined by a path. When every attempt fails, the map is
-- rejected with wfc.fill's reason and the host rerolls. On a map bigger
-- than 96x64 the caves fill a 96x64 window in the middle, the rest rock
-- (the search's cost grows faster than the area).
--
-- floor ratio: 0.30..0.60 (walkable cells over all cells, defaults, 500 seeds)

local SAMPLE = {
  "################",
  "####....########",
  "###......#######",
  "##...##...######",
  "##..####...#####",
  "#...####....####",
  "#....##......###",
  "##.....~~...####",
  "###...~~~~..####",
  "####..~~~~..####",
  "###....~~....###",
  "##...........###",
  "##.......#...###",
  "###.....###.####",
  "#####.....######",
  "################",
}

local MAX_W, MAX_H = 96, 64

return {
  name = "Caves by wave function collapse",
  width = 48,
  height = 30,
  params = { n = 3, attempts = 20 },
  -- For `dunlua check`'s proof: every seed's stairs can be reached.
  goal = { goals = { "stairs_down" } },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    -- wfc.fill wants the sample's side to fit along the map's longest side.
    if W < 8 or H < 8 or math.max(W, H) < #SAMPLE then
      error(("wfc caves need at least 8x8 cells and one side of %d or more (the sample's), got %dx%d"):format(
        #SAMPLE, W, H))
    end
    map:fill("wall")
    -- The search costs more than the area: on a map bigger than MAX_W x
    -- MAX_H the caves fill that much in the middle and the rest is rock.
    local fw, fh = math.min(W, MAX_W), math.min(H, MAX_H)
    local fx, fy = (W - fw) // 2, (H - fh) // 2
    -- The start in the left fifth, the exit in the right fifth.
    local band = math.max(1, fw // 5)
    local sx, sy = fx + rng:range(2, 1 + band), fy + rng:range(2, fh - 3)
    local ex, ey = fx + rng:range(fw - 2 - band, fw - 3), fy + rng:range(2, fh - 3)
    local ok, why = wfc.fill(map, Rect.new(fx, fy, fw - 1, fh - 1), {
      sample = SAMPLE,
      legend = { ["#"] = "wall", ["."] = "floor", ["~"] = "water" },
      n = p.n, symmetry = 8,
      border = "wall", connected = true,
      path = { { sx, sy }, { ex, ey } },
      attempts = p.attempts,
    }, rng)
    if not ok then
      reject(why)
    end
    map:set_start(sx, sy)
    map:set(ex, ey, "stairs_down")
    map:mark(ex, ey, "stairs_down")
  end,
}

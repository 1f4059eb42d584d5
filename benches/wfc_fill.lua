-- The WFC benchmark's fixture: the whole map filled from a 16x16 sample
-- with n = 3 and all 8 symmetries (the caves of scripts/wfc_caves.lua),
-- the edge wall; `connected = true` adds the connectivity watch.
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

return {
  width = 80, height = 50,
  params = { connected = false },
  generate = function(map, rng, p)
    map:fill("wall")
    local ok, why = wfc.fill(map, Rect.new(0, 0, map.width - 1, map.height - 1), {
      sample = SAMPLE, legend = { ["#"] = "wall", ["."] = "floor", ["~"] = "water" },
      n = 3, symmetry = 8, border = "wall", connected = p.connected,
    }, rng)
    if not ok then reject(why) end
    map:set_start(map:select("floor"):random_cell(rng))
  end,
}

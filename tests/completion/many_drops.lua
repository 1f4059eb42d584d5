-- More than 65,536 drops out of one region (a chasm every other cell
-- of every other row), the last one into a sealed pocket: the proof must
-- name that chasm (an index cut to 16 bits named (327, 23)), and twice
-- the size (--size 1200x920) must not take minutes (each drop was
-- compared with every move the region had).
tiles.define("chasm", { glyph = ":", color = "#604080", walkable = false, transparent = true })
return {
  width = 600, height = 460, levels = 2,
  goal = { goals = { "exit" } },
  one_way = { chasm = "down" },
  generate = function(map, rng, p, ctx)
    local W, H = map.width, map.height
    map:fill("wall")
    if ctx.level == 1 then
      map:h_tunnel(0, W - 1, 0)
      map:set(1, 0, "stairs_down")
      map:v_tunnel(0, H - 1, 0)
      for y = 2, H - 1 do
        if y % 2 == 0 then map:h_tunnel(0, W - 1, y)
        else for x = 1, W - 1, 2 do map:set(x, y, "chasm") end end
      end
      map:set_start(0, 0)
    else
      map:h_tunnel(0, W - 1, 0)
      map:set_start(0, 0)
      map:mark(5, 0, "exit")
      for y = 3, H - 1, 2 do for x = 1, W - 1, 2 do map:set(x, y, "stairs_up") end end
      -- the last chasm's landing: a pocket with no stairs
      local ly = (H - 1) % 2 == 1 and H - 1 or H - 2
      local lx = (W - 1) % 2 == 1 and W - 1 or W - 2
      map:set(lx, ly, "floor")
    end
  end,
}

-- wfc_town.lua: a town grown by wave function collapse around a square
-- placed by hand.
--
-- The market square (a fountain in a lawn, ringed by a road two cells
-- wide) is stamped first, at the middle of the map; wfc.fill then fills
-- every other cell from the drawn town sample below (houses of stone
-- walls with wooden floors and doors, lawns, roads), keeping the square as
-- it is and reading it as context, so the roads run on from it. The
-- map's edge is lawn (border), and every walkable cell, doors and house
-- floors included, is reachable from the square (connected). The player
-- starts on the square's road. On a map bigger than 96x64 the town fills
-- a 96x64 window around the square, the rest lawn (the search's cost grows
-- faster than the area).
--
-- floor ratio: 0.80..1.00 (walkable cells over all cells, defaults, 500 seeds)

tiles.define("grass", { glyph = '"', color = "#5aa848", bg = "#1c3318", walkable = true })
tiles.define("road", { glyph = "·", color = "#d8c08a", bg = "#3b3324", walkable = true })
tiles.define("planks", { glyph = "_", color = "#8a6a42", walkable = true })

local TOWN = {
  ",#####,#####,,,######,,,,,",
  ",#___#,#___#,,,#____#,,,,,",
  ",#___#,#___#,,,#____#,,,,,",
  ",##+##,##+##,,,##+###,,,,,",
  ",,,.,,,,,.,,,,,,,.,,,,,,,,",
  ",,......................,,",
  ",,......................,,",
  ",,..,,,.,,,,..,,,,,,,,..,,",
  ",,..,##+###,..,######,..,,",
  ",,..,#____#,..,#____#,..,,",
  ",,..,#____#,..,#____#,..,,",
  ",,..,#____#,..,##+###,..,,",
  ",,..,######,..,,,.,,,,..,,",
  ",,..,,,,,,,,..,,,.,,,,..,,",
  ",,..,,,,,,,,..,,,.,,,,..,,",
  ",,......................,,",
  ",,......................,,",
  ",,,,,,,,,,,,..,,##+###,,,,",
  ",,,,,,,,,,,,..,,#____#,,,,",
  ",,,,,,,,,,,,,,,,######,,,,",
}

local SQUARE = {
  "..............",
  "..............",
  "..,,,,,,,,,,..",
  "..,,,~~~~,,,..",
  "..,,,~~~~,,,..",
  "..,,,,,,,,,,..",
  "..............",
  "..............",
}

local LEGEND = {
  [","] = "grass", ["."] = "road", ["#"] = "wall", ["_"] = "planks", ["+"] = "door", ["~"] = "water",
}

local MAX_W, MAX_H = 96, 64

return {
  name = "Town by wave function collapse",
  width = 48,
  height = 30,
  params = { attempts = 20 },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    local sw, sh = prefab.size(SQUARE)
    if W < sw + 8 or H < sh + 8 then
      error(("a wfc town needs at least %dx%d cells, got %dx%d"):format(sw + 8, sh + 8, W, H))
    end
    map:fill("grass")
    local square = map:stamp((W - sw) // 2, (H - sh) // 2, SQUARE, LEGEND)
    map:add_room(square)
    -- The search costs more than the area: on a map bigger than MAX_W x
    -- MAX_H the town fills that much around the square, the rest lawn.
    local fw, fh = math.min(W, MAX_W), math.min(H, MAX_H)
    local town = map:select_rect(Rect.new((W - fw) // 2, (H - fh) // 2, fw - 1, fh - 1))
    local ok, why = wfc.fill(map, town:subtract(map:select_rect(square)), {
      sample = TOWN, legend = LEGEND, n = 3, symmetry = 8,
      border = "grass", connected = true, attempts = p.attempts,
    }, rng)
    if not ok then
      reject(why)
    end
    map:set_start(square.x1, square.y1)
  end,
}

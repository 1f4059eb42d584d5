-- graph_dungeon.lua: a level designed as a graph, laid out from room
-- templates by the native solver (graph.new / g:layout), as Edgar and
-- Unexplored's cyclic dungeons do.
--
-- The graph: the start opens on a loop of three rooms (hall, gallery,
-- crypt); a side room off the loop holds the key; the boss room hangs off
-- the loop behind a locked door. Templates come in three shapes: a small
-- square room, a long hall and a cross; the boss has its own (unique).
-- Corridors run from door to door, 2 to 6 cells long. A layout that fails
-- rejects the attempt with the solver's reason (`dunlua check` counts
-- them by reason).
--
-- floor ratio: 0.04..0.08 (walkable cells over all cells, defaults, 500 seeds)

tiles.define("locked_door", { glyph = "+", color = "#ff4040", walkable = true, transparent = false })
markers.define("key", { glyph = "k", color = "#ffd700" })
markers.define("boss", { glyph = "B", color = "#ff4040" })

local WALLS = { ["#"] = "wall", ["."] = "floor", D = { tile = "wall", door = true } }

local T = {
  small = { rows = {
    "##D##",
    "#...#",
    "D...D",
    "#...#",
    "##D##",
  }, legend = WALLS },
  hall = { rows = {
    "####D####",
    "#.......#",
    "D.......D",
    "#.......#",
    "####D####",
  }, legend = WALLS },
  cross = { rows = {
    "  #D#  ",
    "  #.#  ",
    "###.###",
    "D.....D",
    "###.###",
    "  #.#  ",
    "  #D#  ",
  }, legend = WALLS },
  boss = { rows = {
    "#####D#####",
    "#.........#",
    "#.........#",
    "#....B....#",
    "#.........#",
    "#.........#",
    "###########",
  }, legend = { ["#"] = "wall", ["."] = "floor", D = { tile = "wall", door = true },
                B = { tile = "floor", mark = "boss" } }, unique = true },
}

return {
  name = "Graph dungeon (templates, a loop, a locked boss)",
  width = 60, height = 40,
  params = { corridor_min = 2, corridor_max = 6, attempts = 200 },
  -- The puzzle, for `dunlua check`'s proof: reach the boss; the key on
  -- the side branch opens the locked door (both of its ends, when the
  -- connection is a corridor).
  goal = { goals = { "boss" } },
  locks = { locked_door = { key = "key" } },
  generate = function(map, rng, p)
    local W, H = map.width, map.height
    -- The boss template alone is 11x7; the whole layout needs about 20x20.
    if W < 11 or H < 7 then
      error(("a %dx%d map is too small for the graph dungeon: the boss room alone is 11x7 (a layout needs about 20x20)"):format(W, H))
    end
    if p.corridor_min < 1 or p.corridor_min > p.corridor_max or p.corridor_max > math.max(W, H) then
      error(("need 1 <= corridor_min <= corridor_max <= %d (the map's longest side), got %d and %d"):format(
        math.max(W, H), p.corridor_min, p.corridor_max))
    end
    if p.attempts < 1 or p.attempts > 100000 then
      error(("need 1 <= attempts <= 100000, got %d"):format(p.attempts))
    end
    map:fill("wall")
    local g = graph.new()
    g:room("start",   { templates = { "small" } })
    g:room("hall",    { templates = { "hall", "cross" } })
    g:room("gallery", { templates = { "hall", "small" } })
    g:room("crypt",   { templates = { "cross", "small" } })
    g:room("side",    { templates = { "small", "cross" } })
    g:room("boss",    { templates = { "boss" } })
    g:connect("start", "hall")
    g:connect("hall", "gallery")
    g:connect("gallery", "crypt")
    g:connect("crypt", "hall")
    g:connect("gallery", "side")
    g:connect("crypt", "boss", { door = "locked_door" })
    local layout, why = g:layout(map, rng, {
      templates = T,
      corridors = { length = { p.corridor_min, p.corridor_max } },
      attempts = p.attempts,
    })
    if not layout then
      reject(why)
      return
    end
    local sx, sy = layout.start.rect:center()
    map:set_start(sx, sy)
    local kx, ky = layout.side.rect:center()
    map:mark(kx, ky, "key")
  end,
}

-- Checks a dunlua Lua export against the Lua export Tiled itself writes for
-- the same map, and for the fields LÖVE's STI reads. Run by
-- tests/tiled_clients.rs as: luajit tiled_lua.lua OURS.lua TILEDS.lua
-- Prints "ok" and exits 0, or prints the first difference and exits 1.
local ours, theirs = dofile(arg[1]), dofile(arg[2])

local function fail(path, why)
  print(path .. ": " .. why)
  os.exit(1)
end

-- Every field Tiled writes must be in ours with the same value; ours may
-- hold more (both `type` and `class`, for old and new readers). Which
-- Tiled wrote it is not part of the map.
local skip = { version = true, tiledversion = true, luaversion = true }
local function same(a, b, path)
  if type(b) ~= "table" then
    if type(a) == "number" and type(b) == "number" then
      if math.abs(a - b) > 1e-9 then fail(path, tostring(a) .. " ~= " .. tostring(b)) end
    elseif a ~= b then
      fail(path, "ours " .. tostring(a) .. ", Tiled's " .. tostring(b))
    end
    return
  end
  if type(a) ~= "table" then fail(path, "ours is " .. type(a) .. ", Tiled's a table") end
  for k, v in pairs(b) do
    if not skip[k] then same(a[k], v, path .. "." .. tostring(k)) end
  end
end
same(ours, theirs, "map")

-- What STI's loader and renderer read (sti/init.lua, sti/utils.lua).
local function need(value, kind, path)
  if type(value) ~= kind then fail(path, "STI needs a " .. kind .. ", got " .. type(value)) end
end
need(ours.orientation, "string", "orientation")
need(ours.renderorder, "string", "renderorder")
for _, k in ipairs({ "width", "height", "tilewidth", "tileheight" }) do need(ours[k], "number", k) end
need(ours.properties, "table", "properties")
for i, set in ipairs(ours.tilesets) do
  local at = "tilesets[" .. i .. "]"
  for _, k in ipairs({ "firstgid", "tilewidth", "tileheight", "imagewidth", "imageheight", "margin", "spacing", "tilecount", "columns" }) do
    need(set[k], "number", at .. "." .. k)
  end
  need(set.image, "string", at .. ".image")
  need(set.tileoffset, "table", at .. ".tileoffset")
  need(set.tileoffset.x, "number", at .. ".tileoffset.x")
  need(set.tiles, "table", at .. ".tiles")
  for j, tile in ipairs(set.tiles) do
    need(tile.id, "number", at .. ".tiles[" .. j .. "].id")
    need(tile.properties, "table", at .. ".tiles[" .. j .. "].properties")
  end
end
for i, layer in ipairs(ours.layers) do
  local at = "layers[" .. i .. "]"
  need(layer.type, "string", at .. ".type")
  for _, k in ipairs({ "offsetx", "offsety", "opacity" }) do need(layer[k], "number", at .. "." .. k) end
  need(layer.visible, "boolean", at .. ".visible")
  if layer.type == "tilelayer" then
    need(layer.data, "table", at .. ".data")
    if #layer.data ~= layer.width * layer.height then fail(at .. ".data", "not width * height numbers") end
  else
    for j, o in ipairs(layer.objects) do
      local ot = at .. ".objects[" .. j .. "]"
      need(o.shape, "string", ot .. ".shape")
      for _, k in ipairs({ "x", "y", "width", "height", "rotation" }) do need(o[k], "number", ot .. "." .. k) end
      need(o.properties, "table", ot .. ".properties")
    end
  end
end
print("ok")

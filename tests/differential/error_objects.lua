-- A host function's error reaches a script as its text wherever Lua hands
-- an error over: pcall, xpcall, coroutine.resume, and also a
-- to-be-closed variable's __close, coroutine.close and load's reader. The
-- host's own error object (a userdata) raised again through the host
-- nested one level deeper each time (a chain whose drop overflowed the
-- stack), and keeping it from run to run gave tables keyed by it another
-- order in a reused VM than in a fresh one.
local caught = {}
local closer = setmetatable({}, { __close = function(_, e) caught[#caught + 1] = e end })

return {
  width = 40,
  height = 3,
  generate = function(map)
    map:fill("wall")
    for i = 1, 6 do
      pcall(function()
        local x <close> = closer
        map:set(1000, i, "floor")
      end)
    end
    local co = coroutine.create(function() map:set(1000, 0, "floor") end)
    coroutine.resume(co)
    local ok, closed = coroutine.close(co)
    assert(ok == false)
    caught[#caught + 1] = closed
    local f, loaded = load(function() map:set(1000, 1, "floor") end)
    assert(f == nil)
    caught[#caught + 1] = loaded
    local index = {}
    for i, e in ipairs(caught) do
      assert(type(e) == "string", "error " .. i .. " is a " .. type(e))
      assert(e:find("outside the 40x3 map", 1, true), e)
      index[e .. i] = i
    end
    -- The map shows the order pairs visits them in.
    local x = 0
    for _, i in pairs(index) do
      map:set(x, 1, i % 2 == 0 and "floor" or "wall")
      x = x + 1
    end
    map:set(0, 2, "floor")
    map:set_start(0, 2)
  end,
}

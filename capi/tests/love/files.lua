-- For capi/tests/love.rs: the modules lua/dunlua.lua does not supply are
-- read only by the library's own reader (a regular file inside the
-- script's real folder, size-capped) or, in LÖVE, from love.filesystem by
-- the same rules; never from the disk around them. Runs each case and
-- prints "LABEL OPTION ok WIDTH" or "LABEL OPTION err MESSAGE".
--
--   require("files")(dunlua, out, {{label, script, option [, shown]}, ...})
-- option: "none", "modules" (lib.given supplied), "empty" (modules = {}),
-- "loader" (lib.given
-- from a loader function) or "text" (the script's text, named `script`,
-- requiring "lib.LABEL"); `shown` is printed instead of the label.
local GIVEN = "return { width = 9 }"

local function script_text(module)
  return string.format("local m = require(%q)\n", module)
    .. "return { width = type(m) == 'table' and m.width or 10, height = 6,\n"
    .. "  generate = function(map) map:fill('floor') map:set_start(0, 0) end }\n"
end

local OPTIONS = {
  none = function()
    return nil
  end,
  modules = function()
    return { modules = { ["lib.given"] = GIVEN }, timeout = 5 }
  end,
  -- Modules given, none of them: those alone, so none (it read the folder).
  empty = function()
    return { modules = {}, timeout = 5 }
  end,
  loader = function()
    return {
      loader = function(path)
        if path == "lib/given.lua" then
          return GIVEN
        end
      end,
      timeout = 5,
    }
  end,
}

return function(dunlua, out, cases)
  for _, case in ipairs(cases) do
    local label, script, option = case[1], case[2], case[3]
    local gen, err
    if option == "text" then
      gen, err = dunlua.try_new({ source = script_text("lib." .. label), name = script, timeout = 5 })
    else
      gen, err = dunlua.try_new(script, OPTIONS[option]())
    end
    local result
    if gen then
      local map, message = gen:try_generate(1)
      result = map and ("ok " .. map.width) or ("err " .. message)
    else
      result = "err " .. err
    end
    out((case[4] or label) .. " " .. option .. " " .. result:gsub("\n", " | "))
    io.stdout:flush()
  end
end

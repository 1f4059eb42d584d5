_ENV = setmetatable({ count = (count or 0) + 1, big = big or {} }, { __index = _G })
local calls = 0
big[#big + 1] = string.rep("x", 1000)
local M = {}
function M.bump() calls = calls + 1 return calls end
function M.env_count() return count + #big end
return M

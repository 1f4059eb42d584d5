-- expect: out of memory: the system refused
-- expect: of its 512 MiB limit
-- line: 13
-- ulimit: 400
-- The process has less memory than the run's limit (a game under a
-- ulimit, or many runs at once): the system refuses Lua a block before
-- the limit does. mlua's allocator aborted the process there; the run
-- ends as at its limit, at the script's line, and says the system refused.
return { width = 20, height = 10, generate = function(map)
  map:fill("floor")
  map:set_start(1, 1)
  local t = {}
  for i = 1, 1e9 do t[i] = ("x"):rep(1000) .. i end
end }

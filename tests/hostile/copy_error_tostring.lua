-- args: --max-memory 48
-- expect: copy_error_tostring.lua:14: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
-- line: 14
-- quoted: 1950
-- ulimit: yes
-- An error object whose __tostring gives 16 MiB: the host's handler turns
-- it into a message and builds the traceback on it. The message is cut
-- (to 1900 bytes and "... (16777216 bytes in all)") before the traceback
-- copies it, and then the report twice more, so the run fails with the
-- script's own error, not past the memory limit (which the traceback's
-- copy ran into; a bigger one, past the process's, was copied four times
-- outside the limit).
return { generate = function(map)
  error(setmetatable({}, { __tostring = function() return ("x"):rep(2^24) end }))
end }

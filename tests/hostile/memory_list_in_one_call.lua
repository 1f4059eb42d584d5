-- args: --max-memory 64 --size 1000x1000
-- expect: memory limit of 64 MiB exceeded: selection:cells needs about
-- line: 12
-- ulimit: yes
-- One call that hands back a list of a million tables built them all
-- before the memory limit acted: the allocator grants a block past the
-- limit and stops the run at its next instruction, so sel:cells() of 3
-- million cells under 100 MiB peaked at 257 MB. The list's room is made
-- first now (budget::make_room), and the message names the call.
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  local cells = map:select("floor"):cells()
  map:set(1, 1, #cells > 0 and "floor" or "wall")
end }

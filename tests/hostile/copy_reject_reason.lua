-- args: --max-attempts 1
-- expect: all 1 attempts were rejected; the last because copy_reject_reason.lua:11: xxxxx
-- expect: … (134217728 bytes) (raise --max-attempts
-- located: no
-- quoted: 300
-- ulimit: yes
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local why, kept = ("x"):rep(2^27), {}
  for i = 1, 40 do kept[i] = select(2, pcall(reject, why)) end
end }

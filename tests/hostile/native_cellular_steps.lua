-- expect: map:cellular needs about
return { width = 2000, height = 2000, generate = function(map, rng)
  map:cellular({ birth = { 5 }, survive = { 4 }, steps = 10000 })
end }

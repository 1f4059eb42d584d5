-- args: --max-instructions 20000000
-- expect: instruction budget of 20000000 exceeded
-- line: 10
-- An expression of 160,000 'and's, compiled by load: the parser walked
-- every jump list to its end for each term (quadratic: half a minute, and
-- only an allocation, rarer as the code arrays double, could stop it, so a
-- cancel or the deadline waited). A long walk is charged (lcode.c).
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(2, 2)
  load("local a = 1 return a" .. string.rep(" and a", 160000))
end }

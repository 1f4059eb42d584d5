-- args: --max-instructions 40000000 --max-memory 64 --timeout 4
-- expect: instruction budget
-- line: 18
-- A thousand declared parameters and a loop reading an undeclared name:
-- each read compares it with every declared name. Charged a hundred units
-- a read, the comparisons ran 90 times as long as the budget said (the
-- timeout ended it); each name compared is charged now.
local params = {}
local letters = "abcdefghijklmnopqrstuvwxyz"
for i = 1, 26 do for j = 1, 26 do
  if #letters * (i - 1) + j <= 1000 then
    params["z" .. letters:sub(i, i) .. letters:sub(j, j) .. "w"] = 1
  end
end end
return { params = params, generate = function(map, rng, p)
  map:fill("floor")
  map:set_start(1, 1)
  while true do local x = p.y end
end }

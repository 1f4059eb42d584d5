-- The last link of the chain (see deep_requires.lua).
DEPTHS[#DEPTHS + 1] = collectgarbage("count")
return #DEPTHS

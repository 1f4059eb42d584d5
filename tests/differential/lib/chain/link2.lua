-- Link 2 of a chain of modules each requiring the next (see deep_requires.lua).
DEPTHS[#DEPTHS + 1] = collectgarbage("count")
return require("lib.chain.link3")

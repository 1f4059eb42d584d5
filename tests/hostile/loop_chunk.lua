-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 4
while true do end

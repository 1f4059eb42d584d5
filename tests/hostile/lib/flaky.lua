-- Fails the first time it is required in a run, loads the second time.
FLAKY_TRIES = (FLAKY_TRIES or 0) + 1
if FLAKY_TRIES == 1 then error("first try fails") end
return { loaded = true }

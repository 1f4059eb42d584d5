-- Module state: starts at 0 in every run.
return { n = 0 }

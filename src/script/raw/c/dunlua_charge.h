/*
** dunlua: how the patched Lua libraries (lstrlib.c, ltablib.c,
** lutf8lib.c, copied from Lua 5.4.9 and marked "dunlua" where changed)
** charge their work to the running script's budget. Both functions are
** implemented in Rust (src/script/raw/guard.rs).
**
** The unit is one Lua VM instruction, about 4 ns with dunlua's count hook
** on the machine the defaults were measured on (a 2.5 GHz Xeon: 240 million
** instructions a second). The rates make a C function's work cost about
** what the same time would buy in instructions, measured with
** `dunlua bench` on loops of each function over large inputs:
** a pattern-matching step ~8 ns, a byte copied ~0.1 ns, a byte upper-cased
** ~1 ns (plus collecting the result), a table element moved with
** lua_geti/lua_seti ~10 ns, a UTF-8 byte decoded ~2 ns.
*/
#ifndef dunlua_charge_h
#define dunlua_charge_h

#include <stddef.h>
#include "lua.h"

/* Adds units of work; once the budget is spent (or a memory, time or cancel
   stop is in force) raises the stop as a Lua error and does not return. */
void dunlua_charge (lua_State *L, size_t units);

/* Raises the located memory stop if a result of this many bytes would not
   fit under the run's memory limit; returns otherwise. */
void dunlua_reserve (lua_State *L, size_t bytes);

/* Matching steps counted before they are charged, and units per step. */
#define DUNLUA_STEP_BATCH 256
#define DUNLUA_UNITS_PER_STEP 2
/* Bytes copied or compared per unit. */
#define DUNLUA_BYTES_PER_UNIT 32
#define DUNLUA_BYTES(n) ((size_t)(n) / DUNLUA_BYTES_PER_UNIT + 1)
/* Pattern bytes scanned per unit (a bracket class read for each character,
   a %b scan). */
#define DUNLUA_SCANNED_PER_UNIT 8
/* Bytes transformed one by one (upper, lower, reverse): 2 per unit. */
#define DUNLUA_MAPPED(n) ((size_t)(n) / 2 + 1)
/* Empty copies (string.rep of "") per unit. */
#define DUNLUA_COPIES_PER_UNIT 4
/* Units per table element read and written from C. */
#define DUNLUA_UNITS_PER_MOVE 3
/* UTF-8 bytes decoded per unit. */
#define DUNLUA_DECODED(n) ((size_t)(n) / 2 + 1)

/* Before a growing result buffer may double: raises the located memory
   stop (rather than Lua's bare "not enough memory" from inside the
   buffer) when there is no room for that. Needs lauxlib.h. */
#define DUNLUA_ROOM(L, b) \
  do { if (luaL_bufflen(b) > (1u << 20)) dunlua_reserve(L, luaL_bufflen(b)); } while (0)
/* Units per format item (snprintf of a float can take microseconds). */
#define DUNLUA_UNITS_PER_FORMAT 256
/* Units per byte of a float formatted with %e, %f or %g, besides the item:
   snprintf's cost grows with the digits it writes (about 20 ns a byte for
   "%.99f" of 1e300). */
#define DUNLUA_UNITS_PER_FLOAT_BYTE 4

/* Results pushed per unit (string.byte of a long string: the stack grows
   for them and every one is moved). */
#define DUNLUA_VALUES(n) ((size_t)(n) / 4 + 1)
/* Units per control byte %q writes (an snprintf each). */
#define DUNLUA_UNITS_PER_CONTROL 8
/* Units per character utf8.char makes (a lua_pushfstring each). */
#define DUNLUA_UNITS_PER_UTF8_CHAR 16
/* Units per option of string.pack, packsize and unpack (read from the
   format, checked, converted; an unpacked one is a result): a loop of
   string.unpack of 200 items ran 200 times as long as its instructions. */
#define DUNLUA_UNITS_PER_PACK_ITEM 6

#endif

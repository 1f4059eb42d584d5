/*
** $Id: lvm.h $
** Lua virtual machine
** See Copyright Notice in lua.h
*/

#ifndef lvm_h
#define lvm_h


#include "ldo.h"
#include "lobject.h"
#include "ltm.h"


#if !defined(LUA_NOCVTN2S)
#define cvt2str(o)	ttisnumber(o)
#else
#define cvt2str(o)	0	/* no conversion from numbers to strings */
#endif


#if !defined(LUA_NOCVTS2N)
#define cvt2num(o)	ttisstring(o)
#else
#define cvt2num(o)	0	/* no conversion from strings to numbers */
#endif


/*
** You can define LUA_FLOORN2I if you want to convert floats to integers
** by flooring them (instead of raising an error if they are not
** integral values)
*/
#if !defined(LUA_FLOORN2I)
#define LUA_FLOORN2I		F2Ieq
#endif


/*
** Rounding modes for float->integer coercion
 */
typedef enum {
  F2Ieq,     /* no rounding; accepts only integral values */
  F2Ifloor,  /* takes the floor of the number */
  F2Iceil    /* takes the ceil of the number */
} F2Imod;


/* convert an object to a float (including string coercion) */
#define tonumber(o,n) \
	(ttisfloat(o) ? (*(n) = fltvalue(o), 1) : luaV_tonumber_(o,n))


/* convert an object to a float (without string coercion) */
#define tonumberns(o,n) \
	(ttisfloat(o) ? ((n) = fltvalue(o), 1) : \
	(ttisinteger(o) ? ((n) = cast_num(ivalue(o)), 1) : 0))


/* convert an object to an integer (including string coercion) */
#define tointeger(o,i) \
  (l_likely(ttisinteger(o)) ? (*(i) = ivalue(o), 1) \
                          : luaV_tointeger(o,i,LUA_FLOORN2I))


/* convert an object to an integer (without string coercion) */
#define tointegerns(o,i) \
  (l_likely(ttisinteger(o)) ? (*(i) = ivalue(o), 1) \
                          : luaV_tointegerns(o,i,LUA_FLOORN2I))


#define intop(op,v1,v2) l_castU2S(l_castS2U(v1) op l_castS2U(v2))

#define luaV_rawequalobj(t1,t2)		luaV_equalobj(NULL,t1,t2)


/*
** dunlua: the host adds work to the running script's budget without
** raising (it arms the hook for the next instruction once the budget is
** spent); see src/script/raw/guard.rs.
*/
extern void dunlua_note_work (lua_State *L, size_t units);

/*
** dunlua: a lookup by a long string key compares it byte by byte with a
** stored key of the same hash (one 'memcmp' of its length when the key is
** there: a distinct but equal string): one VM instruction however long the
** key. Lookups by keys over 256 bytes are charged as that comparison (16
** bytes a unit, as '==' in lvm.c); 'equalkey' in ltable.c compares hashes
** first, so keys that are not there cost no comparison.
*/
/*
** dunlua: a call, a return or '...' moves all its values in one
** instruction: with thousands of them (from 'table.unpack') a loop of
** calls did thousands of times the work the budget counted. Beyond 64
** values they are charged, four a unit ('ldo.c' moveresults, 'ltm.c'
** luaT_getvarargs).
*/
#define DUNLUA_MANY_VALUES 64
#define DUNLUA_VALUES_PER_UNIT 4

#define DUNLUA_LONG_KEY 256

/*
** dunlua: reading a number from a text ('tonumber', arithmetic on a
** string, a string where a C function wants a number) scans it all, and
** a decimal of many digits costs 'strtod' about 1 us at 250 digits: a
** loop converting such a text did a hundred times the work of the
** instructions it counted. Texts longer than a short number's are charged,
** one unit per two bytes.
*/
#define DUNLUA_NUMBER_TEXT 32

/*
** dunlua: writing a float as text ('tostring', '..', 'print') runs
** snprintf's "%.14g": about 250 ns more than an integer's text for 1.5 and
** 800 ns more for 1e300 (glibc works in big integers as long as the
** exponent), where the instruction that asked for it counts as one. A loop
** of 'tostring' of floats ran many times as long as its budget. A float
** written is charged DUNLUA_FLOAT_TEXT units and one more per 8 binary
** orders of magnitude (lobject.c, 'dunlua_chargefloattext'): 64 for 1.5,
** 188 for 1e300.
*/
#define DUNLUA_FLOAT_TEXT 64
/*
** dunlua: an integer's text is snprintf's "%lld" too, and the string it
** makes is new more often than not ('"a" .. n' in a loop): such a loop ran
** 11 times as long as its instructions. An integer written as text is
** charged DUNLUA_INTEGER_TEXT units.
*/
#define DUNLUA_INTEGER_TEXT 24
#define dunlua_chargenumbertext(L,len) \
  (l_unlikely((len) > DUNLUA_NUMBER_TEXT) \
    ? dunlua_note_work(L, (len) / 2) : (void)0)
#define luaV_chargekey(L,k) \
  (l_unlikely(ttislngstring(k) && tsslen(tsvalue(k)) > DUNLUA_LONG_KEY) \
    ? dunlua_note_work(L, tsslen(tsvalue(k)) / 16) : (void)0)

/* dunlua: 'luaV_fastget' with 'luaH_get' (any key), the lookup charged */
#define luaV_fastgetcharged(L,t,k,slot) \
  (luaV_chargekey(L,k), luaV_fastget(L,t,k,slot,luaH_get))

/*
** fast track for 'gettable': if 't' is a table and 't[k]' is present,
** return 1 with 'slot' pointing to 't[k]' (position of final result).
** Otherwise, return 0 (meaning it will have to check metamethod)
** with 'slot' pointing to an empty 't[k]' (if 't' is a table) or NULL
** (otherwise). 'f' is the raw get function to use.
*/
#define luaV_fastget(L,t,k,slot,f) \
  (!ttistable(t)  \
   ? (slot = NULL, 0)  /* not a table; 'slot' is NULL and result is 0 */  \
   : (slot = f(hvalue(t), k),  /* else, do raw access */  \
      !isempty(slot)))  /* result not empty? */


/*
** Special case of 'luaV_fastget' for integers, inlining the fast case
** of 'luaH_getint'.
*/
#define luaV_fastgeti(L,t,k,slot) \
  (!ttistable(t)  \
   ? (slot = NULL, 0)  /* not a table; 'slot' is NULL and result is 0 */  \
   : (slot = (l_castS2U(k) - 1u < hvalue(t)->alimit) \
              ? &hvalue(t)->array[k - 1] : luaH_getint(hvalue(t), k), \
      !isempty(slot)))  /* result not empty? */


/*
** Finish a fast set operation (when fast get succeeds). In that case,
** 'slot' points to the place to put the value.
*/
#define luaV_finishfastset(L,t,slot,v) \
    { setobj2t(L, cast(TValue *,slot), v); \
      luaC_barrierback(L, gcvalue(t), v); }


/*
** Shift right is the same as shift left with a negative 'y'
*/
#define luaV_shiftr(x,y)	luaV_shiftl(x,intop(-, 0, y))



LUAI_FUNC int luaV_equalobj (lua_State *L, const TValue *t1, const TValue *t2);
LUAI_FUNC int luaV_lessthan (lua_State *L, const TValue *l, const TValue *r);
LUAI_FUNC int luaV_lessequal (lua_State *L, const TValue *l, const TValue *r);
LUAI_FUNC int luaV_tonumber_ (const TValue *obj, lua_Number *n);
LUAI_FUNC int luaV_tointeger (const TValue *obj, lua_Integer *p, F2Imod mode);
LUAI_FUNC int luaV_tointegerns (const TValue *obj, lua_Integer *p,
                                F2Imod mode);
LUAI_FUNC int luaV_flttointeger (lua_Number n, lua_Integer *p, F2Imod mode);
LUAI_FUNC void luaV_finishget (lua_State *L, const TValue *t, TValue *key,
                               StkId val, const TValue *slot);
LUAI_FUNC void luaV_finishset (lua_State *L, const TValue *t, TValue *key,
                               TValue *val, const TValue *slot);
LUAI_FUNC void luaV_finishOp (lua_State *L);
LUAI_FUNC void luaV_execute (lua_State *L, CallInfo *ci);
LUAI_FUNC void luaV_concat (lua_State *L, int total);
LUAI_FUNC lua_Integer luaV_idiv (lua_State *L, lua_Integer x, lua_Integer y);
LUAI_FUNC lua_Integer luaV_mod (lua_State *L, lua_Integer x, lua_Integer y);
LUAI_FUNC lua_Number luaV_modf (lua_State *L, lua_Number x, lua_Number y);
LUAI_FUNC lua_Integer luaV_shiftl (lua_Integer x, lua_Integer y);
LUAI_FUNC void luaV_objlen (lua_State *L, StkId ra, const TValue *rb);

#endif

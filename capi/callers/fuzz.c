/* The C ABI under wrong values: calls every function of dunlua.h, COUNT
 * calls in all, with handles that are live, freed, stale, of the wrong
 * kind, NULL or made up, status values that are none, capacities and
 * lengths that are not the buffer's, and NULL out-parameters, from a fixed
 * seed; and checks what dunlua promises:
 *   - every status returned is a known one, and every string returned is
 *     NUL-terminated (valgrind memcheck checks the reads);
 *   - a call refused for its arguments writes nothing: each out-parameter
 *     and array sits between canaries and is filled with a pattern, and a
 *     refused call must leave every byte of it;
 *   - a call that fills an array writes only the slots it made, whatever
 *     capacity it was told;
 *   - a handle of the wrong kind is neither used nor freed.
 * Made-up handles are odd, or a multiple of 16 past any id dunlua will
 * reach, so none is a live handle by chance. Run by capi/tests/callers.rs
 * and .ci/run under valgrind:
 *
 *   cc -std=c99 fuzz.c -I../include -L../../target/debug -ldunlua_capi -lm \
 *     -Wl,-rpath,$PWD/../../target/debug -o fuzz
 *   ./fuzz COUNT [SEED [SCRIPT]]
 *
 * SCRIPT (a script file, e.g. ../../scripts/rooms.lua) is sometimes given
 * to dunlua_generator_from_file (or _with_loader). Prints one line: the
 * calls made. Exits 1 with a message on stderr when a promise is broken. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dunlua.h"

/* ------------------------------------------------------------- random */

static uint64_t rng_state;

static uint64_t next(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t n) { return n ? next() % n : 0; }

static int chance(unsigned percent) { return below(100) < percent; }

/* An integer from the edges as often as from the middle. */
static int64_t wild_i64(void) {
    static const int64_t edges[] = {0, 1, -1, 2, 15, 16, 255, 256, INT32_MAX, INT32_MIN,
                                    (int64_t)INT32_MAX + 1, INT64_MAX, INT64_MIN};
    return chance(50) ? edges[below(sizeof edges / sizeof edges[0])] : (int64_t)next();
}

static size_t wild_size(void) {
    static const size_t edges[] = {0, 1, 2, 3, 4, 31, 32, 33, 40, 1000, SIZE_MAX, SIZE_MAX / 2,
                                   SIZE_MAX / 2 + 1, SIZE_MAX - 1};
    return chance(60) ? edges[below(sizeof edges / sizeof edges[0])] : (size_t)next();
}

static double wild_double(void) {
    static const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 1e300, 86400.0, 86401.0};
    switch (below(4)) {
    case 0: return edges[below(sizeof edges / sizeof edges[0])];
    case 1: return NAN;
    case 2: return chance(50) ? INFINITY : -INFINITY;
    default: return (double)(int64_t)next() / 1e6;
    }
}

/* ------------------------------------------------------------- checks */

static unsigned long calls, broken, maps_made, level_sets_made;

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "fuzz: after %lu calls: %s%s%s\n", calls, what, detail ? ": " : "",
            detail ? detail : "");
    if (++broken >= 20) {
        exit(1);
    }
}

#define CHECK(cond, detail)                                                                    \
    do {                                                                                       \
        if (!(cond)) fail(#cond, detail);                                                      \
    } while (0)

static int known(DunluaStatus s) { return s >= DUNLUA_STATUS_OK && s <= DUNLUA_STATUS_PANIC; }

/* A NUL-terminated string (memcheck checks every byte strlen reads). */
static void is_text(const char *s, const char *what) {
    CHECK(s != NULL, what);
    if (s) {
        volatile size_t n = strlen(s);
        (void)n;
    }
}

#define PATTERN 0xA5
#define CANARY ((DunluaMap *)(uintptr_t)0xC0FFEE01u)

static void fill(void *p, size_t n) { memset(p, PATTERN, n); }

static int untouched(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        if (b[i] != PATTERN) return 0;
    }
    return 1;
}

/* An out-parameter between two guards. */
#define GUARDED(T)                                                                             \
    struct {                                                                                   \
        unsigned char before[16];                                                              \
        T value;                                                                               \
        unsigned char after[16];                                                               \
    }

/* ------------------------------------------------------------- handles */

enum kind { K_NULL, K_GENERATOR, K_MAP, K_DEAD, K_FAKE };

typedef struct {
    void *h;
    enum kind kind;
} Handle;

#define MAX_LIVE 8
#define MAX_MAPS 24
#define MAX_DEAD 64

static void *generators[MAX_LIVE];
static size_t n_generators;
static void *maps[MAX_MAPS];
static size_t n_maps;
static void *dead[MAX_DEAD]; /* freed generators and maps, module handles after their call */
static size_t n_dead;

static void bury(void *h) {
    if (n_dead < MAX_DEAD) {
        dead[n_dead++] = h;
    } else {
        dead[below(MAX_DEAD)] = h;
    }
}

static Handle pick(void) {
    Handle out = {NULL, K_NULL};
    switch (below(6)) {
    case 0: break;
    case 1:
    case 2:
        if (n_generators) out = (Handle){generators[below(n_generators)], K_GENERATOR};
        break;
    case 3:
        if (n_maps) out = (Handle){maps[below(n_maps)], K_MAP};
        break;
    case 4:
        if (n_dead) out = (Handle){dead[below(n_dead)], K_DEAD};
        break;
    default: {
        /* Never a multiple of 16 below 2^60 * 16: no live id. */
        static const uintptr_t fakes[] = {0x13, 0x1234, 0x8, UINTPTR_MAX, UINTPTR_MAX - 15, 1};
        uintptr_t h = chance(50) ? fakes[below(sizeof fakes / sizeof fakes[0])]
                                 : (uintptr_t)next() | 1;
        out = (Handle){(void *)h, K_FAKE};
    }
    }
    return out;
}

/* A handle of kind `want` more often than not, else any. */
static Handle pick_a(enum kind want) {
    if (chance(60)) {
        if (want == K_GENERATOR && n_generators) {
            return (Handle){generators[below(n_generators)], K_GENERATOR};
        }
        if (want == K_MAP && n_maps) return (Handle){maps[below(n_maps)], K_MAP};
    }
    return pick();
}

static void keep_map(DunluaMap *m) {
    if (n_maps == MAX_MAPS) {
        size_t i = below(MAX_MAPS);
        dunlua_map_free(maps[i]);
        bury(maps[i]);
        maps[i] = m;
    } else {
        maps[n_maps++] = m;
    }
}

static void keep_generator(DunluaGenerator *g) {
    if (n_generators == MAX_LIVE) {
        size_t i = below(MAX_LIVE);
        dunlua_generator_free(generators[i]);
        bury(generators[i]);
        generators[i] = g;
    } else {
        generators[n_generators++] = g;
    }
}

/* ------------------------------------------------------------- scripts */

static const char *SCRIPTS[] = {
    /* Levels, parameters of every type, markers with data, named rooms. */
    "return { levels = 2, width = 12, height = 8,\n"
    "  params = { rooms = 2, ratio = 0.5, wet = false, label = 'x' },\n"
    "  generate = function(map, rng, p, ctx)\n"
    "    map:carve_room(Rect.new(1, 1, 8, 5))\n"
    "    map:add_room(Rect.new(1, 1, 4, 5), { name = 'hall', kind = p.label })\n"
    "    map:add_room(Rect.new(5, 1, 4, 5))\n"
    "    map:set_start(1 + ctx.level, 2)\n"
    "    map:mark(3, 3, 'goblin', { hp = p.rooms, speed = p.ratio, boss = p.wet, loot = 'gold' })\n"
    "    if p.wet then map:set(6, 4, 'water') end\n"
    "  end }\n",
    /* A module, required when the script loads. */
    "local m = require('lib.m')\n"
    "return { width = 10, height = 6, generate = function(map)\n"
    "  map:fill('floor') map:set_start(m.x or 1, 1)\n"
    "end }\n",
    /* A module, required while generating. */
    "return { width = 10, height = 6, generate = function(map)\n"
    "  local m = require('lib.m')\n"
    "  map:fill('floor') map:set_start(m.x or 1, 1)\n"
    "end }\n",
    /* Fails at run time, on some seeds. */
    "return { width = 8, height = 8, generate = function(map, rng)\n"
    "  if rng:int(1, 2) == 1 then error('unlucky') end\n"
    "  map:fill('floor') map:set_start(1, 1)\n"
    "end }\n",
    /* Does not compile. */
    "return { generate = function(map)\n  map:fill(\nend }\n",
    /* Breaks the contract. */
    "return 42\n",
    /* Never ends (budget and deadline stop it). */
    "return { width = 6, height = 6, generate = function(map) while true do end end }\n",
};
#define N_SCRIPTS (sizeof SCRIPTS / sizeof SCRIPTS[0])

static const char *PARAM_NAMES[] = {"rooms", "ratio", "wet", "label", "nope", "", NULL,
                                    "\xff\xfe"};
#define N_PARAM_NAMES (sizeof PARAM_NAMES / sizeof PARAM_NAMES[0])

static const char *script_file; /* argv[3], or NULL */

/* The most instructions a generate may run: every generator is given this
 * budget as it is made, and set_limits never gives more (the default,
 * 400,000,000, is minutes of `while true do end` under memcheck). */
#define BUDGET 300000

/* ------------------------------------------------------------- loader */

static const char MODULE_TEXT[] = "return { x = 2 }";
static const char NOT_UTF8[] = "return '\xe9t\xe9'";
static int loader_calls;

static void loader(void *user_data, const char *path, DunluaModule *module) {
    CHECK(user_data == &loader_calls, "user_data comes back as given");
    is_text(path, "the loader's path");
    loader_calls++;
    DunluaStatus s;
    switch (below(8)) {
    case 0:
        calls++;
        s = dunlua_module_set_source(module, MODULE_TEXT, strlen(MODULE_TEXT));
        CHECK(s == DUNLUA_STATUS_OK, dunlua_last_error());
        break;
    case 1:
        calls++;
        s = dunlua_module_set_source(module, MODULE_TEXT, (size_t)-1);
        CHECK(s == DUNLUA_STATUS_OK, dunlua_last_error());
        break;
    case 2:
        calls++;
        s = dunlua_module_set_source(module, NOT_UTF8, strlen(NOT_UTF8));
        CHECK(s == DUNLUA_STATUS_INVALID_TEXT, dunlua_last_error());
        break;
    case 3: {
        /* Lengths no buffer has: refused before a byte is read. */
        size_t length = (size_t)PTRDIFF_MAX + 1 + below((size_t)PTRDIFF_MAX - 1);
        calls++;
        s = dunlua_module_set_source(module, MODULE_TEXT, length);
        CHECK(s == DUNLUA_STATUS_USAGE, dunlua_last_error());
        break;
    }
    case 4:
        calls++;
        s = dunlua_module_set_source(module, NULL, below(2) ? 5 : (size_t)-1);
        CHECK(s == DUNLUA_STATUS_NULL_ARGUMENT, dunlua_last_error());
        break;
    case 5: break; /* no such module */
    case 6: {
        /* Another handle is no module, even during a loader call. */
        Handle h = pick();
        calls++;
        s = dunlua_module_set_source((DunluaModule *)h.h, MODULE_TEXT, 1u << 30);
        CHECK(s == DUNLUA_STATUS_BAD_HANDLE, "a handle that is no live module");
        calls++;
        s = dunlua_module_set_source(module, MODULE_TEXT, strlen(MODULE_TEXT));
        CHECK(s == DUNLUA_STATUS_OK, dunlua_last_error());
        break;
    }
    default: {
        /* Reading other generators from inside a loader. */
        Handle h = pick();
        calls += 2;
        CHECK(known(dunlua_generator_status((DunluaGenerator *)h.h)), "a known status");
        is_text(dunlua_generator_error((DunluaGenerator *)h.h), "generator_error in a loader");
        break;
    }
    }
    bury(module); /* dead once this call returns */
}

/* ------------------------------------------------------------- calls */

static void new_generator(void) {
    DunluaGenerator *g;
    int kind = (int)below(10);
    if (kind == 6) {
        /* The script as a byte range: its length, up to a NUL, or none. */
        const char *source = chance(5) ? NULL : SCRIPTS[below(N_SCRIPTS)];
        size_t length = source == NULL || chance(30) ? (size_t)-1 : strlen(source);
        calls++;
        g = dunlua_generator_from_text("fuzz.lua", source, length,
                                       chance(80) ? loader : NULL, &loader_calls);
        CHECK(g != NULL, "a generator handle");
        calls++;
        DunluaStatus s = dunlua_generator_status(g);
        CHECK(known(s), "a known status");
        if (source == NULL) {
            CHECK(s == DUNLUA_STATUS_NULL_ARGUMENT, dunlua_generator_error(g));
        }
    } else if (kind < 6) {
        static const char *names[] = {"fuzz.lua", "mods/deep/x.lua", "", NULL, "\xc3\x28.lua"};
        const char *name = names[chance(50) ? 0 : below(5)];
        const char *source =
            chance(5) ? NULL : SCRIPTS[chance(40) ? 0 : below(N_SCRIPTS)];
        calls++;
        g = dunlua_generator_from_source(name, source, chance(80) ? loader : NULL,
                                         &loader_calls);
        CHECK(g != NULL, "a generator handle");
        calls++;
        DunluaStatus s = dunlua_generator_status(g);
        CHECK(known(s), "a known status");
        if (name == NULL) {
            CHECK(s == DUNLUA_STATUS_NULL_ARGUMENT, dunlua_generator_error(g));
        } else if (name[0] == '\xc3') {
            CHECK(s == DUNLUA_STATUS_INVALID_TEXT, dunlua_generator_error(g));
        } else if (source == NULL) {
            CHECK(s == DUNLUA_STATUS_NULL_ARGUMENT, dunlua_generator_error(g));
        }
    } else {
        static const char *paths[] = {NULL, "", "/nonexistent/x.lua", "\xff.lua", "."};
        const char *path = script_file && chance(30) ? script_file : paths[below(5)];
        /* With a loader, the script's modules come only from it. */
        int with_loader = chance(30);
        calls++;
        g = with_loader ? dunlua_generator_from_file_with_loader(
                              path, chance(80) ? loader : NULL, &loader_calls)
                        : dunlua_generator_from_file(path);
        CHECK(g != NULL, "a generator handle");
        calls++;
        DunluaStatus s = dunlua_generator_status(g);
        CHECK(known(s), "a known status");
        if (with_loader) {
            CHECK(s != DUNLUA_STATUS_OK || (path != NULL && path == script_file),
                  dunlua_generator_error(g));
        } else {
            CHECK((s == DUNLUA_STATUS_OK) == (path != NULL && path == script_file),
                  dunlua_generator_error(g));
        }
    }
    calls++;
    DunluaStatus s = dunlua_generator_set_limits(g, BUDGET, 0, 0);
    CHECK(known(s), "a known status");
    keep_generator(g);
}

static void set_something(void) {
    Handle h = pick_a(K_GENERATOR);
    DunluaGenerator *g = h.h;
    const char *name = PARAM_NAMES[below(N_PARAM_NAMES)];
    DunluaStatus s;
    switch (below(8)) {
    case 0: s = dunlua_generator_set_int(g, name, wild_i64()); break;
    case 1: s = dunlua_generator_set_number(g, name, wild_double()); break;
    case 2: s = dunlua_generator_set_bool(g, name, (int)wild_i64()); break;
    case 3: {
        static const char *values[] = {"y", "", NULL, "\xff"};
        s = dunlua_generator_set_string(g, name, values[below(4)]);
        break;
    }
    case 4:
        /* Small sizes work; the others are refused (no big map under memcheck). */
        if (chance(50)) {
            s = dunlua_generator_set_size(g, 4 + (int64_t)below(20), 4 + (int64_t)below(20));
        } else {
            int64_t w = chance(50) ? wild_i64() : 10001;
            s = dunlua_generator_set_size(g, w, chance(50) ? wild_i64() : -1);
            CHECK(s != DUNLUA_STATUS_OK || (w > 0 && w <= 10000), "a wrong size is refused");
        }
        break;
    case 5:
        /* Budgets stay at most BUDGET (0 would be the default). */
        s = dunlua_generator_set_limits(g, 1 + below(BUDGET), chance(50) ? below(2000) : next(),
                                        wild_double());
        break;
    case 6: {
        uint32_t attempts = chance(50) ? (uint32_t)below(12000) : (uint32_t)next();
        s = dunlua_generator_set_max_attempts(g, attempts);
        if (h.kind == K_GENERATOR && (attempts == 0 || attempts > 10000)) {
            CHECK(s != DUNLUA_STATUS_OK, "attempts out of 1..10000 are refused");
        }
        break;
    }
    default: {
        uint32_t levels = chance(70) ? (uint32_t)below(5) : (uint32_t)next();
        if (chance(3)) levels = 32;
        s = dunlua_generator_set_levels(g, levels);
        if (h.kind == K_GENERATOR && (levels == 0 || levels > 32)) {
            CHECK(s != DUNLUA_STATUS_OK, "levels out of 1..32 are refused");
        }
    }
    }
    calls++;
    CHECK(known(s), "a known status");
    if (h.kind != K_GENERATOR) {
        CHECK(s == DUNLUA_STATUS_BAD_HANDLE, "a bad generator handle");
    }
}

static void read_generator(void) {
    Handle h = pick_a(K_GENERATOR);
    const DunluaGenerator *g = h.h;
    calls += 4;
    DunluaStatus s = dunlua_generator_status(g);
    CHECK(known(s), "a known status");
    CHECK(h.kind == K_GENERATOR || s == DUNLUA_STATUS_BAD_HANDLE, "a bad generator handle");
    is_text(dunlua_generator_error(g), "generator_error");
    is_text(dunlua_generator_traceback(g), "generator_traceback");
    uint32_t levels = dunlua_generator_levels(g);
    CHECK(levels <= 32, "at most 32 levels");
    CHECK(h.kind == K_GENERATOR || levels == 0, "0 levels for a bad handle");
}

static void generate_one(void) {
    Handle h = pick_a(K_GENERATOR);
    DunluaMap *slot[3] = {CANARY, CANARY, CANARY};
    int null_out = chance(10);
    calls++;
    DunluaStatus s = dunlua_generate(h.h, next(), null_out ? NULL : &slot[1]);
    CHECK(known(s), "a known status");
    CHECK(slot[0] == CANARY && slot[2] == CANARY, "generate writes one slot");
    if (h.kind != K_GENERATOR || null_out) {
        CHECK(s == (h.kind != K_GENERATOR ? DUNLUA_STATUS_BAD_HANDLE
                                          : DUNLUA_STATUS_NULL_ARGUMENT),
              dunlua_last_error());
        CHECK(slot[1] == CANARY, "a refused generate writes nothing");
    } else if (s == DUNLUA_STATUS_OK) {
        calls++;
        CHECK(slot[1] != NULL && slot[1] != CANARY && dunlua_map_width(slot[1]) > 0,
              "a live map");
        keep_map(slot[1]);
        maps_made++;
    } else {
        CHECK(slot[1] == NULL, "a failed generate writes NULL");
    }
}

static size_t wild_index(size_t n);

/* The completion proof over levels just made (refused for a script that
   declares no puzzle), with lying counts, a NULL out and wild cells, then
   its readers on NULL and on what it wrote. */
static void prove_levels(const DunluaMap *const *levels, size_t count) {
    DunluaProof *proof = NULL;
    int null_out = chance(10);
    size_t claimed = chance(10) ? 0 : count;
    calls++;
    DunluaStatus s = dunlua_prove(levels, claimed, null_out ? NULL : &proof);
    CHECK(known(s), "a known status from dunlua_prove");
    if (s == DUNLUA_STATUS_OK) {
        CHECK(proof != NULL, "an OK proof is written");
        int32_t outcome = dunlua_proof_outcome(proof);
        CHECK(dunlua_proof_outcome_name(outcome) != NULL, "every outcome has a name");
        CHECK(dunlua_proof_sentence(proof) != NULL, "an OK proof has its sentence");
        size_t cells = dunlua_proof_cell_count(proof);
        DunluaCell cell;
        DunluaStatus c = dunlua_proof_cell(proof, wild_index(cells), chance(10) ? NULL : &cell);
        CHECK(known(c), "a known status from dunlua_proof_cell");
        dunlua_proof_free(proof);
    } else {
        CHECK(proof == NULL, "a refused proof writes nothing");
    }
    calls++;
    CHECK(dunlua_proof_sentence(NULL) == NULL, "no sentence for NULL");
    CHECK(dunlua_proof_cell_count(NULL) == 0, "no cells for NULL");
    (void)dunlua_proof_outcome(NULL);
    CHECK(dunlua_proof_outcome_name((int32_t)next()) != NULL, "any number has a name");
    dunlua_proof_free(NULL);
}

#define ROOM 40 /* the array's real size: at least any dunlua_generator_levels */
#define GUARD 4

static void generate_levels(void) {
    Handle h = pick_a(K_GENERATOR);
    DunluaMap *slots[GUARD + ROOM + GUARD];
    size_t counts[3] = {7777, 7777, 7777};
    for (size_t i = 0; i < GUARD + ROOM + GUARD; i++) slots[i] = CANARY;
    /* Capacities lie: past the array too, as `sizeof maps` for 4 would. */
    size_t capacity = chance(50) ? below(ROOM + 1) : wild_size();
    int null_out = chance(8), null_count = chance(8);
    calls++;
    uint32_t levels = dunlua_generator_levels(h.h);
    calls++;
    DunluaStatus s = dunlua_generate_levels(h.h, next(), null_out ? NULL : slots + GUARD,
                                            capacity, null_count ? NULL : &counts[1]);
    CHECK(known(s), "a known status");
    CHECK(counts[0] == 7777 && counts[2] == 7777, "count's neighbours");
    size_t count = counts[1];
    size_t written = s == DUNLUA_STATUS_OK ? count : 0;
    if (h.kind != K_GENERATOR || null_out || null_count) {
        CHECK(s == DUNLUA_STATUS_BAD_HANDLE || s == DUNLUA_STATUS_NULL_ARGUMENT,
              dunlua_last_error());
        CHECK(count == 7777, "a refused call writes no count");
        written = 0;
    } else if (s == DUNLUA_STATUS_OK) {
        CHECK(count == levels && count >= 1 && count <= capacity, "count is the levels made");
        level_sets_made++;
        for (size_t i = 0; i < count && i < ROOM; i++) {
            calls++;
            CHECK(dunlua_map_level(slots[GUARD + i]) == i + 1, "level i + 1 in slot i");
            keep_map(slots[GUARD + i]);
        }
        prove_levels((const DunluaMap *const *)(slots + GUARD), count);
    } else if (levels > 0 && capacity < levels) {
        CHECK(s == DUNLUA_STATUS_USAGE, dunlua_last_error());
        CHECK(count == levels, "count is the slots needed");
    } else {
        CHECK(count == 0, "count is 0 on failure");
    }
    for (size_t i = 0; i < GUARD + ROOM + GUARD; i++) {
        if (i < GUARD || i >= GUARD + written) {
            if (slots[i] != CANARY) {
                char detail[96];
                snprintf(detail, sizeof detail, "slot %d of capacity %zu, status %d, count %zu",
                         (int)i - GUARD, capacity, (int)s, count);
                fail("only the slots of levels made are written", detail);
                break;
            }
        }
    }
}

static void read_map(void) {
    Handle h = pick_a(K_MAP);
    const DunluaMap *m = h.h;
    int live = h.kind == K_MAP;
    calls += 11;
    int32_t w = dunlua_map_width(m), height = dunlua_map_height(m);
    const uint8_t *tiles = dunlua_map_tiles(m);
    size_t kinds = dunlua_map_tile_kind_count(m), rooms = dunlua_map_room_count(m);
    size_t markers = dunlua_map_marker_count(m);
    uint32_t level = dunlua_map_level(m);
    uint64_t hash = dunlua_map_hash(m);
    (void)dunlua_map_seed(m);
    const char *json = dunlua_map_json(m);
    is_text(dunlua_last_error(), "last_error");
    if (!live) {
        CHECK(w == 0 && height == 0 && tiles == NULL && kinds == 0 && rooms == 0 &&
                  markers == 0 && level == 0 && hash == 0 && json == NULL,
              "0 and NULL for a bad map handle");
        return;
    }
    CHECK(w > 0 && height > 0 && tiles != NULL && kinds >= 6 && level >= 1, "a live map");
    is_text(json, "map_json");
    for (int32_t i = 0; tiles && i < w * height; i++) {
        if (tiles[i] >= kinds) {
            fail("tile ids index the tile kinds", NULL);
            break;
        }
    }
}

static size_t wild_index(size_t n) {
    switch (below(4)) {
    case 0: return n ? below(n) : 0;
    case 1: return n;
    case 2: return n ? n - 1 : 0;
    default: return wild_size();
    }
}

static void read_map_parts(void) {
    Handle h = pick_a(K_MAP);
    const DunluaMap *m = h.h;
    int live = h.kind == K_MAP, null_out = chance(10);
    GUARDED(DunluaTileKind) kind;
    GUARDED(DunluaRoom) room;
    GUARDED(DunluaMarker) marker;
    GUARDED(DunluaProperty) prop;
    fill(&kind, sizeof kind);
    fill(&room, sizeof room);
    fill(&marker, sizeof marker);
    fill(&prop, sizeof prop);
    const unsigned char *out; /* the guarded out of this call */
    size_t out_size;
    DunluaStatus s;
    switch (below(6)) {
    case 0:
        calls += 2;
        s = dunlua_map_tile_kind(m, wild_index(dunlua_map_tile_kind_count(m)),
                                 null_out ? NULL : &kind.value);
        if (s == DUNLUA_STATUS_OK) {
            is_text(kind.value.name, "tile kind name");
            is_text(kind.value.glyph, "tile kind glyph");
        }
        out = (const unsigned char *)&kind, out_size = sizeof kind;
        break;
    case 1:
        calls += 2;
        s = dunlua_map_room(m, wild_index(dunlua_map_room_count(m)), null_out ? NULL : &room.value);
        if (s == DUNLUA_STATUS_OK) {
            CHECK(room.value.x1 <= room.value.x2 && room.value.y1 <= room.value.y2, "a room");
        }
        out = (const unsigned char *)&room, out_size = sizeof room;
        break;
    case 2:
        calls += 2;
        s = dunlua_map_marker(m, wild_index(dunlua_map_marker_count(m)),
                              null_out ? NULL : &marker.value);
        if (s == DUNLUA_STATUS_OK) is_text(marker.value.name, "marker name");
        out = (const unsigned char *)&marker, out_size = sizeof marker;
        break;
    case 3: {
        size_t which = wild_index(dunlua_map_marker_count(m));
        size_t index = wild_index(dunlua_map_marker_property_count(m, which));
        calls += 3;
        s = dunlua_map_marker_property(m, which, index, null_out ? NULL : &prop.value);
        if (s == DUNLUA_STATUS_OK) {
            is_text(prop.value.key, "property key");
            CHECK(prop.value.kind >= DUNLUA_VALUE_KIND_INTEGER &&
                      prop.value.kind <= DUNLUA_VALUE_KIND_TEXT,
                  "a known value kind");
            if (prop.value.kind == DUNLUA_VALUE_KIND_TEXT) {
                is_text(prop.value.text, "property text");
            } else {
                CHECK(prop.value.text == NULL, "no text but for a text value");
            }
        }
        out = (const unsigned char *)&prop, out_size = sizeof prop;
        break;
    }
    case 4: {
        int32_t xs[3], ys[3];
        fill(xs, sizeof xs);
        fill(ys, sizeof ys);
        int which = (int)below(4); /* 0: both; 1: x NULL; 2: y NULL; 3: both NULL */
        calls++;
        s = dunlua_map_start(m, which & 1 ? NULL : &xs[1], which & 2 ? NULL : &ys[1]);
        CHECK(known(s), "a known status");
        CHECK(untouched(&xs[0], 4) && untouched(&xs[2], 4) && untouched(&ys[0], 4) &&
                  untouched(&ys[2], 4),
              "map_start writes one int each");
        if (s != DUNLUA_STATUS_OK) {
            CHECK(untouched(xs, sizeof xs) && untouched(ys, sizeof ys),
                  "a refused map_start writes neither");
        }
        CHECK(s == (!live ? DUNLUA_STATUS_BAD_HANDLE
                          : which ? DUNLUA_STATUS_NULL_ARGUMENT : DUNLUA_STATUS_OK),
              dunlua_last_error());
        return;
    }
    default: {
        size_t index = wild_index(dunlua_map_room_count(m));
        calls += 3;
        const char *name = dunlua_map_room_name(m, index);
        const char *room_kind = dunlua_map_room_kind(m, index);
        if (name) is_text(name, "room name");
        if (room_kind) is_text(room_kind, "room kind");
        CHECK(live || (!name && !room_kind), "NULL for a bad map handle");
        return;
    }
    }
    CHECK(known(s), "a known status");
    CHECK(untouched(out, 16) && untouched(out + out_size - 16, 16), "an out's guards");
    if (s != DUNLUA_STATUS_OK) CHECK(untouched(out, out_size), "a refused call writes no out");
    if (!live) CHECK(s == DUNLUA_STATUS_BAD_HANDLE, "a bad map handle");
    if (live && null_out) {
        CHECK(s == DUNLUA_STATUS_NULL_ARGUMENT || s == DUNLUA_STATUS_OUT_OF_RANGE,
              dunlua_last_error());
    }
}

static void free_something(void) {
    Handle h = pick();
    if (chance(20)) {
        /* Nothing is under way on another thread: cancelling does nothing. */
        calls++;
        DunluaStatus s = dunlua_generator_cancel(h.h);
        CHECK(known(s), "a known status");
        CHECK((s == DUNLUA_STATUS_OK) == (h.kind == K_GENERATOR), dunlua_last_error());
        return;
    }
    int as_map = (int)below(2);
    calls++;
    if (as_map) {
        dunlua_map_free(h.h);
    } else {
        dunlua_generator_free(h.h);
    }
    /* A handle of the other kind is not freed. */
    if (h.kind == K_GENERATOR && as_map) {
        calls++;
        CHECK(dunlua_generator_status(h.h) != DUNLUA_STATUS_BAD_HANDLE,
              "map_free left the generator");
    } else if (h.kind == K_MAP && !as_map) {
        calls++;
        CHECK(dunlua_map_width(h.h) > 0, "generator_free left the map");
    } else if (h.kind == K_GENERATOR || h.kind == K_MAP) {
        void **pool = h.kind == K_MAP ? maps : generators;
        size_t *n = h.kind == K_MAP ? &n_maps : &n_generators;
        for (size_t i = 0; i < *n; i++) {
            if (pool[i] == h.h) {
                pool[i] = pool[--*n];
                break;
            }
        }
        bury(h.h);
        calls++;
        CHECK(h.kind == K_MAP ? dunlua_map_width(h.h) == 0
                              : dunlua_generator_status(h.h) == DUNLUA_STATUS_BAD_HANDLE,
              "a freed handle is dead");
    }
}

static void plain_values(void) {
    static const int32_t edges[] = {0, 14, 15, -1, 16, 255, 256, INT32_MIN, INT32_MAX, 1000};
    int32_t value = chance(50) ? edges[below(sizeof edges / sizeof edges[0])] : (int32_t)next();
    calls += 3;
    const char *name = dunlua_status_name(value);
    is_text(name, "status_name");
    if (value >= 0 && value <= DUNLUA_STATUS_PANIC) {
        CHECK(strncmp(name, "DUNLUA_STATUS_", 14) == 0, name);
    } else {
        CHECK(strcmp(name, "unknown") == 0, name);
    }
    is_text(dunlua_version(), "version");
    is_text(dunlua_last_error(), "last_error");
    /* Outside a loader call, no handle is a module: text is never read,
     * whatever length it is given. */
    Handle h = pick();
    char four[4] = {'a', 'b', 'c', 'd'};
    calls++;
    DunluaStatus s = dunlua_module_set_source((DunluaModule *)h.h, chance(50) ? NULL : four,
                                              wild_size());
    CHECK(s == DUNLUA_STATUS_BAD_HANDLE, "no module outside a loader call");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz COUNT [SEED [SCRIPT]]\n");
        return 2;
    }
    unsigned long count = strtoul(argv[1], NULL, 10);
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eedull;
    script_file = argc > 3 ? argv[3] : NULL;
    while (calls < count) {
        switch (below(16)) {
        case 0: new_generator(); break;
        case 1:
        case 2: set_something(); break;
        case 3: read_generator(); break;
        case 4:
        case 5: generate_one(); break;
        case 6: generate_levels(); break;
        case 7:
        case 8: read_map(); break;
        case 9:
        case 10:
        case 11:
        case 12: read_map_parts(); break;
        case 13: free_something(); break;
        default: plain_values(); break;
        }
        if (n_generators == 0) new_generator();
    }
    for (size_t i = 0; i < n_maps; i++) dunlua_map_free(maps[i]);
    for (size_t i = 0; i < n_generators; i++) dunlua_generator_free(generators[i]);
    printf("fuzz: %lu calls (%lu maps, %lu dungeons, %d loader calls), %lu promises broken\n",
           calls, maps_made, level_sets_made, loader_calls, broken);
    return broken ? 1 : 0;
}

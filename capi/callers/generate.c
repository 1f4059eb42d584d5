/* A C game's use of dunlua: generate rooms.lua, read the map, and show that
 * errors come back as a status and a message. Prints one line per check
 * for capi/tests/callers.rs, which compares it with the command line.
 *
 *   From the repository root (the rpath lets the program find the library):
 *   cargo build --release -p dunlua-capi
 *   cc capi/callers/generate.c -Icapi/include -Ltarget/release -ldunlua_capi \
 *     -Wl,-rpath,"$PWD/target/release" -o generate
 *   ./generate scripts/rooms.lua
 */
#include <stdio.h>
#include <string.h>

#include "dunlua.h"

static const char *MAIN_SCRIPT =
    "local room = require('lib.room')\n"
    "return { width = 20, height = 10, generate = function(map)\n"
    "  room.carve(map)\n"
    "  map:set_start(2, 2)\n"
    "end }\n";
static const char *ROOM_MODULE =
    "return { carve = function(map)\n"
    "  map:fill('wall')\n"
    "  map:carve_room(Rect.new(1, 1, 10, 6))\n"
    "end }\n";

/* Three linked levels: each knows the one above (ctx.above). */
static const char *LEVELS_SCRIPT =
    "return { levels = 3, width = 20, height = 10, generate = function(map, rng, p, ctx)\n"
    "  map:carve_room(Rect.new(1, 1, 17, 7))\n"
    "  map:set_start(2 + ctx.level, 3)\n"
    "end }\n";

/* A spawn with data and named rooms: what a game places its monsters by. */
static const char *MARKED_SCRIPT =
    "return { width = 12, height = 8, generate = function(map)\n"
    "  map:carve_room(Rect.new(1, 1, 10, 6))\n"
    "  map:add_room(Rect.new(1, 1, 5, 6), { name = 'hall', kind = 'throne' })\n"
    "  map:add_room(Rect.new(6, 1, 5, 6))\n"
    "  map:set_start(2, 2)\n"
    "  map:mark(3, 3, 'goblin', { hp = 7, speed = 1.5, boss = true, loot = 'gold' })\n"
    "end }\n";

/* The game's module loader: here from a string, in a game from its pack. */
static void load_module(void *user_data, const char *path, DunluaModule *module) {
    (void)user_data;
    if (strcmp(path, "lib/room.lua") == 0) {
        dunlua_module_set_source(module, ROOM_MODULE, strlen(ROOM_MODULE));
    }
}

static void report_error(const char *what, DunluaGenerator *g, DunluaStatus status) {
    printf("%s %d %s\n", what, (int)status, dunlua_generator_error(g));
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: generate SCRIPT\n");
        return 2;
    }
    printf("version %s\n", dunlua_version());
    /* Statuses are plain int32_t values; one that is no status is "unknown". */
    printf("status_names %s %s %s\n", dunlua_status_name(DUNLUA_STATUS_LIMIT),
           dunlua_status_name(15), dunlua_status_name(-1));

    DunluaGenerator *g = dunlua_generator_from_file(argv[1]);
    if (dunlua_generator_status(g) != DUNLUA_STATUS_OK) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], dunlua_generator_error(g));
        return 1;
    }
    DunluaMap *map = NULL;
    DunluaStatus status = dunlua_generate(g, 7, &map);
    if (status != DUNLUA_STATUS_OK) {
        fprintf(stderr, "generate: %s\n", dunlua_generator_error(g));
        return 1;
    }
    printf("hash %016llx\n", (unsigned long long)dunlua_map_hash(map));
    int width = dunlua_map_width(map), height = dunlua_map_height(map);
    printf("size %d %d\n", width, height);
    const uint8_t *tiles = dunlua_map_tiles(map);
    int32_t sx, sy;
    dunlua_map_start(map, &sx, &sy);
    DunluaTileKind kind;
    dunlua_map_tile_kind(map, tiles[sy * width + sx], &kind);
    printf("start_walkable %d %s\n", kind.walkable ? 1 : 0, kind.name);
    dunlua_map_tile_kind(map, 0, &kind);
    printf("kinds %zu %s %s %06x\n", dunlua_map_tile_kind_count(map), kind.name, kind.glyph,
           (unsigned)kind.color);
    size_t floors = 0;
    for (int i = 0; i < width * height; i++) {
        floors += tiles[i] == 1;
    }
    printf("floors %zu\n", floors);
    DunluaRoom room;
    dunlua_map_room(map, 0, &room);
    printf("rooms %zu first %d %d %d %d\n", dunlua_map_room_count(map), room.x1, room.y1,
           room.x2, room.y2);
    printf("json_has_hash %d\n", strstr(dunlua_map_json(map), "\"hash\"") != NULL);
    printf("out_of_range %d\n", (int)dunlua_map_room(map, 100000, &room));
    dunlua_map_free(map);

    status = dunlua_generator_set_int(g, "max_rooms", 12);
    if (status != DUNLUA_STATUS_OK) {
        fprintf(stderr, "set max_rooms: %s\n", dunlua_generator_error(g));
        return 1;
    }
    dunlua_generate(g, 7, &map);
    printf("hash_param %016llx\n", (unsigned long long)dunlua_map_hash(map));
    dunlua_map_free(map);

    status = dunlua_generator_set_int(g, "max_room", 12);
    report_error("unknown_param", g, status);
    status = dunlua_generator_set_string(g, "max_rooms", "many");
    report_error("wrong_type", g, status);
    dunlua_generator_free(g);

    g = dunlua_generator_from_source("mods/cave.lua", MAIN_SCRIPT, load_module, NULL);
    status = dunlua_generate(g, 1, &map);
    if (status != DUNLUA_STATUS_OK) {
        fprintf(stderr, "loader: %s\n", dunlua_generator_error(g));
        return 1;
    }
    printf("loader %016llx\n", (unsigned long long)dunlua_map_hash(map));
    dunlua_map_free(map);
    dunlua_generator_free(g);

    g = dunlua_generator_from_source("broken.lua", "return { generate = function(map)\n  map:fill(\nend }\n", NULL, NULL);
    report_error("syntax", g, dunlua_generator_status(g));
    status = dunlua_generate(g, 1, &map);
    printf("syntax_generate %d %d\n", (int)status, map == NULL);
    dunlua_generator_free(g);

    g = dunlua_generator_from_source("spin.lua", "return { generate = function(map) while true do end end }\n", NULL, NULL);
    dunlua_generator_set_limits(g, 1000000, 0, 0);
    report_error("limit", g, dunlua_generate(g, 1, &map));
    dunlua_generator_free(g);

    /* Every level of a dungeon at once, a map handle each. */
    g = dunlua_generator_from_source("deep.lua", LEVELS_SCRIPT, NULL, NULL);
    {
        DunluaMap *levels[4];
        size_t count = 0;
        status = dunlua_generate_levels(g, 5, levels, 4, &count);
        printf("levels %u %d %zu", dunlua_generator_levels(g), (int)status, count);
        for (size_t i = 0; i < count; i++) {
            printf(" %016llx", (unsigned long long)dunlua_map_hash(levels[i]));
        }
        printf(" last %u\n", count ? dunlua_map_level(levels[count - 1]) : 0u);
        for (size_t i = 0; i < count; i++) {
            dunlua_map_free(levels[i]);
        }
        /* Too small: nothing is written but count, the slots it needs. */
        status = dunlua_generate_levels(g, 5, levels, 2, &count);
        printf("levels_room %d %zu %s\n", (int)status, count, dunlua_generator_error(g));
        dunlua_generator_set_levels(g, 2);
        status = dunlua_generate_levels(g, 5, levels, 4, &count);
        printf("set_levels %d %zu\n", (int)status, count);
        for (size_t i = 0; i < count; i++) {
            dunlua_map_free(levels[i]);
        }
    }
    dunlua_generator_free(g);

    /* A marker's properties, typed, and the rooms' names and kinds. */
    g = dunlua_generator_from_source("marked.lua", MARKED_SCRIPT, NULL, NULL);
    status = dunlua_generate(g, 1, &map);
    if (status != DUNLUA_STATUS_OK) {
        fprintf(stderr, "marked: %s\n", dunlua_generator_error(g));
        return 1;
    }
    {
        DunluaMarker marker;
        dunlua_map_marker(map, 0, &marker);
        size_t count = dunlua_map_marker_property_count(map, 0);
        printf("props %s %zu", marker.name, count);
        for (size_t i = 0; i < count; i++) {
            DunluaProperty p;
            dunlua_map_marker_property(map, 0, i, &p);
            switch (p.kind) {
            case DUNLUA_VALUE_KIND_INTEGER: printf(" %s=i:%lld", p.key, (long long)p.integer); break;
            case DUNLUA_VALUE_KIND_NUMBER: printf(" %s=n:%g", p.key, p.number); break;
            case DUNLUA_VALUE_KIND_BOOLEAN: printf(" %s=b:%d", p.key, p.boolean ? 1 : 0); break;
            case DUNLUA_VALUE_KIND_TEXT: printf(" %s=t:%s", p.key, p.text); break;
            }
        }
        DunluaProperty p;
        printf(" past_end %d\n", (int)dunlua_map_marker_property(map, 0, count, &p));
        const char *unnamed = dunlua_map_room_name(map, 1);
        printf("room_names %s %s %s\n", dunlua_map_room_name(map, 0), dunlua_map_room_kind(map, 0),
               unnamed ? unnamed : "(none)");
    }
    dunlua_map_free(map);
    dunlua_generator_free(g);

    /* Handles that are not live: NULL, freed, made up, the wrong kind. */
    printf("bad_handle %d %d %d %d\n", (int)dunlua_generate(NULL, 1, &map),
           (int)dunlua_generate(g, 1, &map), (int)dunlua_generate((DunluaGenerator *)0x1234, 1, &map),
           (int)dunlua_generator_status(NULL));
    printf("bad_handle_message %s\n", dunlua_last_error());
    dunlua_generator_free(g); /* a double free does nothing */
    dunlua_map_free(NULL);
    return 0;
}

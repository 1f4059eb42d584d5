/* A C game's use of the completion proof: generate each seed's levels,
 * prove them, print the verdict; then the wrong values a caller can pass.
 * capi/tests/proof.rs compares the lines with the Rust library.
 *
 *   From the repository root (the rpath lets the program find the library):
 *   cargo build --release -p dunlua-capi
 *   cc capi/callers/prove.c -Icapi/include -Ltarget/release -ldunlua_capi \
 *     -Wl,-rpath,"$PWD/target/release" -o prove
 *   ./prove scripts/keys.lua tests/completion/key_behind.lua
 */
#include <stdio.h>

#include "dunlua.h"

static const char *NO_PUZZLE =
    "return { width = 8, height = 5, generate = function(map)\n"
    "  map:carve_room(Rect.new(1, 1, 5, 3))\n"
    "  map:set_start(2, 2)\n"
    "end }\n";

int main(int argc, char **argv) {
    for (int s = 1; s < argc; s++) {
        DunluaGenerator *g = dunlua_generator_from_file(argv[s]);
        if (dunlua_generator_status(g) != DUNLUA_STATUS_OK) {
            fprintf(stderr, "cannot load %s: %s\n", argv[s], dunlua_generator_error(g));
            return 1;
        }
        for (unsigned long long seed = 0; seed < 4; seed++) {
            DunluaMap *maps[32];
            size_t count = 0;
            if (dunlua_generate_levels(g, seed, maps, 32, &count) != DUNLUA_STATUS_OK) {
                fprintf(stderr, "generate: %s\n", dunlua_generator_error(g));
                return 1;
            }
            DunluaProof *proof = NULL;
            DunluaStatus status = dunlua_prove((const DunluaMap *const *)maps, count, &proof);
            if (status != DUNLUA_STATUS_OK) {
                printf("script %d seed %llu error %s %s\n", s, seed, dunlua_status_name(status),
                       dunlua_last_error());
            } else {
                printf("script %d seed %llu %s: %s;", s, seed,
                       dunlua_proof_outcome_name(dunlua_proof_outcome(proof)),
                       dunlua_proof_sentence(proof));
                for (size_t i = 0; i < dunlua_proof_cell_count(proof); i++) {
                    DunluaCell cell;
                    dunlua_proof_cell(proof, i, &cell);
                    printf(" %u:%d,%d", cell.level, cell.x, cell.y);
                }
                printf("\n");
                dunlua_proof_free(proof);
            }
            for (size_t i = 0; i < count; i++) {
                dunlua_map_free(maps[i]);
            }
        }
        dunlua_generator_free(g);
    }

    /* Wrong values: each an error status, nothing written. */
    DunluaProof *untouched = NULL;
    printf("null_levels %s\n", dunlua_status_name(dunlua_prove(NULL, 1, &untouched)));
    DunluaMap *bogus[1] = {(DunluaMap *)(size_t)4096};
    printf("bad_handle %s\n",
           dunlua_status_name(dunlua_prove((const DunluaMap *const *)bogus, 1, &untouched)));
    printf("zero_count %s\n",
           dunlua_status_name(dunlua_prove((const DunluaMap *const *)bogus, 0, &untouched)));
    DunluaGenerator *plain = dunlua_generator_from_source("plain.lua", NO_PUZZLE, NULL, NULL);
    DunluaMap *map = NULL;
    dunlua_generate(plain, 1, &map);
    DunluaMap *one[1] = {map};
    /* The message is read after the call (C leaves argument order open). */
    DunluaStatus refused = dunlua_prove((const DunluaMap *const *)one, 1, &untouched);
    printf("no_puzzle %s %s\n", dunlua_status_name(refused), dunlua_last_error());
    printf("untouched %d\n", untouched == NULL);
    printf("bad_proof %d %d %s\n", dunlua_proof_outcome(NULL),
           (int)dunlua_proof_cell_count(NULL), dunlua_proof_outcome_name(9));
    dunlua_proof_free(NULL);
    dunlua_map_free(map);
    dunlua_generator_free(plain);
    return 0;
}

/* A game that takes the user's locale (setlocale(LC_ALL, ""), as GTK and
 * Qt programs do) gets the same maps as the command line: Lua's numbers
 * (tostring, tonumber, string.format) stay in the C locale while dunlua
 * runs, and the game's own locale is as it was after each call.
 *
 * Usage: locale SCRIPT SEED; run with LC_ALL set to a locale whose decimal
 * point is a comma. Prints the map's hash, then how the game's own
 * snprintf writes 0.5 after the call. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dunlua.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: locale SCRIPT SEED\n");
    return 2;
  }
  if (setlocale(LC_ALL, "") == NULL || strcmp(localeconv()->decimal_point, ",") != 0) {
    fprintf(stderr, "the locale in LC_ALL has no comma for a decimal point\n");
    return 3;
  }
  DunluaGenerator *g = dunlua_generator_from_file(argv[1]);
  DunluaMap *map = NULL;
  int status = (int)dunlua_generate(g, strtoull(argv[2], NULL, 10), &map);
  if (status != 0) {
    printf("generate %d %s\n", status, dunlua_generator_error(g));
  }
  printf("hash %016llx\n", (unsigned long long)dunlua_map_hash(map));
  char half[16];
  snprintf(half, sizeof half, "%.1f", 0.5);
  printf("game %s\n", half);
  dunlua_map_free(map);
  dunlua_generator_free(g);
  return 0;
}

/* A game's worker thread with a small stack (512 KiB is a secondary
 * thread's default on macOS) runs a script that nests C calls as deep as
 * Lua allows: a chain of requires, each through the host. The run must end
 * with Lua's "C stack overflow" (which the script catches), never a crash.
 *
 * Usage: small_stack SCRIPT STACK_KIB; prints the build's and the run's
 * status and error, and the map's hash. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dunlua.h"

static const char *script;

static void *run(void *unused) {
  (void)unused;
  DunluaGenerator *g = dunlua_generator_from_file(script);
  printf("build %d %s\n", (int)dunlua_generator_status(g), dunlua_generator_error(g));
  DunluaMap *map = NULL;
  int status = (int)dunlua_generate(g, 1, &map);
  printf("generate %d %s\n", status, dunlua_generator_error(g));
  printf("hash %016llx\n", (unsigned long long)dunlua_map_hash(map));
  dunlua_map_free(map);
  dunlua_generator_free(g);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: small_stack SCRIPT STACK_KIB\n");
    return 2;
  }
  script = argv[1];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, (size_t)atoi(argv[2]) * 1024) != 0) {
    fprintf(stderr, "cannot set the stack size\n");
    return 2;
  }
  pthread_t thread;
  if (pthread_create(&thread, &attr, run, NULL) != 0) {
    fprintf(stderr, "cannot start the thread\n");
    return 2;
  }
  pthread_join(thread, NULL);
  return 0;
}

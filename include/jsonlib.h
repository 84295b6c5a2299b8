/* jsonlib.h: libcjson, loaded with dlopen on first use instead of linked, so that commands
 * without JSON do not pay for loading it at every start (../shared/notes/performance.md).
 * Code calls the cJSON functions of <cJSON.h> as usual; src/jsonlib.c defines the ones
 * pmuprof uses, each forwarding to the library's. */
#ifndef PMUPROF_JSONLIB_H
#define PMUPROF_JSONLIB_H

#include <stddef.h>

#include "status.h"

/* Loads libcjson.so.1 once. PP_OK, or PP_ENOENT with the loader's reason in why: a command
 * that reads or writes JSON calls this first, to say so instead of failing later. A cJSON
 * call made while the library cannot be loaded aborts. */
pp_status jsonlib_load(char *why, size_t len);
/* Unloads it (before exit: valgrind counts a library left loaded as a leak). */
void jsonlib_unload(void);

#endif

/* evtab_hash.h: the hash of an event name that the generated tables' name hash runs are
 * built with (tools/evgen_layout.c) and looked up with (src/evtab.c): FNV-1a over the name's
 * bytes, letters folded to upper case as the tables spell names. One definition for both, so
 * that the tables and the program can never disagree. */
#ifndef PMUPROF_EVTAB_HASH_H
#define PMUPROF_EVTAB_HASH_H

#include <stdint.h>

static inline uint32_t evtab_name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint32_t)(unsigned char)(*s >= 'a' && *s <= 'z' ? *s - 'a' + 'A' : *s)) *
		    16777619u;
	return h;
}

#endif

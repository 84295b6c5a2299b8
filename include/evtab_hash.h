/* SPDX-License-Identifier: Apache-2.0 */
/* evtab_hash.h: the hash of an event name that the generated tables' name lookup uses. The
 * generator (tools/evgen_layout.c) places each set's names by it and src/event/evtab.c looks them
 * up by it, so both include this one definition. Case-blind: the tables spell names in upper
 * case, users in either. */
#ifndef PMUPROF_EVTAB_HASH_H
#define PMUPROF_EVTAB_HASH_H

#include <stdint.h>

#include "ascii.h"

/* FNV-1a over the bytes with bit 5 set, its high bits folded into its low ones at the end.
 * Setting bit 5 makes a letter lower-case whatever its case, so the hash is case-blind for
 * the letters without a case conversion (other bytes map to themselves or, for the few
 * without bit 5, to one other byte: an equal hash, never an equal name, which the lookup
 * compares). */
#define EVTAB_HASH_INIT 2166136261u

static inline uint32_t evtab_hash_step(uint32_t h, unsigned char c)
{
	return (h ^ (c | 0x20u)) * 16777619u;
}

static inline uint32_t evtab_hash_end(uint32_t h)
{
	return h ^ h >> 16;
}

static inline uint32_t evtab_hash(const char *s)
{
	uint32_t h = EVTAB_HASH_INIT;

	for (; *s; s++)
		h = evtab_hash_step(h, (unsigned char)*s);
	return evtab_hash_end(h);
}

#endif

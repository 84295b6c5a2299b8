/* SPDX-License-Identifier: Apache-2.0 */
/* pfm.h: libpfm4 as a fallback name encoder, loaded with dlopen only when a name needs it
 * (linking it costs every start-up ~41,000 relocations: ../shared/notes/performance.md). */
#ifndef PMUPROF_PFM_H
#define PMUPROF_PFM_H

#include <linux/perf_event.h>

#include "ppattr.h"
#include "status.h"

/* The loaded library: opaque; NULL until pfm_open succeeds. */
struct pfm_lib;

/* Loads libpfm.so.4 and initialises it. PP_ENOTSUP when the library cannot be loaded or lacks
 * the functions pmuprof calls (why[] then says so, from dlerror); PP_EIO when
 * pfm_initialize fails (why[] has pfm_strerror's text). */
pp_status pfm_open(struct pfm_lib **out, char *why, size_t whylen);
void pfm_close(struct pfm_lib *lib);

/* Encodes one libpfm4 event string ("UNHALTED_CORE_CYCLES", "cycles_div_busy") for
 * perf_event_open through pfm_get_os_event_encoding(PFM_OS_PERF_EVENT_EXT): sets attr's type
 * and config, config1 and config2 only. *fq (may be NULL) gets libpfm4's fully qualified
 * name, malloc'd. PP_ENOENT when libpfm4 knows no such event for this host's PMUs,
 * PP_EINVAL when it refuses the string (why[] has pfm_strerror's text). */
pp_status pfm_encode(struct pfm_lib *lib, const char *name, struct pp_attr *attr,
		     char **fq, char *why, size_t whylen);

#endif

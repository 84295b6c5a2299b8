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

/* Calls fn with the name of every event of every PMU libpfm4 found present on this machine:
 * the names a bare event string can match (pfm_get_os_event_encoding looks a name without
 * "PMU::" up in the present PMUs only, unless LIBPFM_ENCODE_INACTIVE is set). */
void pfm_each_name(struct pfm_lib *lib, void (*fn)(const char *name, void *arg), void *arg);
/* The path libpfm.so.4 was loaded from (the dynamic linker's), "" when unknown. */
const char *pfm_lib_path(struct pfm_lib *lib);

/* pfm_names.c: the names libpfm4 knows on this machine, kept per boot in the cache directory
 * ($XDG_CACHE_HOME/pmuprof, else ~/.cache/pmuprof), so that a name libpfm4 cannot know is
 * refused without loading it (its pfm_initialize probes ~90 PMU models: 7-8 ms on an arm64
 * core under QEMU, issue 16). */
/* PP_ENOENT when this boot's list, written for the same libpfm.so.4 file, lacks name: libpfm4
 * cannot know it. PP_OK when it has it, or when there is no valid list to ask (no cache, a
 * fixture tree without boot_id, LIBPFM_* set in the environment, the library changed). */
pp_status pfm_names_may_know(const char *name);
/* Writes the list from the loaded library, unless a valid one is there. Silent on failure: it
 * is a cache. */
void pfm_names_save(struct pfm_lib *lib);

#endif

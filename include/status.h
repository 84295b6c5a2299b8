/* SPDX-License-Identifier: Apache-2.0 */
/* status.h: the status codes every lower module returns; messages are composed by the caller
 * that addresses the user (DESIGN.md, style 5). */
#ifndef PMUPROF_STATUS_H
#define PMUPROF_STATUS_H

typedef enum pp_status {
	PP_OK = 0,
	PP_ENOMEM,	/* out of memory */
	PP_ENOENT,	/* no such file, PMU, event or term */
	PP_EINVAL,	/* malformed input */
	PP_ERANGE,	/* a number does not fit its field */
	PP_EIO,		/* a read or write failed */
	PP_EACCES,	/* permission denied (perf_event_paranoid, file modes) */
	PP_ENOTSUP,	/* the kernel or hardware cannot do it */
	PP_EBUSY,	/* resource in use (counters taken) */
	PP_EMFILE,	/* out of file descriptors */
	PP_ENOEXEC,	/* workload cannot be executed */
	PP_ESRCH,	/* workload not found */
} pp_status;

/* A short lower-case phrase for the status ("no such event"). */
const char *pp_strstatus(pp_status s);

#endif

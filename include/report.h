/* report.h: the one struct every output format is printed from (text, JSON, CSV). */
#ifndef PMUPROF_REPORT_H
#define PMUPROF_REPORT_H

#include <stdint.h>
#include <stdio.h>

#define REPORT_SCHEMA_VERSION "1.0"

enum report_status {
	REPORT_COUNTED = 0,	/* counted, possibly for only part of the time (scaled) */
	REPORT_NOT_COUNTED,	/* opened, but never on a counter (time_running == 0) */
	REPORT_NOT_SUPPORTED,	/* the kernel refused to open it */
	REPORT_NOT_PERMITTED,	/* refused for permissions (perf_event_paranoid, capabilities) */
};

struct report_event {
	const char *name;	/* as the user wrote it */
	const char *pmu;	/* "cpu", "software", "raw" or the sysfs PMU */
	const char *unit;	/* unit of value: "ns" or "" */
	uint32_t type;
	uint64_t config, config1, config2;
	unsigned excl_user : 1, excl_kernel : 1, excl_hv : 1, excl_host : 1, excl_guest : 1;
	int group;		/* user group index, -1 when none */
	const char *filter_terms;	/* PMEVTYPER filter-bit terms given ("P,NSK"), NULL: none */
	const char *filter_verdict;	/* "ok", or "secure" (accepted with --allow-secure) */
	int marked;		/* the request's Secure/EL3 part is not counted (Linux can't) */
	unsigned filter_differ;	/* levels (1 << enum filter_level) counted otherwise than asked */
	enum report_status status;
	const char *reason;	/* why it was not counted (errno name), or NULL */
	uint64_t raw;		/* as read */
	uint64_t enabled_ns, running_ns;
	double value;		/* raw scaled by enabled/running (== raw when fully counted) */
	double counted_pct;	/* running/enabled * 100 */
};

struct report_host {
	char kernel[65];	/* uname release */
	char machine[65];	/* uname machine */
	char cpu_model[128];	/* "" when unknown */
	uint64_t midr;		/* 0 when unknown */
	int ncpus;
	int kernel_el;		/* 1, or 2 (VHE), that filter terms were read with; 0: not decided */
	const char *kernel_el_source;	/* how pmuprof knows it (NULL when not decided) */
};

struct report {
	const char *tool_version;
	int argc;
	char *const *argv;		/* the workload's command */
	struct report_host host;
	struct report_event *events;
	size_t nevents;
	uint64_t wall_ns, user_ns, sys_ns;
	int exit_code;			/* -1 when killed by a signal */
	int term_signal;		/* 0 when it exited */
	int interrupted;		/* SIGINT/SIGTERM reached pmuprof during the run */
};

/* Name of a status as the outputs spell it ("counted", "not counted", ...). */
const char *report_status_str(enum report_status s);
/* The note a marked event carries in every format: "marked: filter P,NSK: Secure EL1 and EL3
 * cannot be filtered as asked; Linux programs the Non-secure part only (--allow-secure)". */
const char *report_mark_note(const struct report_event *e, char *buf, size_t len);
/* Fills the host facts (uname, cpu model and MIDR through sysfs). */
void report_host_fill(struct report_host *h);

/* The derived figure printed beside an event (CPUs utilized, insn per cycle, rates); 0 when
 * there is none. */
int report_metric(const struct report *r, const struct report_event *e, double *val,
		  const char **unit);

/* One writer per format; each returns 0 or -1 when the stream failed. */
int report_text(const struct report *r, FILE *out);
int report_json(const struct report *r, FILE *out);
int report_csv(const struct report *r, FILE *out, const char *sep);

#endif

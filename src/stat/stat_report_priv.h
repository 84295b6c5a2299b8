/* SPDX-License-Identifier: Apache-2.0 */
/* stat_report_priv.h: stat_report_build's units (stat_report_units.c), for the report's
 * builder (stat_report.c). */
#ifndef PMUPROF_STAT_REPORT_PRIV_H
#define PMUPROF_STAT_REPORT_PRIV_H

#include "aggregate.h"
#include "stat.h"

/* The aggregation mode that makes units of aggregation a. */
enum agg_mode stat_report_mode(enum report_aggr a);
/* The units of the rows of mode m (their distinct unit ids, ascending: the rows are sorted by
 * event first, so collected over all) into r->units, named as perf names them; *ids_out gets
 * their ids (malloc'd), in the same order. -1 when memory ran out. */
int stat_report_units(struct report *r, const struct agg_row *rows, size_t nrows,
		      enum agg_mode m, const struct stat_build *b, int32_t **ids_out);

#endif

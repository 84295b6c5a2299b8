/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_ppattr.c: the kernel's attr made from an event's (ppattr_to_perf): its type,
 * configs and each level flag carried, its size this build's, every other byte zero (the
 * kernel refuses an attr with a reserved field set). */
#include <string.h>

#include "ppattr.h"
#include "tap.h"

/* The attr the kernel should get for p, field by field on zeroed bytes. */
static void expected(const struct pp_attr *p, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = p->type;
	a->config = p->config;
	a->config1 = p->config1;
	a->config2 = p->config2;
	a->exclude_user = p->exclude_user;
	a->exclude_kernel = p->exclude_kernel;
	a->exclude_hv = p->exclude_hv;
	a->exclude_host = p->exclude_host;
	a->exclude_guest = p->exclude_guest;
	a->pinned = p->pinned;
}

static const struct {
	int line;
	struct pp_attr p;
} rows[] = {
	{ __LINE__, { 0 } },
	{ __LINE__, { .type = PERF_TYPE_RAW, .config = 0x11 } },
	{ __LINE__, { .type = 8, .config = 0x8, .config1 = 0x123456789abcdefull,
		      .config2 = ~0ull } },
	{ __LINE__, { .type = 8, .config = 0x8, .exclude_user = 1 } },
	{ __LINE__, { .type = 8, .config = 0x8, .exclude_kernel = 1 } },
	{ __LINE__, { .type = 8, .config = 0x8, .exclude_hv = 1 } },
	{ __LINE__, { .type = 8, .config = 0x8, .exclude_host = 1 } },
	{ __LINE__, { .type = 8, .config = 0x8, .exclude_guest = 1 } },
	{ __LINE__, { .type = 8, .config = 0x8, .pinned = 1 } },
	{ __LINE__, { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
		      .exclude_user = 1, .exclude_kernel = 1, .exclude_hv = 1, .exclude_host = 1,
		      .exclude_guest = 1, .pinned = 1 } },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct perf_event_attr got, want;

		memset(&got, 0xa5, sizeof(got));	/* what was there before is not kept */
		ppattr_to_perf(&rows[i].p, &got);
		expected(&rows[i].p, &want);
		tap_ok(!memcmp(&got, &want, sizeof(got)), "line %d: type %u config %#llx, its flags, "
		       "size %u, every other byte zero", rows[i].line, got.type,
		       (unsigned long long)got.config, got.size);
	}
	tap_ok(sizeof(struct pp_attr) <= 32, "an event's attr is %zu bytes (the kernel's %zu)",
	       sizeof(struct pp_attr), sizeof(struct perf_event_attr));
	return tap_done();
}

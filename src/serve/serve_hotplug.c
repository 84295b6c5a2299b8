/* SPDX-License-Identifier: Apache-2.0 */
/* serve_hotplug.c: CPUs going offline and online under pmuprof serve. The kernel detaches a
 * CPU's events when the CPU goes offline and never attaches them again when it comes back,
 * so their counts freeze; serve reads the online CPUs at each scrape and reopens the
 * counters of every CPU that came back, carrying what the old ones counted. A CPU present
 * but offline when serve starts gets counters too (the kernel refuses them with ENODEV):
 * it is one that comes back, opened when it is first seen online. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"
#include "sysfs.h"

int serve_online_read(unsigned char *on, size_t n)
{
	int *cpus, ncpus;

	if (sysfs_read_cpulist("/sys/devices/system/cpu/online", &cpus, &ncpus) != PP_OK)
		return -1;
	memset(on, 0, n);
	for (int k = 0; k < ncpus; k++)
		if (cpus[k] >= 0 && (size_t)cpus[k] < n)
			on[cpus[k]] = 1;
	free(cpus);
	return 0;
}

void serve_hotplug_cpus(struct stat_target *t)
{
	int *p = NULL, np = 0;

	/* the kernel keeps every online CPU among the present ones (cpu_online_mask is a
	 * subset of cpu_present_mask), so the present list is the online one and the rest */
	if (!t->cpus || sysfs_read_cpulist("/sys/devices/system/cpu/present", &p, &np) != PP_OK ||
	    !np) {
		free(p);
		return;	/* no list of present CPUs: the online ones only */
	}
	free(t->cpus);
	t->cpus = p;
	t->ncpus = np;
}

int serve_hotplug_init(struct serve_count *sc, const unsigned char *on, size_t n)
{
	if (!(sc->online = calloc(sc->ncpus + 1, 1)))
		return -1;
	for (size_t k = 0; k < sc->cs.n; k++) {
		const struct stat_counter *c = &sc->cs.c[k];

		if (c->cpu >= 0 && (size_t)c->cpu < sc->ncpus && stat_counter_opens(&sc->cs, c))
			sc->online[c->cpu] = !on || ((size_t)c->cpu < n && on[c->cpu]) ? 1 : 2;
	}
	return 0;
}

int serve_hotplug_start(struct serve_count *sc)
{
	unsigned char *on = malloc(sc->ncpus + 1);
	int rc;

	if (!on)
		return -1;
	rc = serve_hotplug_init(sc, serve_online_read(on, sc->ncpus) == 0 ? on : NULL,
				sc->ncpus);
	free(on);
	return rc;
}

size_t serve_hotplug_back(struct serve_count *sc, const unsigned char *on, size_t n,
			  unsigned char *back)
{
	size_t nback = 0;

	memset(back, 0, sc->ncpus);
	for (size_t c = 0; c < sc->ncpus; c++) {
		int now = c < n && on[c];

		/* only a CPU with counters (present when serve started) has a state */
		if (sc->online[c] == 2 && now) {
			back[c] = 1;
			nback++;
		}
		if (sc->online[c])
			sc->online[c] = now ? 1 : 2;
	}
	return nback;
}

/* Closes the counters of the CPUs in back, their counts carried, and opens them again;
 * the others keep theirs untouched. -1 when out of memory. */
static int reopen(struct serve_count *sc, const unsigned char *back)
{
	struct stat_counters *cs = &sc->cs;
	struct stat_counter *was = malloc((cs->n + 1) * sizeof(*was));

	if (!was)
		return -1;
	stat_counters_read(cs);
	for (size_t k = 0; k < cs->n; k++) {
		struct stat_counter *c = &cs->c[k];

		if (c->cpu < 0 || !back[c->cpu] || c->fd < 0)
			continue;
		sc->carry[k].value += c->rd.value;
		sc->carry[k].enabled += c->rd.enabled;
		sc->carry[k].running += c->rd.running;
		close(c->fd);
		c->fd = -1;
	}
	memcpy(was, cs->c, cs->n * sizeof(*was));
	/* the open skips what stands for a fixture: every counter not to reopen does */
	for (size_t k = 0; k < cs->n; k++)
		if (cs->c[k].cpu < 0 || !back[cs->c[k].cpu])
			cs->c[k].fixture = "kept";
	(void)stat_open_wide(sc->rows, cs);	/* a CPU gone again: its counts stay carried */
	for (size_t k = 0; k < cs->n; k++) {
		if (was[k].cpu < 0 || !back[was[k].cpu])
			cs->c[k] = was[k];
		else
			cs->c[k].fixture = was[k].fixture;
	}
	free(was);
	return 0;
}

int serve_hotplug(struct serve_count *sc, const unsigned char *on, size_t n)
{
	unsigned char *back;
	int rc = 0;

	if (!sc->online || !on)
		return 0;
	if (!(back = malloc(sc->ncpus + 1)))
		return -1;
	if (serve_hotplug_back(sc, on, n, back))
		rc = reopen(sc, back);
	free(back);
	return rc;
}

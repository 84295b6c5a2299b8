/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_sysfs.c: libFuzzer target for the sysfs readers: the input becomes a fixture tree (one
 * Arm PMU, a CPU, /proc files) that sysfs_pmu_load, sysfs_arm_pmus and the CPU readers load
 * through sysfs_set_root, as tests/fixtures/ trees are.
 *
 * Input: sections separated by lines "%%", taken in the order of files[] below; a missing
 * section leaves its file out, a section "<dir>" makes a directory in its place. The last
 * section adds events/ entries, one "NAME TERMS" per line. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "sysfs.h"

#define PMU "armv8_pmuv3_0"
#define PMU_DIR "sys/bus/event_source/devices/" PMU

static const char *const files[] = {
	PMU_DIR "/type",
	PMU_DIR "/cpus",
	PMU_DIR "/format/event",
	PMU_DIR "/format/long",
	PMU_DIR "/events/cpu_cycles",
	PMU_DIR "/events/inst_retired",
	PMU_DIR "/caps/slots",
	PMU_DIR "/perf_event_mux_interval_ms",
	"proc/cpuinfo",
	"sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
	"sys/devices/system/cpu/possible",
	"proc/sys/kernel/perf_event_paranoid",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static const char *const dirs[] = {
	"sys", "sys/bus", "sys/bus/event_source", "sys/bus/event_source/devices", PMU_DIR,
	PMU_DIR "/format", PMU_DIR "/events", PMU_DIR "/caps", "proc", "proc/sys",
	"proc/sys/kernel", "sys/devices", "sys/devices/system", "sys/devices/system/cpu",
	"sys/devices/system/cpu/cpu0", "sys/devices/system/cpu/cpu0/regs",
	"sys/devices/system/cpu/cpu0/regs/identification",
};

static char root[64];

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(void)
{
	if (root[0])
		nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[256];

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/ppfuzz-sysfs.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (strlen(root) > 40 || !mkdtemp(root)) {
		fprintf(stderr, "fuzz_sysfs: cannot make a temporary directory\n");
		exit(1);
	}
	atexit(remove_tree);
	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[k]);
		mkdir(path, 0755);
	}
	sysfs_set_root(root);
	return 0;
}

static void put(const char *rel, const char *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (len == 5 && !memcmp(data, "<dir>", 5)) {
		mkdir(path, 0755);
		return;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return;
	while (len > 0) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			break;
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

/* Empties the tree back to its directories (events/ emptied too). */
static void clear(void)
{
	char path[512];

	for (size_t k = 0; k < NFILES; k++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[k]);
		if (remove(path) != 0 && errno != ENOENT)
			nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	snprintf(path, sizeof(path), "%s/" PMU_DIR "/events", root);
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(path, 0755);
}

/* The last section: "NAME TERMS" lines become events/NAME files (names that are not one
 * plain path component are skipped: the tree must stay inside root). */
static void put_events(const char *s, size_t len)
{
	char rel[512];

	while (len > 0) {
		const char *nl = memchr(s, '\n', len);
		size_t line = nl ? (size_t)(nl - s) : len;
		const char *sp = memchr(s, ' ', line);
		size_t nlen = sp ? (size_t)(sp - s) : line;

		if (nlen > 0 && nlen < 200 && !memchr(s, '/', nlen) && !memchr(s, '\0', nlen) &&
		    !(nlen == 1 && s[0] == '.') && !(nlen == 2 && !memcmp(s, "..", 2))) {
			snprintf(rel, sizeof(rel), PMU_DIR "/events/%.*s", (int)nlen, s);
			put(rel, sp ? sp + 1 : s + line, sp ? line - nlen - 1 : 0);
		}
		s += line + (nl != NULL);
		len -= line + (nl != NULL);
	}
}

static char *dupn(const uint8_t *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

/* What sysfs.h promises of a loaded PMU. */
static void check_pmu(const struct sysfs_pmu *p)
{
	uint64_t config[4] = { 0 };
	const struct sysfs_format *f;

	FUZZ_CHECK(p->type >= 0);
	FUZZ_CHECK(p->ncpus >= 0 && p->ncpus <= SYSFS_MAX_CPUS);
	for (int k = 0; k < p->ncpus; k++)
		FUZZ_CHECK(p->cpus[k] >= 0 && p->cpus[k] < SYSFS_MAX_CPUS &&
			   (k == 0 || p->cpus[k] > p->cpus[k - 1]));
	for (size_t k = 0; k < sysfs_event_listed(p); k++) {
		/* an entry is read on its first lookup: one whose file is unreadable is left
		 * out (NULL), and only a readable one must be found by its name */
		const struct sysfs_event *e = sysfs_event_at(p, k);

		FUZZ_CHECK(p->events[k].name[0] != '\0');
		FUZZ_CHECK(k == 0 || strcasecmp(p->events[k - 1].name, p->events[k].name) <= 0);
		FUZZ_CHECK(!e || sysfs_event_find(p, e->name) != NULL);
	}
	for (size_t k = 0; k < p->nformats; k++) {
		FUZZ_CHECK(p->formats[k].field >= 0 && p->formats[k].field <= 3);
		FUZZ_CHECK(p->formats[k].mask != 0);
	}
	if ((f = sysfs_format_find(p, "event"))) {
		sysfs_format_apply(f, 0x11, config);
		FUZZ_CHECK((config[f->field] & ~f->mask) == 0);
		sysfs_format_apply(f, UINT64_MAX, config);
	}
	sysfs_pmu_has_cpu(p, 0);
	sysfs_pmu_has_cpu(p, SYSFS_MAX_CPUS);
}

/* The pure parsers straight on the text of their sections. */
static void parse_texts(const uint8_t *cpus, size_t ncpus, const uint8_t *fmt, size_t nfmt)
{
	struct sysfs_format f;
	char *s;
	int *v, n;

	if (cpus && (s = dupn(cpus, ncpus))) {
		if (sysfs_parse_cpulist(s, &v, &n) == PP_OK) {
			FUZZ_CHECK(n >= 0 && n <= SYSFS_MAX_CPUS);
			free(v);
		}
		free(s);
	}
	if (fmt && (s = dupn(fmt, nfmt))) {
		if (sysfs_format_parse("event", s, &f) == PP_OK)
			FUZZ_CHECK(f.field >= 0 && f.field <= 3 && f.mask);
		free(s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sec[NFILES + 1] = { 0 };
	size_t len[NFILES + 1] = { 0 }, nsec = 0, at = 0;
	struct sysfs_pmu p, *pmus;
	char model[64];
	uint64_t midr;
	long long ll;
	size_t n;
	int ncpus;

	if (!root[0])
		LLVMFuzzerInitialize(NULL, NULL);
	/* split at "\n%%\n"; the separator's newline before "%%" ends the previous section */
	while (nsec < NFILES + 1) {
		const uint8_t *p0 = data + at, *q = NULL;

		for (size_t i = at; i + 4 <= size; i++)
			if (!memcmp(data + i, "\n%%\n", 4)) {
				q = data + i;
				break;
			}
		sec[nsec] = p0;
		len[nsec] = q ? (size_t)(q - p0) : size - at;
		nsec++;
		if (!q)
			break;
		at = (size_t)(q - data) + 4;
	}
	clear();
	for (size_t k = 0; k < nsec && k < NFILES; k++)
		put(files[k], (const char *)sec[k], len[k]);
	if (nsec > NFILES)
		put_events((const char *)sec[NFILES], len[NFILES]);

	if (sysfs_pmu_load(PMU, &p) == PP_OK) {
		check_pmu(&p);
		sysfs_pmu_free(&p);
	}
	if (sysfs_arm_pmus(&pmus, &n) == PP_OK) {
		for (size_t k = 0; k < n; k++) {
			FUZZ_CHECK(pmus[k].is_arm);
			check_pmu(&pmus[k]);
		}
		sysfs_pmus_free(pmus, n);
	}
	sysfs_cpu_midr(0, &midr);
	sysfs_cpu_midr(5, &midr);
	sysfs_cpu_model(model, sizeof(model));
	ncpus = sysfs_ncpus();
	FUZZ_CHECK(ncpus >= 0 && ncpus <= SYSFS_MAX_CPUS);
	sysfs_read_ll("/proc/sys/kernel/perf_event_paranoid", &ll);
	parse_texts(nsec > 1 ? sec[1] : NULL, len[1], nsec > 2 ? sec[2] : NULL, len[2]);
	return 0;
}

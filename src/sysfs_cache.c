/* sysfs_cache.c: owns the per-boot cache of the machine's Arm PMUs (what sysfs_arm_pmus
 * found: type, cpus, MIDR, format/, caps/, events/ with each entry's terms; then the probes of
 * their counters, a line appended after each, capacity.c's), so that a run does not read a
 * dozen sysfs files again, nor list one file per events/ entry, nor open a second file for
 * the counters (it was a file of its own per PMU: 8,400 kernel instructions a run more). In an
 * arm64 guest each open, read and close of a sysfs attribute costs about 22,500 kernel
 * instructions and a missing file 15,000: discovery was 0.4 ms of a 2.5 ms run (issue 16).
 *
 * The key, written at the top of the file and compared byte for byte, is the sysfs root, the
 * boot_id and every entry of /sys/bus/event_source/devices with its inode number. Within a
 * boot, what the cache holds changes only when a PMU is registered again (a module reloaded:
 * a new type number), and a registered PMU is a new device, whose link in that directory is a
 * new kernfs node with a new inode number (kernfs numbers nodes from a 64-bit counter it never
 * reuses within a boot); caps/, format/, cpus, type and events/ are read-only attributes of
 * the registration, and MIDR_EL1 is the CPU's; the events/ entries are read once, when the
 * cache is written. What can change in place is not cached: perf_event_mux_interval_ms
 * (writable). A fixture
 * tree (PMUPROF_SYSFS_ROOT) is cached only when it has a boot_id file, and a file edited in
 * place there is not seen until the key changes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ascii.h"
#include "cachefile.h"
#include "strbuf.h"
#include "sysfs_priv.h"
#include "textline.h"

#define CACHE_NAME "pmus"
#define CACHE_MAGIC "pmuprof-pmus 4\n"
/* A cache file larger than this is not ours (a server lists a few hundred PMUs' names). */
#define CACHE_MAX (1 << 20)

/* Whether s has none of the characters that end a word of the file: ' ', \t, \n, \r. */
static int no_space(const char *s)
{
	for (; *s; s++)		/* not strpbrk: one libc function fewer to bind (issue 16) */
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return 0;
	return 1;
}

/* A name the file can hold on one line among spaces. */
static int word_ok(const char *s)
{
	return sysfs_name_ok(s) && no_space(s);
}

/* Appends each of the n texts to the key; -1 when out of memory. */
static int put_all(char **s, size_t *len, size_t *cap, const char *const *text, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strbuf_put(s, len, cap, text[k]) != 0)
			return -1;
	return 0;
}

/* The key's first lines: the format, the sysfs root and the boot; -1 when out of memory. */
static int put_head(char **s, size_t *len, size_t *cap, const char *boot)
{
	return put_all(s, len, cap, (const char *const[]){ CACHE_MAGIC "root ", sysfs_root(),
							   "\nboot ", boot, "\n" }, 5);
}

pp_status sysfs_cache_key(char **names, const uint64_t *inos, size_t n, char **key)
{
	char boot[64], num[TEXTLINE_NUM_LEN];
	size_t len = 0, cap = 0;
	char *s = NULL;
	int bad;

	*key = NULL;
	if (sysfs_boot_id(boot, sizeof boot) != PP_OK)
		return PP_ENOENT;	/* no boot to key on: no cache */
	bad = put_head(&s, &len, &cap, boot);
	for (size_t i = 0; i < n && !bad; i++) {
		if (!word_ok(names[i]) || strchr(sysfs_root(), '\n')) {
			free(s);
			return PP_ENOENT;	/* a name the file could not hold */
		}
		bad = put_all(&s, &len, &cap, (const char *const[]){
			"dev ", names[i], " ", textline_str(inos[i], 10, num),
			"\n" }, 5);
	}
	if (bad || strbuf_put(&s, &len, &cap, "data\n")) {
		free(s);
		return PP_ENOMEM;
	}
	*key = s;
	return PP_OK;
}

/* The whole cache file, NUL-terminated (malloc'd), its length in *len, or NULL. The buffer
 * starts at the file's size (a fixed 8 KiB, most of it never used, was a page fault a run at
 * the top of the heap: issue 16) and doubles should the file have grown since. */
static char *read_cache(const char *path, size_t *len)
{
	size_t n = 0, cap = 1024;
	char *buf = NULL, *nb;
	struct stat st;
	ssize_t r = 1;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0 && (uintmax_t)st.st_size < CACHE_MAX)
		cap = (size_t)st.st_size + 2;	/* the NUL, and a byte that sees the end at once */
	while (r > 0) {
		if (n + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > CACHE_MAX || !(nb = realloc(buf, cap))) {
				r = -1;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r > 0)
			n += (size_t)r;
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Grows an array of *n elements of size sz by one zeroed element; NULL when out of memory. */
static void *grow(void **v, size_t *n, size_t sz)
{
	char *nv = realloc(*v, (*n + 1) * sz);

	if (!nv)
		return NULL;
	*v = nv;
	memset(nv + *n * sz, 0, sz);
	return nv + (*n)++ * sz;
}

/* The next space-separated word of *s (NUL-terminated in place), or NULL at the end. */
static char *word(char **s)
{
	char *w = *s, *sp;

	if (!*w)
		return NULL;
	if ((sp = strchr(w, ' '))) {
		*sp = '\0';
		*s = sp + 1;
	} else {
		*s = w + strlen(w);
	}
	return w;
}

/* The next word as a number in base (16: hex without 0x, as written; 10: signed); -1 when it
 * is not one, or not one a long long holds (16: the 64 bits as they are, MIDR_EL1's). */
static int number(char **s, int base, long long *v)
{
	char *w = word(s);
	const char *end;
	uint64_t u;

	if (!w || !*w)
		return -1;
	if (base == 10)
		return sysfs_parse_decimal(w, v);
	if (sysfs_digits(w, 16, &u, &end) || *end)
		return -1;
	*v = (long long)u;
	return 0;
}

/* One "pmu NAME TYPE MIDR SLOTS BUS_SLOTS BUS_WIDTH THRESHOLD_MAX BRANCHES" line into p. */
static int parse_pmu(char *rest, struct sysfs_pmu *p)
{
	struct sysfs_caps *c = &p->caps;
	long long *caps[] = { &c->slots, &c->bus_slots, &c->bus_width, &c->threshold_max,
			      &c->branches };
	char *name = word(&rest);
	long long type, midr;

	if (!name || !word_ok(name) || number(&rest, 10, &type) || type < 0 || type > INT_MAX ||
	    number(&rest, 16, &midr))
		return -1;
	for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++)
		if (number(&rest, 10, caps[k]))
			return -1;
	if (*rest)
		return -1;
	strjoin(p->name, sizeof(p->name), (const char *const[]){ name }, 1);
	p->type = (int)type;
	p->midr = (uint64_t)midr;
	p->is_arm = 1;
	p->mux_interval_ms = -1;
	return 0;
}

/* One "fmt NAME FIELD MASK" line into p's formats (kept sorted as they were written). */
static int parse_fmt(char *rest, struct sysfs_pmu *p)
{
	char *name = word(&rest);
	struct sysfs_format *f;
	long long field, mask;

	if (!name || !word_ok(name) || number(&rest, 10, &field) || field < 0 || field > 3 ||
	    number(&rest, 16, &mask) || !mask || *rest ||
	    !(f = grow((void **)&p->formats, &p->nformats, sizeof *f)))
		return -1;
	strjoin(f->name, sizeof(f->name), (const char *const[]){ name }, 1);
	f->field = (int)field;
	f->mask = (uint64_t)mask;
	return 0;
}

/* The "events NAME TERMS NAME TERMS..." line: every usable entry of events/ with its terms
 * (events/ files are read-only attributes of the registration, like the rest). Checked
 * now, kept as text (each word NUL-ended), made into entries when first used
 * (sysfs_cache_events): a run that names table events uses none of them. */
static int parse_events(char *rest, struct sysfs_pmu *p)
{
	size_t len = strlen(rest), n = 0;
	char *text, *at, *w, *t;

	if (p->events || p->events_text || !*rest || !(text = malloc(len + 1)))
		return -1;
	memcpy(text, rest, len + 1);
	at = text;
	while ((w = word(&at)) && (t = word(&at))) {
		if (!word_ok(w) || strchr(w, '.') || strlen(w) >= sizeof(p->events->name) ||
		    strlen(t) >= sizeof(p->events->terms)) {
			free(text);
			return -1;
		}
		n++;
	}
	if (w) {	/* a name without terms */
		free(text);
		return -1;
	}
	p->events_text = text;
	p->nevents = n;
	return 0;
}

void sysfs_cache_events(struct sysfs_pmu *p)
{
	const char *w = p->events_text;

	if (!w)
		return;
	if (!(p->events = calloc(p->nevents, sizeof(*p->events))))
		p->nevents = 0;
	for (size_t k = 0; k < p->nevents; k++) {
		const char *t = w + strlen(w) + 1;

		strjoin(p->events[k].name, sizeof(p->events[k].name), &w, 1);
		strjoin(p->events[k].terms, sizeof(p->events[k].terms), &t, 1);
		w = t + strlen(t) + 1;
	}
	free(p->events_text);
	p->events_text = NULL;
}

/* One "cap NAME GENERAL CYCLE ICNTR HOW PROBE_US" line after the PMUs' end: the probe of the
 * PMU NAME (the last such line of a PMU counts). */
static int parse_cap(char *line, struct sysfs_pmu *v, size_t n)
{
	char *rest = line, *name, *how;
	long long x[4];
	struct sysfs_pmu *p = NULL;

	if (!(name = word(&rest)) || strcmp(name, "cap") || !(name = word(&rest)))
		return -1;
	for (size_t i = 0; i < n && !p; i++)
		if (!strcmp(v[i].name, name))
			p = &v[i];
	if (!p || number(&rest, 10, &x[0]) || number(&rest, 10, &x[1]) ||
	    number(&rest, 10, &x[2]) || !(how = word(&rest)) || number(&rest, 10, &x[3]) || *rest ||
	    (strcmp(how, "cpu") && strcmp(how, "task")) || x[0] <= 0 || x[0] > SYSFS_MAX_GENERAL ||
	    x[1] < -1 || x[1] > 1 || x[2] < -1 || x[2] > 1 || x[3] < 0)
		return -1;
	p->probed = (struct sysfs_probed){ .have = 1, .general = (int)x[0], .cycle = (int)x[1],
					   .icntr = (int)x[2], .task = !strcmp(how, "task"),
					   .probe_us = x[3] };
	return 0;
}

/* One line of the data into the PMU array (the last "pmu" line opened the current PMU). */
static int parse_line(char *line, struct sysfs_pmu **v, size_t *n)
{
	struct sysfs_pmu *p = *n ? &(*v)[*n - 1] : NULL;
	char *sp = strchr(line, ' ');
	char *rest = sp ? sp + 1 : line + strlen(line);

	if (sp)
		*sp = '\0';
	if (!strcmp(line, "pmu"))
		return !(p = grow((void **)v, n, sizeof *p)) || parse_pmu(rest, p);
	if (!p)
		return -1;
	if (!strcmp(line, "cpus"))
		return p->cpus || (strcmp(rest, "-") &&
				   sysfs_parse_cpulist(rest, &p->cpus, &p->ncpus) != PP_OK);
	if (!strcmp(line, "fmt"))
		return parse_fmt(rest, p);
	if (!strcmp(line, "events"))
		return parse_events(rest, p);
	return -1;
}

pp_status sysfs_cache_load(const char *key, struct sysfs_pmu **out, size_t *n)
{
	char path[PATH_MAX], *buf, *line, *end, *next;
	size_t klen = strlen(key), nv = 0, len = 0;
	struct sysfs_pmu *v = NULL;
	int bad = 0, ended = 0;

	*out = NULL;
	*n = 0;
	if (cachefile_path(path, sizeof path, CACHE_NAME) != 0 || !(buf = read_cache(path, &len)))
		return PP_ENOENT;
	/* another key's */
	if (len < klen || memcmp(buf, key, klen) != 0) {
		free(buf);
		return PP_ENOENT;
	}
	/* the PMUs up to their "end" line; after it, the probes added since
	 * (sysfs_cache_add_probe), of which a last line cut short, with no newline yet, is not
	 * one. Lines split here, not by strtok_r: one libc function fewer for a run to bind
	 * (issue 16); empty ones skipped */
	for (end = buf + len; end > buf + klen && end[-1] != '\n'; end--)
		;
	for (line = buf + klen; line < end && !bad; line = next + 1) {
		for (next = line; *next && *next != '\n'; next++)	/* end[-1] is a newline */
			;
		if (*next != '\n') {	/* a NUL within the text: not the file written */
			bad = 1;
			break;
		}
		*next = '\0';
		if (!*line)
			continue;
		if (ended)
			bad = parse_cap(line, v, nv);
		else if (!strcmp(line, "end"))
			ended = 1;
		else
			bad = parse_line(line, &v, &nv);
	}
	free(buf);
	if (bad || !ended) {	/* corrupt or cut short: not an answer */
		sysfs_pmus_free(v, nv);
		return PP_ENOENT;
	}
	*out = v;
	*n = nv;
	return PP_OK;
}

/* Writes one PMU's lines; -1 when one of its names cannot be written. */
static int write_pmu(FILE *f, const struct sysfs_pmu *p)
{
	const struct sysfs_caps *c = &p->caps;
	char cpus[SYSFS_FILE_MAX];
	size_t nev = 0;

	if (!word_ok(p->name))
		return -1;
	fprintf(f, "pmu %s %d %llx %lld %lld %lld %lld %lld\n", p->name, p->type,
		(unsigned long long)p->midr, c->slots, c->bus_slots, c->bus_width, c->threshold_max,
		c->branches);
	sysfs_format_cpulist(p->cpus, p->ncpus, cpus, sizeof cpus);
	fprintf(f, "cpus %s\n", p->ncpus ? cpus : "-");
	for (size_t k = 0; k < p->nformats; k++) {
		if (!word_ok(p->formats[k].name))
			return -1;
		fprintf(f, "fmt %s %d %llx\n", p->formats[k].name, p->formats[k].field,
			(unsigned long long)p->formats[k].mask);
	}
	for (size_t k = 0; k < p->nevents; k++) {
		/* read now, once a boot: list looks up every entry (each a sysfs read a run) */
		const struct sysfs_event *e = sysfs_event_at(p, k);

		if (!word_ok(p->events[k].name))
			return -1;
		if (e && no_space(e->terms))
			fprintf(f, "%s%s %s", nev++ ? " " : "events ", e->name, e->terms);
	}
	if (nev)
		fputc('\n', f);
	return 0;
}

void sysfs_cache_store(const char *key, const struct sysfs_pmu *pmus, size_t n)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	int bad = 0;
	FILE *f;

	if (cachefile_path(path, sizeof path, CACHE_NAME) != 0 ||
	    !(f = cachefile_create(path, tmp, sizeof tmp)))
		return;
	fputs(key, f);
	for (size_t i = 0; i < n && !bad; i++)
		bad = write_pmu(f, &pmus[i]);
	fputs("end\n", f);
	if (bad || ferror(f)) {	/* a cache is never written half right */
		fclose(f);
		unlink(tmp);
		return;
	}
	cachefile_commit(f, tmp, path);
}

void sysfs_cache_add_probe(const char *pmu, const struct sysfs_probed *probed)
{
	char path[PATH_MAX], line[SYSFS_NAME_MAX + 96], boot[64], *head = NULL, *have = NULL;
	size_t hlen = 0, hcap = 0;
	int len, fd = -1;

	if (!word_ok(pmu) || cachefile_path(path, sizeof path, CACHE_NAME) != 0 ||
	    sysfs_boot_id(boot, sizeof boot) != PP_OK)
		return;
	/* one write of the whole line, appended: no other writer's line lands in its middle */
	len = snprintf(line, sizeof line, "cap %s %d %d %d %s %lld\n", pmu, probed->general,
		       probed->cycle, probed->icntr, probed->task ? "task" : "cpu",
		       probed->probe_us);
	/* only to the cache of this boot and sysfs root (another process may have written one
	 * for another root meanwhile): its key begins so */
	if (len > 0 && (size_t)len < sizeof line &&
	    !put_head(&head, &hlen, &hcap, boot) &&
	    (have = malloc(hlen)) && (fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)) >= 0 &&
	    pread(fd, have, hlen, 0) == (ssize_t)hlen && memcmp(have, head, hlen) == 0 &&
	    write(fd, line, (size_t)len) != len) {
		/* nothing to undo: a line cut short is not read, and the next run probes again */
	}
	if (fd >= 0)
		close(fd);
	free(head);
	free(have);
}

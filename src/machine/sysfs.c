/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs.c: owns the sysfs root and every file access under it (bounded reads, directory
 * listings), number and cpu-list parsing. PMUs are in sysfs_pmu.c, CPUs in sysfs_cpu.c. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ascii.h"
#include "strbuf.h"
#include "sysfs_priv.h"

/* Directory standing for "/" ("" = the real root), without a trailing slash. A root longer
 * than PATH_MAX is kept at PATH_MAX bytes, so that every path under it is too long (PP_ERANGE)
 * instead of silently naming another directory. */
static char *root_copy;
static const char *sysfs_root_dir = "";
/* sysfs_boot_id's memo, forgotten when the root changes */
static struct {
	int done;
	pp_status st;
	char id[64];
} boot_memo;

/* Most entries sysfs_list_dir accepts: bounds memory on a runaway tree. */
#define SYSFS_DIR_MAX 65536

static void root_free(void)
{
	free(root_copy);
	root_copy = NULL;
	sysfs_root_dir = "";
}

void sysfs_set_root(const char *root)
{
	static int registered;
	size_t len;

	boot_memo.done = 0;
	root_free();
	if (!root || !*root)
		return;
	len = strnlen(root, PATH_MAX);
	while (len > 1 && root[len - 1] == '/')
		len--;
	if (len == 1 && root[0] == '/')
		return;	/* "/" is the real root */
	if (!(root_copy = strndup(root, len))) {
		sysfs_root_dir = "/nonexistent: out of memory";	/* nothing is read from the host */
		return;
	}
	sysfs_root_dir = root_copy;
	if (!registered++)
		atexit(root_free);	/* freed at exit: memcheck sees nothing left */
}

const char *sysfs_root(void)
{
	return sysfs_root_dir;
}

pp_status sysfs_root_check(const char **why)
{
	struct stat st;
	size_t len = strlen(sysfs_root_dir);
	char *sys;
	int ok;

	*why = NULL;
	if (!len)
		return PP_OK;
	if (stat(sysfs_root_dir, &st) != 0) {
		*why = errno == ENOENT || errno == ENOTDIR ? "does not exist" : strerror(errno);
		return PP_ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		*why = "is not a directory";
		return PP_ENOENT;
	}
	if (!(sys = malloc(len + sizeof("/sys"))))
		return PP_ENOMEM;
	memcpy(sys, sysfs_root_dir, len);
	memcpy(sys + len, "/sys", sizeof("/sys"));
	ok = stat(sys, &st) == 0 && S_ISDIR(st.st_mode);
	free(sys);
	*why = ok ? NULL : "has no sys/ directory";
	return ok ? PP_OK : PP_ENOENT;
}

static pp_status errno_status(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return PP_ENOENT;
	case EACCES:
	case EPERM:
		return PP_EACCES;
	case ENOMEM:
		return PP_ENOMEM;
	case EMFILE:
	case ENFILE:
		return PP_EMFILE;
	case ENAMETOOLONG:
		return PP_ERANGE;
	case EISDIR:	/* a directory, a FIFO or device with nothing to read: not a value */
	case EAGAIN:
		return PP_EINVAL;
	default:
		return PP_EIO;
	}
}

/* sysfs_pathf(buf, len, "%s", path) without formatting: every file read and directory
 * listing goes through here (topo.c reads four files a CPU on each -a run). */
static pp_status root_path(char *buf, size_t len, const char *path)
{
	size_t nroot = strlen(sysfs_root_dir), npath = strlen(path);

	if (npath >= PATH_MAX)
		return PP_ERANGE;
	if (path[0] != '/')
		return PP_EINVAL;
	if (nroot + npath >= len || nroot + npath >= PATH_MAX)
		return PP_ERANGE;
	memcpy(buf, sysfs_root_dir, nroot);
	memcpy(buf + nroot, path, npath + 1);
	return PP_OK;
}

pp_status sysfs_boot_id(char *buf, size_t len)
{
	size_t n;

	/* read once a run: the cache of counter probes asks for it once a PMU */
	if (!boot_memo.done) {
		boot_memo.done = 1;
		boot_memo.st = sysfs_read_str("/proc/sys/kernel/random/boot_id", boot_memo.id,
					      sizeof boot_memo.id);
	}
	if (boot_memo.st != PP_OK)
		return boot_memo.st;
	if ((n = strlen(boot_memo.id)) >= len)
		return PP_ERANGE;
	memcpy(buf, boot_memo.id, n + 1);
	return PP_OK;
}

pp_status sysfs_pathf(char *buf, size_t len, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof rel, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof rel)
		return PP_ERANGE;
	return root_path(buf, len, rel);
}

/* Reads up to len - 1 bytes; PP_ERANGE when the file holds more. Sets *got. A read shorter
 * than asked ends it: in a regular file that is the end, and a sysfs attribute comes whole
 * from one show() (a read to see 0 would be one system call more a file). */
static pp_status read_fd_bounded(int fd, char *buf, size_t len, size_t *got)
{
	size_t n = 0;
	char extra;
	ssize_t r;

	while (n < len - 1) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno_status(errno);
		n += (size_t)r;
		if (r == 0 || n < len - 1)
			break;
	}
	if (n == len - 1) {
		do
			r = read(fd, &extra, 1);
		while (r < 0 && errno == EINTR);
		if (r > 0)
			return PP_ERANGE;
	}
	buf[n] = '\0';
	*got = n;
	return PP_OK;
}

/* Opens a file under the root to read its value. O_NONBLOCK, and the bounded reads after, keep
 * a FIFO or device in a fixture from blocking or streaming forever; a directory fails its read
 * (EISDIR). Neither needs an fstat, one system call less a file. */
static pp_status open_value(const char *path, int *fd_out)
{
	char full[PATH_MAX + 1];
	pp_status st;
	int fd;

	if ((st = root_path(full, sizeof full, path)) != PP_OK)
		return st;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno_status(errno);
	*fd_out = fd;
	return PP_OK;
}

pp_status sysfs_read_str(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	pp_status st;
	int fd;

	if (!path || !buf || len == 0)
		return PP_EINVAL;
	buf[0] = '\0';
	if ((st = open_value(path, &fd)) != PP_OK)
		return st;
	st = read_fd_bounded(fd, buf, len, &n);
	close(fd);
	if (st != PP_OK) {
		buf[0] = '\0';
		return st;
	}
	if (strlen(buf) != n) {		/* a NUL byte inside: not text */
		buf[0] = '\0';
		return PP_EINVAL;
	}
	while (n > 0 && ascii_isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return PP_OK;
}

pp_status sysfs_fopen(const char *path, FILE **out)
{
	pp_status st;
	FILE *f;
	int fd;

	*out = NULL;
	if ((st = open_value(path, &fd)) != PP_OK)
		return st;
	f = fdopen(fd, "r");
	if (!f) {
		st = errno_status(errno);
		close(fd);
		return st;
	}
	*out = f;
	return PP_OK;
}

int sysfs_parse_decimal(const char *w, long long *v)
{
	char *end;
	long long x;

	if (!ascii_isdigit((unsigned char)w[*w == '-']))	/* no space, no '+' first */
		return -1;
	errno = 0;
	x = strtoll(w, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

pp_status sysfs_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v;
	int base = 10;
	char *end;

	if (!s)
		return PP_EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
		if (!ascii_isxdigit((unsigned char)*s))
			return PP_EINVAL;
	} else if (!ascii_isdigit((unsigned char)*s)) {
		return PP_EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, base);	/* s starts with a digit: no sign, no space */
	if (errno == ERANGE)
		return PP_ERANGE;
	while (ascii_isspace((unsigned char)*end))
		end++;
	if (*end)
		return PP_EINVAL;
	*out = v;
	return PP_OK;
}

pp_status sysfs_parse_ll(const char *s, long long *out)
{
	uint64_t v;
	pp_status st;
	int neg = 0;

	if (!s)
		return PP_EINVAL;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	if ((st = sysfs_parse_u64(s, &v)) != PP_OK)
		return st;
	if (v > (uint64_t)LLONG_MAX + (uint64_t)neg)
		return PP_ERANGE;
	if (neg)
		*out = v == (uint64_t)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
	else
		*out = (long long)v;
	return PP_OK;
}

pp_status sysfs_read_ll(const char *path, long long *out)
{
	char buf[64];
	pp_status st;

	if (!out)
		return PP_EINVAL;
	if ((st = sysfs_read_str(path, buf, sizeof buf)) != PP_OK)
		return st;
	return sysfs_parse_ll(buf, out);
}

int sysfs_name_ok(const char *name)
{
	size_t len;

	if (!name)
		return 0;
	for (len = 0; len < SYSFS_NAME_MAX && name[len]; len++)
		if (name[len] == '/')
			return 0;
	return len > 0 && len < SYSFS_NAME_MAX && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

void sysfs_names_free(char **names)
{
	free(names);	/* the names are in its one allocation */
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

pp_status sysfs_list_dir(const char *path, char ***names, size_t *n)
{
	/* the names gather in a pool, and the result is one allocation: the pointers, then the
	 * names (sysfs_names_free frees it whole) */
	char full[PATH_MAX + 1], *pool = NULL, *block, *text, **v;
	size_t cnt = 0, used = 0, pcap = 0;
	pp_status st = PP_OK;
	struct dirent *de;
	DIR *d;

	*names = NULL;
	*n = 0;
	if ((st = root_path(full, sizeof full, path)) != PP_OK)
		return st;
	if (!(d = opendir(full)))
		return errno_status(errno);
	while (st == PP_OK) {
		errno = 0;
		if (!(de = readdir(d))) {
			if (errno)
				st = errno_status(errno);
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (cnt >= SYSFS_DIR_MAX) {
			st = PP_ERANGE;
		} else if (strbuf_put(&pool, &used, &pcap, de->d_name) != 0) {
			st = PP_ENOMEM;
		} else {
			used++;		/* past its NUL: the pool holds the names back to back */
			cnt++;
		}
	}
	closedir(d);
	if (st == PP_OK && cnt) {
		if (!(block = malloc(cnt * sizeof(char *) + used))) {
			st = PP_ENOMEM;
		} else {
			v = (char **)(void *)block;
			text = block + cnt * sizeof(char *);
			memcpy(text, pool, used);
			for (size_t i = 0; i < cnt; i++, text += strlen(text) + 1)
				v[i] = text;
			qsort(v, cnt, sizeof *v, cmp_name);
			*names = v;
		}
	}
	free(pool);
	if (st != PP_OK)
		return st;
	*n = cnt;
	return PP_OK;
}

/* Reads a cpu number (decimal digits only), saturating at INT_MAX (a number past the array
 * is the caller's range error, not an overflow); advances *sp. */
static pp_status parse_cpu_number(const char **sp, int *out)
{
	const char *s = *sp;
	long long v = 0;

	if (!ascii_isdigit((unsigned char)*s))
		return PP_EINVAL;
	for (; ascii_isdigit((unsigned char)*s); s++)
		if (v <= INT_MAX)
			v = v * 10 + (*s - '0');
	*out = v > INT_MAX ? INT_MAX : (int)v;
	*sp = s;
	return PP_OK;
}

pp_status sysfs_walk_ranges(const char *s, pp_status (*num)(const char **sp, int *out),
			    pp_status (*each)(void *arg, int lo, int hi), void *arg)
{
	pp_status st;
	int a, b;

	for (;;) {
		if ((st = num(&s, &a)) != PP_OK)
			return st;
		b = a;
		if (*s == '-') {
			s++;
			if ((st = num(&s, &b)) != PP_OK)
				return st;
			if (b < a)
				return PP_EINVAL;
		}
		if ((st = each(arg, a, b)) != PP_OK)
			return st;
		if (*s != ',')
			break;
		s++;
	}
	while (ascii_isspace((unsigned char)*s))
		s++;
	return *s ? PP_EINVAL : PP_OK;
}

/* What mark_range marks: seen[] for each cpu; over (-1 before), the lowest cpu at or above
 * SYSFS_MAX_CPUS, which is left unmarked; top (0 before), one past the highest cpu marked,
 * so that the caller scans seen[] no further (a cpus file names a few CPUs of the 1024). */
struct marks {
	unsigned char *seen;
	int over, top;
};

static pp_status mark_range(void *arg, int a, int b)
{
	struct marks *m = arg;
	int c, lo;

	for (c = a; c <= b && c < SYSFS_MAX_CPUS; c++)
		m->seen[c] = 1;
	if (c > a && c > m->top)	/* something marked, up to c - 1 */
		m->top = c;
	lo = a > SYSFS_MAX_CPUS ? a : SYSFS_MAX_CPUS;
	if (b >= SYSFS_MAX_CPUS && (m->over < 0 || lo < m->over))
		m->over = lo;
	return PP_OK;
}

/* Marks the cpus of the kernel's cpulist format (cpumap_print_to_pagebuf with list = true)
 * into m. The whole text is checked before a range error is returned, so a malformed list is
 * PP_EINVAL whatever numbers it holds. */
static pp_status mark_cpulist(const char *s, struct marks *m)
{
	pp_status st = sysfs_walk_ranges(s, parse_cpu_number, mark_range, m);

	if (st != PP_OK)
		return st;
	return m->over >= 0 ? PP_ERANGE : PP_OK;
}

pp_status sysfs_parse_cpulist_over(const char *s, int **cpus, int *n, int *over)
{
	unsigned char seen[SYSFS_MAX_CPUS];
	struct marks m = { seen, -1, 0 };	/* seen[m.top..] are not set */
	int i, count = 0, *v;
	pp_status st;

	if (!s || !cpus || !n)
		return PP_EINVAL;
	*cpus = NULL;
	*n = 0;
	if (over)
		*over = -1;
	while (ascii_isspace((unsigned char)*s))
		s++;
	if (!*s)
		return PP_OK;	/* an empty mask: no cpus */
	memset(seen, 0, sizeof seen);
	st = mark_cpulist(s, &m);
	if (st != PP_OK && st != PP_ERANGE)
		return st;
	for (i = 0; i < m.top; i++)
		count += seen[i];
	if (!(v = malloc(((size_t)count + 1) * sizeof *v)))
		return PP_ENOMEM;
	for (i = 0, count = 0; i < m.top; i++)
		if (seen[i])
			v[count++] = i;
	*cpus = v;
	*n = count;
	if (over)
		*over = m.over;
	return st;
}

void sysfs_format_cpulist(const int *cpus, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int k = 0; k < n && off < len; k++) {
		int lo = cpus[k];

		while (k + 1 < n && cpus[k + 1] == cpus[k] + 1)
			k++;
		off += (size_t)snprintf(buf + off, len - off, off ? ",%d" : "%d", lo);
		if (cpus[k] != lo && off < len)
			off += (size_t)snprintf(buf + off, len - off, "-%d", cpus[k]);
	}
}

pp_status sysfs_parse_cpulist(const char *s, int **cpus, int *n)
{
	pp_status st = sysfs_parse_cpulist_over(s, cpus, n, NULL);

	if (st == PP_ERANGE) {
		free(*cpus);
		*cpus = NULL;
		*n = 0;
	}
	return st;
}

pp_status sysfs_read_cpulist(const char *path, int **cpus, int *n)
{
	char buf[SYSFS_FILE_MAX];
	pp_status st;

	*cpus = NULL;
	*n = 0;
	if ((st = sysfs_read_str(path, buf, sizeof buf)) != PP_OK)
		return st;
	return sysfs_parse_cpulist(buf, cpus, n);
}

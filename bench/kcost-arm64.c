/* SPDX-License-Identifier: Apache-2.0 */
/* kcost-arm64.c: what single operations cost the arm64 guest's kernel, for bench/arm64 (where
 * a run's kernel instructions go beyond the floor's). It counts its own kernel
 * instructions (a perf_event_open counter with exclude_user) around each operation and prints
 * the fewest of 7 tries, less what reading the counter costs, one "kcost NAME N" line each:
 * the first touch of a 64 KiB window of a file's mapping (the kernel's fault-around maps that
 * much at a time), a touch of a window already mapped, an anonymous page, reading boot_id, a
 * sysfs attribute and a small tmpfs file (open, read, close), listing the PMU directory, a
 * failed open of a PMU's "cpus", access(), sigaction() and getrlimit().
 *   kcost-arm64 SYSFS_FILE FILE
 * SYSFS_FILE: a sysfs attribute (a PMU's type); FILE: a file of at least 448 KiB in the page
 * cache (pmuprof itself), whose windows 1 to 6 are touched once each. */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TRIES 7
#define WINDOW (64 << 10)

static int counter = -1;
static const char *sysfs_file, *file;
static char buf[4096];

static uint64_t kernel_insns(void)
{
	uint64_t v = 0;

	return read(counter, &v, sizeof(v)) == (ssize_t)sizeof(v) ? v : 0;
}

/* open, read once (or until the end with getdents64 for a directory), close */
static void slurp(const char *path, int dir)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | (dir ? O_DIRECTORY : 0));

	if (fd < 0)
		return;
	if (dir)
		while (syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0)
			;
	else if (read(fd, buf, sizeof(buf)) < 0)
		buf[0] = 0;
	close(fd);
}

static void op_none(void)
{
}

static void op_boot_id(void)
{
	slurp("/proc/sys/kernel/random/boot_id", 0);
}

static void op_sysfs(void)
{
	slurp(sysfs_file, 0);
}

static void op_tmpfs(void)
{
	slurp("/tmp/kcost-small", 0);
}

static void op_devices(void)
{
	slurp("/sys/bus/event_source/devices", 1);
}

/* a failed open of a PMU's "cpus": what discovery paid for each of the kernel's own PMUs */
static void op_enoent(void)
{
	slurp("/sys/bus/event_source/devices/software/cpus", 0);
}

static void op_access(void)
{
	if (access(file, X_OK) != 0)
		buf[0] = 0;
}

static void op_sigaction(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR2, &sa, &old);
}

static void op_getrlimit(void)
{
	struct rlimit rl;

	getrlimit(RLIMIT_NOFILE, &rl);
}

/* the fewest kernel instructions of TRIES runs of op */
static uint64_t fewest(void (*op)(void))
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < TRIES; i++) {
		uint64_t t0 = kernel_insns();

		op();
		uint64_t t = kernel_insns() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

static void print(const char *name, uint64_t n, uint64_t overhead)
{
	printf("kcost %s %llu\n", name, (unsigned long long)(n > overhead ? n - overhead : 0));
}

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	uint64_t overhead, first = UINT64_MAX, again = UINT64_MAX, anon = UINT64_MAX;
	volatile char *m, *z;
	struct stat st;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: kcost-arm64 SYSFS_FILE FILE\n");
		return 2;
	}
	sysfs_file = argv[1];
	file = argv[2];
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_user = 1;
	a.exclude_hv = 1;
	if ((counter = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0)) < 0) {
		perror("kcost-arm64: perf_event_open");
		return 1;
	}
	if ((fd = open("/tmp/kcost-small", O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 ||
	    write(fd, "6a1c2b9e-0000-4000-8000-000000000001 54 bytes of text.\n", 54) != 54 ||
	    close(fd) != 0) {
		perror("kcost-arm64: /tmp/kcost-small");
		return 1;
	}
	overhead = fewest(op_none);
	print("boot_id", fewest(op_boot_id), overhead);
	print("sysfs_attr", fewest(op_sysfs), overhead);
	print("tmpfs_small_file", fewest(op_tmpfs), overhead);
	print("devices_dir", fewest(op_devices), overhead);
	print("sysfs_enoent", fewest(op_enoent), overhead);
	print("access", fewest(op_access), overhead);
	print("sigaction", fewest(op_sigaction), overhead);
	print("getrlimit", fewest(op_getrlimit), overhead);
	/* a window is faulted in once: the fewest over windows 1-6 (0 holds the file's start,
	 * which the loader of this program does not read: it is another file) */
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st) != 0 ||
	    st.st_size < 7 * WINDOW ||
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED ||
	    (z = mmap(NULL, TRIES << 12, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0)) == MAP_FAILED) {
		fprintf(stderr, "kcost-arm64: %s: cannot map 7 windows of it\n", file);
		return 1;
	}
	for (int w = 1; w < 7; w++) {
		uint64_t t0 = kernel_insns(), t1, t2;

		buf[w] = m[(size_t)w * WINDOW];
		t1 = kernel_insns();
		buf[w] ^= m[(size_t)w * WINDOW + 12288];
		t2 = kernel_insns();
		if (t1 - t0 < first)
			first = t1 - t0;
		if (t2 - t1 < again)
			again = t2 - t1;
	}
	for (int i = 0; i < TRIES; i++) {
		uint64_t t0 = kernel_insns(), t;

		z[(size_t)i << 12] = 1;
		t = kernel_insns() - t0;
		if (t < anon)
			anon = t;
	}
	print("file_window_first_touch", first, overhead);
	print("file_window_mapped", again, overhead);
	print("anon_page", anon, overhead);
	unlink("/tmp/kcost-small");
	return 0;
}

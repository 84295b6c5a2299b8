/* SPDX-License-Identifier: Apache-2.0 */
/* test_serve.c: pmuprof serve's pure parts: the format an Accept header chooses, label
 * escaping, the exposition text of both formats, the web config's subset and its bcrypt
 * check, and a scrape of made-up counters on a two-core-type machine (labels per core type
 * and per CPU, values that never go back, a reopened counter's carry). */
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "tap.h"

static const struct {
	int line;
	const char *accept;
	enum serve_format want;
} accept_rows[] = {
	{ __LINE__, NULL, SERVE_PROMETHEUS },
	{ __LINE__, "", SERVE_PROMETHEUS },
	{ __LINE__, "text/plain", SERVE_PROMETHEUS },
	{ __LINE__, "*/*", SERVE_PROMETHEUS },
	{ __LINE__, "application/openmetrics-text; version=1.0.0", SERVE_OPENMETRICS },
	{ __LINE__, "application/openmetrics-text;q=0", SERVE_PROMETHEUS },
	{ __LINE__, "text/plain;q=0.5, application/openmetrics-text;q=0.9", SERVE_OPENMETRICS },
	/* Prometheus 2.42's own scrape header */
	{ __LINE__, "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
		    "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
	  SERVE_OPENMETRICS },
	{ __LINE__, "Application/OpenMetrics-Text", SERVE_OPENMETRICS },
};

static void test_accept(void)
{
	char buf[128];

	for (size_t k = 0; k < sizeof(accept_rows) / sizeof(accept_rows[0]); k++)
		TAP_EQ_INT(serve_format_of(accept_rows[k].accept), accept_rows[k].want,
			   "line %d: Accept '%s'", accept_rows[k].line,
			   tap_str(accept_rows[k].accept));
	serve_escape(buf, sizeof(buf), "a\"b\\c\nd");
	TAP_EQ_STR(buf, "a\\\"b\\\\c\\nd", "a label value is escaped");
	serve_labels(buf, sizeof(buf), "cpu_cycles", "armv8_pmuv3_0", "neoverse-n1", "cpu", 3);
	TAP_EQ_STR(buf, "event=\"cpu_cycles\",pmu=\"armv8_pmuv3_0\",core=\"neoverse-n1\","
		   "cpu=\"3\"", "labels with a unit");
}

static const char prom_want[] =
	"# HELP pmuprof_events_total Events counted system-wide, scaled by running time where "
	"multiplexed; never decreasing.\n"
	"# TYPE pmuprof_events_total counter\n"
	"pmuprof_events_total{event=\"x\"} 1500\n"
	"pmuprof_events_total{event=\"y\"} 2.5\n"
	"# HELP pmuprof_event_enabled_seconds_total Time the counters of the series were "
	"enabled, added over them.\n"
	"# TYPE pmuprof_event_enabled_seconds_total counter\n"
	"pmuprof_event_enabled_seconds_total{event=\"x\"} 2.000000001\n"
	"pmuprof_event_enabled_seconds_total{event=\"y\"} 0.000000000\n";

static void test_expo(void)
{
	struct serve_sample s[2] = { { "event=\"x\"", 1500, 2000000001ull, 1000000000ull },
				     { "event=\"y\"", 2.5, 0, 0 } };
	struct serve_samples ss = { s, 2, 2 };
	struct serve_facts f = { .version = "9.9", .plan_runs = 2, .plan_known = 1,
				 .counters = 5, .counters_open = 4 };
	char *buf = NULL;
	size_t len = 0;

	if (!tap_ok(serve_expo(&ss, &f, SERVE_PROMETHEUS, &buf, &len) == 0, "prometheus text"))
		return;
	TAP_EQ_INT(strncmp(buf, prom_want, sizeof(prom_want) - 1), 0,
		   "prometheus: counters, integers as integers, seconds to the ns");
	tap_ok(strstr(buf, "pmuprof_event_running_seconds_total{event=\"x\"} 1.000000000\n") != NULL,
	       "prometheus: running seconds");
	tap_ok(strstr(buf, "# TYPE pmuprof_build_info gauge\npmuprof_build_info{version=\"9.9\"} 1\n")
	       != NULL, "prometheus: build info is a gauge");
	tap_ok(strstr(buf, "pmuprof_plan_runs{known=\"true\"} 2\n") != NULL, "the plan's runs");
	tap_ok(strstr(buf, "pmuprof_counters{state=\"refused\"} 1\n") != NULL, "refused counters");
	tap_ok(!strstr(buf, "# EOF"), "prometheus: no EOF");
	TAP_EQ_INT(len, strlen(buf), "the length");
	free(buf);
	if (!tap_ok(serve_expo(&ss, &f, SERVE_OPENMETRICS, &buf, &len) == 0, "openmetrics"))
		return;
	tap_ok(!strncmp(buf, "# TYPE pmuprof_events counter\n# HELP pmuprof_events ", 52),
	       "openmetrics: the family has no _total");
	tap_ok(strstr(buf, "# TYPE pmuprof_event_enabled_seconds counter\n# UNIT "
			   "pmuprof_event_enabled_seconds seconds\n") != NULL, "openmetrics: unit");
	tap_ok(strstr(buf, "\npmuprof_events_total{event=\"x\"} 1500\n") != NULL,
	       "openmetrics: samples keep _total");
	tap_ok(strstr(buf, "# TYPE pmuprof_build info\n") != NULL, "openmetrics: info type");
	TAP_EQ_STR(buf + len - 6, "# EOF\n", "openmetrics ends with # EOF");
	free(buf);
}

static const struct {
	int line;
	const char *text;
	const char *err;	/* a piece of the message; NULL: parses */
} web_rows[] = {
	{ __LINE__, "", NULL },
	{ __LINE__, "# nothing\n---\n", NULL },
	{ __LINE__, "tls_server_config:\n  cert_file: c.pem\n  key_file: /k.pem\n", NULL },
	{ __LINE__, "tls_server_config:\n  cert_file: 'a b.pem'  # quoted\n  key_file: \"k\"\n",
	  NULL },
	{ __LINE__, "basic_auth_users:\n  alice: $2b$10$abc\n  bob: '$2y$04$x'\n", NULL },
	{ __LINE__, "tls_server_config:\n  cert_file: c.pem\n", "both cert_file and key_file" },
	{ __LINE__, "tls_server_config:\n  client_auth_type: RequireAndVerifyClientCert\n",
	  "client_auth_type is not supported" },
	{ __LINE__, "http_server_config:\n  http2: false\n", "'http_server_config' is not" },
	{ __LINE__, "basic_auth_users:\n  alice: secret\n", "not a bcrypt hash" },
	{ __LINE__, "basic_auth_users:\n  alice: 'x\n", "quote is not closed" },
	{ __LINE__, "  alice: $2b$x\n", "outside a section" },
	{ __LINE__, "basic_auth_users: alice\n", "takes indented entries" },
	{ __LINE__, "basic_auth_users:\n\talice: $2b$x\n", "indent with spaces" },
	{ __LINE__, "basic_auth_users:\n  alice\n", "line 2: expected 'key: value'" },
};

static void test_webcfg(void)
{
	struct serve_webcfg w;
	char why[256];

	for (size_t k = 0; k < sizeof(web_rows) / sizeof(web_rows[0]); k++) {
		int rc = serve_webcfg_parse(web_rows[k].text, "/etc/p", &w, why, sizeof(why));

		if (!web_rows[k].err)
			tap_ok(rc == 0, "line %d: parses (%s)", web_rows[k].line, rc ? why : "");
		else if (tap_ok(rc != 0, "line %d: refused", web_rows[k].line))
			tap_ok(strstr(why, web_rows[k].err) != NULL, "line %d: says '%s': %s",
			       web_rows[k].line, web_rows[k].err, why);
		if (rc == 0)
			serve_webcfg_free(&w);
	}
	serve_webcfg_parse("tls_server_config:\n  cert_file: 'a b.pem'\n  key_file: /k\n"
			   "basic_auth_users:\n  bob: '$2y$04$x'\n", "/etc/p", &w, why, sizeof(why));
	TAP_EQ_STR(w.cert_file, "/etc/p/a b.pem", "a relative path is the file's directory's");
	TAP_EQ_STR(w.key_file, "/k", "an absolute path stays");
	TAP_EQ_INT(w.nusers, 1, "one user");
	TAP_EQ_STR(w.nusers ? w.users[0].hash : NULL, "$2y$04$x", "the quoted hash");
	serve_webcfg_free(&w);
}

static void test_check(void)
{
	char salt[CRYPT_GENSALT_OUTPUT_SIZE], text[256], why[128];
	struct crypt_data cd = { 0 };
	struct serve_webcfg w;
	const char *h;

	if (!crypt_gensalt_rn("$2b$", 4, NULL, 0, salt, sizeof(salt)) ||
	    !(h = crypt_r("s3cret", salt, &cd)) || h[0] != '$') {
		tap_skip("libcrypt makes no bcrypt hash here");
		return;
	}
	snprintf(text, sizeof(text), "basic_auth_users:\n  alice: %s\n", h);
	if (!tap_ok(serve_webcfg_parse(text, NULL, &w, why, sizeof(why)) == 0, "a real hash"))
		return;
	tap_ok(serve_webcfg_check(&w, "alice", "s3cret"), "the right password passes");
	tap_ok(!serve_webcfg_check(&w, "alice", "s3creT"), "a wrong one does not");
	tap_ok(!serve_webcfg_check(&w, "bob", "s3cret"), "nor another user");
	serve_webcfg_free(&w);
}

/* Two core types: PMU a on CPUs 0-1, PMU b on CPUs 2-3; row 0 split over them (parts 0 and
 * 1, one counter per CPU), row 1 a software event on every CPU. */
static int cpus_a[] = { 0, 1 }, cpus_b[] = { 2, 3 };
static struct sysfs_pmu pmus[2];
static struct stat_part parts[2] = { { .ev = 0, .pmu_ix = 0 }, { .ev = 0, .pmu_ix = 1 } };
static struct stat_counter ctr[8];
static struct stat_event rows[2];

static void machine(struct serve_count *sc, enum serve_by by)
{
	struct topo t = { 0 };

	snprintf(pmus[0].name, sizeof(pmus[0].name), "pmu_a");
	snprintf(pmus[1].name, sizeof(pmus[1].name), "pmu_b");
	pmus[0].cpus = cpus_a;
	pmus[1].cpus = cpus_b;
	pmus[0].ncpus = pmus[1].ncpus = 2;
	rows[0].sel.ev.name = "cycles";
	rows[0].sel.ev.pmu = "cpu";
	if (!rows[1].sel.ev.name) {
		rows[1].sel.ev.name = "task-clock";
		rows[1].sel.ev.pmu = "software";
	}
	for (int k = 0; k < 8; k++) {
		int cpu = k % 4, soft = k >= 4;

		ctr[k] = (struct stat_counter){ .ev = (uint32_t)soft, .part = soft ? -1 : cpu / 2,
						.pmu_ix = soft ? -1 : cpu / 2, .cpu = cpu,
						.cpu_wide = 1, .opened = 1, .fd = -1, .leader = -1,
						.group = -1, .run = -1 };
		ctr[k].rd = (struct counter_reading){ 100u * (k + 1), 1000, soft ? 1000 : 500 };
	}
	*sc = (struct serve_count){ .rows = rows, .nrows = 2, .by = by,
				    .cs = { parts, 2, ctr, 8, 2, pmus, 2 } };
	serve_count_types(sc, &t, "mach");
}

static const struct serve_sample *find(const struct serve_samples *s, const char *labels)
{
	for (size_t k = 0; k < s->n; k++)
		if (!strcmp(s->s[k].labels, labels))
			return &s->s[k];
	return NULL;
}

static void test_scrape(void)
{
	struct serve_count sc;
	struct serve_samples out = { 0 };
	const struct serve_sample *x;
	static const char a[] = "event=\"cycles\",pmu=\"pmu_a\",core=\"pmu_a\"";
	static const char b[] = "event=\"cycles\",pmu=\"pmu_b\",core=\"pmu_b\"";

	machine(&sc, SERVE_BY_TYPE);
	if (!tap_ok(serve_scrape(&sc, &out) == 0, "a scrape"))
		return;
	TAP_EQ_INT(out.n, 4, "two events on two core types");
	x = find(&out, a);
	/* CPUs 0 and 1 counted 100 and 200 for half their time: 600 */
	tap_ok(x && x->value == 600 && x->enabled == 2000 && x->running == 1000,
	       "core type a: each CPU scaled, then added");
	x = find(&out, b);
	tap_ok(x && x->value == 1400, "core type b: (300 + 400) x 2");
	x = find(&out, "event=\"task-clock\",pmu=\"software\",core=\"pmu_b\"");
	tap_ok(x && x->value == 700 + 800, "a software event per core type: CPUs 2 and 3");
	/* multiplexing shifts: the estimate of a would dip to 450; the series stays */
	ctr[0].rd.running = 1000;
	ctr[0].rd.value = 150;
	serve_scrape(&sc, &out);
	x = find(&out, a);
	tap_ok(x && x->value == 600, "a dip of the estimate does not go out");
	/* a reopened counter starts again from 0: its carry keeps the series going */
	sc.carry[1] = (struct counter_reading){ 200, 1000, 500 };
	ctr[1].rd = (struct counter_reading){ 400, 1000, 1000 };
	serve_scrape(&sc, &out);
	x = find(&out, a);
	tap_ok(x && x->value == 150 + 600 * 2000.0 / 1500, "the carry adds to the new open");
	serve_samples_free(&out);
	serve_count_free(&sc);
	machine(&sc, SERVE_BY_CPU);
	serve_scrape(&sc, &out);
	TAP_EQ_INT(out.n, 8, "per CPU: two events on four CPUs");
	x = find(&out, "event=\"cycles\",pmu=\"pmu_b\",core=\"pmu_b\",cpu=\"3\"");
	tap_ok(x && x->value == 800, "per CPU: CPU 3's scaled count, on b");
	serve_samples_free(&out);
	serve_count_free(&sc);
	/* the same event twice (-e and a metric group): one series, the first row's */
	rows[1].sel.ev.name = "cycles";
	rows[1].sel.ev.pmu = "cpu";
	machine(&sc, SERVE_BY_TYPE);
	serve_scrape(&sc, &out);
	TAP_EQ_INT(out.n, 2, "an event given twice makes one series per core type");
	x = find(&out, a);
	tap_ok(x && x->value == 600, "the first row's");
	serve_samples_free(&out);
	serve_count_free(&sc);
}

/* The CPUs that came back online: only those with counters, and only once each. */
static void test_hotplug(void)
{
	struct serve_count sc;
	unsigned char back[4], all[4] = { 1, 1, 1, 1 }, no2[4] = { 1, 1, 0, 1 };
	unsigned char no23[4] = { 1, 1, 0, 0 };

	machine(&sc, SERVE_BY_CPU);
	ctr[3].cpu = ctr[7].cpu = 2;	/* CPU 3 was offline at the start: no counter on it */
	if (!tap_ok(serve_hotplug_init(&sc, NULL, 0) == 0, "hotplug state"))
		return;
	TAP_EQ_INT(sc.online[3], 0, "a CPU with no counters has no state");
	TAP_EQ_INT(serve_hotplug_back(&sc, all, 4, back), 0, "nothing came back");
	TAP_EQ_INT(serve_hotplug_back(&sc, no2, 4, back), 0, "CPU 2 went offline");
	TAP_EQ_INT(sc.online[2], 2, "CPU 2 is marked offline");
	TAP_EQ_INT(serve_hotplug_back(&sc, no23, 4, back), 0, "still offline");
	TAP_EQ_INT(serve_hotplug_back(&sc, all, 4, back), 1, "CPU 2 came back");
	tap_ok(back[2] && !back[0] && !back[1] && !back[3], "CPU 2 alone is reopened");
	TAP_EQ_INT(serve_hotplug_back(&sc, all, 4, back), 0, "once");
	TAP_EQ_INT(serve_hotplug_back(&sc, no2, 2, back), 0, "a short list: CPUs past it "
		   "are offline");
	TAP_EQ_INT(sc.online[2], 2, "CPU 2 past the list is offline");
	serve_count_free(&sc);
	ctr[3].cpu = 3;
	ctr[7].cpu = 3;
}

/* A CPU offline when serve starts has counters (on a present CPU) that wait for it: it
 * comes back the first time it is seen online. */
static void test_hotplug_offline_at_start(void)
{
	struct serve_count sc;
	unsigned char back[4], all[4] = { 1, 1, 1, 1 }, no1[4] = { 1, 0, 1, 1 };

	machine(&sc, SERVE_BY_CPU);
	if (!tap_ok(serve_hotplug_init(&sc, no1, 4) == 0, "hotplug state, CPU 1 offline"))
		return;
	TAP_EQ_INT(sc.online[1], 2, "CPU 1, offline at the start, waits to be opened");
	TAP_EQ_INT(sc.online[0], 1, "CPU 0 is online");
	TAP_EQ_INT(serve_hotplug_back(&sc, no1, 4, back), 0, "still offline");
	TAP_EQ_INT(serve_hotplug_back(&sc, all, 4, back), 1, "CPU 1 came online");
	tap_ok(back[1] && !back[0] && !back[2] && !back[3], "CPU 1 alone is opened");
	TAP_EQ_INT(serve_hotplug_back(&sc, all, 4, back), 0, "once");
	serve_count_free(&sc);
	machine(&sc, SERVE_BY_CPU);
	if (tap_ok(serve_hotplug_init(&sc, no1, 1) == 0, "a short online list"))
		TAP_EQ_INT(sc.online[3], 2, "a CPU past the list is offline");
	serve_count_free(&sc);
}

int main(void)
{
	test_accept();
	test_expo();
	test_webcfg();
	test_check();
	test_scrape();
	test_hotplug();
	test_hotplug_offline_at_start();
	return tap_done();
}

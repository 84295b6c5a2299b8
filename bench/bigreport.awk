# SPDX-License-Identifier: Apache-2.0
# bigreport.awk: a stat report (schema 1.5, as `pmuprof stat -r 3 -j` writes it) with n events,
# for timing `pmuprof report` and `pmuprof diff` on many events (bench/run).
#   awk -v n=100000 -v scale=1.0 -f bench/bigreport.awk > big.json
# Every 4th event is not counted and every 16th not supported, as on a host without the PMU the
# events name; each name is given twice (the k-th of a name is matched with the k-th), so the
# lookups by name of diff meet repeated names as well as distinct ones. scale multiplies the
# counts: 1.05 makes a report where each counted event rose by 5%.
BEGIN {
	if (!n) n = 1000
	if (!scale) scale = 1
	printf "{\"schema_version\":\"1.5\",\"pmuprof_version\":\"0.1.0\",\"command\":[\"./bench\"],"
	printf "\"host\":{\"kernel_release\":\"6.1.0\",\"machine\":\"aarch64\",\"cpu_model\":null,"
	printf "\"midr\":\"0x414fd0c1\",\"ncpus\":4},\"target\":null,\"system_wide\":false,"
	printf "\"aggregation\":\"global\",\"timeout_ms\":null,\"timed_out\":false,\"events\":[\n"
	for (k = 0; k < n; k++) {
		name = sprintf("raw_event_%06d", int(k / 2))
		st = k % 16 == 15 ? "not supported" : k % 4 == 3 ? "not counted" : "counted"
		v = (1000000 + (k % 1000) * 37) * scale
		printf "%s{\"name\":\"%s\",\"pmu\":\"armv8_pmuv3_0\",\"type\":8,\"config\":\"0x%x\",", \
			k ? ",\n" : "", name, k % 65536
		printf "\"config1\":\"0x0\",\"config2\":\"0x0\",\"exclude\":{\"user\":false,"
		printf "\"kernel\":false,\"hv\":false,\"host\":false,\"guest\":false},\"filter\":null,"
		printf "\"group\":null,\"status\":\"%s\",", st
		if (st != "counted") {
			printf "\"reason\":%s,\"value\":null,\"raw_value\":null,\"unit\":\"\",", \
				st == "not counted" ? "null" : "\"the PMU lacks this event\""
			printf "\"time_enabled_ns\":1000000,\"time_running_ns\":0,\"counted_pct\":null,"
			printf "\"scaled\":null,\"run\":null,\"split\":null,\"only_on\":null,"
			printf "\"runs\":[null,null,null],\"stats\":{\"n\":0,\"mean\":null,\"median\":null,"
			printf "\"stddev\":0,\"min\":null,\"max\":null,\"cv\":0,\"ci95_low\":0,\"ci95_high\":0,"
			printf "\"rse\":0,\"outliers\":[]},\"metric\":null,\"units\":null}"
			continue
		}
		printf "\"reason\":null,\"value\":%.1f,\"raw_value\":%d,\"unit\":\"\",", v, v
		printf "\"time_enabled_ns\":1000000,\"time_running_ns\":1000000,\"counted_pct\":100,"
		printf "\"scaled\":false,\"run\":null,\"split\":null,\"only_on\":null,"
		printf "\"runs\":[%d,%d,%d],", v * 0.99, v, v * 1.01
		printf "\"stats\":{\"n\":3,\"mean\":%.1f,\"median\":%.1f,\"stddev\":%.3f,", v, v, v * 0.01
		printf "\"min\":%.1f,\"max\":%.1f,\"cv\":0.01,\"ci95_low\":%.1f,\"ci95_high\":%.1f,", \
			v * 0.99, v * 1.01, v * 0.975, v * 1.025
		printf "\"rse\":0.0058,\"outliers\":[]},\"metric\":null,\"units\":null}"
	}
	printf "],\n\"time\":{\"wall_ns\":1000000,\"user_ns\":900000,\"system_ns\":100000,\"runs\":["
	for (r = 0; r < 3; r++)
		printf "%s{\"wall_ns\":1000000,\"user_ns\":900000,\"system_ns\":100000}", r ? "," : ""
	printf "]},\"repeat\":{\"runs\":3,\"requested\":3,\"warmup\":0,\"stopped\":null},"
	printf "\"mux\":{\"mode\":\"kernel\",\"runs\":1,\"runs_for_exact\":1,\"multiplexed\":false,"
	printf "\"scaling\":true},\"metrics_core\":null,\"metric_requests\":[],\"metrics\":[],"
	printf "\"topdown\":null,\"exit\":{\"status\":0,\"signal\":null,\"signal_name\":null,"
	printf "\"interrupted\":false}}\n"
}

/* fuzz_samples.c — libFuzzer target for the samples reader and analyses.
 *
 * Each input is read twice: as MemAxes hardware XML, and as a samples CSV
 * on a fixed node (2 NUMA nodes, 4 CPUs). A failure must come back as one
 * line naming the input ("fuzz.xml:LINE: ...", "fuzz.csv..."); what loads
 * goes through everything the explorer and the report compute (the
 * hardware aggregation, offenders, bins of every attribute, windows,
 * the clustering and its cuts, selections), whose results are checked
 * for consistency.
 *
 *   make fuzz [FUZZ_SECONDS=600]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mem/mem.h"
#include "samples/samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char node_xml[] =
	"<Hardware name=\"fuzz\"><NUMA id=\"0\"><Cache id=\"3\"><Cache id=\"2\"><Cache id=\"1\">"
	"<CPU id=\"0\"/><CPU id=\"2\"/></Cache></Cache></Cache></NUMA>"
	"<NUMA id=\"1\"><Cache id=\"3\"><Cache id=\"2\"><Cache id=\"1\">"
	"<CPU id=\"1\"/><CPU id=\"3\"/></Cache></Cache></Cache></NUMA></Hardware>";

static void
one_line(const struct err *e, const char *prefix)
{
	if (!e->msg[0] || strchr(e->msg, '\n') || strncmp(e->msg, prefix, strlen(prefix)) != 0)
		abort();
}

static void
analyse(const struct samples *s)
{
	struct mem *m;
	struct err e = { 0 };
	if (mem_create(s, &m, &e))
		abort();
	uint32_t n = samples_info(s)->n;
	struct mem_agg a;
	if (mem_agg_init(m, &a))
		abort();
	mem_aggregate(m, NULL, &a);
	if (a.samples != n || a.below_samples[0] + samples_info(s)->unmapped != n)
		abort();
	struct mem_offender *o;
	uint32_t no;
	for (int k = 0; k < 2; k++) {
		if (mem_offenders(m, (enum mem_offender_kind)k, NULL, &o, &no))
			abort();
		for (uint32_t i = 1; i < no; i++)
			if (o[i].cycles > o[i - 1].cycles)
				abort();
		free(o);
	}
	struct bitset sel;
	if (bitset_init(&sel, n))
		abort();
	struct mem_depth d;
	if (mem_depth_init(m, TOPO_PU, &d))
		abort();
	for (uint32_t at = 0; at < samples_attr_count(s); at++) {
		struct mem_bins b;
		mem_bins_for(m, at, 7, &b);
		uint64_t all[64], selc[64];
		if (b.n > 64)
			abort();
		mem_pick_range(m, at, samples_attr(s, at)->lo, samples_attr(s, at)->hi, &sel);
		mem_bin_counts(m, &b, NULL, &sel, all, selc);
		uint64_t sum = 0;
		for (uint32_t k = 0; k < b.n; k++) {
			sum += all[k];
			if (selc[k] > all[k])
				abort();
		}
		if (sum + samples_attr(s, at)->missing != n)
			abort();
		struct mem_window w[3];
		if (mem_windows(m, at, 3, MEM_IMBALANCE, &d, NULL, w))
			abort();
		struct mem_tree *t;
		if (mem_tree_build(m, at, NULL, 4, 2, MEM_LATENCY, &d, &t, &e))
			abort();
		struct mem_cluster c[3];
		uint32_t k = mem_tree_cut(t, 3, c);
		for (uint32_t i = 0; i < k; i++)
			if (c[i].end <= c[i].first || (i && c[i].first < c[i - 1].first))
				abort();
		if (k)
			mem_pick_order(t, c[0].first, c[0].end, &sel);
		mem_tree_destroy(t);
	}
	mem_depth_fini(&d);
	bitset_fini(&sel);
	mem_agg_fini(&a);
	mem_destroy(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topo *t = NULL;
	struct err e = { 0 };
	if (samples_parse_hardware("fuzz.xml", (const char *)data, size, &t, &e))
		one_line(&e, "fuzz.xml");
	topo_destroy(t);

	err_clear(&e);
	if (samples_parse_hardware("node.xml", node_xml, sizeof node_xml - 1, &t, &e))
		abort();
	struct samples *s;
	if (samples_create(t, &s, &e))
		abort();
	FILE *f = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	if (!f)
		abort();
	if (samples_read_csv(s, "fuzz.csv", f, &e))
		one_line(&e, "fuzz.csv");
	else
		analyse(s);
	fclose(f);
	samples_destroy(s);
	return 0;
}

/* test_topo.c — topologies from hwloc XML (the real exports in
 * ../shared/traces/hwloc), synthetic descriptions and clusters; rank
 * placement; aggregation of a per-rank metric over the objects. */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"
#include "topo/topo.h"

static struct topo *
load_xml(const char *path)
{
	struct topo *t = NULL;
	struct err e = { 0 };
	if (topo_load_xml(path, &t, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
	return t;
}

static struct topo *
load_synth(const char *desc)
{
	struct topo *t = NULL;
	struct err e = { 0 };
	if (topo_load_synthetic(desc, &t, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
	return t;
}

static void
expect_counts(const struct topo *t, uint32_t pkg, uint32_t numa, uint32_t l3, uint32_t core, uint32_t pu)
{
	assert_int_equal(topo_count(t, TOPO_MACHINE), 1);
	assert_int_equal(topo_count(t, TOPO_PACKAGE), pkg);
	assert_int_equal(topo_count(t, TOPO_NUMA), numa);
	assert_int_equal(topo_count(t, TOPO_L3), l3);
	assert_int_equal(topo_count(t, TOPO_CORE), core);
	assert_int_equal(topo_count(t, TOPO_PU), pu);
	uint32_t n;
	const struct topo_obj *o = topo_objs(t, &n);
	assert_int_equal(o[0].pu_count, pu);
	/* every object's PUs are the sum of its children's */
	const uint32_t *ch = topo_children(t);
	for (uint32_t i = 0; i < n; i++) {
		if (!o[i].n_children)
			continue;
		uint32_t sum = 0;
		for (uint32_t k = 0; k < o[i].n_children; k++) {
			const struct topo_obj *c = &o[ch[o[i].first_child + k]];
			assert_int_equal(c->parent, i);
			assert_int_equal(c->depth, o[i].depth + 1);
			sum += c->pu_count;
		}
		assert_int_equal(sum, o[i].pu_count);
	}
}

/* 2x Intel Xeon E5-2695 v4: 2 packages, 2 NUMA, 2 L3, 36 cores, 36 PUs */
static void
quartz(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "hwloc/cts1-quartz-smt1.xml");
	struct topo *t = load_xml(path);
	expect_counts(t, 2, 2, 2, 36, 36);
	/* machine > package > NUMA > L3 > core > PU */
	uint32_t n, npu;
	const struct topo_obj *o = topo_objs(t, &n);
	const uint32_t *pu = topo_pu_objs(t, &npu);
	uint32_t chain[6], k = 6;
	for (uint32_t x = pu[0]; x != TRACE_NONE; x = o[x].parent)
		chain[--k] = o[x].type;
	assert_int_equal(k, 0);
	const uint32_t want[6] = { TOPO_MACHINE, TOPO_PACKAGE, TOPO_NUMA, TOPO_L3, TOPO_CORE, TOPO_PU };
	assert_memory_equal(chain, want, sizeof want);
	topo_destroy(t);
}

/* 2x AMD EPYC 7401: 2 packages, 8 NUMA, 16 L3, 48 cores, 96 PUs */
static void
corona(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "hwloc/epyc-corona.xml");
	struct topo *t = load_xml(path);
	expect_counts(t, 2, 8, 16, 48, 96);
	topo_destroy(t);
}

static void
synthetic(void **state)
{
	(void)state;
	struct topo *t = load_synth("pack:2 numa:2 core:4 pu:2");
	expect_counts(t, 2, 4, 0, 16, 32);
	topo_destroy(t);
	struct topo *m = NULL;
	struct err e = { 0 };
	assert_int_equal(topo_load_machine(&m, &e), 0);
	assert_true(topo_count(m, TOPO_PU) >= 1);
	topo_destroy(m);
}

static void
bad_input(void **state)
{
	(void)state;
	struct topo *t = NULL;
	struct err e = { 0 };
	assert_int_equal(topo_load_xml("/nonexistent.xml", &t, &e), ERR_IO);
	assert_null(t);
	assert_non_null(strstr(e.msg, "/nonexistent.xml"));
	char path[1024];
	PROJECT_PATH(path, "Makefile");
	err_clear(&e);
	assert_int_equal(topo_load_xml(path, &t, &e), ERR_FORMAT);
	assert_null(t);
	err_clear(&e);
	assert_int_equal(topo_load_synthetic("pack:two", &t, &e), ERR_USAGE);
	assert_null(t);
	assert_non_null(strstr(e.msg, "not a synthetic topology"));
}

static void
cluster(void **state)
{
	(void)state;
	struct topo *node = load_synth("pack:1 core:2 pu:2");
	struct topo *c = NULL;
	struct err e = { 0 };
	const char *names[3] = { "a", NULL, "c" };
	assert_int_equal(topo_cluster(node, 3, names, &c, &e), 0);
	assert_int_equal(topo_count(c, TOPO_NODE), 3);
	assert_int_equal(topo_count(c, TOPO_CORE), 6);
	assert_int_equal(topo_count(c, TOPO_PU), 12);
	uint32_t n;
	const struct topo_obj *o = topo_objs(c, &n);
	const uint32_t *ch = topo_children(c);
	assert_int_equal(o[0].type, TOPO_CLUSTER);
	assert_int_equal(o[0].n_children, 3);
	assert_string_equal(topo_str(c, o[ch[0]].name), "a");
	assert_string_equal(topo_str(c, o[ch[1]].name), "node1");
	assert_int_equal(o[ch[2]].pu_first, 8);
	topo_destroy(c);
	topo_destroy(node);
}

static struct trace *
corpus(const char *name)
{
	char path[1024], rel[256];
	snprintf(rel, sizeof rel, "traces/corpus/%s/traces.otf2", name);
	PROJECT_PATH(path, rel);
	return tu_load(path);
}

/* Placement on the generated two-node trace (ranks 0-3 on node0, 4-7 on
 * node1, by its system tree): by system tree, block and round-robin. */
static void
placement(void **state)
{
	(void)state;
	struct trace *tr = corpus("gen-stencil-8-2nodes-delay");
	struct topo *node = load_synth("pack:2 core:2 pu:2");
	struct topo *c = NULL;
	struct err e = { 0 };
	const char *names[2] = { "node1", "node0" };    /* deliberately reversed */
	assert_int_equal(topo_cluster(node, 2, names, &c, &e), 0);
	uint32_t *pu = NULL;
	struct topo_place_opts o = { .how = PLACE_SYSTEM_TREE };
	assert_int_equal(topo_place(c, tr, &o, &pu, &e), 0);
	/* node0's ranks on the second node object (PUs 8..15), in core order:
	 * cores have 2 PUs, so rank 0 on PU 8, rank 1 on PU 10, ... */
	for (uint32_t r = 0; r < 4; r++) {
		assert_int_equal(pu[r], 8 + 2 * r);
		assert_int_equal(pu[4 + r], 2 * r);
	}
	free(pu);
	o = (struct topo_place_opts){ .how = PLACE_BLOCK, .ranks_per_node = 2 };
	assert_int_equal(topo_place(c, tr, &o, &pu, &e), 0);
	/* 0,1 node A; 2,3 node B; 4,5 node A (second round), ... */
	const uint32_t block[8] = { 0, 2, 8, 10, 4, 6, 12, 14 };
	assert_memory_equal(pu, block, sizeof block);
	free(pu);
	o = (struct topo_place_opts){ .how = PLACE_ROUND_ROBIN };
	assert_int_equal(topo_place(c, tr, &o, &pu, &e), 0);
	const uint32_t rr[8] = { 0, 8, 2, 10, 4, 12, 6, 14 };
	assert_memory_equal(pu, rr, sizeof rr);
	free(pu);
	const uint32_t bad[8] = { 0, 1, 2, 3, 4, 5, 6, 99 };
	o = (struct topo_place_opts){ .how = PLACE_EXPLICIT, .pu = bad, .n_pu = 8 };
	assert_int_equal(topo_place(c, tr, &o, &pu, &e), ERR_USAGE);
	assert_non_null(strstr(e.msg, "rank 7 placed on PU 99"));
	topo_destroy(c);
	topo_destroy(node);
	trace_destroy(tr);
}

/* Aggregation: total differential lateness per object on the two-node
 * trace with a 20 ms delay on rank 5 (node1): node1, rank 5's package
 * and core are the hottest objects; counts, means and maxima add up. */
static void
aggregation(void **state)
{
	(void)state;
	struct trace *tr = corpus("gen-stencil-8-2nodes-delay");
	struct analysis *a = NULL;
	struct err e = { 0 };
	assert_int_equal(analysis_run(tr, NULL, NULL, NULL, &a, &e), 0);
	uint32_t n_tl;
	trace_timelines(tr, &n_tl);
	double diff[8] = { 0 };
	for (uint32_t r = 0; r < n_tl; r++) {
		uint32_t first, count;
		analysis_timeline_lops(a, r, &first, &count);
		for (uint32_t l = first; l < first + count; l++)
			diff[r] += trace_seconds(tr, analysis_lop_diff(a, l));
	}
	struct topo *node = load_synth("pack:2 core:2 pu:1");
	struct topo *c = NULL;
	const char *names[2] = { "node0", "node1" };
	assert_int_equal(topo_cluster(node, 2, names, &c, &e), 0);
	uint32_t *pu = NULL;
	struct topo_place_opts o = { .how = PLACE_SYSTEM_TREE };
	assert_int_equal(topo_place(c, tr, &o, &pu, &e), 0);
	uint32_t n;
	const struct topo_obj *obj = topo_objs(c, &n);
	double *sum = calloc(n, sizeof *sum), *cnt = calloc(n, sizeof *cnt);
	double *max = calloc(n, sizeof *max), *mean = calloc(n, sizeof *mean);
	assert_int_equal(topo_aggregate(c, pu, n_tl, diff, AGG_SUM, sum), 0);
	assert_int_equal(topo_aggregate(c, pu, n_tl, NULL, AGG_COUNT, cnt), 0);
	assert_int_equal(topo_aggregate(c, pu, n_tl, diff, AGG_MAX, max), 0);
	assert_int_equal(topo_aggregate(c, pu, n_tl, diff, AGG_MEAN, mean), 0);
	assert_true(cnt[0] == 8);
	/* the hottest node, package and core hold rank 5 */
	const uint32_t *pu_obj = topo_pu_objs(c, NULL);
	uint32_t hot_core = obj[pu_obj[pu[5]]].parent, hot_pkg = obj[hot_core].parent;
	uint32_t hot_node = obj[obj[hot_pkg].parent].parent;
	for (uint32_t i = 0; i < n; i++) {
		if (obj[i].type == TOPO_NODE && i != hot_node)
			assert_true(sum[i] < sum[hot_node]);
		if (obj[i].type == TOPO_PACKAGE && i != hot_pkg)
			assert_true(sum[i] < sum[hot_pkg]);
		if (obj[i].type == TOPO_CORE && i != hot_core)
			assert_true(sum[i] < sum[hot_core]);
		if (cnt[i] > 0) {
			assert_true(max[i] <= sum[i] + 1e-12);
			assert_true(mean[i] * cnt[i] <= sum[i] + 1e-9 && mean[i] * cnt[i] >= sum[i] - 1e-9);
		}
	}
	assert_string_equal(topo_str(c, obj[hot_node].name), "node1");
	assert_true(diff[5] > 0.019);    /* the 20 ms delay was created on rank 5 */
	assert_true(max[0] == diff[5]);
	free(sum);
	free(cnt);
	free(max);
	free(mean);
	free(pu);
	topo_destroy(c);
	topo_destroy(node);
	analysis_destroy(a);
	trace_destroy(tr);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quartz),
		cmocka_unit_test(corona),
		cmocka_unit_test(synthetic),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(cluster),
		cmocka_unit_test(placement),
		cmocka_unit_test(aggregation),
	};
	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}

/* test_mem.c — the samples analyses (src/analysis/mem*.c): aggregation on
 * the hardware and top offenders on crafted samples counted by hand, the
 * scores L_d and I_d against hand-computed values, windows, the window
 * clustering on an attribute with two known regimes, selections, and the
 * LULESH figures. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "analysis/mem/mem.h"
#include "samples/samples.h"

static const char toy_xml[] =
	"<Hardware name=\"toy\">"
	" <NUMA id=\"0\"><Cache id=\"3\">"
	"  <Cache id=\"2\"><Cache id=\"1\"><CPU id=\"0\"/></Cache></Cache>"
	"  <Cache id=\"2\"><Cache id=\"1\"><CPU id=\"1\"/></Cache></Cache></Cache></NUMA>"
	" <NUMA id=\"1\"><Cache id=\"3\">"
	"  <Cache id=\"2\"><Cache id=\"1\"><CPU id=\"2\"/></Cache></Cache>"
	"  <Cache id=\"2\"><Cache id=\"1\"><CPU id=\"3\"/></Cache></Cache></Cache></NUMA>"
	"</Hardware>";

static struct samples *
toy(const char *csv)
{
	struct topo *t;
	struct samples *s;
	struct err e = { 0 };
	assert_int_equal(samples_parse_hardware("toy.xml", toy_xml, strlen(toy_xml), &t, &e), 0);
	assert_int_equal(samples_create(t, &s, &e), 0);
	FILE *f = fmemopen((void *)csv, strlen(csv), "r");
	if (samples_read_csv(s, "toy.csv", f, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
	fclose(f);
	return s;
}

static struct mem *
ctx(const struct samples *s)
{
	struct mem *m;
	struct err e = { 0 };
	assert_int_equal(mem_create(s, &m, &e), 0);
	return m;
}

/* The object of a type with a logical index. */
static uint32_t
obj(const struct samples *s, enum topo_type type, uint32_t index)
{
	uint32_t n;
	const struct topo_obj *o = topo_objs(samples_topo(s), &n);
	for (uint32_t i = 0; i < n; i++)
		if (o[i].type == type && o[i].index == index)
			return i;
	fail();
	return 0;
}

static const char toy_csv[] =
	"variable,source,line,latency,dataSource,cpu\n"
	"a,f.c,10,100,1,0\n"      /* L1 of CPU 0 */
	"b,f.c,11,200,3,1\n"      /* L2 of CPU 1 */
	"a,g.c,10,300,4,2\n"      /* L3 of NUMA 1 */
	"c,f.c,10,400,a,3\n"      /* NUMA 1's memory */
	"b,f.c,12,50,0,0\n"       /* an L3 miss from CPU 0: its CPU only */
	"c,f.c,12,70,b,1\n";      /* remote memory from CPU 1: the machine */

static void
aggregation(void **state)
{
	(void)state;
	struct samples *s = toy(toy_csv);
	struct mem *m = ctx(s);
	struct mem_agg a;
	assert_int_equal(mem_agg_init(m, &a), 0);
	mem_aggregate(m, NULL, &a);
	assert_int_equal(a.samples, 6);
	assert_int_equal(a.cycles, 1120);
	uint32_t numa0 = obj(s, TOPO_NUMA, 0), numa1 = obj(s, TOPO_NUMA, 1);
	uint32_t cpu0 = obj(s, TOPO_PU, 0), cpu1 = obj(s, TOPO_PU, 1), cpu3 = obj(s, TOPO_PU, 3);
	/* issued below */
	assert_int_equal(a.below_samples[0], 6);
	assert_int_equal(a.below_samples[numa0], 4);
	assert_int_equal(a.below_cycles[numa0], 420);
	assert_int_equal(a.below_samples[numa1], 2);
	assert_int_equal(a.below_cycles[numa1], 700);
	assert_int_equal(a.below_samples[cpu0], 2);
	assert_int_equal(a.below_cycles[cpu0], 150);
	/* served */
	assert_int_equal(a.served_samples[obj(s, TOPO_L1, 0)], 1);
	assert_int_equal(a.served_cycles[obj(s, TOPO_L2, 1)], 200);
	assert_int_equal(a.served_cycles[obj(s, TOPO_L3, 1)], 300);
	assert_int_equal(a.served_cycles[numa1], 400);
	assert_int_equal(a.served_samples[numa0], 0);
	assert_int_equal(a.served_cycles[0], 70);           /* remote: the machine */
	assert_int_equal(a.served_samples[cpu0], 0);
	/* links: CPU 0 -> L1 once (the miss walks nowhere); CPU 1 -> L1 twice
	 * (L2 and remote), its L1 -> L2 twice, L2 -> L3 and L3 -> NUMA 0 and
	 * NUMA 0 -> machine once (remote); CPU 3 up to NUMA 1 */
	assert_int_equal(a.link[cpu0], 1);
	assert_int_equal(a.link[obj(s, TOPO_L1, 0)], 0);
	assert_int_equal(a.link[cpu1], 2);
	assert_int_equal(a.link[obj(s, TOPO_L1, 1)], 2);
	assert_int_equal(a.link[obj(s, TOPO_L2, 1)], 1);
	assert_int_equal(a.link[obj(s, TOPO_L3, 0)], 1);
	assert_int_equal(a.link[numa0], 1);
	assert_int_equal(a.link[cpu3], 1);
	assert_int_equal(a.link[obj(s, TOPO_L3, 1)], 1);
	assert_int_equal(a.link[numa1], 0);
	assert_int_equal(a.level_samples[SL_L3_MISS], 1);
	/* MemAxes' resources: a CPU what it issued, a cache what it served */
	uint64_t rs, rc;
	const struct topo_obj *o = topo_objs(samples_topo(s), NULL);
	mem_resource(&a, &o[cpu0], cpu0, &rs, &rc);
	assert_true(rs == 2 && rc == 150);
	mem_resource(&a, &o[numa1], numa1, &rs, &rc);
	assert_true(rs == 1 && rc == 400);
	/* a selection: the samples of symbol b */
	struct bitset sel;
	assert_int_equal(bitset_init(&sel, 6), 0);
	mem_pick_range(m, (uint32_t)samples_info(s)->a_symbol, 1, 1, &sel);
	assert_int_equal(bitset_count(&sel), 2);
	mem_aggregate(m, &sel, &a);
	assert_int_equal(a.samples, 2);
	assert_int_equal(a.cycles, 250);
	assert_int_equal(a.below_samples[numa1], 0);
	assert_int_equal(a.link[cpu1], 1);
	bitset_fini(&sel);
	mem_agg_fini(&a);
	mem_destroy(m);
	samples_destroy(s);
}

/* Latencies at the reader's bound (SAMPLES_MAX_LATENCY): every sum of
 * them is exact, on the machine, a NUMA node, a level and an offender
 * (one of 2^64 - 1 wrapped the set's cycles: the reader refuses it). */
static void
latency_bound(void **state)
{
	(void)state;
	struct samples *s = toy("variable,source,line,latency,dataSource,cpu\n"
				"a,f.c,10,4294967295,a,0\n"
				"a,f.c,10,4294967295,a,1\n"
				"a,f.c,10,4294967295,a,2\n");
	const uint64_t max = SAMPLES_MAX_LATENCY;
	struct mem *m = ctx(s);
	struct mem_agg a;
	assert_int_equal(mem_agg_init(m, &a), 0);
	mem_aggregate(m, NULL, &a);
	assert_true(a.cycles == 3 * max);
	assert_true(a.below_cycles[0] == 3 * max);
	assert_true(a.below_cycles[obj(s, TOPO_NUMA, 0)] == 2 * max);
	assert_true(a.served_cycles[obj(s, TOPO_NUMA, 0)] == 2 * max);
	assert_true(a.level_cycles[SL_LOCAL_RAM] == 3 * max);
	struct mem_offender *o;
	uint32_t n;
	assert_int_equal(mem_offenders(m, MEM_SYMBOLS, NULL, &o, &n), 0);
	assert_int_equal(n, 1);
	assert_true(o[0].cycles == 3 * max);
	free(o);
	mem_agg_fini(&a);
	mem_destroy(m);
	samples_destroy(s);
}

static void
offenders(void **state)
{
	(void)state;
	struct samples *s = toy(toy_csv);
	struct mem *m = ctx(s);
	struct mem_offender *o;
	uint32_t n;
	assert_int_equal(mem_offenders(m, MEM_SYMBOLS, NULL, &o, &n), 0);
	/* c 470 (2 samples), a 400 (2), b 250 (2) */
	assert_int_equal(n, 3);
	int sym = samples_info(s)->a_symbol;
	assert_string_equal(samples_category(s, (uint32_t)sym, o[0].id), "c");
	assert_int_equal(o[0].cycles, 470);
	assert_string_equal(samples_category(s, (uint32_t)sym, o[1].id), "a");
	assert_int_equal(o[2].cycles, 250);
	free(o);
	assert_int_equal(mem_offenders(m, MEM_LINES, NULL, &o, &n), 0);
	/* f.c:10 500 (2) ties with nothing; g.c:10 300; f.c:11 200; f.c:12 120 */
	uint32_t nl;
	const struct samples_codeline *cl = samples_codelines(s, &nl);
	assert_int_equal(n, 4);
	assert_int_equal(o[0].cycles, 500);
	assert_int_equal(cl[o[0].id].line, 10);
	assert_string_equal(samples_category(s, (uint32_t)samples_info(s)->a_file, cl[o[1].id].file), "g.c");
	assert_int_equal(o[3].cycles, 120);
	/* picking the top line selects its two samples */
	struct bitset b;
	bitset_init(&b, samples_info(s)->n);
	mem_pick_codeline(m, o[0].id, &b);
	assert_int_equal(bitset_count(&b), 2);
	assert_true(bitset_test(&b, 0) && bitset_test(&b, 3));
	free(o);
	/* ties: equal cycles, fewer samples first */
	struct samples *t = toy("variable,latency,dataSource,cpu\nx,100,1,0\nx,100,1,0\ny,200,1,0\n");
	struct mem *mt = ctx(t);
	assert_int_equal(mem_offenders(mt, MEM_SYMBOLS, NULL, &o, &n), 0);
	assert_string_equal(samples_category(t, (uint32_t)samples_info(t)->a_symbol, o[0].id), "y");
	free(o);
	bitset_fini(&b);
	mem_destroy(mt);
	samples_destroy(t);
	mem_destroy(m);
	samples_destroy(s);
}

static void
scores(void **state)
{
	(void)state;
	/* I_d: counts (3, 1, 0, 0): mean 1, largest deviation 2, variance
	 * (4 + 0 + 1 + 1) / 4 = 1.5: 2 / sqrt(1.5) = 1.632993 */
	uint64_t s1[4] = { 3, 1, 0, 0 }, c1[4] = { 300, 50, 0, 0 };
	assert_true(fabs(mem_score(MEM_IMBALANCE, s1, c1, 4) - 1.6329931618554521) < 1e-12);
	/* L_d: resources with samples: (300/3 + 50/1) / 2 = 75 */
	assert_true(fabs(mem_score(MEM_LATENCY, s1, c1, 4) - 75) < 1e-12);
	/* all samples on one of n resources: sqrt(n - 1) */
	uint64_t s2[9] = { 0, 0, 0, 0, 7, 0, 0, 0, 0 }, c2[9] = { 0 };
	assert_true(fabs(mem_score(MEM_IMBALANCE, s2, c2, 9) - sqrt(8)) < 1e-12);
	/* balanced: 0; a single resource: 0; nothing: NAN */
	uint64_t s3[3] = { 5, 5, 5 }, c3[3] = { 10, 20, 60 };
	assert_true(mem_score(MEM_IMBALANCE, s3, c3, 3) == 0);
	assert_true(fabs(mem_score(MEM_LATENCY, s3, c3, 3) - 6) < 1e-12);   /* (2 + 4 + 12) / 3 */
	assert_true(mem_score(MEM_IMBALANCE, s3, c3, 1) == 0);
	uint64_t z[2] = { 0, 0 };
	assert_true(isnan(mem_score(MEM_IMBALANCE, z, z, 2)));
	assert_true(isnan(mem_score(MEM_LATENCY, z, z, 2)));
	/* (4, 2, 0): mean 2, deviations 2, 0, 2, variance 8/3: 2 / sqrt(8/3) */
	uint64_t s4[3] = { 4, 2, 0 }, c4[3] = { 40, 100, 0 };
	assert_true(fabs(mem_score(MEM_IMBALANCE, s4, c4, 3) - 2 / sqrt(8.0 / 3)) < 1e-12);
	assert_true(fabs(mem_score(MEM_LATENCY, s4, c4, 3) - 30) < 1e-12);     /* (10 + 50) / 2 */
	/* the paper's equation 1 divides by every resource: (100 + 50) / 4,
	 * (10 + 50) / 3; where all have samples both means agree; I_d and
	 * the empty set do not change */
	assert_true(fabs(mem_score_ld(MEM_LATENCY, MEM_LD_ALL, s1, c1, 4) - 37.5) < 1e-12);
	assert_true(fabs(mem_score_ld(MEM_LATENCY, MEM_LD_ALL, s4, c4, 3) - 20) < 1e-12);
	assert_true(fabs(mem_score_ld(MEM_LATENCY, MEM_LD_ALL, s3, c3, 3) - 6) < 1e-12);
	assert_true(fabs(mem_score_ld(MEM_LATENCY, MEM_LD_SAMPLED, s1, c1, 4) - 75) < 1e-12);
	assert_true(mem_score_ld(MEM_IMBALANCE, MEM_LD_ALL, s1, c1, 4) == mem_score(MEM_IMBALANCE, s1, c1, 4));
	assert_true(isnan(mem_score_ld(MEM_LATENCY, MEM_LD_ALL, z, z, 2)));
	assert_string_equal(mem_ld_name(MEM_LD_SAMPLED), "sampled");
	assert_string_equal(mem_ld_name(MEM_LD_ALL), "all");
}

/* Scores per depth and over windows, on the toy node. */
static void
windows(void **state)
{
	(void)state;
	/* x 0-3 all on CPU 0 (L1 hits of 10 cycles); x 6-9 on CPUs 0-3 */
	struct samples *s = toy("cpu,latency,dataSource,x\n"
				"0,10,1,0\n0,10,1,1\n0,10,1,2\n0,10,1,3\n"
				"0,20,1,6\n1,40,1,7\n2,60,1,8\n3,80,1,9\n");
	struct mem *m = ctx(s);
	struct mem_depth cpu, l1, numa;
	assert_int_equal(mem_depth_init(m, TOPO_PU, &cpu), 0);
	assert_int_equal(mem_depth_init(m, TOPO_L1, &l1), 0);
	assert_int_equal(mem_depth_init(m, TOPO_NUMA, &numa), 0);
	assert_int_equal(cpu.n, 4);
	assert_int_equal(cpu.res[5], 1);
	assert_int_equal(l1.res[7], 3);              /* served by CPU 3's L1 */
	assert_int_equal(numa.res[0], SAMPLES_NONE); /* NUMA serves none of them */
	uint32_t x = (uint32_t)samples_attr_find(s, "x");
	struct mem_window w[2];
	assert_int_equal(mem_windows(m, x, 2, MEM_IMBALANCE, &cpu, NULL, w), 0);
	/* [0, 4.5) and [4.5, 9] */
	assert_true(w[0].lo == 0 && w[0].hi == 4.5 && w[1].hi == 9);
	assert_int_equal(w[0].samples, 4);
	assert_true(fabs(w[0].score - sqrt(3)) < 1e-12);    /* (4, 0, 0, 0) */
	assert_true(w[1].score == 0);                       /* (1, 1, 1, 1) */
	assert_int_equal(mem_windows(m, x, 2, MEM_LATENCY, &cpu, NULL, w), 0);
	assert_true(fabs(w[0].score - 10) < 1e-12);
	assert_true(fabs(w[1].score - 50) < 1e-12);         /* (20 + 40 + 60 + 80) / 4 */
	assert_int_equal(mem_windows(m, x, 2, MEM_LATENCY, &numa, NULL, w), 0);
	assert_true(isnan(w[0].score));
	/* over every CPU (the paper's mean): window 0's 10 cycles on CPU 0
	 * alone count a quarter; window 1 has all four */
	assert_int_equal(mem_get_ld(m), MEM_LD_SAMPLED);
	mem_set_ld(m, MEM_LD_ALL);
	assert_int_equal(mem_windows(m, x, 2, MEM_LATENCY, &cpu, NULL, w), 0);
	assert_true(fabs(w[0].score - 2.5) < 1e-12);
	assert_true(fabs(w[1].score - 50) < 1e-12);
	mem_set_ld(m, MEM_LD_SAMPLED);
	assert_int_equal(mem_depth_find("cpu"), TOPO_PU);
	assert_int_equal(mem_depth_find("numa"), TOPO_NUMA);
	assert_int_equal(mem_depth_find("bogus"), TOPO_TYPE_COUNT);
	/* bins: whole numbers 0-9 get a bin each when they fit */
	struct mem_bins b;
	mem_bins_for(m, x, 40, &b);
	assert_int_equal(b.n, 10);
	assert_int_equal(mem_bin_of(&b, 6), 6);
	uint64_t all[10], sel[10];
	struct bitset bs;
	bitset_init(&bs, 8);
	mem_pick_range(m, x, 7, 8, &bs);
	mem_bin_counts(m, &b, NULL, &bs, all, sel);
	assert_int_equal(all[4], 0);
	assert_int_equal(all[9], 1);
	assert_int_equal(sel[7] + sel[8], 2);
	assert_int_equal(sel[6], 0);
	mem_bins_for(m, x, 4, &b);        /* fewer bins than values: equal widths */
	assert_int_equal(b.n, 4);
	assert_true(b.lo == 0 && b.hi == 9);
	bitset_fini(&bs);
	mem_depth_fini(&cpu);
	mem_depth_fini(&l1);
	mem_depth_fini(&numa);
	mem_destroy(m);
	samples_destroy(s);
}

/* x 0..1999, shuffled; below 1200 every access is CPU 0's (imbalance
 * sqrt 3 at the CPU depth, 100 cycles), from 1200 on they go round the
 * four CPUs (imbalance 0, 300 cycles). Either score must put the one
 * boundary of a two-cluster cut at 1200, within half a window. Windows
 * of 100 moved by 20 keep every set of the second regime a whole number
 * of rounds: I_d only sees the shape of the counts, so (26, 25, 25, 25)
 * would score as high as (1, 0, 0, 0). */
static void
two_regimes(void **state)
{
	(void)state;
	char *csv = NULL;
	size_t len;
	FILE *f = open_memstream(&csv, &len);
	fputs("cpu,latency,dataSource,x\n", f);
	for (uint32_t k = 0; k < 2000; k++) {
		uint32_t x = (k * 7919) % 2000;          /* a permutation of 0..1999 */
		fprintf(f, "%u,%u,1,%u\n", x < 1200 ? 0 : x % 4, x < 1200 ? 100 : 300, x);
	}
	fclose(f);
	struct samples *s = toy(csv);
	free(csv);
	struct mem *m = ctx(s);
	struct mem_depth d;
	assert_int_equal(mem_depth_init(m, TOPO_PU, &d), 0);
	uint32_t x = (uint32_t)samples_attr_find(s, "x");
	for (int k = 0; k < MEM_METRIC_COUNT; k++) {
		struct mem_tree *t;
		struct err e = { 0 };
		assert_int_equal(mem_tree_build(m, x, NULL, 100, 20, (enum mem_metric)k, &d, &t, &e), 0);
		/* windows start at 0, 20, ..., 1900: 96 leaves */
		assert_int_equal(mem_tree_leaves(t), 96);
		uint32_t n;
		const uint32_t *order = mem_tree_order(t, &n);
		assert_int_equal(n, 2000);
		const double *v = samples_attr(s, x)->v;
		for (uint32_t p = 1; p < n; p++)
			assert_true(v[order[p - 1]] < v[order[p]]);
		struct mem_cluster c[2];
		assert_int_equal(mem_tree_cut(t, 2, c), 2);
		double b = mem_tree_boundary(t, &c[0], &c[1]);
		if (fabs(b - 1200) > 50) {
			print_error("metric %d: boundary at %g, clusters [%g, %g] and [%g, %g]\n", k, b, c[0].lo,
				    c[0].hi, c[1].lo, c[1].hi);
			fail();
		}
		assert_true(c[0].lo == 0 && c[1].hi == 1999);
		/* the regimes' own scores */
		if (k == MEM_IMBALANCE)
			assert_true(c[0].score > 1.5 && c[1].score < 0.2);
		else
			assert_true(c[0].score < 130 && c[1].score > 270);
		/* one cluster spans everything; every leaf is a cluster at the bottom */
		struct mem_cluster *all = malloc(96 * sizeof *all);
		assert_int_equal(mem_tree_cut(t, 1, all), 1);
		assert_true(all[0].first == 0 && all[0].end == 2000);
		assert_int_equal(mem_tree_cut(t, 1000, all), 96);
		assert_true(all[95].end == 2000 && all[95].first == 1900 && all[1].first == 20);
		/* selecting the first cluster */
		struct bitset bs;
		bitset_init(&bs, 2000);
		mem_pick_order(t, c[0].first, c[0].end, &bs);
		assert_int_equal(bitset_count(&bs), c[0].samples);
		bitset_fini(&bs);
		free(all);
		mem_tree_destroy(t);
	}
	/* bad windows */
	struct mem_tree *t;
	struct err e = { 0 };
	assert_int_equal(mem_tree_build(m, x, NULL, 100, 100, MEM_IMBALANCE, &d, &t, &e), ERR_USAGE);
	assert_int_equal(mem_tree_build(m, x, NULL, 100, 0, MEM_IMBALANCE, &d, &t, &e), ERR_USAGE);
	/* fewer samples than a window: one leaf */
	struct bitset few;
	bitset_init(&few, 2000);
	mem_pick_range(m, x, 0, 9, &few);
	assert_int_equal(mem_tree_build(m, x, &few, 100, 25, MEM_IMBALANCE, &d, &t, &e), 0);
	assert_int_equal(mem_tree_leaves(t), 1);
	mem_tree_destroy(t);
	bitset_fini(&few);
	mem_depth_fini(&d);
	mem_destroy(m);
	samples_destroy(s);
}

static void
combine(void **state)
{
	(void)state;
	struct bitset a, b;
	bitset_init(&a, 130);
	bitset_init(&b, 130);
	bitset_set(&a, 1);
	bitset_set(&a, 129);
	bitset_set(&b, 129);
	bitset_set(&b, 64);
	mem_combine(&a, &b, MEM_AND);
	assert_int_equal(bitset_count(&a), 1);
	assert_true(bitset_test(&a, 129));
	bitset_set(&a, 3);
	mem_combine(&a, &b, MEM_OR);
	assert_int_equal(bitset_count(&a), 3);
	mem_combine(&a, &b, MEM_NEW);
	assert_int_equal(bitset_count(&a), 2);
	assert_false(bitset_test(&a, 3));
	bitset_fini(&a);
	bitset_fini(&b);
}

static void
lulesh(void **state)
{
	(void)state;
	char dir[1024];
	SHARED_TRACE(dir, "memaxes/llnl-main-lulesh");
	struct samples *s;
	struct err e = { 0 };
	assert_int_equal(samples_open(dir, NULL, &s, &e), 0);
	struct mem *m = ctx(s);
	struct mem_agg a;
	mem_agg_init(m, &a);
	mem_aggregate(m, NULL, &a);
	assert_int_equal(a.samples, 15676);
	assert_int_equal(a.below_samples[obj(s, TOPO_NUMA, 0)], 8952);
	assert_int_equal(a.below_samples[obj(s, TOPO_NUMA, 1)], 6724);
	assert_int_equal(a.below_samples[0], 15676);
	/* every sample is at a CPU; the CPUs' counts add up */
	uint64_t sum = 0;
	const uint32_t *pu = topo_pu_objs(samples_topo(s), NULL);
	for (uint32_t p = 0; p < 32; p++)
		sum += a.below_samples[pu[p]];
	assert_int_equal(sum, 15676);
	struct mem_offender *o;
	uint32_t n;
	assert_int_equal(mem_offenders(m, MEM_SYMBOLS, NULL, &o, &n), 0);
	int sym = samples_info(s)->a_symbol;
	assert_string_equal(samples_category(s, (uint32_t)sym, o[0].id), "m_x");
	assert_int_equal(o[0].cycles, 425345);
	uint64_t fx = 0, fy = 0, fz = 0, mass = 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *name = samples_category(s, (uint32_t)sym, o[i].id);
		uint64_t *slot = !strcmp(name, "m_fx") ? &fx : !strcmp(name, "m_fy") ? &fy
			: !strcmp(name, "m_fz") ? &fz : !strcmp(name, "m_nodalMass") ? &mass : NULL;
		if (slot)
			*slot = o[i].cycles;
	}
	assert_true(mass > 0 && fx > mass && fy > mass && fz > mass);
	free(o);
	mem_agg_fini(&a);
	mem_destroy(m);
	samples_destroy(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aggregation),
		cmocka_unit_test(latency_bound),
		cmocka_unit_test(offenders),
		cmocka_unit_test(scores),
		cmocka_unit_test(windows),
		cmocka_unit_test(two_regimes),
		cmocka_unit_test(combine),
		cmocka_unit_test(lulesh),
	};
	return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}

/* test_projections.c — the Projections reader against every real Charm++
 * run in ../shared/traces/projections.
 *
 * Ground truth was counted independently of skein, with
 *   zcat -f LOG | awk 'NR>1 { c[$1]++ }'
 * per PE (record counts by type), and
 *   zcat -f LOG | awk 'NR>1 { if ($1==2) open=1; else if ($1==3) open=0;
 *                   else if (($1==1||$1==20||$1==21) && !open) n++ }'
 * (creations outside any execution). tests/charm.sh repeats the record
 * counts live against `skein info --format json`. Structural facts
 * (which chare ran where, how many executions of an entry) are the
 * README's ground truth for these runs. */
#include "testutil.h"

#include <string.h>

#include "model/charm.h"
#include "projections/projections_read.h"

/* record types in the order of the table below */
static const int kinds[] = {
	CREC_CREATION, CREC_BEGIN_PROCESSING, CREC_END_PROCESSING, CREC_BEGIN_COMPUTATION,
	CREC_END_COMPUTATION, CREC_BEGIN_IDLE, CREC_END_IDLE, CREC_BEGIN_PACK, CREC_END_PACK,
	CREC_BEGIN_UNPACK, CREC_END_UNPACK, CREC_CREATION_BCAST, CREC_CREATION_MULTICAST,
};
#define NK (sizeof kinds / sizeof kinds[0])

struct expect {
	const char *rel;
	uint32_t pes;
	uint64_t rec[4][NK + 1];     /* per PE: the kinds above, then all records */
	uint32_t loose[4];           /* creations outside any execution */
};

static const struct expect runs[] = {
	{ "projections/charm-allreduce_16c_4pe/AllReduce.prj.sts", 4, {
		{ 7, 36, 35, 1, 1, 1, 1, 10, 10, 15, 15, 14, 0, 146 },
		{ 5, 13, 12, 1, 1, 8, 8, 1, 1, 7, 7, 0, 0, 64 },
		{ 5, 13, 12, 1, 1, 3, 3, 1, 1, 7, 7, 0, 0, 54 },
		{ 5, 13, 12, 1, 1, 7, 7, 1, 1, 7, 7, 0, 0, 62 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-hello1d_8c_4pe/hello1d.prj.sts", 4, {
		{ 6, 12, 11, 1, 1, 2, 2, 7, 7, 11, 11, 14, 0, 85 },
		{ 5, 7, 6, 1, 1, 7, 7, 3, 3, 7, 7, 0, 0, 54 },
		{ 5, 7, 6, 1, 1, 3, 3, 3, 3, 7, 7, 0, 0, 46 },
		{ 4, 6, 5, 1, 1, 5, 5, 2, 2, 6, 6, 0, 0, 43 },
	}, { 15, 1, 1, 1 } },
	{ "projections/charm-jacobi1d_8c_4pe_10it/jacobi1d.prj.sts", 4, {
		{ 43, 267, 266, 1, 1, 13, 13, 26, 26, 56, 56, 14, 0, 782 },
		{ 50, 247, 246, 1, 1, 20, 20, 10, 10, 15, 15, 0, 0, 635 },
		{ 50, 241, 240, 1, 1, 22, 22, 10, 10, 14, 14, 0, 0, 625 },
		{ 40, 208, 207, 1, 1, 15, 15, 10, 10, 14, 14, 0, 0, 535 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts", 4, {
		{ 113, 597, 596, 1, 1, 15, 15, 26, 26, 56, 56, 14, 0, 1516 },
		{ 150, 661, 660, 1, 1, 19, 19, 10, 10, 14, 14, 0, 0, 1559 },
		{ 150, 661, 660, 1, 1, 19, 19, 10, 10, 14, 14, 0, 0, 1559 },
		{ 110, 533, 532, 1, 1, 23, 23, 10, 10, 14, 14, 0, 0, 1271 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-jacobi2d_16c_4pe_10it_plain/jacobi2d.prj.sts", 4, {
		{ 113, 591, 590, 1, 1, 20, 20, 26, 26, 58, 58, 14, 0, 1518 },
		{ 150, 673, 672, 1, 1, 16, 16, 10, 10, 15, 15, 0, 0, 1579 },
		{ 150, 673, 672, 1, 1, 26, 26, 10, 10, 15, 15, 0, 0, 1599 },
		{ 110, 533, 532, 1, 1, 16, 16, 10, 10, 15, 15, 0, 0, 1259 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts", 4, {
		{ 427, 2091, 2090, 1, 1, 11, 11, 22, 22, 46, 46, 14, 0, 4782 },
		{ 488, 2257, 2256, 1, 1, 18, 18, 8, 8, 13, 13, 0, 0, 5081 },
		{ 488, 2209, 2208, 1, 1, 14, 14, 8, 8, 12, 12, 0, 0, 4975 },
		{ 424, 2001, 2000, 1, 1, 16, 16, 8, 8, 12, 12, 0, 0, 4499 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts", 4, {
		{ 113, 598, 597, 1, 1, 15, 15, 26, 26, 57, 57, 14, 0, 1520 },
		{ 150, 673, 672, 1, 1, 26, 26, 10, 10, 15, 15, 0, 0, 1599 },
		{ 150, 673, 672, 1, 1, 16, 16, 10, 10, 15, 15, 0, 0, 1579 },
		{ 110, 541, 540, 1, 1, 21, 21, 10, 10, 15, 15, 0, 0, 1285 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-ring_group_4pe/ring.prj.sts", 4, {
		{ 3, 4, 3, 1, 1, 1, 1, 4, 4, 5, 5, 11, 0, 43 },
		{ 1, 2, 1, 1, 1, 6, 6, 0, 0, 3, 3, 0, 0, 24 },
		{ 1, 2, 1, 1, 1, 3, 3, 0, 0, 3, 3, 0, 0, 18 },
		{ 1, 2, 1, 1, 1, 6, 6, 0, 0, 3, 3, 0, 0, 24 },
	}, { 13, 0, 0, 0 } },
	{ "projections/charm-simple_reduction_16c_4pe/simple_reduction.prj.sts", 4, {
		{ 3, 16, 15, 1, 1, 1, 1, 6, 6, 11, 11, 14, 0, 86 },
		{ 1, 9, 8, 1, 1, 4, 4, 1, 1, 5, 5, 0, 0, 40 },
		{ 1, 9, 8, 1, 1, 2, 2, 1, 1, 5, 5, 0, 0, 36 },
		{ 1, 9, 8, 1, 1, 5, 5, 1, 1, 5, 5, 0, 0, 42 },
	}, { 16, 0, 0, 0 } },
	{ "projections/charm-synth-projections-4pe/main.sts", 4, {
		{ 11, 17, 16, 1, 1, 3, 3, 6, 6, 10, 10, 13, 0, 97 },
		{ 11, 13, 12, 1, 1, 13, 13, 2, 2, 8, 8, 0, 0, 84 },
		{ 11, 11, 10, 1, 1, 12, 12, 2, 2, 6, 6, 0, 0, 74 },
		{ 11, 11, 10, 1, 1, 10, 10, 2, 2, 6, 6, 0, 0, 70 },
	}, { 12, 0, 1, 1 } },
	{ "projections/pipit-charm-pingpong-projections/pingpong.prj.sts", 2, {
		{ 77, 161, 160, 1, 1, 72, 72, 103, 103, 100, 100, 35, 0, 985 },
		{ 68, 146, 145, 1, 1, 108, 108, 82, 82, 103, 103, 0, 0, 947 },
	}, { 47, 9 } },
};

static struct trace *
load_prj(const char *path)
{
	struct trace *t = NULL;
	struct err e = { 0 };
	int rc = projections_read(path, NULL, &t, &e);
	if (rc) {
		print_error("loading %s failed: %s\n", path, e.msg);
		fail();
	}
	return t;
}

/* Invariants every Charm++ trace must keep: ops of a timeline in time
 * order, every op on a real PE, ends and messages pointing at each
 * other, executions counted by their first op. */
static void
check_model(const struct trace *t, const struct expect *x)
{
	uint32_t n_tl, n_ops, n_msgs, n_pes, n_ch;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	struct trace_opv ops = trace_ops(t, &n_ops);
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	const struct trace_pe *pes = trace_pes(t, &n_pes);
	const uint32_t *op_pe = trace_op_pes(t);
	trace_chares(t, &n_ch);
	assert_int_equal(trace_info(t)->paradigm, PARADIGM_CHARM);
	assert_int_equal(n_ch, n_tl);
	assert_non_null(op_pe);
	uint64_t starts[4] = { 0 }, loose[4] = { 0 };
	uint32_t next = 0;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		assert_int_equal(tls[tl].op_first, next);
		next += tls[tl].op_count;
		for (uint32_t o = tls[tl].op_first; o < tls[tl].op_first + tls[tl].op_count; o++) {
			assert_int_equal(trace_op_get(&ops, o).timeline, tl);
			assert_true(trace_op_get(&ops, o).t_enter <= trace_op_get(&ops, o).t_exit);
			if (o > tls[tl].op_first)
				assert_true(trace_op_get(&ops, o - 1).t_enter <= trace_op_get(&ops, o).t_enter);
			assert_true(op_pe[o] < n_pes);
			if (!(trace_op_get(&ops, o).flags & OPF_EXEC_CONT))
				starts[op_pe[o]]++;
			if (trace_op_get(&ops, o).flags & OPF_LOOSE)
				loose[op_pe[o]]++;
			uint32_t ne;
			const struct trace_end *en = trace_op_ends(t, o, &ne);
			for (uint32_t k = 0; k < ne; k++) {
				assert_true(en[k].id < n_msgs);
				if (en[k].role == END_SEND)
					assert_int_equal(msgs[en[k].id].send_op, o);
				else
					assert_int_equal(msgs[en[k].id].recv_op, o);
			}
		}
	}
	assert_int_equal(next, n_ops);
	for (uint32_t pe = 0; pe < n_pes; pe++) {
		/* one first op per execution, and one per loose creation */
		assert_int_equal(starts[pe], pes[pe].records[CREC_BEGIN_PROCESSING] + x->loose[pe]);
		assert_int_equal(loose[pe], x->loose[pe]);
	}
	for (uint32_t m = 0; m < n_msgs; m++) {
		assert_true(msgs[m].send_op != TRACE_NONE || msgs[m].recv_op != TRACE_NONE);
		if (msgs[m].send_op != TRACE_NONE && msgs[m].recv_op != TRACE_NONE)
			assert_true(msgs[m].sender < n_tl && msgs[m].receiver < n_tl);
	}
}

static void
test_record_counts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		char path[512];
		SHARED_TRACE(path, runs[i].rel);
		struct trace *t = load_prj(path);
		uint32_t n_pes;
		const struct trace_pe *pes = trace_pes(t, &n_pes);
		assert_int_equal(n_pes, runs[i].pes);
		uint64_t total = 0;
		for (uint32_t pe = 0; pe < n_pes; pe++) {
			uint64_t all = 0;
			for (size_t k = 0; k < NK; k++)
				assert_int_equal(pes[pe].records[kinds[k]], runs[i].rec[pe][k]);
			for (int k = 0; k < CREC_COUNT; k++)
				all += pes[pe].records[k];
			assert_int_equal(all, runs[i].rec[pe][NK]);
			total += all;
		}
		assert_int_equal(trace_info(t)->events, total);
		check_model(t, &runs[i]);
		trace_destroy(t);
	}
}

/* Pipit's published counts (pipit/tests/projections-tests.py). */
static void
test_pipit_pingpong(void **state)
{
	(void)state;
	char path[512];
	SHARED_TRACE(path, "projections/pipit-charm-pingpong-projections/pingpong.prj.sts");
	struct trace *t = load_prj(path);
	const struct trace_pe *pes = trace_pes(t, NULL);
	assert_int_equal(pes[0].records[CREC_CREATION], 77);
	assert_int_equal(pes[1].records[CREC_CREATION], 68);
	assert_int_equal(pes[0].records[CREC_BEGIN_PROCESSING], 161);
	assert_int_equal(pes[1].records[CREC_BEGIN_PROCESSING], 146);
	/* the runtime's thread entry names a sending PE that does not exist */
	assert_int_equal(trace_info(t)->warnings[WARN_BAD_PE], 10);
	trace_destroy(t);
}

/* Executions (first ops) of the entry named `name` ("Chare::entry"). */
static uint32_t
executions(const struct trace *t, const char *name, uint32_t *matched)
{
	uint32_t n_ops, n = 0;
	struct trace_opv ops = trace_ops(t, &n_ops);
	const struct trace_region *rg = trace_regions(t, NULL);
	const struct trace_msg *msgs = trace_msgs(t, NULL);
	if (matched)
		*matched = 0;
	for (uint32_t o = 0; o < n_ops; o++) {
		if ((trace_op_get(&ops, o).flags & OPF_EXEC_CONT) || trace_op_get(&ops, o).region == TRACE_NONE ||
		    strcmp(trace_str(t, rg[trace_op_get(&ops, o).region].name), name))
			continue;
		n++;
		uint32_t ne;
		const struct trace_end *en = trace_op_ends(t, o, &ne);
		for (uint32_t k = 0; matched && k < ne; k++)
			if (en[k].role == END_RECV && msgs[en[k].id].send_op != TRACE_NONE)
				(*matched)++;
	}
	return n;
}

static void
test_jacobi2d_placement(void **state)
{
	(void)state;
	char path[512];
	SHARED_TRACE(path, "projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	struct trace *t = load_prj(path);
	const struct trace_chare *ch = trace_chares(t, NULL);
	uint32_t n_tl;
	trace_timelines(t, &n_tl);
	uint32_t arrays = 0, runtime = 0;
	for (uint32_t i = 0; i < n_tl; i++) {
		arrays += ch[i].kind == CHARE_ARRAY;
		runtime += ch[i].kind == CHARE_RUNTIME;
		if (ch[i].kind == CHARE_RUNTIME)      /* runtime timelines come last */
			assert_true(i >= n_tl - 4);
	}
	assert_int_equal(arrays, 16);
	assert_int_equal(runtime, 4);
	/* PE p holds Jacobi(p, 0..3) */
	for (int p = 0; p < 4; p++)
		for (int j = 0; j < 4; j++) {
			char label[32];
			snprintf(label, sizeof label, "Jacobi(%d,%d)", p, j);
			uint32_t tl = trace_chare_find(t, label);
			assert_int_not_equal(tl, TRACE_NONE);
			assert_int_equal(ch[tl].pe, (uint32_t)p);
			assert_int_equal(ch[tl].pes, 1);
			assert_int_equal(ch[tl].ndims, 2);
		}
	/* 480 receiveGhosts (48 per iteration), every one started by a
	 * traced creation; 160 Jacobi_compute */
	uint32_t matched;
	assert_int_equal(executions(t, "Jacobi::receiveGhosts", &matched), 480);
	assert_int_equal(matched, 480);
	assert_int_equal(executions(t, "Jacobi::Jacobi_compute", NULL), 160);
	trace_destroy(t);
}

static void
test_jacobi2d_64(void **state)
{
	(void)state;
	char path[512];
	SHARED_TRACE(path, "projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts");
	struct trace *t = load_prj(path);
	const struct trace_chare *ch = trace_chares(t, NULL);
	/* PE p holds rows 2p and 2p+1 */
	for (int row = 0; row < 8; row++)
		for (int col = 0; col < 8; col++) {
			char label[32];
			snprintf(label, sizeof label, "Jacobi(%d,%d)", row, col);
			uint32_t tl = trace_chare_find(t, label);
			assert_int_not_equal(tl, TRACE_NONE);
			assert_int_equal(ch[tl].pe, (uint32_t)row / 2);
		}
	uint32_t matched;
	assert_int_equal(executions(t, "Jacobi::receiveGhosts", &matched), 1792);
	assert_int_equal(matched, 1792);
	assert_int_equal(executions(t, "Jacobi::Jacobi_compute", NULL), 512);
	trace_destroy(t);
}

static void
test_small_runs(void **state)
{
	(void)state;
	char path[512];
	struct trace *t;
	uint32_t matched;

	SHARED_TRACE(path, "projections/charm-jacobi1d_8c_4pe_10it/jacobi1d.prj.sts");
	t = load_prj(path);
	assert_int_equal(executions(t, "Jacobi::receiveGhosts", &matched), 140);
	assert_int_equal(matched, 140);
	assert_int_equal(executions(t, "Jacobi::Jacobi_compute", NULL), 80);
	trace_destroy(t);

	SHARED_TRACE(path, "projections/charm-ring_group_4pe/ring.prj.sts");
	t = load_prj(path);
	assert_int_equal(executions(t, "Btest::recv_msg", &matched), 4);
	assert_int_equal(matched, 4);
	assert_int_equal(trace_chares(t, NULL)[trace_chare_find(t, "Btest[PE 2]")].kind, CHARE_GROUP);
	trace_destroy(t);

	SHARED_TRACE(path, "projections/charm-hello1d_8c_4pe/hello1d.prj.sts");
	t = load_prj(path);
	assert_int_equal(executions(t, "Hello::SayHi", &matched), 8);
	assert_int_equal(matched, 8);
	trace_destroy(t);

	SHARED_TRACE(path, "projections/charm-simple_reduction_16c_4pe/simple_reduction.prj.sts");
	t = load_prj(path);
	assert_int_equal(executions(t, "main::reportIn", &matched), 1);
	trace_destroy(t);

	SHARED_TRACE(path, "projections/charm-allreduce_16c_4pe/AllReduce.prj.sts");
	t = load_prj(path);
	assert_int_equal(executions(t, "AllReduce::report", &matched), 16);
	assert_int_equal(matched, 16);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_counts),
		cmocka_unit_test(test_pipit_pingpong),
		cmocka_unit_test(test_jacobi2d_placement),
		cmocka_unit_test(test_jacobi2d_64),
		cmocka_unit_test(test_small_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_view_cluster.c — clustered rows on a trace whose grouping is
 * known: 16 ranks in a 4×4 stencil with 5 ms of extra computation on
 * rank 3 in iteration 1 and on rank 11 in iteration 2. Rank 3's
 * neighbours are 0, 2, 7 and 15, rank 11's are 7, 8, 10 and 15, so by
 * lateness per partition the ranks fall into {3}, {11}, {0, 2} (late in
 * iteration 1), {8, 10} (iteration 2), {7, 15} (both) and the eight
 * others. Checks the clustering, the rows, expanding and collapsing,
 * and that jumps land on the right rank, expanding its cluster. */
#include "testutil.h"

#include <string.h>
#include <unistd.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"
#include "view/model/view_cluster.h"
#include "view/view_impl.h"

static char tmpdir[64];
static struct trace *tr;
static struct analysis *an;

static int
setup(void **state)
{
	(void)state;
	const char *root = tu_env("SKEIN_ROOT", ".");
	char gen[1024], cmd[2048];
	snprintf(gen, sizeof gen, "%s/traces/gen/skein-gen", root);
	if (access(gen, X_OK) != 0) {
		snprintf(cmd, sizeof cmd, "make -s -C '%s/traces/gen' >/dev/null 2>&1", root);
		if (system(cmd) != 0) { /* checked below */ }
	}
	if (access(gen, X_OK) != 0)
		return 0;            /* tests skip */
	snprintf(tmpdir, sizeof tmpdir, "/tmp/skein-vcluster-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(cmd, sizeof cmd, "'%s' -q -f -o '%s/t' -p 16 -n 4 -t stencil -d 5000:3:1 -d 5000:11:2", gen, tmpdir);
	if (system(cmd) != 0)
		return -1;
	snprintf(cmd, sizeof cmd, "%s/t/traces.otf2", tmpdir);
	tr = tu_load(cmd);
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct err e = { 0 };
	return analysis_run(tr, &o, NULL, NULL, &an, &e);
}

static int
teardown(void **state)
{
	(void)state;
	analysis_destroy(an);
	trace_destroy(tr);
	if (tmpdir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0) { /* a leftover temp dir is harmless */ }
	}
	return 0;
}

#define NEED_TRACE() \
	do { \
		if (!an) { \
			print_message("skipped: no skein-gen\n"); \
			skip(); \
		} \
	} while (0)

/* The expected groups, each ascending; groups ordered by lowest rank. */
static const uint32_t want[6][8] = {
	{ 0, 2 }, { 1, 4, 5, 6, 9, 12, 13, 14 }, { 3 }, { 7, 15 }, { 8, 10 }, { 11 },
};
static const uint32_t want_n[6] = { 2, 8, 1, 2, 2, 1 };

static void
check_six(const struct view_cluster *vc)
{
	assert_int_equal(view_cluster_groups(vc), 6);
	for (uint32_t g = 0; g < 6; g++) {
		uint32_t n;
		const uint32_t *m = view_cluster_members(vc, g, &n);
		assert_int_equal(n, want_n[g]);
		for (uint32_t i = 0; i < n; i++) {
			assert_int_equal(m[i], want[g][i]);
			assert_int_equal(view_cluster_group_of(vc, m[i]), g);
		}
	}
}

static void
clustering_finds_the_groups(void **state)
{
	(void)state;
	NEED_TRACE();
	/* k-medoids with k = 6 straight away */
	struct view_clustering c;
	struct err e = { 0 };
	assert_int_equal(view_cluster_ranks(an, 6, &c, &e), 0);
	assert_int_equal(c.n_ranks, 16);
	assert_int_equal(c.n_clusters, 6);
	for (uint32_t g = 0; g < 6; g++)
		for (uint32_t i = 1; i < want_n[g]; i++)
			assert_int_equal(c.cluster[want[g][i]], c.cluster[want[g][0]]);
	uint32_t total = 0;
	for (uint32_t j = 0; j < c.n_clusters; j++) {
		assert_int_equal(c.cluster[c.medoid[j]], j);     /* a medoid is a member */
		total += c.size[j];
	}
	assert_int_equal(total, 16);
	for (uint32_t s = 1; s + 1 < c.n_clusters; s++)
		assert_true(c.merges[s].distance >= c.merges[s - 1].distance);
	view_clustering_fini(&c);
	assert_int_equal(view_cluster_ranks(an, 0, &c, &e), ERR_USAGE);
	assert_int_equal(view_cluster_ranks(an, 21, &c, &e), ERR_USAGE);

	/* the same groups as a level of the hierarchy of 20 */
	struct view_cluster *vc;
	assert_int_equal(view_cluster_create(an, &vc, &e), 0);
	assert_true(view_cluster_levels(vc) >= 6);
	view_cluster_set_level(vc, 6);
	assert_int_equal(view_cluster_level(vc), 6);
	check_six(vc);
	assert_int_equal(view_cluster_medoid(vc, 2), 3);
	assert_int_equal(view_cluster_medoid(vc, 5), 11);
	char buf[64];
	view_cluster_ranges(vc, 1, buf, sizeof buf);
	assert_string_equal(buf, "1, 4-6, 9, 12-14");
	/* one level coarser: two of the six groups join, the rest stay */
	view_cluster_set_level(vc, 5);
	assert_int_equal(view_cluster_groups(vc), 5);
	for (uint32_t g = 0; g < 6; g++)
		for (uint32_t i = 1; i < want_n[g]; i++)
			assert_int_equal(view_cluster_group_of(vc, want[g][i]), view_cluster_group_of(vc, want[g][0]));
	view_cluster_set_level(vc, 1);
	uint32_t n;
	view_cluster_members(vc, 0, &n);
	assert_int_equal(n, 16);
	view_cluster_set_level(vc, 99);         /* clamped */
	assert_int_equal(view_cluster_level(vc), view_cluster_levels(vc));
	view_cluster_destroy(vc);
	view_cluster_destroy(NULL);
}

static void
rows_expand_and_collapse(void **state)
{
	(void)state;
	NEED_TRACE();
	struct view_cluster *vc;
	struct err e = { 0 };
	assert_int_equal(view_cluster_create(an, &vc, &e), 0);
	view_cluster_set_level(vc, 6);
	uint32_t n, gen = view_cluster_generation(vc);
	const struct view_row *rows = view_cluster_rows(vc, &n);
	assert_int_equal(n, 6);
	for (uint32_t r = 0; r < n; r++)
		assert_int_equal(rows[r].rank, TRACE_NONE);
	/* {7, 15} opens under its row */
	assert_int_equal(view_cluster_expand(vc, 3, 1), 1);
	assert_int_not_equal(view_cluster_generation(vc), gen);
	rows = view_cluster_rows(vc, &n);
	assert_int_equal(n, 8);
	assert_int_equal(rows[3].group, 3);
	assert_int_equal(rows[3].rank, TRACE_NONE);
	assert_int_equal(rows[4].rank, 7);
	assert_int_equal(rows[5].rank, 15);
	assert_int_equal(rows[6].group, 4);
	assert_int_equal(view_cluster_row_of(vc, 15), 5);
	assert_int_equal(view_cluster_row_of(vc, 8), 6);      /* collapsed: its cluster's row */
	assert_int_equal(view_cluster_expand(vc, 3, 1), 0);   /* already open */
	assert_int_equal(view_cluster_expand(vc, 2, 1), 0);   /* {3}: one rank stays one row */
	assert_int_equal(view_cluster_row_of(vc, 3), 2);
	/* aggregation: a cluster's cell is the maximum over its ranks */
	struct view_index *ix;
	assert_int_equal(view_index_create(an, &ix, &e), 0);
	uint32_t steps = view_index_steps(ix);
	uint32_t rep, cnt, rep1, cnt1;
	uint64_t v = view_cluster_block(vc, ix, METRIC_LATENESS, 3, 0, steps, &rep, &cnt, NULL);
	uint64_t v7 = view_index_block(ix, METRIC_LATENESS, 7, 8, 0, steps, &rep1, &cnt1, NULL);
	uint64_t v15 = view_index_block(ix, METRIC_LATENESS, 15, 16, 0, steps, &rep1, &cnt, NULL);
	assert_int_equal(v, v7 > v15 ? v7 : v15);
	view_cluster_block(vc, ix, METRIC_LATENESS, 3, 0, steps, &rep, &cnt, NULL);
	assert_int_equal(cnt, cnt1 * 2);                      /* stencil ranks hold as many lops */
	view_index_destroy(ix);
	/* collapse */
	assert_int_equal(view_cluster_expand(vc, 3, 0), 1);
	rows = view_cluster_rows(vc, &n);
	assert_int_equal(n, 6);
	assert_int_equal(view_cluster_row_of(vc, 15), 3);
	/* all: 6 rows plus the ranks of the four groups of more than one */
	assert_int_equal(view_cluster_expand_all(vc, 1), 1);
	rows = view_cluster_rows(vc, &n);
	assert_int_equal(n, 6 + 2 + 8 + 2 + 2);
	assert_int_equal(view_cluster_expand_all(vc, 0), 1);
	rows = view_cluster_rows(vc, &n);
	assert_int_equal(n, 6);
	view_cluster_destroy(vc);
}

static struct view *
session(uint32_t clusters)
{
	struct view_opts o = { .label = "t", .clusters = clusters, .start_origin = 1,
			       .this_host = TU_HOST, .this_machine = TU_MACHINE };
	struct view *v;
	struct err e = { 0 };
	assert_int_equal(view_create(an, &o, &v, &e), 0);
	struct grid *g = grid_create(120, 30);
	view_draw(v, g);
	grid_destroy(g);
	return v;
}

static const struct view_row *
sel_row(const struct view *v)
{
	uint32_t n;
	const struct view_row *rows = view_cluster_rows(v->vc, &n);
	assert_true(v->sel_row < n);
	return &rows[v->sel_row];
}

static void
session_keys_and_commands(void **state)
{
	(void)state;
	NEED_TRACE();
	struct view *v = session(6);
	assert_true(v->clustered);
	check_six(v->vc);
	assert_int_equal(v->sel_row, 0);
	/* down to the cluster of eight, open it, close it from a member */
	view_action(v, ACT_MOVE_DOWN);
	assert_int_equal(sel_row(v)->group, 1);
	view_action(v, ACT_CLUSTER_TOGGLE);
	assert_true(view_cluster_expanded(v->vc, 1));
	assert_int_equal(view_row_count(v), 14);
	assert_int_equal(sel_row(v)->rank, TRACE_NONE);       /* still on the cluster's row */
	view_action(v, ACT_MOVE_DOWN);
	view_action(v, ACT_MOVE_DOWN);
	assert_int_equal(sel_row(v)->rank, 4);
	assert_int_equal(v->sel_rank, 4);
	char label[32];
	view_row_label(v, v->sel_row, label, sizeof label);
	assert_string_equal(label, "  r4");
	view_row_label(v, 1, label, sizeof label);
	assert_string_equal(label, "c1 r4+7");
	view_action(v, ACT_CLUSTER_TOGGLE);
	assert_false(view_cluster_expanded(v->vc, 1));
	assert_int_equal(v->sel_row, 1);
	/* one level coarser and back */
	view_action(v, ACT_CLUSTER_JOIN);
	assert_int_equal(view_cluster_level(v->vc), 5);
	view_action(v, ACT_CLUSTER_SPLIT);
	check_six(v->vc);
	/* rank zoom does not apply to clusters */
	view_action(v, ACT_ZOOM_RANKS_OUT);
	assert_int_equal(v->zr, 1);
	assert_non_null(strstr(v->message, "rows are clusters"));
	/* the command line */
	view_command(v, "clusters 3");
	assert_int_equal(view_cluster_level(v->vc), 3);
	view_command(v, "clusters 0");
	assert_true(v->message_error);
	view_command(v, "clusters off");
	assert_false(v->clustered);
	view_action(v, ACT_CLUSTER_TOGGLE);
	assert_true(v->message_error);                      /* not clustered */
	view_action(v, ACT_CLUSTERS);
	assert_true(v->clustered);
	assert_int_equal(view_cluster_level(v->vc), 3);      /* the last K asked for */
	view_destroy(v);
}

/* Jumps land on the rank, opening its cluster. */
static void
jumps_expand_the_cluster(void **state)
{
	(void)state;
	NEED_TRACE();
	struct view *v = session(6);
	/* the hotspots: the first on a rank of a cluster of several */
	uint32_t nh;
	const uint32_t *hot = analysis_hotspots(an, &nh);
	int idx = -1;
	for (uint32_t i = 0; i < nh && idx < 0; i++) {
		uint32_t cnt;
		view_cluster_members(v->vc, view_cluster_group_of(v->vc, analysis_lop_timeline(an, hot[i])), &cnt);
		if (cnt > 1)
			idx = (int)i;
	}
	assert_true(idx >= 0);
	uint32_t rank = analysis_lop_timeline(an, hot[idx]);
	uint32_t g = view_cluster_group_of(v->vc, rank);
	assert_false(view_cluster_expanded(v->vc, g));
	v->hot_idx = idx - 1;
	view_action(v, ACT_NEXT_HOTSPOT);
	assert_int_equal(v->sel_lop, hot[idx]);
	assert_int_equal(v->sel_rank, rank);
	assert_true(view_cluster_expanded(v->vc, g));
	assert_int_equal(sel_row(v)->rank, rank);
	assert_int_equal(v->sel_row, view_cluster_row_of(v->vc, rank));
	/* the top hotspot is rank 11, alone in its cluster: its cluster's row */
	v->hot_idx = -1;
	view_action(v, ACT_NEXT_HOTSPOT);
	assert_int_equal(v->sel_rank, analysis_lop_timeline(an, hot[0]));
	assert_int_equal(sel_row(v)->group, view_cluster_group_of(v->vc, v->sel_rank));
	assert_int_equal(v->sel_lop, hot[0]);
	/* goto rank and search */
	view_action(v, ACT_CLUSTER_COLLAPSE_ALL);
	view_command(v, "rank 10");
	assert_int_equal(v->sel_rank, 10);
	assert_int_equal(sel_row(v)->rank, 10);
	assert_true(view_cluster_expanded(v->vc, view_cluster_group_of(v->vc, 10)));
	view_action(v, ACT_CLUSTER_COLLAPSE_ALL);
	view_command(v, "rank 12");
	view_command(v, "step 5");
	view_command(v, "search Allreduce");
	assert_int_not_equal(v->sel_lop, TRACE_NONE);
	assert_int_equal(v->sel_row, view_cluster_row_of(v->vc, v->sel_rank));
	assert_int_equal(analysis_lop_timeline(an, v->sel_lop), v->sel_rank);
	view_destroy(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clustering_finds_the_groups),
		cmocka_unit_test(rows_expand_and_collapse),
		cmocka_unit_test(session_keys_and_commands),
		cmocka_unit_test(jumps_expand_the_cluster),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

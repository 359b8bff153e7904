/* test_view_state.c — a saved view (view_get_state, as :save records it)
 * reopens with the cursor on the operation it was on, on
 * wavefront-9-delay (9 ranks on a diagonal sweep: each rank has an
 * operation at few of the steps). Each position is reached by keys from
 * rank 0, step 0; its state is taken and a second view opened from it
 * (view_opts.initial, as --config does); the two must agree on the
 * selected rank, step and row, the operation under the cursor, whether
 * it was jumped to, the zoom and the screen. The YAML's part of the
 * round trip is tests/cli.sh's. */
#include "testutil.h"
#include "testview.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/core/iterations.h"
#include "view/view_impl.h"

static struct trace *tr;
static struct analysis *an;

static int
setup(void **state)
{
	(void)state;
	tr = tu_load_corpus("wavefront-9-delay");
	an = tu_analyse(tr, NULL);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	analysis_destroy(an);
	trace_destroy(tr);
	return 0;
}

struct pos {
	uint32_t rank, step, row, lop, zs, zr;
	int pinned;
	struct view_state st;
	char *screen;
};

/* Opens a view (at initial when given, else at rank 0 step 0), presses
 * keys and records where it is. */
static void
open_at(const char *keys, const struct view_state *initial, struct pos *p)
{
	struct view *v = NULL;
	struct err e = { 0 };
	struct view_opts vo = { .label = "wavefront-9-delay", .this_host = TU_HOST, .this_machine = TU_MACHINE,
				.start_origin = 1, .initial = initial };
	assert_int_equal(view_create(an, &vo, &v, &e), 0);
	struct grid *g = grid_create(100, 30);
	assert_non_null(g);
	view_draw(v, g);
	tv_press(v, g, keys);
	tv_press(v, g, "<Esc>");        /* the keys' message: a reopened view has none */
	view_draw(v, g);
	*p = (struct pos){ .rank = v->sel_rank, .step = v->sel_step, .row = v->sel_row, .lop = v->sel_lop,
			   .zs = v->zs, .zr = v->zr, .pinned = v->pinned, .screen = tv_text(g, DEPTH_NONE, 0) };
	view_get_state(v, &p->st);
	p->st.side = p->st.focus = NULL;      /* static strings of no use here */
	grid_destroy(g);
	view_destroy(v);
}

/* Saves the view after keys and reopens it: the same place. */
static void
round_trip(const char *keys, struct pos *was)
{
	struct pos now;
	open_at(keys, NULL, was);
	open_at("", &was->st, &now);
	if (now.lop != was->lop || now.pinned != was->pinned || now.rank != was->rank || now.step != was->step ||
	    now.row != was->row || now.zs != was->zs || now.zr != was->zr || strcmp(now.screen, was->screen))
		fail_msg("after '%s': rank %u step %u lop %u (pinned %d), reopened rank %u step %u lop %u (pinned %d)\n"
			 "%s\nreopened:\n%s", keys, was->rank, was->step, was->lop, was->pinned, now.rank, now.step,
			 now.lop, now.pinned, was->screen, now.screen);
	free(now.screen);
}

/* Zoomed out to two steps a column, a move leaves the cursor on the
 * cell's maximum, which need not be at the selected step: it was
 * reopened on the operation at that step, one over (rank 1, step 10,
 * zoomed out, one column left: steps 8-9, the status line's step 8,
 * the maximum rank 1's operation of step 9; reopened on its step 8). */
static void
move_in_zoomed_cell(void **state)
{
	(void)state;
	struct pos p;
	round_trip(":rank 1<Enter>:step 10<Enter>-h", &p);
	assert_int_equal(p.zs, 2);
	assert_int_equal(p.step, 8);
	assert_false(p.pinned);
	assert_int_not_equal(p.lop, TRACE_NONE);
	assert_int_equal(analysis_lop_timeline(an, p.lop), 1);
	assert_int_equal(analysis_lop_step(an, p.lop), 9);
	/* the operation that was taken instead: rank 1's at step 8 */
	uint32_t first, n, at8 = TRACE_NONE;
	analysis_timeline_lops(an, 1, &first, &n);
	for (uint32_t l = first; l < first + n; l++)
		if (analysis_lop_step(an, l) == 8)
			at8 = l;
	assert_int_not_equal(at8, TRACE_NONE);
	free(p.screen);
	/* a jump then a zoom: the operation jumped to, pinned, even when it
	 * is the cell's maximum */
	round_trip(">-", &p);
	assert_true(p.pinned);
	free(p.screen);
}

/* The first and the last operation of a partition on a rank: ] jumps to
 * a partition's first, the timeline's Left from there to the previous
 * partition's last; at one and at two steps a column. */
static void
partition_ends(void **state)
{
	(void)state;
	static const char *const keys[] = { ":rank 4<Enter>]]]", ":rank 4<Enter>]]]<Tab><Tab><Left>",
					    ":rank 4<Enter>-]]]", ":rank 4<Enter>-]]]<Tab><Tab><Left>",
					    ":rank 4<Enter>-]]]<Tab><Tab><Left><Tab>l" };
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		struct pos p;
		round_trip(keys[i], &p);
		assert_int_equal(p.rank, 4);
		assert_int_not_equal(p.lop, TRACE_NONE);
		uint32_t first, end, part = analysis_lop_part(an, p.lop);
		if (i < 4) {
			/* where the keys went: a partition's first or last on rank 4 */
			assert_true(p.pinned);
			analysis_timeline_lops(an, 4, &first, &end);
			end += first;
			int is_first = p.lop == first || analysis_lop_part(an, p.lop - 1) != part;
			int is_last = p.lop + 1 == end || analysis_lop_part(an, p.lop + 1) != part;
			assert_true(i % 2 ? is_last : is_first);
		}
		free(p.screen);
	}
}

/* A rank with no operation at the selected step: at one step a column
 * no operation is under the cursor; at two, the cell's other step's. */
static void
missing_step(void **state)
{
	(void)state;
	uint32_t first, end, s = 1;
	analysis_timeline_lops(an, 1, &first, &end);
	end += first;
	/* the first step after rank 1's first operation where it has none */
	for (uint32_t l = first; l + 1 < end; l++)
		if (analysis_lop_step(an, l + 1) > analysis_lop_step(an, l) + 1) {
			s = analysis_lop_step(an, l) + 1;
			break;
		}
	for (uint32_t l = first; l < end; l++)
		assert_int_not_equal(analysis_lop_step(an, l), s);
	char keys[96];
	const char *const zoom[] = { "", "-", "--", "-l", "-h" };
	for (size_t i = 0; i < sizeof zoom / sizeof *zoom; i++) {
		snprintf(keys, sizeof keys, ":rank 1<Enter>:step %u<Enter>%s", s, zoom[i]);
		struct pos p;
		round_trip(keys, &p);
		assert_int_equal(p.rank, 1);
		if (i == 0) {
			assert_int_equal(p.step, s);
			assert_int_equal(p.lop, TRACE_NONE);
		}
		free(p.screen);
	}
}

/* :iter to an iteration where the rank has no operation selects its
 * first step, as :step does, and lets go of an operation jumped to
 * before, even one in the same cell: on wavefront-9-delay rank 8 has
 * none in iteration 0 (steps 2-17), and at four steps a column its
 * operation of step 0, jumped to by :partition 0, shares step 2's cell.
 * The operation stayed pinned: the saved view said step 0, jumped. */
static void
iter_without_operation(void **state)
{
	(void)state;
	const struct iterations *it = iterations_get(an);
	assert_true(it->count > 1);
	assert_int_equal(it->starts[0], 2);
	uint32_t first, n;
	analysis_timeline_lops(an, 8, &first, &n);
	for (uint32_t l = first; l < first + n; l++)
		assert_true(analysis_lop_step(an, l) < it->starts[0] || analysis_lop_step(an, l) >= it->starts[1]);
	struct pos p, q;
	round_trip(":rank 8<Enter>:partition 0<Enter>:zoom 4<Enter>", &p);
	assert_true(p.pinned);
	assert_int_equal(p.zs, 4);
	assert_int_equal(analysis_lop_step(an, p.lop), 0);
	free(p.screen);
	round_trip(":rank 8<Enter>:partition 0<Enter>:zoom 4<Enter>:iter 0<Enter>", &p);
	open_at(":rank 8<Enter>:partition 0<Enter>:zoom 4<Enter>:step 2<Enter>", NULL, &q);
	assert_false(p.pinned);
	assert_false(p.st.jumped);
	assert_int_equal(p.rank, 8);
	assert_int_equal(p.st.sel_step, 2);
	assert_int_equal(p.lop, q.lop);
	assert_int_equal(p.st.sel_step, q.st.sel_step);
	assert_int_equal(p.st.jumped, q.st.jumped);
	free(p.screen);
	free(q.screen);
}

/* Rows of clusters: the cluster's row after a jump and after a move,
 * and a rank's own row. */
static void
clustered(void **state)
{
	(void)state;
	static const char *const keys[] = { "C>", "C>l", "C>-l", "C:rank 4<Enter>", "C:rank 4<Enter>-l" };
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		struct pos p;
		round_trip(keys[i], &p);
		free(p.screen);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(move_in_zoomed_cell),
		cmocka_unit_test(partition_ends),
		cmocka_unit_test(missing_step),
		cmocka_unit_test(clustered),
		cmocka_unit_test(iter_without_operation),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* test_view_blocks.c — the grid's and the timeline's blocks of lops
 * (view_index.c, view_timeline.c) change no screen: for key scripts that
 * zoom the grid and the timeline out (the whole trace fitted, steps and
 * time zoomed), in several metrics, on traces in time order and
 * reordered (receives moved ahead), the screen with blocks of 1 to 32
 * lops, and the grid's and timeline's cells behind it, equal those
 * without them (blocks too large to be used), and
 * the blocks were read (a test that could not fail otherwise: the small
 * corpus traces would not call for them at their usual sizes). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "view/model/view_index.h"
#include "view/surface/grid.h"
#include "view/surface/keymap.h"
#include "view/view_impl.h"

#include "testview.h"

#define OFF (1u << 30)           /* a block size no range reaches */

/* Under TSan a screen costs some sixteen times the plain build's (the
 * whole test took 86 s there, 5 s plain): the TSan run draws at one
 * terminal size, with three of the block sizes, two of the four MPI
 * cases (a trace in time order, one reordered) and the Charm++ run (each
 * still reads its blocks thousands of times); the plain and ASan runs
 * draw them all. The drawing's threads are the same either way. */
#if defined(__SANITIZE_THREAD__)
#define VB_LIGHT 1
#else
#define VB_LIGHT 0
#endif

/* text, then the grid's and the timeline's cells as the frame left them
 * (their lops, counts and values: what a block changes may not show on
 * the screen), in a new string; text freed. */
static char *
cells(const struct view *v, char *text)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	fputs(text, f);
	free(text);
	for (size_t i = 0; v->gc_valid && i < (size_t)v->gc_key[4] * (size_t)v->gc_key[5]; i++)
		fprintf(f, "g %u %u %llu %u\n", v->gc[i].rep, v->gc[i].count, (unsigned long long)v->gc[i].value,
			v->gc[i].kinds);
	for (size_t i = 0; v->tl_valid && i < (size_t)v->tl_rows * (size_t)v->tl_w; i++)
		fprintf(f, "t %u %u %u %u\n", v->tl[i].top, v->tl[i].dom, v->tl[i].kinds, v->tl[i].hot);
	fclose(f);
	return buf;
}

/* The screen after keys at w x h with blocks of gsize lops in the grid's
 * index and tsize in the timeline (OFF: none); the blocks read whole in
 * *used. */
static char *
screen(const struct analysis *a, const char *keys, int w, int h, uint32_t gsize, uint32_t tsize, uint64_t *used)
{
	struct view *v = NULL;
	struct err e = { 0 };
	struct view_opts vo = { 0 };
	assert_int_equal(view_create(a, &vo, &v, &e), 0);
	assert_int_equal(view_index_set_block_size(v->ix, gsize), 0);
	v->tlb.size = tsize;
	if (tsize != OFF)
		assert_true(view_tl_blocks(v));
	struct grid *g = grid_create(w, h);
	assert_non_null(g);
	view_draw(v, g);
	tv_press(v, g, keys);
	*used = view_index_blocks_used(v->ix) + v->tl_blk_used;
	char *buf = cells(v, tv_text(g, DEPTH_256, 0));
	grid_destroy(g);
	view_destroy(v);
	return buf;
}

static void
same_screens_of(const char *trace, struct trace *t, struct analysis *a, const char *const *scripts, size_t n,
		uint32_t kept);

/* Under TSan the key scripts drawn: a greedy cover, by gcov counts
 * script by script (2026-12-02), of the lines the TSan run's scripts
 * ran in the files that use the worker pool: the MPI cases' 4, 7, 11 and
 * 13, the Charm++ run's 4, 8 and 10 (zoomed on the timeline, a category
 * metric, start-up counted; the duration zoomed out, a resize); every
 * metric's blocks are also built and read on the workers in
 * index_blocks. A bit of light_mpi or light_charm for each script
 * (same_screens_of's kept). */
static const uint32_t light_mpi = 1u << 4 | 1u << 7 | 1u << 11 | 1u << 13;
static const uint32_t light_charm = 1u << 4 | 1u << 8 | 1u << 10;

static void
same_screens(const char *trace, int reorder, const char *const *scripts, size_t n)
{
	struct trace *t = tu_load_corpus(trace);
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.reorder = reorder;       /* receives moved ahead: lops out of time order */
	o.leap_merge = reorder;
	same_screens_of(trace, t, tu_analyse(t, &o), scripts, n, light_mpi);
}

static void
same_screens_of(const char *trace, struct trace *t, struct analysis *a, const char *const *scripts, size_t n,
		uint32_t kept)
{
	static const uint32_t all[][2] = { { 1, 1 }, { 2, 3 }, { 3, 2 }, { 8, 32 }, { 5, OFF }, { OFF, 4 } };
	static const uint32_t light[][2] = { { 1, 1 }, { 8, 32 }, { OFF, 4 } };
	const uint32_t(*sizes)[2] = VB_LIGHT ? light : all;
	size_t n_sizes = VB_LIGHT ? sizeof light / sizeof *light : sizeof all / sizeof *all;
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < (VB_LIGHT ? 1 : 2); d++) {
			if (VB_LIGHT && !(kept >> i & 1))
				continue;
			int w = d ? 200 : 120, h = d ? 60 : 40;
			uint64_t none;
			char *y = screen(a, scripts[i], w, h, OFF, OFF, &none);
			assert_int_equal(none, 0);
			for (size_t s = 0; s < n_sizes; s++) {
				uint64_t used;
				char *x = screen(a, scripts[i], w, h, sizes[s][0], sizes[s][1], &used);
				if (strcmp(x, y))
					print_error("%s, keys %s, %dx%d, blocks %u/%u: the screens differ\n"
						    "--- blocks\n%s--- lop by lop\n%s", trace, scripts[i], w, h,
						    sizes[s][0], sizes[s][1], x, y);
				assert_string_equal(x, y);
				total += used;
				free(x);
			}
			free(y);
		}
	/* the blocks were used, by the grid and by the timeline */
	assert_true(total > 1000);
	analysis_destroy(a);
	trace_destroy(t);
}

static const char *const scripts[] = {
	"f",                         /* the whole trace fitted */
	"f<Tab><Tab>",               /* and the timeline focused */
	"-----",                     /* zoomed out by steps */
	"--->>",                     /* on a problem */
	"fjjjj",
	"<Tab><Tab>f",               /* the timeline's own fit: time zoomed */
	"<Tab><Tab>f++",
	"<Tab><Tab>f+hhh",
	":metric diff<Enter>f",
	":metric duration<Enter>---",
	":metric function<Enter>f",  /* a category */
	":metric partition<Enter>--",
	":metric wait<Enter>f",
	"S-f",                       /* start-up counted (if bound) */
	"f<Resize:80x24>",
	"f<Resize:300x90>",
};

static void
mpi_blocks(void **state)
{
	(void)state;
	if (!VB_LIGHT)
		same_screens("lammps-melt-4", 0, scripts, sizeof scripts / sizeof *scripts);
	same_screens("wavefront-9-delay", 0, scripts, sizeof scripts / sizeof *scripts);
	if (!VB_LIGHT)
		same_screens("gen-gather-6-delay", 1, scripts, sizeof scripts / sizeof *scripts);
	same_screens("lammps-melt-4", 1, scripts, sizeof scripts / sizeof *scripts);
}

/* A Charm++ run's PE timeline (view_charm.c): each PE's lops in time
 * order claimed by blocks of them where one falls in one cell, in the
 * seed 004 metrics (the cell's hot lop: the block's first largest), the
 * rows on every core; the same cells as lop by lop. */
static const char *const charm_scripts[] = {
	"f",
	"f<Tab><Tab>",
	"<Tab><Tab>f",
	"<Tab><Tab>f++",
	"<Tab><Tab>f+hhh",
	":metric diff-duration<Enter>f",
	":metric idle<Enter>f",
	":metric imbalance<Enter>f1f",
	":metric duration<Enter>---",
	":metric function<Enter>f",
	"f<Resize:80x24>",
	"f<Resize:300x90>",
};

static void
charm_blocks(void **state)
{
	(void)state;
	const char *run = "projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts";
	struct trace *t = tu_load_charm(run);
	if (!t)
		skip();
	same_screens_of(run, t, tu_analyse(t, NULL), charm_scripts, sizeof charm_scripts / sizeof *charm_scripts,
			light_charm);
}

/* The index's blocks alone: every aggregate of ranks x steps equals the
 * lop-by-lop one, at every block size (the representative, its value,
 * the count and the kinds). Under TSan the ranges start every 388 steps
 * where every 97: the blocks are built on the workers once a size and
 * metric (every one still), the queries read them on this thread. */
static void
index_blocks(void **state)
{
	(void)state;
	struct trace *t = tu_load_corpus("lammps-melt-4");
	struct analysis *a = tu_analyse(t, NULL);
	struct view_index *ix, *ref;
	struct err e = { 0 };
	assert_int_equal(view_index_create(a, &ix, &e), 0);
	assert_int_equal(view_index_create(a, &ref, &e), 0);
	assert_int_equal(view_index_set_block_size(ref, OFF), 0);
	uint32_t nr = view_index_ranks(ix), ns = view_index_steps(ix);
	static const enum view_metric ms[] = { METRIC_LATENESS, METRIC_DIFF, METRIC_DURATION, METRIC_FUNCTION,
					       METRIC_PARTITION, METRIC_WAIT };
	for (uint32_t bs = 1; bs <= 33; bs += 4) {
		assert_int_equal(view_index_set_block_size(ix, bs), 0);
		for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
			for (uint32_t s0 = 0; s0 < ns; s0 += VB_LIGHT ? 4 * 97 : 97)
				for (uint32_t len = 1; s0 + len <= ns + 40; len = len * 3 + 1)
					for (uint32_t r0 = 0; r0 < nr; r0++) {
						uint32_t rep, rep2, c, c2;
						unsigned k = 0, k2 = 0;
						uint64_t x = view_index_block(ix, ms[mi], r0, r0 + 2, s0, s0 + len, &rep, &c, &k);
						uint64_t y = view_index_block(ref, ms[mi], r0, r0 + 2, s0, s0 + len, &rep2, &c2,
									      &k2);
						assert_int_equal(x, y);
						assert_int_equal(rep, rep2);
						assert_int_equal(c, c2);
						assert_int_equal(k, k2);
					}
	}
	assert_true(view_index_blocks_used(ix) > 10000);
	assert_int_equal(view_index_blocks_used(ref), 0);
	view_index_destroy(ix);
	view_index_destroy(ref);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_blocks),
		cmocka_unit_test(mpi_blocks),
		cmocka_unit_test(charm_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

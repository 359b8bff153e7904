/* test_view_prefetch.c — the panes' whole-trace tables computed ahead
 * on a thread (view_prefetch.c) give the screens the panes give when
 * they compute on opening, and are the ones the panes show: for key
 * scripts through the profile, the matrix, the wait states and lateness
 * per rank, each screen with the thread started after the first draw
 * equals the screen without it, whether the keys come at once (panes
 * taking what is ready, waiting for a job running, computing for one not
 * begun) or once every job is done, when the jobs the script's panes
 * open on must have been taken. A filter or another scope set before a pane opens makes
 * it compute as before (the job's result is left). The lists pane's
 * rows kept between the lists come back for their own scope only. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "view/surface/grid.h"
#include "view/surface/keymap.h"
#include "view/view_impl.h"

#include "testview.h"

/* The threads of this process not on their way out (/proc/self/task:
 * a task whose flags, the ninth field of its stat, hold PF_EXITING, 4,
 * has left its own code; the kernel lists a joined thread a moment after
 * pthread_join returns), or 0 where there is no /proc. */
static int
thread_count(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	for (struct dirent *x; d && (x = readdir(d));) {
		if (x->d_name[0] == '.')
			continue;
		char path[300], line[512];
		unsigned long flags = 0;
		snprintf(path, sizeof path, "/proc/self/task/%s/stat", x->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;               /* gone meanwhile */
		const char *p = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1 && !(flags & 4))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* The screen after keys from a first screen of w x h (the keys may
 * resize it), with the jobs started after the first draw (ahead 1: the
 * keys at once, the panes taking what is ready, waiting for a job
 * running, computing for one not begun; 2: the keys once every job is
 * done) or not (0), drawn in colour depth d; *taken: the jobs a pane
 * took. */
static char *
screen_at(const struct analysis *a, int w, int h, const char *keys, int ahead, enum grid_depth d,
	  unsigned *taken)
{
	struct view *v = NULL;
	struct err e = { 0 };
	struct view_opts vo = { 0 };
	assert_int_equal(view_create(a, &vo, &v, &e), 0);
	struct grid *g = grid_create(w, h);
	assert_non_null(g);
	view_draw(v, g);
	int threads = thread_count();
	if (ahead)
		view_prefetch_start(v);
	if (ahead == 2) {
		view_prefetch_wait(v);
		/* the thread, and any workers it made, have ended: the
		 * topology pane forks hwloc's process then (view_topo.c) */
		assert_int_equal(thread_count(), threads);
	}
	tv_press(v, g, keys);
	*taken = view_prefetch_taken(v);
	char *buf = tv_text(g, d, 0);
	grid_destroy(g);
	view_destroy(v);
	return buf;
}

/* At 120x40, without colour. */
static char *
screen(const struct analysis *a, const char *keys, int ahead, unsigned *taken)
{
	return screen_at(a, 120, 40, keys, ahead, DEPTH_NONE, taken);
}

struct script {
	const char *keys;
	unsigned taken;              /* the jobs it must take */
};

static void
same_screens(const char *trace, const struct script *sc, size_t n)
{
	struct trace *t = tu_load_corpus(trace);
	struct analysis *a = tu_analyse(t, NULL);
	for (size_t i = 0; i < n; i++) {
		unsigned with, at_once, without;
		char *x = screen(a, sc[i].keys, 2, &with);
		char *z = screen(a, sc[i].keys, 1, &at_once);
		char *y = screen(a, sc[i].keys, 0, &without);
		if (strcmp(x, y) || strcmp(z, y))
			print_error("%s, keys %s: the screens differ\n--- ahead\n%s--- at once\n%s--- on opening\n%s",
				    trace, sc[i].keys, x, z, y);
		assert_string_equal(x, y);
		assert_string_equal(z, y);
		assert_int_equal(at_once & ~sc[i].taken, 0);     /* never one it should not */
		free(z);
		if (with != sc[i].taken)
			print_error("%s, keys %s: took jobs %#x, not %#x\n", trace, sc[i].keys, with, sc[i].taken);
		assert_int_equal(with, sc[i].taken);
		assert_int_equal(without, 0);
		free(x);
		free(y);
	}
	analysis_destroy(a);
	trace_destroy(t);
}

#define P (1u << PF_PROFILE)
#define C (1u << PF_COMM)
#define W (1u << PF_WAITS)
#define R (1u << PF_RANKS)

static void
mpi_panes(void **state)
{
	(void)state;
	static const struct script sc[] = {
		{ "p", P },
		{ "pjjv", P },              /* a region's ranks */
		{ "pooo", P },              /* sorted again */
		{ "a", C },
		{ "avvvv", C },             /* the matrix's other views */
		{ "ivv", W },               /* the wait states */
		{ "ivvv", W | R },          /* and lateness per rank */
		{ "ivvvo", W | R },
		{ "pqaqivvv", P | C | W | R },
		{ "pw", P },                /* another scope: computed on change */
		{ ":ranks 0,2<Enter>p", 0 },  /* a filter: computed as before */
		{ ":window 0.3 0.4<Enter>a", 0 },
	};
	same_screens("stencil-4-delay", sc, sizeof sc / sizeof *sc);
	same_screens("lammps-melt-4", sc, sizeof sc / sizeof *sc);
}

/* The lists pane keeps each list's rows when v moves on to the next, and
 * takes them back when it comes round again, for the same scope only: a
 * round of v (five lists) shows what the first visit showed, and a
 * scope changed on the way (w) shows the new scope's rows, as the list
 * opened in that scope does (the kept rows of the whole trace must not
 * come back: "problems · 20" against "problems · 2"). */
static void
lists_kept(void **state)
{
	(void)state;
	static const char *const pairs[][2] = {
		{ "ivvvvv", "i" },           /* problems again */
		{ "ivvvvvv", "iv" },         /* hotspots again */
		{ "ivvvvvvvv", "ivvv" },     /* lateness per rank again */
		{ "ivwvvvv", "iw" },         /* another scope on the way */
		{ "ivvvwvv", "iw" },
		{ "ivvvvvwvvvvvv", "iwv" },
	};
	const char *traces[] = { "lammps-melt-4", "stencil-4-delay" };
	for (size_t k = 0; k < 2; k++) {
		struct trace *t = tu_load_corpus(traces[k]);
		struct analysis *a = tu_analyse(t, NULL);
		for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
			for (int ahead = 0; ahead <= 2; ahead += 2) {
				unsigned taken;
				char *x = screen(a, pairs[i][0], ahead, &taken);
				char *y = screen(a, pairs[i][1], ahead, &taken);
				if (strcmp(x, y))
					print_error("%s, keys %s against %s: the screens differ\n--- round\n%s--- direct\n%s",
						    traces[k], pairs[i][0], pairs[i][1], x, y);
				assert_string_equal(x, y);
				free(x);
				free(y);
			}
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* A Charm++ run whose first screen (60x8) is too small for the PE
 * timeline: the thread builds the PE index (PF_PES), which the timeline
 * takes when a resize makes room for it; the screen, in colour (the PE
 * rows' metric), is the one the index built on the spot gives. */
static void
charm_pes_ahead(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts");
	if (!t)
		skip();
	struct analysis *a = tu_analyse(t, NULL);
	unsigned with, without;
	const char *keys = "<Resize:120x40>f:metric idle<Enter>";
	char *x = screen_at(a, 60, 8, keys, 2, DEPTH_256, &with);
	char *y = screen_at(a, 60, 8, keys, 0, DEPTH_256, &without);
	assert_string_equal(x, y);
	assert_true(with & (1u << PF_PES));
	assert_int_equal(without, 0);
	free(x);
	free(y);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mpi_panes),
		cmocka_unit_test(lists_kept),
		cmocka_unit_test(charm_pes_ahead),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* explore.c — the explorer's event loop.
 *
 * Read a key, let the view turn it into an action, draw the view into a
 * grid, show the grid. Keys that arrive together (a held-down key over a
 * slow link) are all handled before one redraw. Ctrl-C is a key while
 * the screen is open: it cancels a prompt, and elsewhere stops skein the
 * way SIGINT does. SKEIN_FRAME_LOG=FILE
 * appends one line per frame with the milliseconds spent in the view and
 * in curses, for doc/explorer.md's measurements.
 */
#include "explore.h"

#include "cli.h"
#include "history.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int
explore_run(const struct analysis *a, const struct view_opts *vo, const struct explore_opts *eo,
	    char *msg, size_t n)
{
	struct view *v = NULL;
	struct err e = { 0 };
	if (view_create(a, vo, &v, &e)) {
		snprintf(msg, n, "%s", e.msg);
		return -1;
	}
	return explore_view(v, eo, msg, n);
}

int
explore_view(struct view *v, const struct explore_opts *eo, char *msg, size_t n)
{
	char hist[4096];
	int have_hist = history_path(hist, sizeof hist) == 0;
	if (have_hist)
		history_load(v, hist);
	if (screen_open(eo->color, eo->ascii, eo->mouse, msg, n)) {
		view_destroy(v);
		return -1;
	}
	view_set_colourless(v, screen_depth() == DEPTH_MONO);
	const char *logpath = getenv("SKEIN_FRAME_LOG");
	FILE *log = logpath && *logpath ? fopen(logpath, "a") : NULL;
	int w, h;
	screen_size(&w, &h);
	struct grid *g = grid_create(w, h);
	int full = 1, rc = 0;
	if (!g) {
		snprintf(msg, n, "out of memory");
		rc = -1;
	}
	int dirty = 1;
	while (g && !screen_interrupted() && !view_done(v)) {
		if (dirty) {
			double t0 = now_ms();
			view_draw(v, g);
			double t1 = now_ms();
			screen_present(g, full);
			view_prefetch_start(v);      /* once: the panes' tables, ahead */
			double t2 = now_ms();
			if (log)
				fprintf(log, "view %.3f ms  curses %.3f ms  %dx%d%s\n", t1 - t0, t2 - t1,
					g->w, g->h, full ? "  full" : "");
			full = dirty = 0;
		}
		/* wait for a key (waking now and then to notice signals), then
		 * take every key already queued before drawing again */
		uint32_t key = screen_key(1000);
		while (key && !screen_interrupted()) {
			dirty = 1;
			if (key == SCREEN_RESIZED) {
				screen_size(&w, &h);
				if (grid_resize(g, w, h)) {
					snprintf(msg, n, "out of memory");
					rc = -1;
					break;
				}
				full = 1;
			} else if (key == KM_CTRL('c') && !view_prompt_open(v)) {
				/* outside a prompt Ctrl-C stops skein as SIGINT does
				 * (the terminal sends it as a key: screen.h) */
				raise(SIGINT);
				break;
			} else {
				view_key(v, key);
				if (view_take_repaint(v))
					full = 1;
				if (view_done(v))
					break;
			}
			key = screen_key(0);
		}
		if (rc)
			break;
	}
	screen_close();
	char why[4300];
	if (have_hist && view_history_changed(v) && history_save(v, hist, why, sizeof why))
		cli_error("%s (the prompts' history is not kept)", why);
	if (log)
		fclose(log);
	grid_destroy(g);
	view_destroy(v);
	return rc;
}

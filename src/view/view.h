/* view.h — the explorer, headless: its state, its panes and their actions.
 *
 * A view session owns what the user sees of one analysis: the selection,
 * the window of ranks and steps, zoom, metric, focus, overlays and the
 * command line. It turns keys into actions (keymap.h), actions into state
 * changes, and state into cells (view_draw). It never talks to a
 * terminal: tui/ feeds it keys and draws its grid with ncurses, and
 * view_render() runs the same code for `skein render` and the tests.
 *
 *   view_create → (view_key | view_action | view_draw)… → view_destroy
 *
 * The analysis (and its trace) must outlive the session.
 */
#ifndef SKEIN_VIEW_H
#define SKEIN_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "view/surface/action.h"
#include "analysis/core/analysis.h"
#include "analysis/mem/mem.h"
#include "base/err.h"
#include "view/surface/grid.h"
#include "view/surface/keymap.h"
#include "view/model/view_index.h"

struct view;

/* What a saved view records: what `:save` writes and --config restores. */
struct view_state {
	enum view_metric metric;
	uint32_t sel_rank, sel_step;
	int jumped;                 /* the details show the operation at sel_rank,
	                               sel_step, jumped to (1), or the cell's
	                               maximum (0); set: -1 for that operation when
	                               it is not the maximum (a file saved before
	                               this was recorded) */
	uint32_t zoom_steps, zoom_ranks;
	uint32_t clusters;          /* cluster groups shown; 0: rows of ranks */
	int window;                 /* win_* hold a window to restore */
	uint32_t win_step, win_rank;     /* first step and rank in view */
	uint32_t win_steps, win_ranks;   /* how many were in view (get only) */
	const char *side;           /* get only: the side pane shown ("details",
	                               "topology", "histogram"), NULL when none */
	const char *focus;          /* get only: the focused pane's name (a static
	                               string; the focus is set by view_opts.focus) */
	int rank_row;               /* with clusters: the selection is on the rank's
	                               own row (its cluster open), not its cluster's;
	                               get sets win_rank and win_ranks to the
	                               selected row's ranks, first to last */
};

/* Writes st to path for `:save PATH`; returns 0 or an ERR_* code with a
 * message in e (shown on the status line). */
typedef int (*view_save_fn)(void *ud, const struct view_state *st, const char *path,
			    struct err *e);

struct view_opts {
	const char *label;          /* shown in the status line (the trace path) */
	enum view_metric metric;    /* initial colouring; METRIC_LATENESS is 0 */
	const char *pane;           /* NULL: the whole screen; else one pane alone:
	                               "grid", "overview", "timeline", "details", "help",
	                               "topology", "histogram" */
	const struct keymap *keys;  /* NULL: the built-in bindings; borrowed */
	uint32_t clusters;          /* start with rows of ranks clustered by lateness,
	                               at most this many (1..20); 0: as the analysis'
	                               clusters option says (0 there: rows of ranks) */
	view_save_fn save;          /* `:save PATH`; NULL: the command says it can't */
	void *save_ud;
	const struct view_state *initial;   /* a saved view to start from, or NULL */
	/* Without a saved view the explorer opens at the top hotspot (or,
	 * without one, fits a trace wider than the screen); start_origin
	 * opens at rank 0, step 0 instead (the golden tests). */
	int start_origin;
	/* The topology pane's hardware: an hwloc XML file, else an hwloc
	 * synthetic description ("pack:2 core:18 pu:1"), else (both NULL)
	 * the machine skein runs on. Copied; loaded when the pane is first
	 * drawn (errors show in the pane). */
	const char *topology;
	const char *topology_synthetic;
	/* The machine skein runs on, which stands in when neither is given:
	 * its name, to tell whether the trace ran here (NULL: gethostname),
	 * and its hardware as an hwloc synthetic description (NULL: hwloc's
	 * reading of the machine). Copied. The tests pin both, so that no
	 * screen depends on the machine it is drawn on. */
	const char *this_host;
	const char *this_machine;
	/* How ranks are placed on it (topo.h): by the trace's system tree
	 * (default), in blocks of placement_n per node, round-robin, or
	 * explicitly (placement_pu: the global PU of each rank; borrowed until
	 * the view is created, then copied). */
	int placement;              /* enum topo_placement */
	uint32_t placement_n;
	const uint32_t *placement_pu;
	uint32_t n_placement_pu;
	uint64_t scale_min, scale_max;      /* a fixed colour scale in ticks; max 0: automatic */
	/* The layout a configuration asks for; all zero/NULL: the built-in
	 * one. Panes keep their places; these say which appear. */
	int no_overview, no_timeline, no_side;
	const char *side;           /* pane in the side place: "details" (default),
	                               "topology" or "histogram" */
	int side_width;             /* columns of the side pane; 0: automatic */
	const char *focus;          /* pane with the focus at start, or NULL */
	/* Per partition: the named phase it belongs to (the configuration's
	 * phases.named), or NULL; borrowed for the view's life. */
	const char *const *part_phase;
	/* Another run compared with this one (skein diff: the analysis is
	 * AFTER): the delta metric, both runs in the details. Borrowed. */
	const struct diff *diff;
	const char *iteration_name;   /* what to call an iteration; NULL: "iteration" */
	/* The filters every pane honours, as :ranks and :window take them
	 * (--rank-set, --from, --to): NULL for none; a bad one is ERR_USAGE
	 * from view_create. */
	const char *ranks, *from, *to;
};

/* Creates a session. Returns 0, ERR_NOMEM, or ERR_USAGE for an unknown
 * pane name (e says which names exist). */
int view_create(const struct analysis *a, const struct view_opts *o, struct view **out, struct err *e);
void view_destroy(struct view *v);

/* Feeds one key (keymap.h codes): text entry while the command line or
 * search prompt is open, else the bound action. */
void view_key(struct view *v, uint32_t key);
/* Performs an action. */
void view_action(struct view *v, enum action act);
/* Lays out and draws the whole screen into g at g's size. */
void view_draw(struct view *v, struct grid *g);
/* A key of a script (keymap_script) pressed and the screen drawn again
 * on g: a key to view_key, a <Resize:WxH> to g's new size (as the
 * explorer does when its terminal is resized). 0 or ERR_NOMEM. */
int view_press(struct view *v, struct grid *g, uint32_t key);
/* The state a saved view records, and restoring one (metric, zoom,
 * clusters, then the selection, clamped to the trace). */
void view_get_state(const struct view *v, struct view_state *st);
void view_set_state(struct view *v, const struct view_state *st);
/* The screen is monochrome (a terminal without colours, NO_COLOR,
 * render --color mono): where a legend would name colours, the
 * timeline's says what its glyphs are instead. (render's default, no
 * colour at all, is the colour screen's text: its legend stays.) */
void view_set_colourless(struct view *v, int colourless);

/* Starts computing, on a thread of its own, the whole-trace tables the
 * profile, communication and lists panes open on (view_prefetch.c):
 * called once the first screen is drawn; nothing when a filter is set.
 * view_prefetch_wait returns when they are all done and the thread has
 * ended (skein render --time, to time the keys apart from them; the
 * topology pane, before it forks hwloc's process). */
void view_prefetch_start(struct view *v);
void view_prefetch_wait(struct view *v);

/* 1 once the user asked to quit. */
int view_done(const struct view *v);
/* 1 while the command line or the search prompt takes the keys. */
int view_prompt_open(const struct view *v);
/* The prompts' history, lines ":step 20" and "/iteration" (tui/ keeps it
 * in a file): add restores one line, line lists them (NULL past the
 * end; buf holds the text), changed says whether a prompt was used. */
void view_history_add(struct view *v, const char *line);
const char *view_history_line(const struct view *v, size_t i, char *buf, size_t n);
int view_history_changed(const struct view *v);
/* 1 when the last action asked for a full repaint (redraw); clears it. */
int view_take_repaint(struct view *v);

/* The smallest screen with a usable layout, for the whole explorer
 * (pane NULL) or one pane alone; smaller screens show a message. */
void view_min_size(const char *pane, int *w, int *h);

/* Names of the panes for --pane, space-separated. */
const char *view_pane_names(void);
/* 1 if a pane is called name. */
int view_pane_known(const char *name);

/* What `skein render` does: a session of size w × h, the keys of the key
 * script applied one by one (drawing before each, as the TUI does), and
 * the final screen written to out at the colour depth. Returns 0,
 * ERR_USAGE (bad pane, bad key script; e says why), ERR_NOMEM or ERR_IO. */
struct view_render_opts {
	int w, h;
	const char *keys;           /* key script (keymap_script), may be NULL */
	enum grid_depth depth;
	int ascii;
	int wait_background;        /* the keys only once view_prefetch_wait returned */
};
/* Time spent per key in view_key + view_draw (filled when not NULL). */
struct view_render_stats {
	size_t keys;
	double first_draw_ms;       /* the draw before any key */
	double background_ms;       /* from then until the prefetched tables were done */
	double max_ms, total_ms;    /* over the keys, resizes apart */
	size_t resizes;             /* <Resize:WxH> of the script */
	double max_resize_ms;       /* the redraw included */
};
int view_render(const struct analysis *a, const struct view_opts *vo,
		const struct view_render_opts *ro, FILE *out, struct view_render_stats *st,
		struct err *e);

/* ---- sample sets (skein samples) ----
 *
 * The same session over memory-access samples instead of a trace: the
 * topology pane coloured by cycles or samples with link traffic, the top
 * offenders, parallel histograms, the histogram pane on one attribute
 * with its score strip, and the clusters (doc/samples.md). From
 * view_opts only label, pane, keys and focus apply. */

/* What a saved samples view records (:save). */
struct view_samples_state {
	uint32_t attr;
	enum mem_metric metric;
	enum topo_type depth;
	uint32_t windows, window, step, clusters;
	const struct mem_pick *filter, *selection;    /* borrowed for the call */
	uint32_t n_filter, n_selection;
};
typedef int (*view_samples_save_fn)(void *ud, const struct view_samples_state *st, const char *path,
				    struct err *e);

struct view_samples_opts {
	struct view_samples_state initial;    /* attribute, scores, filter, selection */
	view_samples_save_fn save;            /* NULL: :save says it can't */
	void *save_ud;
};

/* Creates a session on m (which must outlive it). ERR_USAGE for a pane
 * of traces, or bad windows (e says why); ERR_NOMEM. */
int view_create_samples(const struct mem *m, const struct view_opts *o, const struct view_samples_opts *so,
			struct view **out, struct err *e);
/* view_render for a sample set. */
int view_render_samples(const struct mem *m, const struct view_opts *vo, const struct view_samples_opts *so,
			const struct view_render_opts *ro, FILE *out, struct view_render_stats *st,
			struct err *e);

#endif

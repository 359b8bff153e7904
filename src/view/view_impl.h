/* view_impl.h — inside the explorer: session state, layout, pane tables.
 *
 * Shared by view.c (session, layout, global actions), view_nav.c (moving
 * and jumping), view_cmd.c (command line and search) and one file per
 * pane (view_grid.c, view_overview.c, view_timeline.c, view_details.c,
 * view_help.c). Not part of the public interface.
 */
#ifndef SKEIN_VIEW_IMPL_H
#define SKEIN_VIEW_IMPL_H

#include <stddef.h>

#include "view.h"
#include "analysis/core/hist.h"
#include "base/fmt.h"
#include "view/surface/prompt.h"
#include "view/model/view_cluster.h"
#include "view/model/view_lanes.h"
#include "view/model/view_rma.h"
#include "view/model/view_tlblocks.h"

/* PANE_HELP stays last: it is drawn over the others. PANE_DETAILS,
 * PANE_TOPO and PANE_HIST share one place on the screen (v->side).
 * PANE_OFFENDERS to PANE_CLUSTERS show sample sets only (view_samples.h);
 * a samples session shows them with PANE_TOPO and PANE_HIST. */
enum pane_id {
	PANE_GRID, PANE_OVERVIEW, PANE_TIMELINE, PANE_DETAILS, PANE_TOPO, PANE_HIST,
	PANE_PROFILE, PANE_COMM, PANE_LISTS,
	PANE_OFFENDERS, PANE_PHIST, PANE_SCORES, PANE_CLUSTERS,
	PANE_HELP, PANE_COUNT
};

struct rect {
	int x, y, w, h;
};

/* What a key means in one pane (for the help, the man page and the
 * README, view_keys.c): the keys bound to act (and act2, shown together)
 * do `what` while the pane has the focus. Tables end with ACT_NONE. */
struct pane_key {
	enum action act, act2;
	const char *what;
};

/* A pane. The generic drawer (view.c) draws the box and title, calls
 * prepare once with the interior size, then row() for every interior row
 * with a one-row grid to fill. Panes keep what prepare computes in the
 * session (their caches), and answer actions through request. */
struct view_ops {
	const char *name;
	int focusable;
	void (*title)(struct view *v, char *buf, size_t n);
	void (*prepare)(struct view *v, int w, int h);
	void (*row)(struct view *v, int y, struct grid *row);
	/* 1 if the pane handled the action (while it has the focus) */
	int (*request)(struct view *v, enum action act);
	/* 1 if the pane handled a click or the wheel at (x, y) inside its
	 * box (view_mouse.c: the pane has the focus by then); NULL: the
	 * wheel moves up and down, a click only focuses */
	int (*mouse)(struct view *v, enum km_mouse_kind kind, int x, int y);
	/* the keys that mean something else in this pane, or NULL */
	const char *keys_title;
	const struct pane_key *keys;
	const struct pane_key *charm_keys;   /* keys, in a Charm++ run's words; NULL: keys */
};

extern const struct view_ops view_grid_ops;
extern const struct view_ops view_overview_ops;
extern const struct view_ops view_timeline_ops;
extern const struct view_ops view_details_ops;
extern const struct view_ops view_help_ops;
extern const struct view_ops view_topo_ops;
extern const struct view_ops view_hist_ops;
extern const struct view_ops view_profile_ops;
extern const struct view_ops view_comm_ops;
extern const struct view_ops view_lists_ops;
extern const struct view_ops view_offenders_ops;
extern const struct view_ops view_phist_ops;
extern const struct view_ops view_scores_ops;
extern const struct view_ops view_mclusters_ops;

enum input_mode { INPUT_NONE, INPUT_COMMAND, INPUT_SEARCH };

/* One aggregated grid cell. */
struct gcell {
	uint32_t rep;        /* representative lop or TRACE_NONE */
	uint32_t count;      /* lops in the block */
	uint64_t value;
	uint8_t kinds;       /* kinds of operation in the block (bits) */
};

struct dline {
	size_t off;          /* its text in view_lines.text, NUL-ended */
	uint8_t style;
};

#define VIEW_MAX_PARTNERS 512
#define VIEW_MAX_LANE_ROWS 64   /* a rank's threads and streams the timeline shows */

/* A pane of text lines (view_lines.c): built in prepare between begin
 * and end, drawn a row at a time, scrolled by the scrolling actions. */
struct view_lines {
	struct dline *line;      /* grown as lines come: none is dropped */
	int cap;
	char *text;              /* the lines' texts, one after the other */
	size_t text_n, text_cap;
	int failed;              /* out of memory: the last line says so */
	int n;
	int scroll;              /* first line shown */
	int rows, w;             /* the pane's interior at the last prepare */
};

struct view {
	const struct analysis *a;
	const struct trace *t;
	struct view_index *ix;
	const struct keymap *km;
	struct keymap *own_km;
	char label[256];
	enum view_metric metric;
	int solo;                     /* pane alone, or -1 */
	int side;                     /* PANE_DETAILS, PANE_TOPO or PANE_HIST */
	int extra;                    /* the pane in the left column's spare rows, or -1 */
	int no_overview, no_timeline, no_side, side_width;   /* from view_opts */
	const char *const *part_phase;                       /* from view_opts */
	const struct diff *diff;                             /* from view_opts */
	const char *iter_name;                               /* from view_opts */
	int colourless;               /* drawn without colours: no legend of colours */
	struct view_topo *topo;       /* topology pane state (view_topo.c) */
	struct view_hist *hist;       /* histogram pane state (view_hist.c) */
	struct view_samples *smp;     /* a samples session (view_samples.c); NULL for a trace */

	/* selection (fine coordinates) and window, in ranks and steps */
	uint32_t sel_rank, sel_step;
	uint32_t win_rank, win_step;  /* multiples of zr and zs */
	uint32_t zs, zr;              /* steps per column, ranks per row */
	uint32_t sel_lop;             /* the operation shown in details */
	uint32_t sel_count;           /* lops in the selected block */
	uint32_t sel_max;             /* the block's lop with its maximum (its representative) */
	int pinned;                   /* sel_lop was jumped to: keep it */
	uint32_t partners[VIEW_MAX_PARTNERS];
	int n_partners;

	int focus;
	int help_open;
	struct view_lines help, details;
	enum input_mode input;
	struct prompt cmd_prompt, search_prompt;   /* : and / with their histories */
	int history_changed;
	char search[200];
	uint8_t *search_match;        /* per region */
	char search_done[200];        /* the pattern search_hits are for */
	struct hit *search_hits;      /* its matches in step order (view_search.c) */
	size_t n_search_hits;
	char message[400];
	int message_error;
	uint32_t key;                 /* the key being handled (0: a command, a click) */
	int hot_idx;
	int quit, repaint;
	int start_pending;            /* the first draw goes to the first screen */
	int recenter;                 /* the next draw centres the selection (rows changed) */
	char start_note[400];         /* what the trace's readers warned of */
	uint64_t quality_count;       /* how many warnings start_note sums up */
	int message_note;             /* message starts with start_note */
	view_save_fn save;            /* `:save PATH`, from view_opts */
	void *save_ud;

	/* clustered rows (view_cluster.h): when on, grid rows are the rows of
	 * vc, the selection and window are row indices, and zr is 1 */
	struct view_cluster *vc;      /* computed when first turned on */
	int clustered;
	uint32_t cl_start;            /* level to start with; 0: off */
	uint32_t sel_row, win_row;

	/* layout of the last draw */
	int scr_w, scr_h, tiny;
	struct rect pane[PANE_COUNT];
	int shown[PANE_COUNT];
	int cols, rows;               /* grid cells in view */
	int label_w;                  /* rank label column of grid and timeline */
	int tl_rows;
	uint32_t tl_first;            /* first grid row on the timeline */

	/* grid cache: cells of the window, valid for key */
	struct gcell *gc;
	size_t gc_cap;
	uint64_t gc_key[9];
	int gc_valid;

	/* overview cache */
	uint64_t *ov;
	int ov_cap, ov_w, ov_n;
	enum view_metric ov_metric;
	int ov_valid;

	/* Charm++ (view_charm.c): lops per PE in time order, for the PE
	 * timeline; built on first use */
	struct view_pes *pes;
	struct view_rma *rma;         /* one-sided records by time and call: on first details */
	uint8_t *search_chare;        /* per timeline: its chare matches the search */

	/* timeline cache: what each cell shows (view_timeline.c) */
	struct tlcell *tl;
	size_t tl_cap;
	uint64_t tl_key[12];
	int tl_valid, tl_w;
	/* each rank's lops in blocks (view/model/view_tlblocks.h), what
	 * their claims on one cell would leave, on first need; their size
	 * TL_BLOCK (tests set others) */
	struct tl_blocks tlb;
	uint64_t tl_blk_used;        /* blocks claimed at once (tests) */
	int tl_blk_failed;
	uint64_t tl_t0, tl_t1;
	/* ranks' threads and GPU streams under their rows in the timeline
	 * (Space there opens or closes the selected rank's process;
	 * view/model/view_lanes.h): per rank whether open (NULL: none yet),
	 * the lanes laid out (indices into trace_lanes) and their cells; the
	 * pane's rows, each a grid row (>= 0) or lane slot k (-1 - k), and a
	 * hash of them for the cache's key (view_rows.c) */
	uint8_t *tl_open;
	uint32_t tl_nlane, tl_lane_ids[VIEW_MAX_LANE_ROWS];
	struct lane_cell *tl_lc;
	size_t tl_lc_cap;
	int32_t *tl_map;
	size_t tl_map_cap;
	uint32_t tl_nmap;
	uint64_t tl_map_hash;

	/* the timeline zoomed in time (view_timeline.c): its own span
	 * [tz_t0, tz_t1) while tz is on, else the steps in view; the cursor
	 * tz_cur (a time), and a selected window [tsel0, tsel1) (tsel1 0:
	 * none; tsel_anchor: one end marked, the other follows the cursor) */
	int tz;
	uint64_t tz_t0, tz_t1, tz_cur;
	uint64_t tsel0, tsel1;
	int tsel_anchor;
	uint32_t tsel_gen;            /* bumped by each window marked: the panes turn to it */
	int tz_drag;                  /* a mouse drag began at tsel0 */
	uint32_t tz_sel;              /* the selection the cursor last followed */
	uint32_t *tl_msg;             /* per cell: a message line's glyph, or 0 */
	size_t tl_msg_cap;
	uint32_t tl_nmsg;             /* messages drawn (0: too many to read, or none) */

	/* a pane in the whole body instead of the layout (p, a, i, T), or -1 */
	int big;
	/* the filters every pane honours (view_scope.c): a rank set (NULL: all)
	 * as given, and a time window [f_from, f_to) (f_to 0: none) */
	uint8_t *f_ranks;
	char f_ranks_text[64];
	uint64_t f_from, f_to;
	uint32_t f_gen;               /* bumped whenever a filter changes */
	struct view_profile *prof;    /* the profile pane (view_profile.c) */
	struct view_comm *comm;       /* the communication pane (view_comm.c) */
	struct view_lists *lists;     /* the lists pane (view_lists.c) */
	struct view_prefetch *pf;     /* the panes' whole-trace tables, ahead (view_prefetch.c) */

};

/* view_charm.c: a Charm++ run (seed 004) in the panes. Rows are named
 * by their chare ("Jacobi(1,2)"; "r3" for MPI ranks), up to this wide. */
#define VIEW_MAX_ROW_NAME 16

#define TL_BLOCK 32          /* lops a block of the timeline's (view_tlblocks.h) */

/* A timeline cell: the most important lop in its time slice (its
 * glyph), the lop covering most of it (its colour), the kinds present;
 * top VIEW_TL_IDLE: a PE's idle time covers more of it than any lop. */
struct tlcell {
	uint32_t top;
	uint32_t dom;
	uint32_t hot;          /* a Charm++ run's PEs coloured by a metric: its largest */
	uint8_t kinds;
};
#define VIEW_TL_IDLE (TRACE_NONE - 1)
/* The timeline's rows (view_rows.c): the grid's rows in view that fit
 * in `rows` (tl_first, tl_rows: the part holding the selection), each
 * followed by its open process's lanes, laid out in tl_map; the lanes'
 * cells over the time axis (out of memory: the timeline is not drawn
 * and tried again next time); lane slot i drawn. The PE rows of a
 * Charm++ run (pe_selected: the selection's PE). */
void view_tl_layout(struct view *v, int rows);
void view_tl_place_rows(struct view *v, int rows);
uint32_t view_tl_pe_selected(const struct view *v);
int view_tl_lane_cells(struct view *v, int cw);     /* 0, or -1: out of memory */
void view_tl_lane_row(struct view *v, uint32_t i, struct grid *row, int lw);
/* Space in the timeline of a trace with lanes: the selected rank's
 * process opened or closed (else Space toggles clusters, as in the
 * grid); returns 1. */
int view_tl_lanes_toggle(struct view *v);
/* What the claims on a timeline row's cells have left so far, per cell
 * (kept beside the cells so that a claim reads no lop but its own): the
 * top's kind rank and coverage as one key (view_tl_top_key), the dom's
 * coverage, and the hot lop's value (while the cell has one). */
struct tl_cov {
	uint64_t *top, *dom, *hot;
};
/* A top's rank and coverage as one number that orders them as the top
 * is chosen: the higher kind rank, then the larger coverage (coverages
 * of 2^56 ticks and more, bogus clocks only, count as equal). */
static inline uint64_t
view_tl_top_key(int rank, uint64_t ov)
{
	const uint64_t cap = ((uint64_t)1 << 56) - 1;
	return ((uint64_t)(rank + 1) << 56) | (ov < cap ? ov : cap);
}
/* Cells for a row of cw cells; 0 when out of memory. */
int view_tl_cov_alloc(struct tl_cov *c, int cw);
void view_tl_cov_free(struct tl_cov *c);
/* Lop i claims the cells of one timeline row (out, with what the claims
 * so far left in cov) over the pane's time axis. */
void view_tl_claim(struct view *v, struct tlcell *out, struct tl_cov *cov, uint32_t i);
/* Block k (view_tlblocks.h), its first lop entering at en and its last
 * at en_last, claims one cell of a timeline row at once, when all of it
 * falls in one cell of the time axis: that cell, else -1 (claim its
 * lops one by one). */
int view_tl_claim_block(struct view *v, struct tlcell *out, struct tl_cov *cov, const struct tl_block *k,
			uint64_t en, uint64_t en_last);
/* The timeline's blocks of v->tlb.size lops, what their claims on one
 * cell would leave, taken from the thread (view_prefetch.c) or computed
 * now; the timeline then claims a block at once wherever it
 * falls in one cell (a frame that holds many lops a cell computes them
 * itself; tests call this to use them on any trace). 0: out of memory. */
int view_tl_blocks(struct view *v);
int view_is_charm(const struct view *v);
/* Can m colour this session: delta only with another run, seed 004's
 * metrics only for Charm++, the wait states only for MPI. */
int view_metric_usable(const struct view *v, enum view_metric m);
void view_row_name(const struct view *v, uint32_t rank, char *buf, size_t n);
int view_row_name_width(const struct view *v);
/* The details of a Charm++ operation. */
void view_charm_details(struct view *v, uint32_t lop, int wide);
/* What an execution depends on, where `c` goes in a Charm++ run: the
 * piece of the execution whose creation invoked lop's (TRACE_NONE when it
 * received none: a later piece of its execution, or a creation the trace
 * does not hold); *why says where it went or why not. */
uint32_t view_charm_invoker(struct view *v, uint32_t lop, char *why, size_t n);
/* The PE timeline: PEs as rows; view_pes_fill fills v->tl for rows PEs
 * from first_pe over the grid window's time span (0 or ERR_NOMEM). */
struct view_pes;
/* The PEs' lops in time order with their blocks of B lops, and the time
 * span of all steps (view_charm.c), on nw workers; NULL when out of
 * memory. */
struct view_pes *view_pes_build(const struct analysis *a, const struct view_index *ix, uint32_t B,
				uint32_t nw);
void view_pes_destroy(struct view_pes *p);
uint32_t view_pe_rows(struct view *v);
int view_pes_fill(struct view *v, int rows, int cw, uint32_t first_pe);
/* The lop of PE pe at time t (else the nearest), and the lop before
 * (dir -1) or after (1) lop on its PE; TRACE_NONE if none. */
uint32_t view_pe_lop_at(struct view *v, uint32_t pe, uint64_t t);
uint32_t view_pe_step(struct view *v, uint32_t lop, int dir);

/* view_lines.c: init allocates (0 or ERR_NOMEM); begin empties the
 * lines for a pane of w × h; text adds text wrapped at spaces, the first
 * line indented by indent and the rest by cont; add is text from a format
 * (indent 0, continuations 2); end clamps the scroll; row draws row y of
 * the pane from column x; scroll answers the scrolling actions (1 if act
 * was one). */
int view_lines_init(struct view_lines *L);
void view_lines_fini(struct view_lines *L);
void view_lines_begin(struct view_lines *L, int w, int h);
void view_lines_text(struct view_lines *L, int style, int indent, int cont, const char *text);
void view_lines_add(struct view_lines *L, int style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void view_lines_end(struct view_lines *L);
void view_lines_row(const struct view_lines *L, int y, int x, struct grid *row);
int view_lines_scroll(struct view_lines *L, enum action act);

/* view.c */
void view_set_message(struct view *v, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const struct view_ops *view_pane_ops(int id);
/* The name of the key that asked for act ("v"): the one being handled,
 * else act's first binding. */
const char *view_key_name(const struct view *v, enum action act, char *buf, size_t n);
/* "rank" or "chare": what a row of the trace is. */
const char *view_row_noun(const struct view *v);
/* Shortens a pane title of " · "-separated parts to max columns. */
void view_fit_title(char *title, int max);
/* The pane called name, or -1. */
int view_pane_find(const char *name);
/* view_render's loop: draws, applies keys (a script parsed from ro), writes. */
int view_render_run(struct view *v, const struct view_render_opts *ro, FILE *out,
		    struct view_render_stats *st, struct err *e);


/* view_nav.c: selection and window */
void view_select_update(struct view *v);
void view_scroll_to_selection(struct view *v, int center);
void view_jump_lop(struct view *v, uint32_t lop);
void view_move(struct view *v, long drank, long dstep);
int view_nav_action(struct view *v, enum action act);
void view_set_zoom(struct view *v, uint32_t zs, uint32_t zr);
uint32_t view_steps_end(const struct view *v);    /* end of the step window */
uint32_t view_ranks_end(const struct view *v);
int view_is_partner(const struct view *v, uint32_t lop);
void view_select_rank(struct view *v, uint32_t rank);

/* view_rows.c: clustered rows in the session; a cluster's label names
 * its medoid ("c1 r9+3", "c0 Jacobi(1,2)+5") */
void view_cluster_label(const struct view *v, uint32_t g, char *buf, size_t n);
int view_clusters_on(struct view *v, uint32_t level);
void view_clusters_off(struct view *v);
int view_cluster_action(struct view *v, enum action act);
/* Rows of the grid count from 0 over the whole trace: clusters and their
 * expanded ranks, or blocks of zr ranks. */
uint32_t view_row_count(const struct view *v);
uint32_t view_row_first(const struct view *v);       /* the first row in view */
uint32_t view_row_selected(const struct view *v);
/* "r5", "r4-7", "c1 r9+3", "  r16". */
void view_row_label(const struct view *v, uint32_t row, char *buf, size_t n);
/* The ranks of a row: a cluster's members in *list (*n of them), else
 * [*r0, *r1) with *list NULL. 0 when the row does not exist. */
int view_row_ranks(const struct view *v, uint32_t row, const uint32_t **list, uint32_t *n,
		   uint32_t *r0, uint32_t *r1);
void view_rows_reveal(struct view *v, uint32_t rank);

/* view_bars.c: the status line and the footer (with the message or the
 * prompt) of a whole-screen grid */
void view_draw_status(struct view *v, struct grid *g);
/* A field of a status line: its long and short forms, and how much it
 * matters (fields that matter less are shortened, then dropped, first). */
struct sfield {
	char full[288], brief[288];
	int prio;                     /* 0 shortened and dropped first ... 9 last */
	int drop_prio;                /* when dropping, if not 0: a field that
	                                 shortens early may still go late */
	int state;                    /* 0 full, 1 brief, 2 dropped */
	int key;                      /* drawn as a key (ST_BAR_KEY) */
};
/* Draws the n fields on g's first line, two spaces apart, shortening and
 * dropping the least important until they fit. */
void view_status_fields(struct grid *g, struct sfield *f, int n);
void view_draw_footer(struct view *v, struct grid *g);
/* The screen is below the explorer's least size: say so, whole. */
void view_draw_tiny(struct view *v, struct grid *g);
/* The colour key in the grid's bottom border while a message or a prompt
 * holds the footer (the first screen's problem), so it is always on the
 * screen. */
void view_draw_border_key(struct view *v, struct grid *g);
/* The metric's scale (or the colours' meaning) from (x, y), at most w
 * columns; returns the columns drawn. */
int view_draw_scale(struct view *v, struct grid *g, int x, int y, int w);
/* Does a Charm++ run's PE timeline colour by the metric (seed 004 draws
 * its metrics on the physical PE view), not by entry method? */
int view_pes_by_metric(const struct view *v);
/* The lines the footer takes on a w x h screen: 1, or what the message
 * wraps to (with the prompt under it when one is open); the layout
 * leaves them to it. */
int view_footer_lines(const struct view *v, int w, int h);

/* view_mouse.c: a mouse event (a keymap_mouse code) */
void view_mouse(struct view *v, uint32_t key);

/* view_cmd.c: the commands (name, what follows it, what it does) */
struct view_cmd_info {
	const char *name, *args, *help;
	const char *charm;    /* the help for a Charm++ run, or NULL: help */
};
extern const struct view_cmd_info view_cmds[];
/* What command c does, in a Charm++ run's words when charm is set. */
const char *view_cmd_help(const struct view_cmd_info *c, int charm);
extern const size_t view_n_cmds;
void view_input_key(struct view *v, uint32_t key);
/* Splits a command line into at most max words (copied into buf; the
 * rest NULL); returns how many. */
int view_words(const char *cmd, char *buf, size_t size, char **words, int max);
void view_command(struct view *v, const char *cmd);
/* view_search.c: the next (dir 1) or previous match of v->search;
 * reset forgets the matches (the pattern changed). */
void view_search_step(struct view *v, int dir);
void view_search_reset(struct view *v);

/* view_topo.c: the topology pane. create copies the paths of o (NULL in
 * a samples session: the pane shows the samples' hardware);
 * highlight says whether the grid marks a rank (the topology pane is
 * shown and the object selected there, not the root, holds it). */
int view_topo_create(struct view *v, const struct view_opts *o);
void view_topo_destroy(struct view_topo *vt);
int view_topo_highlight(const struct view *v, uint32_t rank);

/* view_hist.c: the histogram pane, and the scopes both panes share:
 * 0 the whole trace, 1 the selected operation's partition, 2 the steps
 * in the grid's window. */
enum { SCOPE_ALL, SCOPE_PART, SCOPE_WINDOW, SCOPE_COUNT };
int view_hist_create(struct view *v);
void view_hist_destroy(struct view_hist *vh);
void view_scope_select(const struct view *v, int scope, struct hist_select *sel);
const char *view_scope_name(int scope);
/* 1 if lop is in sel (hist.h's struct hist_select). */
int view_scope_has(const struct view *v, const struct hist_select *sel, uint32_t lop);

/* view_samples.c: a samples session (view_samples.h inside) */
void view_samples_destroy(struct view_samples *vs);
/* view_draw's parts for a sample set: placing the panes (v->pane,
 * v->shown, v->tiny), the status line and the footer's legend (on its
 * last row, when no command line or message takes it). */
void view_samples_layout(struct view *v, int w, int h);
void view_samples_status(struct view *v, struct grid *g);
void view_samples_legend(struct view *v, struct grid *g);
/* Handles an action in a samples session: 1 when done, 0 for the
 * generic ones view_action handles (quit, help, close, redraw, panes,
 * command line). */
int view_samples_action(struct view *v, enum action act);
void view_samples_command(struct view *v, const char *cmd);
/* Tab completion in a sample set's command line: the commands (first
 * NULL: the first word), or what command first takes; at most max into
 * cand, *space when a space follows a completed word. Returns how many. */
size_t view_samples_complete(const struct view *v, const char *first, const char **cand, size_t max,
			     int *space);
/* The help overlay's lines for a sample set (into v->help). */
void view_samples_help(struct view *v);
/* view_structure.c: iterations and the run compared with */
const char *view_iter_name(const struct view *v);
int view_iter_starts(const struct view *v, uint32_t s0, uint32_t s1);
void view_iter_goto(struct view *v, uint32_t k);
void view_iter_details(struct view *v, uint32_t lop);
/* What lateness cannot see, for the details of lop (view_explain.c): its
 * wait state and root cause, the lateness it created before it, the
 * waiting its delay caused, how it compares with its iterations. */
void view_explain_details(struct view *v, uint32_t lop);
/* With the path metric: the operation's time on the critical path. */
void view_explain_path(struct view *v, uint32_t lop);
/* The next (dir 1) or previous (-1) problem of analysis_problems, from
 * v->hot_idx; 0 when the trace has none, in a comparison of two runs
 * (its changes are walked), or when start-up is counted other than the
 * analysis counted it (then the hotspots are walked). */
int view_explain_walk(struct view *v, int dir);
/* Hotspot k (0-based) of the seed's list (view_nav.c), said in the
 * status line. */
void view_goto_hotspot(struct view *v, uint32_t k);
/* Where `c` goes from lop when its lateness came from nowhere else: its
 * wait's root cause, or where its created lateness was lost; TRACE_NONE
 * when neither. *what says which. */
uint32_t view_explain_cause(const struct view *v, uint32_t lop, const char **what);
void view_diff_details(struct view *v, uint32_t lop);
int view_diff_changed(const struct view *v, uint32_t s0, uint32_t s1);

/* view_scope.c: what the profile, communication and lists panes cover.
 * Their scopes: the whole trace, the selected operation's partition, its
 * iteration, the steps in view, and the time window the timeline
 * selected; each within the filters (:ranks, :window). */
enum { TSCOPE_ALL, TSCOPE_PART, TSCOPE_ITER, TSCOPE_STEPS, TSCOPE_TIME, TSCOPE_COUNT };
struct profile_scope;
/* Fills s for scope (per-rank windows into *buf, malloc'd, or NULL; the
 * caller frees); 0 or ERR_NOMEM. A key in key[0..3] changes when what
 * it covers does. */
int view_scope_fill(struct view *v, int scope, struct profile_scope *s, uint64_t **buf, uint64_t key[4]);
/* "whole trace", "partition 4", "iteration 2", "steps 10-29", "0.1-0.2 s" */
void view_scope_text(const struct view *v, int scope, char *buf, size_t n);
/* the next scope that means something now (TIME only with a window) */
int view_scope_next(const struct view *v, int scope);
/* Is rank r kept by :ranks? */
static inline int
view_rank_kept(const struct view *v, uint32_t r)
{
	return !v->f_ranks || v->f_ranks[r];
}
/* :ranks SPEC and :window T1 T2 (an empty spec clears); the message says
 * what they did. */
void view_filter_ranks(struct view *v, const char *spec);
void view_filter_window(struct view *v, const char *t1, const char *t2);
/* The filters of the command line (either time may be NULL: the
 * trace's start or end): 0, or ERR_USAGE with what is wrong in e. */
int view_filter_set(struct view *v, const char *ranks, const char *from, const char *to, struct err *e);
/* The big pane: open id in the whole body (again: back to the layout). */
void view_big_toggle(struct view *v, int id);
/* Jumps to the operation running on rank r at time t (the nearest), and
 * back to the layout; the message says what. */
void view_jump_time(struct view *v, uint32_t r, uint64_t t, const char *what);
/* The table panes' state, and their answer to the generic actions. */
int view_profile_create(struct view *v);
void view_profile_destroy(struct view_profile *p);
int view_comm_create(struct view *v);
void view_comm_destroy(struct view_comm *c);
int view_lists_create(struct view *v);
void view_lists_destroy(struct view_lists *l);
/* view_prefetch.c: what the table panes compute for the whole trace
 * (the profile, the matrix, the wait states and lateness per rank, the
 * longest to compute), computed on a thread of its own once the first
 * screen is drawn, so that opening a pane takes what is ready. A job is
 * a pane's: run on the thread, it reads only what nothing changes once
 * the view is made (the trace, the analysis, the index's arrays) and a
 * copy of the view's settings it needs, made before the thread starts. */
enum { PF_PROFILE, PF_COMM, PF_WAITS, PF_RANKS, PF_TIMELINE, PF_GRID, PF_PES, PF_COUNT };
struct view_job {
	/* on the thread, over the view's trace: the result, or NULL; frees in */
	void *(*run)(const struct trace *t, void *in);
	void (*drop)(void *out);     /* frees a result no pane took */
	void *in;
	uint64_t key_xor;            /* the pane's key is the whole trace's with this */
};
/* Each pane's jobs, filled on the view's thread (0: none, or out of
 * memory: the pane computes when it opens, as without them). */
int view_profile_job(struct view *v, struct view_job *j);
int view_comm_job(struct view *v, struct view_job *j);
int view_lists_job(struct view *v, int which, struct view_job *j);
/* The timeline's blocks (view_timeline.c), whatever the scope; the
 * grid's for the view's metric (view_index.h). */
int view_timeline_job(struct view *v, struct view_job *j);
int view_grid_job(struct view *v, struct view_job *j);
/* A Charm++ run's PE timeline: its PEs' lops in time order and their
 * blocks (view_pes_build), whatever the scope. */
int view_pes_job(struct view *v, struct view_job *j);
/* The grid's blocks for the view's metric, when the zoom reads them:
 * taken from the thread when it computed them for that metric and
 * start-up setting, else computed now; 1 when the zoom reads them and
 * they are there (view_index_prepare_blocks). */
int view_grid_blocks(struct view *v);
/* The result of job what when key is what it was made for, waiting
 * while it runs; the caller owns it. NULL otherwise. */
void *view_prefetch_take(struct view *v, int what, const uint64_t key[4]);
/* The same for a job whose result no scope changes (PF_TIMELINE). */
void *view_prefetch_take_any(struct view *v, int what);
/* Which jobs' results a pane took (bits 1 << PF_*): tests. */
unsigned view_prefetch_taken(struct view *v);
void view_prefetch_stop(struct view *v);

/* The time window the timeline selected: 1 and its ends, or 0. */
int view_time_selection(const struct view *v, uint64_t *t0, uint64_t *t1);

/* glyphs and formatting shared by the panes */
/* The glyphs' legend, for a screen without colours (view_bars.c). */
void view_kinds_legend(struct grid *g, int x, int y, int w);
uint32_t view_kind_glyph(int kind);
/* The glyph of the most important kind among kinds (bits 1 << kind) when
 * a cell stands for several operations: collective > wait > send and
 * receive (x when both, or a Sendrecv) > receive > send > computation. */
uint32_t view_kinds_glyph(unsigned kinds);
/* That order as a number: higher matters more. */
int view_kind_rank(int kind);
const char *view_region_name(const struct view *v, uint32_t region);
int view_cell_style(struct view *v, uint32_t lop, uint64_t value);
/* Draws "█ MPI_Waitall █ MPI_Isend …": which function owns which colour
 * (at most max entries, within w columns); returns the columns drawn. */
int view_region_legend(struct view *v, struct grid *g, int x, int y, int w, int max);

#endif

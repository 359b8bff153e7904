/* view_samples.h — inside a samples session: the state the samples panes
 * share (view_samples.c owns it) and the pane states.
 *
 * Every pane reads two sets of samples: the ones looked at (the filter;
 * all of them unless `:filter` or samples.filter narrowed it) and the
 * selection among them (empty: nothing selected). Changing either bumps
 * `version`, which every pane's cache keys on; changing what the guided
 * analysis runs along (attribute, metric, depth, windows) bumps
 * `opts_version`.
 */
#ifndef SKEIN_VIEW_SAMPLES_H
#define SKEIN_VIEW_SAMPLES_H

#include "view_impl.h"

#include "analysis/mem/mem.h"
#include "base/fmt.h"

#define VS_MAX_PICKS 64

/* A range of bins under the cursor of a histogram pane. */
struct vs_cursor {
	uint32_t bin;              /* the cursor */
	uint32_t anchor;           /* the other end, or SAMPLES_NONE */
};

struct vs_offenders {
	int list;                  /* 0 code lines, 1 data symbols */
	uint32_t cur[2], top[2];   /* cursor and first row shown, per list */
	struct mem_offender *o[2];
	uint32_t n[2];
	uint64_t key;              /* the version computed */
	int valid, rows, src_h;    /* list rows, source excerpt rows */
	char *src;                 /* the top line's file, loaded */
	uint32_t src_file;         /* which, or SAMPLES_NONE */
	int src_failed;
};

struct vs_phist {
	uint32_t first;            /* first attribute shown */
	uint32_t cols;             /* attributes that fit */
	int colw, rows;            /* width of a column, histogram rows */
	int lin;                   /* linear counts (else logarithmic) */
	struct vs_cursor cur;      /* in the bins of the current attribute */
	struct mem_bins *bins;     /* per attribute */
	uint64_t **all, **sel;     /* per attribute: counts per bin */
	uint64_t *key;             /* per attribute: the version and rows counted */
};

struct vs_scores {
	struct mem_window *win;
	uint32_t n, cur;
	uint64_t key[2];
	int valid;
};

struct vs_clusters {
	struct mem_tree *tree;
	struct mem_cluster *cl;
	uint32_t n, k, cur, top;
	uint32_t **pu_counts;      /* per cluster, per PU */
	uint64_t key[2];
	int valid, rows;
	char error[sizeof ((struct err *)0)->msg];
};

struct view_samples {
	const struct mem *m;
	const struct samples *s;
	const struct topo *t;
	uint32_t n, n_pu;
	struct bitset filter, sel, tmp;
	uint32_t n_filter, n_sel;
	struct mem_pick picks[VS_MAX_PICKS], fpicks[VS_MAX_PICKS];
	uint32_t n_picks, n_fpicks;
	int picks_lost;            /* the selection has more steps than a save keeps */
	uint64_t version, opts_version;
	uint64_t filter_version;   /* the filter alone: scores and clusters key on it */
	/* the guided analysis */
	uint32_t attr;
	enum mem_metric metric;
	enum topo_type depth;
	uint32_t windows, window, step, clusters;
	struct mem_depth dres;
	int dres_valid;
	/* the hardware aggregation of what the panes show */
	struct mem_agg agg;
	uint64_t agg_key;
	int agg_valid;
	struct vs_offenders off;
	struct vs_phist ph;
	struct vs_scores sc;
	struct vs_clusters cl;
	view_samples_save_fn save;
	void *save_ud;
};

/* The set the panes aggregate: the selection when there is one, else
 * what is looked at (NULL: every sample). */
const struct bitset *vs_shown(const struct view_samples *vs);
/* The set looked at (NULL: every sample). */
const struct bitset *vs_looked(const struct view_samples *vs);
/* The hardware aggregation of vs_shown, recomputed when it changed. */
const struct mem_agg *vs_agg(struct view *v);
/* The resources of the scoring depth. */
const struct mem_depth *vs_depth(struct view *v);

/* Scores and clusters along attribute a. */
void vs_set_attr(struct view *v, uint32_t a);

/* Applies a pick to the selection (op new, or, and), within what is
 * looked at, and says what it did on the message line. */
void vs_pick(struct view *v, const struct mem_pick *p, enum mem_op op);
/* The operation an action asks for, or -1 when it asks for none:
 * cluster-toggle (Space, Enter) makes a new selection. */
int vs_op_of(enum action act);
/* A range pick over bins [a, b] of an attribute's bins: the values
 * present there, both ends included. 0, or -1 when no sample lies there. */
int vs_bins_pick(struct view *v, const struct mem_bins *b, uint32_t a, uint32_t z, struct mem_pick *p);

/* A histogram pane's cursor keys: Enter, | and & select the bins from
 * the mark to the cursor (b: the pane's bins, NULL when none), s sets or
 * drops the mark, Esc drops it. 1 when act was one of them. */
int vs_cursor_action(struct view *v, struct vs_cursor *c, const struct mem_bins *b, enum action act);

/* A value of attribute a: its category name, or the number: a time as
 * "+offset" from the first sample, a latency or a time in its unit
 * ("+65.31G cyc", "+1.204 s", "412 cyc"). */
const char *vs_value(const struct view_samples *vs, uint32_t a, double x, char *buf, size_t n);
/* A range of attribute a's values, "lo–hi", the unit said once ("+45.73G–
 * 59.34G cyc"); one value when both ends read the same. */
const char *vs_range(const struct view_samples *vs, uint32_t a, double lo, double hi, char *buf, size_t n);

/* The histogram pane's chart geometry, which the score strip under it
 * follows: label width and chart columns for a pane of width w. */
int vs_hist_label_w(void);

/* The topology pane's numbers (view_topo.c's samples provider). */
enum { VS_TOPO_CYCLES, VS_TOPO_SAMPLES, VS_TOPO_MEAN, VS_TOPO_ISSUED, VS_TOPO_METRICS };
void vs_topo_values(struct view *v, int metric, double *per_obj, double *link, double *below);

#endif

/* view_index.h — what the explorer's views look up, precomputed once.
 *
 * Built from an analysis in O(lops); afterwards every lookup a view makes
 * per cell is O(1) or O(log lops on one rank), so drawing a frame costs
 * what is visible, never what is in the trace. Per-metric tables (the
 * scale maximum, the per-step maxima of the overview, function colours)
 * are computed on first use and kept.
 *
 *   view_index_create → lookups… → view_index_destroy
 *
 * The index borrows the analysis (and its trace), which must outlive it.
 */
#ifndef SKEIN_VIEW_INDEX_H
#define SKEIN_VIEW_INDEX_H

#include <stdint.h>

#include "analysis/core/analysis.h"
#include "base/err.h"

enum view_metric {
	METRIC_LATENESS,
	METRIC_DIFF,
	METRIC_GLOBAL,
	METRIC_DURATION,
	METRIC_PARTITION,
	METRIC_FUNCTION,
	METRIC_DELTA,             /* |change in lateness| against another run (diff.h) */
	METRIC_DIFF_DURATION,     /* Charm++ (seed 004 §4) */
	METRIC_IDLE,              /* idle experienced */
	METRIC_IMBALANCE,
	METRIC_WAIT,              /* wait states (analysis/explain/explain.h): time waited */
	METRIC_PATH,              /* time on the critical path (analysis/path/path.h) */
	METRIC_LANES,             /* the process's threads' and streams' waiting meanwhile */
	METRIC_COUNT
};

struct view_index;

struct diff;
struct path;

/* The run's critical path (analysis/path/path.h), computed on first use
 * and kept; NULL when it could not be (out of memory). */
const struct path *view_index_path(struct view_index *ix);

/* Per lop, the time its process's threads, streams and host spent in
 * wait states (analysis/hybrid/hybrid.h) while it ran, for
 * METRIC_LANES: computed on first use and kept; NULL when it could not
 * be (out of memory). */
const uint64_t *view_index_lane_waits(struct view_index *ix);

/* Returns 0 and a new index in *out, or ERR_NOMEM. */
int view_index_create(const struct analysis *a, struct view_index **out, struct err *e);
void view_index_destroy(struct view_index *ix);
/* The run compared with (the analysis is its AFTER), for METRIC_DELTA;
 * borrowed. Before any lookup. */
void view_index_set_diff(struct view_index *ix, const struct diff *d);
/* METRIC_DELTA of lop under d (view_structure.c): |Δ lateness| in t's
 * ticks, 0 when lop has no partner. */
uint64_t view_delta_value(const struct diff *d, const struct trace *t, uint32_t lop);

const struct analysis *view_index_analysis(const struct view_index *ix);
uint32_t view_index_ranks(const struct view_index *ix);
uint32_t view_index_steps(const struct view_index *ix);

/* "lateness", "diff", ... as the command line and --metric spell them. */
const char *view_metric_name(enum view_metric m);
/* "differential lateness", ... for titles. */
const char *view_metric_title(enum view_metric m);
/* 1 for metrics measured in ticks (shaded), 0 for categories. */
int view_metric_numeric(enum view_metric m);
/* The metric called name (prefixes allowed), or METRIC_COUNT. */
enum view_metric view_metric_find(const char *name);

/* The lop of rank at global step, or TRACE_NONE. */
uint32_t view_index_lop_at(const struct view_index *ix, uint32_t rank, uint32_t step);
/* The first lop of rank whose step is ≥ step (may be the rank's end). */
uint32_t view_index_lower(const struct view_index *ix, uint32_t rank, uint32_t step);
/* The last lop of rank that entered at or before t (ticks), or the first. */
uint32_t view_index_lop_at_time(const struct view_index *ix, uint32_t rank, uint64_t t);
/* Lops of rank: [first, end). */
void view_index_rank_lops(const struct view_index *ix, uint32_t rank, uint32_t *first, uint32_t *end);

/* The metric's value for a lop: ticks for numeric metrics, the category
 * (partition or region id) otherwise. */
uint64_t view_index_value(struct view_index *ix, enum view_metric m, uint32_t lop);
/* The largest value over the trace (numeric metrics; 0 if none). Unless
 * start-up is included, the ranks' start-up (analysis_lop_startup) counts
 * as 0 here, in the per-step maxima and in blocks. */
uint64_t view_index_max(struct view_index *ix, enum view_metric m);
/* Includes start-up (1) or leaves it out (0, the default unless the
 * analysis counted it); recomputes the scales on next use. */
void view_index_set_startup(struct view_index *ix, int include);
int view_index_startup(const struct view_index *ix);
/* A fixed colour scale for the numeric metrics (ticks): values at or
 * below min shade as 0, at or above max as the hottest level. max == 0
 * returns to the automatic scale (0 to the largest value). */
void view_index_set_scale(struct view_index *ix, uint64_t min, uint64_t max);
/* The bottom of the colour scale: the fixed minimum, or 0. */
uint64_t view_index_min(const struct view_index *ix);
/* Shade level 0..7 of a numeric value: 0 only for 0, 7 for the maximum. */
int view_index_level(struct view_index *ix, enum view_metric m, uint64_t v);
/* Colour number 0..7 of a lop under a categorical metric: partitions
 * alternate in step order; regions get distinct colours by frequency. */
int view_index_category(struct view_index *ix, enum view_metric m, uint32_t lop);
/* Colour number 0..7 of region r (TRACE_NONE: computation outside any)
 * under METRIC_FUNCTION, as its lops get. */
int view_index_region_category(struct view_index *ix, uint32_t r);
/* The region that owns colour cat under METRIC_FUNCTION (the cat-th most
 * frequent among the lops; TRACE_NONE: aggregated computation) in
 * *region; 0 when no region owns it. Less frequent regions share the
 * colours. */
int view_index_category_region(struct view_index *ix, int cat, uint32_t *region);
/* Per global step, the largest value over all ranks (numeric metrics);
 * NULL when out of memory. Borrowed until view_index_destroy. */
const uint64_t *view_index_step_max(struct view_index *ix, enum view_metric m);

/* Aggregate over ranks [r0, r1) × steps [s0, s1): the number of lops in
 * it, the representative lop (largest value for numeric metrics, the
 * earliest lop of the first rank for categories) in *rep (TRACE_NONE if
 * the block is empty), and when kinds is not NULL, the kinds of operation
 * it holds ORed into *kinds (bit 1 << enum trace_op_kind). Returns the
 * representative's value. */
uint64_t view_index_block(struct view_index *ix, enum view_metric m, uint32_t r0, uint32_t r1,
			  uint32_t s0, uint32_t s1, uint32_t *rep, uint32_t *count, unsigned *kinds);

/* The lops of each rank in blocks of VIEW_BLOCK, whose aggregates
 * (view_index_block's, per metric: computed on first need, or on
 * another thread and adopted, 16 bytes a block) let a block of the grid that
 * spans many lops read a block of them at once; the timeline keeps its
 * own per block (view_timeline.c). The size can be set (tests use small
 * ones; every result is the same); 0 or ERR_NOMEM. */
#define VIEW_BLOCK 8
int view_index_set_block_size(struct view_index *ix, uint32_t size);
/* Computes metric m's aggregates now (they are otherwise computed on
 * first need): before view_index_block is called from several threads
 * at once, which it may be when this returned 1 (0: out of memory). */
int view_index_prepare_blocks(struct view_index *ix, enum view_metric m);
/* Metric m's aggregates computed on another thread, with start-up
 * counted or not (startup): for metrics whose values read the analysis
 * alone (not path or delta; NULL for those or out of memory); one core.
 * The index takes them with view_index_adopt_blocks when it has none
 * for m and its start-up setting is the same (1), else frees them (0). */
struct ix_block;
struct ix_block *view_index_blocks_ahead(const struct view_index *ix, enum view_metric m, int startup);
int view_index_adopt_blocks(struct view_index *ix, enum view_metric m, int startup, struct ix_block *b);
uint32_t view_index_block_size(const struct view_index *ix);
/* The blocks view_index_block has read whole so far (tests). */
uint64_t view_index_blocks_used(const struct view_index *ix);
/* Rank's blocks: [*first_block, *first_block + *n_blocks); block b
 * holds lops from the rank's first + (b - *first_block) × the size. */
void view_index_block_span(const struct view_index *ix, uint32_t rank, uint32_t *first_block, uint32_t *n_blocks);

/* 1 for odd partitions (the alternating background). Partitions are
 * shown with the analysis's numbers, 0-based, in order of their first
 * step, as analyze reports them. */
int view_index_part_alt(const struct view_index *ix, uint32_t p);
/* 1 when some partition starts at a global step in [s0, s1); O(1). */
int view_index_part_starts(const struct view_index *ix, uint32_t s0, uint32_t s1);

#endif

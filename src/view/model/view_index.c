/* view_index.c — precomputed lookups for the explorer (see view_index.h). */
#include "view_index.h"

#include "view/surface/grid.h"
#include "analysis/explain/explain.h"
#include "analysis/hybrid/hybrid.h"
#include "analysis/path/path.h"

#include "base/par.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct view_index {
	const struct analysis *a;
	const struct trace *t;
	const struct trace_region *regions;
	uint32_t n_ranks, n_steps, n_parts, n_regions;
	uint32_t *rank_first;        /* n_ranks + 1: lops of rank r */
	uint32_t *part_start;        /* n_steps + 1: partitions starting before step s */
	/* lazily computed per metric */
	int have_max[METRIC_COUNT];
	uint64_t scale_min, scale_max;   /* a fixed scale (ticks), max 0: automatic */
	int startup;                 /* start-up lops count for scales and blocks */
	uint64_t max[METRIC_COUNT];
	uint64_t *step_max[METRIC_COUNT];
	uint8_t *region_cat;         /* n_regions, for METRIC_FUNCTION */
	uint32_t cat_region[GRID_CATS];   /* the region that owns each colour */
	uint32_t n_cat_region;
	const struct diff *diff;     /* for METRIC_DELTA, or NULL */
	struct path *path;           /* for METRIC_PATH: computed on first use */
	int path_failed;
	uint64_t *lane_wait;         /* for METRIC_LANES: per lop, computed on first use */
	int lane_failed;
	/* each rank's lops in blocks of blk_size (the last may be shorter),
	 * block b of rank r from lop rank_first[r] + (b - blk_first[r]) *
	 * blk_size; per metric, each block's aggregate as view_index_block
	 * takes it, computed on first need or adopted from a thread */
	uint32_t blk_size, n_blk;
	uint32_t *blk_first;         /* n_ranks + 1 */
	struct ix_block *blk[METRIC_COUNT];
	uint8_t blk_failed[METRIC_COUNT];   /* out of memory: lop by lop, not tried again */
	uint64_t blk_used;           /* blocks read whole (tests) */
};

struct ix_block {
	uint64_t best;
	uint32_t rep;
	uint8_t kinds;
};

static const char *const metric_names[METRIC_COUNT] = {
	"lateness", "diff", "global", "duration", "partition", "function", "delta",
	"diff-duration", "idle", "imbalance", "wait", "path", "threads",
};
static const char *const metric_titles[METRIC_COUNT] = {
	"lateness", "differential lateness", "global lateness", "duration", "partition", "function",
	"\u0394 lateness", "differential duration", "idle experienced", "imbalance", "waiting time",
	"time on the critical path", "threads' and streams' waiting",
};

const char *view_metric_name(enum view_metric m) { return (unsigned)m < METRIC_COUNT ? metric_names[m] : "?"; }
const char *view_metric_title(enum view_metric m) { return (unsigned)m < METRIC_COUNT ? metric_titles[m] : "?"; }
int view_metric_numeric(enum view_metric m) { return m != METRIC_PARTITION && m != METRIC_FUNCTION; }

enum view_metric
view_metric_find(const char *name)
{
	size_t n = strlen(name);
	if (n == 0)
		return METRIC_COUNT;
	for (int i = 0; i < METRIC_COUNT; i++)
		if (strcasecmp(name, metric_names[i]) == 0)
			return (enum view_metric)i;
	if (strcasecmp(name, "differential") == 0 || strcasecmp(name, "differential-lateness") == 0)
		return METRIC_DIFF;
	if (strcasecmp(name, "lanes") == 0)
		return METRIC_LANES;       /* the threads metric's first name */
	/* an unambiguous prefix */
	int found = -1;
	for (int i = 0; i < METRIC_COUNT; i++)
		if (strncasecmp(name, metric_names[i], n) == 0) {
			if (found >= 0)
				return METRIC_COUNT;
			found = i;
		}
	return found >= 0 ? (enum view_metric)found : METRIC_COUNT;
}

int
view_index_create(const struct analysis *a, struct view_index **out, struct err *e)
{
	struct view_index *ix = calloc(1, sizeof *ix);
	if (!ix)
		return err_set(e, ERR_NOMEM, "out of memory");
	ix->a = a;
	ix->t = analysis_trace(a);
	ix->regions = trace_regions(ix->t, &ix->n_regions);
	trace_timelines(ix->t, &ix->n_ranks);
	ix->n_steps = analysis_step_count(a);
	ix->startup = analysis_options(a)->startup;
	const struct analysis_part *parts = analysis_parts(a, &ix->n_parts);
	ix->rank_first = malloc((ix->n_ranks + 1) * sizeof *ix->rank_first);
	ix->part_start = calloc((size_t)ix->n_steps + 1, sizeof *ix->part_start);
	if (!ix->rank_first || !ix->part_start) {
		view_index_destroy(ix);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	for (uint32_t r = 0; r < ix->n_ranks; r++) {
		uint32_t first, count;
		analysis_timeline_lops(a, r, &first, &count);
		ix->rank_first[r] = first;
		ix->rank_first[r + 1] = first + count;
	}
	if (ix->n_ranks == 0)
		ix->rank_first[0] = 0;
	if (view_index_set_block_size(ix, VIEW_BLOCK)) {
		view_index_destroy(ix);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	/* the analysis numbers partitions in order of their first step */
	for (uint32_t p = 0; p < ix->n_parts; p++) {
		if (parts[p].step_first < ix->n_steps)
			ix->part_start[parts[p].step_first + 1] = 1;
	}
	for (uint32_t st = 0; st < ix->n_steps; st++)
		ix->part_start[st + 1] += ix->part_start[st];
	*out = ix;
	return 0;
}

void
view_index_destroy(struct view_index *ix)
{
	if (!ix)
		return;
	free(ix->rank_first);
	free(ix->part_start);
	free(ix->blk_first);
	for (int m = 0; m < METRIC_COUNT; m++)
		free(ix->blk[m]);
	for (int m = 0; m < METRIC_COUNT; m++)
		free(ix->step_max[m]);
	free(ix->region_cat);
	if (ix->path) {
		path_free(ix->path);
		free(ix->path);
	}
	free(ix->lane_wait);
	free(ix);
}

const struct path *
view_index_path(struct view_index *ix)
{
	if (ix->path || ix->path_failed)
		return ix->path;
	struct path *p = calloc(1, sizeof *p);
	if (!p || path_compute(ix->a, p, NULL)) {
		free(p);
		ix->path_failed = 1;
		return NULL;
	}
	ix->path = p;
	return p;
}

/* Adds wait [from, to) of rank r's process to every lop of r it
 * overlaps (a rank's lops follow each other in time). */
static void
add_lane_wait(struct view_index *ix, uint64_t *v, uint32_t r, uint64_t from, uint64_t to)
{
	uint32_t end = ix->rank_first[r + 1];
	for (uint32_t l = view_index_lop_at_time(ix, r, from); l < end; l++) {
		uint64_t a = analysis_lop_enter(ix->a, l), b = analysis_lop_exit(ix->a, l);
		if (a >= to)
			break;
		uint64_t lo = a > from ? a : from, hi = b < to ? b : to;
		if (hi > lo)
			v[l] += hi - lo;
	}
}

const uint64_t *
view_index_lane_waits(struct view_index *ix)
{
	if (ix->lane_wait || ix->lane_failed)
		return ix->lane_wait;
	uint32_t n_lops = analysis_lop_count(ix->a);
	struct hybrid h;
	uint64_t *v = calloc((size_t)n_lops + 1, sizeof *v);
	if (!v || hybrid_compute(ix->t, &h, NULL)) {
		free(v);
		ix->lane_failed = 1;
		return NULL;
	}
	/* each wait is on one place, whose waits follow each other: over
	 * all, O(waits log lops + the lops they overlap) */
	for (uint32_t i = 0; i < h.n_waits; i++) {
		uint32_t r = hybrid_place_rank(ix->t, &h, h.waits[i].place);
		if (r < ix->n_ranks)
			add_lane_wait(ix, v, r, h.waits[i].from, h.waits[i].to);
	}
	hybrid_free(&h);
	ix->lane_wait = v;
	return v;
}

const struct analysis *view_index_analysis(const struct view_index *ix) { return ix->a; }
uint32_t view_index_ranks(const struct view_index *ix) { return ix->n_ranks; }
uint32_t view_index_steps(const struct view_index *ix) { return ix->n_steps; }

void
view_index_rank_lops(const struct view_index *ix, uint32_t rank, uint32_t *first, uint32_t *end)
{
	if (rank >= ix->n_ranks) {
		*first = *end = 0;
		return;
	}
	*first = ix->rank_first[rank];
	*end = ix->rank_first[rank + 1];
}

uint32_t
view_index_lower(const struct view_index *ix, uint32_t rank, uint32_t step)
{
	uint32_t lo, hi;
	view_index_rank_lops(ix, rank, &lo, &hi);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (analysis_lop_step(ix->a, mid) < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
view_index_lop_at(const struct view_index *ix, uint32_t rank, uint32_t step)
{
	if (rank >= ix->n_ranks)
		return TRACE_NONE;
	uint32_t i = view_index_lower(ix, rank, step);
	if (i < ix->rank_first[rank + 1] && analysis_lop_step(ix->a, i) == step)
		return i;
	return TRACE_NONE;
}

uint32_t
view_index_lop_at_time(const struct view_index *ix, uint32_t rank, uint64_t t)
{
	uint32_t first, end;
	view_index_rank_lops(ix, rank, &first, &end);
	if (first == end)
		return TRACE_NONE;
	uint32_t lo = first, hi = end;
	while (lo < hi) {        /* first lop entering after t */
		uint32_t mid = lo + (hi - lo) / 2;
		if (analysis_lop_enter(ix->a, mid) <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first ? lo - 1 : first;
}

void
view_index_set_diff(struct view_index *ix, const struct diff *d)
{
	ix->diff = d;
	free(ix->blk[METRIC_DELTA]);
	ix->blk[METRIC_DELTA] = NULL;
	ix->blk_failed[METRIC_DELTA] = 0;
}

int
view_index_set_block_size(struct view_index *ix, uint32_t size)
{
	uint32_t *f = malloc(((size_t)ix->n_ranks + 1) * sizeof *f);
	if (!f || size < 1)
		return free(f), ERR_NOMEM;
	f[0] = 0;
	for (uint32_t r = 0; r < ix->n_ranks; r++) {
		uint32_t n = ix->rank_first[r + 1] - ix->rank_first[r];
		f[r + 1] = f[r] + n / size + (n % size != 0);
	}
	free(ix->blk_first);
	ix->blk_first = f;
	ix->blk_size = size;
	ix->n_blk = f[ix->n_ranks];
	for (int m = 0; m < METRIC_COUNT; m++) {
		free(ix->blk[m]);
		ix->blk[m] = NULL;
		ix->blk_failed[m] = 0;
	}
	return 0;
}

uint32_t
view_index_block_size(const struct view_index *ix)
{
	return ix->blk_size;
}

uint64_t
view_index_blocks_used(const struct view_index *ix)
{
	return __atomic_load_n(&ix->blk_used, __ATOMIC_RELAXED);
}

void
view_index_block_span(const struct view_index *ix, uint32_t rank, uint32_t *first_block, uint32_t *n_blocks)
{
	*first_block = rank < ix->n_ranks ? ix->blk_first[rank] : ix->n_blk;
	*n_blocks = rank < ix->n_ranks ? ix->blk_first[rank + 1] - ix->blk_first[rank] : 0;
}

uint64_t
view_index_value(struct view_index *ix, enum view_metric m, uint32_t lop)
{
	switch (m) {
	case METRIC_LATENESS: return analysis_lop_lateness(ix->a, lop);
	case METRIC_DIFF: return analysis_lop_diff(ix->a, lop);
	case METRIC_GLOBAL: return analysis_lop_global_lateness(ix->a, lop);
	case METRIC_DURATION: return analysis_lop_duration(ix->a, lop);
	case METRIC_PARTITION: return analysis_lop_part(ix->a, lop);
	case METRIC_FUNCTION: return analysis_lop_region(ix->a, lop);
	case METRIC_DELTA: return view_delta_value(ix->diff, analysis_trace(ix->a), lop);
	case METRIC_DIFF_DURATION: return analysis_lop_diff_duration(ix->a, lop);
	case METRIC_IDLE: return analysis_lop_idle_experienced(ix->a, lop);
	case METRIC_IMBALANCE: return analysis_lop_imbalance(ix->a, lop);
	case METRIC_WAIT: {
		const struct analysis_wait *w = analysis_lop_wait(ix->a, lop);
		return w ? w->time : 0;
	}
	case METRIC_PATH:
		if (!view_index_path(ix))
			return 0;
		return path_time_in(ix->path, analysis_lop_timeline(ix->a, lop), analysis_lop_enter(ix->a, lop),
				    analysis_lop_exit(ix->a, lop));
	case METRIC_LANES:
		return view_index_lane_waits(ix) ? ix->lane_wait[lop] : 0;
	default: return 0;
	}
}

/* A numeric value as scales and blocks see it: a rank's start-up counts
 * as 0 unless start-up is included, and so does lateness inherited from
 * it (the first operations of ranks that started late). */
static uint64_t
shown_value_as(struct view_index *ix, enum view_metric m, uint32_t lop, int startup)
{
	if (!startup && view_metric_numeric(m) && (analysis_lop_startup(ix->a, lop) ||
	    ((m == METRIC_LATENESS || m == METRIC_GLOBAL) && analysis_lop_from_startup(ix->a, lop))))
		return 0;
	return view_index_value(ix, m, lop);
}

static uint64_t
shown_value(struct view_index *ix, enum view_metric m, uint32_t lop)
{
	return shown_value_as(ix, m, lop, ix->startup);
}

void
view_index_set_startup(struct view_index *ix, int include)
{
	if (!include == !ix->startup)
		return;
	ix->startup = include;
	for (int m = 0; m < METRIC_COUNT; m++) {
		ix->have_max[m] = 0;
		free(ix->step_max[m]);
		ix->step_max[m] = NULL;
		free(ix->blk[m]);
		ix->blk[m] = NULL;
		ix->blk_failed[m] = 0;
	}
}

int
view_index_startup(const struct view_index *ix)
{
	return ix->startup;
}

/* The largest shown value of metric m over the lops, overall or per
 * global step (steps[w]: worker w's maxima, or NULL), on every core: a
 * lop's value may take a few reads to work out (lateness, differential
 * lateness), and a saved 10^8-event analysis shows its first screen in
 * under a second. The workers go block by block and fill the blocks'
 * aggregates (blk) on the way when they are wanted. */
struct maxing {
	struct view_index *ix;
	enum view_metric m;
	int startup;                 /* as ix->startup, read once before the workers */
	struct ix_block *blk;        /* NULL: not wanted */
	uint64_t mx[PAR_MAX];
	uint64_t *steps[PAR_MAX];
};

/* Into an aggregate (*best, *rep, *kinds when not NULL): lop of value v
 * and kinds k, a lop's or a block's. The aggregate's representative is
 * the first lop of the largest value (numeric metrics) or the first lop
 * (categories). */
static inline void
agg_take(int numeric, uint64_t v, uint32_t lop, unsigned k, uint64_t *best, uint32_t *rep, unsigned *kinds)
{
	if (kinds)
		*kinds |= k;
	if (*rep == TRACE_NONE || (numeric && v > *best)) {
		*rep = lop;
		*best = v;
	}
}

/* Lops [i0, i1) into an aggregate. */
static void
aggregate(struct view_index *ix, enum view_metric m, uint32_t i0, uint32_t i1, uint64_t *best, uint32_t *rep,
	  unsigned *kinds)
{
	int numeric = view_metric_numeric(m);
	for (uint32_t i = i0; i < i1; i++)
		agg_take(numeric, shown_value(ix, m, i), i, 1u << analysis_lop_kind(ix->a, i), best, rep, kinds);
}

/* Lop i's value into the worker's maximum, its step's (s, when the
 * steps are wanted) and, when k is not NULL, block k's aggregate. */
static inline void
take_value(const struct maxing *x, uint64_t *s, uint32_t i, uint64_t *mx, struct ix_block *k, unsigned *kinds)
{
	const struct view_index *ix = x->ix;
	uint64_t v = shown_value_as(x->ix, x->m, i, x->startup);
	if (v > *mx)
		*mx = v;
	uint32_t st = s ? analysis_lop_step(ix->a, i) : TRACE_NONE;
	if (st < ix->n_steps && v > s[st])
		s[st] = v;
	if (k)
		agg_take(view_metric_numeric(x->m), v, i, 1u << analysis_lop_kind(ix->a, i), &k->best, &k->rep, kinds);
}

/* Block b's lops, [*i0, *i1), rank r's. */
static void
block_lops(const struct view_index *ix, uint32_t r, uint32_t b, uint32_t *i0, uint32_t *i1)
{
	*i0 = ix->rank_first[r] + (b - ix->blk_first[r]) * ix->blk_size;
	*i1 = *i0 + ix->blk_size < ix->rank_first[r + 1] ? *i0 + ix->blk_size : ix->rank_first[r + 1];
}

static int
max_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct maxing *x = ctx;
	struct view_index *ix = x->ix;
	uint64_t mx = 0, *s = x->steps[w];
	if (!x->blk) {             /* the values alone: shares of the lops */
		uint32_t lo, hi;
		par_share(ix->rank_first[ix->n_ranks], w, nw, &lo, &hi);
		for (uint32_t i = lo; i < hi; i++)
			take_value(x, s, i, &mx, NULL, NULL);
		x->mx[w] = mx;
		return 0;
	}
	uint32_t b0, b1, r = 0;
	par_share(ix->n_blk, w, nw, &b0, &b1);
	for (uint32_t b = b0; b < b1; b++) {
		while (ix->blk_first[r + 1] <= b)
			r++;
		uint32_t i0, i1;
		block_lops(ix, r, b, &i0, &i1);
		struct ix_block k = { .rep = TRACE_NONE };
		unsigned kinds = 0;
		for (uint32_t i = i0; i < i1; i++)
			take_value(x, s, i, &mx, &k, &kinds);
		k.kinds = (uint8_t)kinds;
		x->blk[b] = k;
	}
	x->mx[w] = mx;
	return 0;
}

/* Runs the workers over metric m's values (numeric metrics), filling
 * x->blk's aggregates too when it is set; the maximum in *mx. The
 * scales do not build blocks: the first screen of a saved 10^8-event
 * analysis took 0.1 s more when they did, for a zoom it may never see. */
static void
max_pass(struct view_index *ix, enum view_metric m, struct maxing *x, uint32_t nw, uint64_t *mx)
{
	x->ix = ix;
	x->m = m;
	x->startup = ix->startup;
	if (m == METRIC_PATH)
		view_index_path(ix);    /* before the workers read it */
	if (m == METRIC_LANES)
		view_index_lane_waits(ix);
	par_run(nw, max_worker, x);
	*mx = 0;
	for (uint32_t w = 0; w < nw; w++)
		if (x->mx[w] > *mx)
			*mx = x->mx[w];
}

/* Metric m's block aggregates, computed on first need; NULL when out of
 * memory (the caller reads the lops). */
static const struct ix_block *
blocks(struct view_index *ix, enum view_metric m)
{
	if (ix->blk[m] || ix->blk_failed[m])
		return ix->blk[m];
	struct maxing x = { 0 };
	uint64_t mx;
	x.blk = ix->blk[m] = ix->n_blk ? malloc((size_t)ix->n_blk * sizeof *ix->blk[m]) : NULL;
	if (x.blk) {
		max_pass(ix, m, &x, par_workers(), &mx);
		if (view_metric_numeric(m) && !ix->scale_max && !ix->have_max[m]) {
			ix->max[m] = mx;
			ix->have_max[m] = 1;
		}
	}
	ix->blk_failed[m] = !ix->blk[m];
	return ix->blk[m];
}

struct ix_block *
view_index_blocks_ahead(const struct view_index *ix, enum view_metric m, int startup)
{
	if ((unsigned)m >= METRIC_COUNT || !view_metric_numeric(m) || m == METRIC_PATH || m == METRIC_LANES ||
	    m == METRIC_DELTA ||
	    !ix->n_blk)
		return NULL;
	/* these metrics' values read the analysis alone, nothing the view's
	 * thread changes: the cast only lets max_worker take the index */
	struct maxing x = { .ix = (struct view_index *)ix, .m = m, .startup = startup,
			    .blk = malloc((size_t)ix->n_blk * sizeof *x.blk) };
	if (x.blk)
		max_worker(&x, 0, 1);
	return x.blk;
}

int
view_index_adopt_blocks(struct view_index *ix, enum view_metric m, int startup, struct ix_block *b)
{
	if (!b || (unsigned)m >= METRIC_COUNT || ix->blk[m] || !ix->startup != !startup) {
		free(b);
		return 0;
	}
	ix->blk[m] = b;
	ix->blk_failed[m] = 0;
	return 1;
}

int
view_index_prepare_blocks(struct view_index *ix, enum view_metric m)
{
	return (unsigned)m < METRIC_COUNT && (blocks(ix, m) || !ix->n_blk);
}

uint64_t
view_index_max(struct view_index *ix, enum view_metric m)
{
	if ((unsigned)m >= METRIC_COUNT || !view_metric_numeric(m))
		return 0;
	if (ix->scale_max)
		return ix->scale_max;
	if (!ix->have_max[m]) {
		struct maxing x = { 0 };
		max_pass(ix, m, &x, par_workers(), &ix->max[m]);
		ix->have_max[m] = 1;
	}
	return ix->max[m];
}

void
view_index_set_scale(struct view_index *ix, uint64_t min, uint64_t max)
{
	ix->scale_min = max ? min : 0;
	ix->scale_max = max > min ? max : 0;
}

uint64_t
view_index_min(const struct view_index *ix)
{
	return ix->scale_max ? ix->scale_min : 0;
}

int
view_index_level(struct view_index *ix, enum view_metric m, uint64_t v)
{
	uint64_t mx = view_index_max(ix, m);
	if (ix->scale_max) {           /* a fixed scale: shift to its minimum */
		if (v <= ix->scale_min)
			return 0;
		v -= ix->scale_min;
		mx -= ix->scale_min;
	}
	if (v == 0 || mx == 0)
		return 0;
	if (v >= mx)
		return (GRID_HEAT_LEVELS - 1);
	return 1 + (int)((double)v / (double)mx * ((GRID_HEAT_LEVELS - 1) - 1 + 0.999));
}

/* Regions in order of how many lops show them, most first, so the eight
 * colours go to the functions that fill the screen. */
static int
build_region_cats(struct view_index *ix)
{
	uint32_t nr = ix->n_regions + 1;    /* + "none" */
	uint64_t *cnt = calloc(nr, sizeof *cnt);
	uint32_t *order = malloc(nr * sizeof *order);
	ix->region_cat = calloc(nr, 1);
	if (!cnt || !order || !ix->region_cat) {
		free(cnt);
		free(order);
		free(ix->region_cat);
		ix->region_cat = NULL;
		return ERR_NOMEM;
	}
	uint32_t n = analysis_lop_count(ix->a);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = analysis_lop_region(ix->a, i);
		cnt[r == TRACE_NONE ? ix->n_regions : r]++;
	}
	for (uint32_t i = 0; i < nr; i++)
		order[i] = i;
	/* selection of the top colours only: an O(8·regions) pass */
	for (uint32_t k = 0; k < nr && k < GRID_CATS; k++) {
		uint32_t best = k;
		for (uint32_t j = k + 1; j < nr; j++)
			if (cnt[order[j]] > cnt[order[best]] ||
			    (cnt[order[j]] == cnt[order[best]] && order[j] < order[best]))
				best = j;
		uint32_t s = order[k]; order[k] = order[best]; order[best] = s;
	}
	ix->n_cat_region = 0;
	for (uint32_t k = 0; k < nr && k < GRID_CATS && cnt[order[k]]; k++)
		ix->cat_region[ix->n_cat_region++] = order[k] == ix->n_regions ? TRACE_NONE : order[k];
	for (uint32_t k = 0; k < nr; k++)
		ix->region_cat[order[k]] = (uint8_t)(k < GRID_CATS ? k : order[k] % GRID_CATS);
	free(cnt);
	free(order);
	return 0;
}

int
view_index_category(struct view_index *ix, enum view_metric m, uint32_t lop)
{
	if (m == METRIC_PARTITION) {
		uint32_t p = analysis_lop_part(ix->a, lop);
		return p < ix->n_parts ? (int)(p % GRID_CATS) : 0;
	}
	if (m == METRIC_FUNCTION) {
		if (!ix->region_cat && build_region_cats(ix))
			return 0;
		uint32_t r = analysis_lop_region(ix->a, lop);
		return ix->region_cat[r == TRACE_NONE ? ix->n_regions : r];
	}
	return 0;
}

int
view_index_region_category(struct view_index *ix, uint32_t r)
{
	if (!ix->region_cat && build_region_cats(ix))
		return 0;
	return ix->region_cat[r < ix->n_regions ? r : ix->n_regions];
}

int
view_index_category_region(struct view_index *ix, int cat, uint32_t *region)
{
	if (!ix->region_cat && build_region_cats(ix))
		return 0;
	if (cat < 0 || (uint32_t)cat >= ix->n_cat_region)
		return 0;
	*region = ix->cat_region[cat];
	return 1;
}

const uint64_t *
view_index_step_max(struct view_index *ix, enum view_metric m)
{
	if ((unsigned)m >= METRIC_COUNT || !view_metric_numeric(m))
		m = METRIC_LATENESS;
	if (!ix->step_max[m]) {
		struct maxing x = { 0 };
		uint32_t nw = par_workers(), ns = ix->n_steps ? ix->n_steps : 1;
		int ok = 1;
		uint64_t mx;
		for (uint32_t w = 0; w < nw; w++)
			ok &= (x.steps[w] = calloc(ns, sizeof *x.steps[w])) != NULL;
		if (ok)
			max_pass(ix, m, &x, nw, &mx);
		for (uint32_t w = 1; w < nw; w++) {
			for (uint32_t st = 0; ok && st < ix->n_steps; st++)
				if (x.steps[w][st] > x.steps[0][st])
					x.steps[0][st] = x.steps[w][st];
			free(x.steps[w]);
		}
		if (!ok) {
			free(x.steps[0]);
			return NULL;
		}
		ix->step_max[m] = x.steps[0];
	}
	return ix->step_max[m];
}

/* Rank r's lops [i0, i1) into the aggregate: the blocks wholly inside
 * from their aggregates, the lops at the edges one by one; the same
 * representative as lop by lop (the first of the largest value). The
 * blocks read whole. */
static uint32_t
aggregate_range(struct view_index *ix, enum view_metric m, uint32_t r, uint32_t i0, uint32_t i1, uint64_t *best,
		uint32_t *rep, unsigned *kinds)
{
	uint32_t B = ix->blk_size, base = ix->rank_first[r];
	const struct ix_block *k = i1 - i0 >= 2 * B ? blocks(ix, m) : NULL;
	if (!k) {
		aggregate(ix, m, i0, i1, best, rep, kinds);
		return 0;
	}
	int numeric = view_metric_numeric(m);
	uint32_t b = (i0 - base + B - 1) / B, be = (i1 - base) / B;
	aggregate(ix, m, i0, base + b * B, best, rep, kinds);
	for (uint32_t j = b; j < be; j++) {
		const struct ix_block *x = &k[ix->blk_first[r] + j];
		agg_take(numeric, x->best, x->rep, x->kinds, best, rep, kinds);
	}
	aggregate(ix, m, base + be * B, i1, best, rep, kinds);
	return be - b;
}

uint64_t
view_index_block(struct view_index *ix, enum view_metric m, uint32_t r0, uint32_t r1,
		 uint32_t s0, uint32_t s1, uint32_t *rep, uint32_t *count, unsigned *kinds)
{
	uint64_t best = 0, used = 0;
	*rep = TRACE_NONE;
	*count = 0;
	if (r1 > ix->n_ranks)
		r1 = ix->n_ranks;
	for (uint32_t r = r0; r < r1; r++) {
		uint32_t i0 = view_index_lower(ix, r, s0), i1 = i0;
		if (s1 > s0 && i0 < ix->rank_first[r + 1])
			i1 = view_index_lower(ix, r, s1);
		if (i1 > i0) {
			used += aggregate_range(ix, m, r, i0, i1, &best, rep, kinds);
			*count += i1 - i0;
		}
	}
	if (used)
		__atomic_fetch_add(&ix->blk_used, used, __ATOMIC_RELAXED);
	return best;
}

int
view_index_part_alt(const struct view_index *ix, uint32_t p)
{
	return p < ix->n_parts ? (int)(p & 1) : 0;
}

int
view_index_part_starts(const struct view_index *ix, uint32_t s0, uint32_t s1)
{
	if (s1 > ix->n_steps)
		s1 = ix->n_steps;
	return s0 < s1 && ix->part_start[s1] > ix->part_start[s0];
}

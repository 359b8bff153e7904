/* view_lists.c — the lists pane (i): what the analysis found, as tables
 * sortable by any column, each row a place to go.
 *
 * Lists (v): the problems (analysis_problems: delays, lateness created
 * where it was lost, outliers), the hotspots (differential lateness), the
 * wait states, lateness per rank, and the trace's warnings. Each keeps to
 * the scope (w) and the filters; Enter goes to the row's operation (a
 * rank's row: its latest operation), o or a click on a header sorts.
 */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/explain/explain.h"
#include "analysis/hybrid/hybrid.h"
#include "analysis/profile/profile.h"
#include "base/par.h"
#include "model/charm.h"
#include "view/model/view_table.h"

enum { LI_PROBLEMS, LI_HOTSPOTS, LI_WAITS, LI_RANKS, LI_WARNINGS, LI_COUNT };

static const char *const list_name[LI_COUNT] = {
	"problems", "hotspots", "wait states", "lateness per rank", "warnings",
};

/* Columns of the lists that name an operation. */
enum { OC_N, OC_WHAT, OC_RANK, OC_STEP, OC_REGION, OC_AMOUNT, OC_NOTE, OC_COUNT };
static const struct vt_col op_cols[OC_COUNT] = {
	[OC_N] = { "#", 4, 3, 0, 1 },
	[OC_WHAT] = { "kind", 17, 0, 1 },
	[OC_RANK] = { "rank", 7, 0, 0, 1 },
	[OC_STEP] = { "step", 6, 1, 0, 1 },
	[OC_REGION] = { "region", 22, 2, 1 },
	[OC_AMOUNT] = { "time", 9, 0, 0 },
	[OC_NOTE] = { "cause", 40, 4, 1 },
};
/* Lateness per rank. */
enum { RK_RANK, RK_LATE, RK_DIFF, RK_MAX, RK_HOT, RK_WAIT, RK_COUNT };
static const struct vt_col rank_cols[RK_COUNT] = {
	[RK_RANK] = { "rank", 16, 0, 0, 1 },
	[RK_LATE] = { "lateness", 10, 0, 0 },
	[RK_DIFF] = { "created", 10, 0, 0 },
	[RK_MAX] = { "largest", 10, 1, 0 },
	[RK_HOT] = { "hotspots", 8, 2, 0 },
	[RK_WAIT] = { "waiting", 10, 3, 0 },
};
enum { WC_WHAT, WC_COUNT_, WC_N };
static const struct vt_col warn_cols[WC_N] = {
	[WC_WHAT] = { "warning", 70, 0, 1 },
	[WC_COUNT_] = { "count", 9, 0, 0 },
};

struct oprow {
	uint32_t lop, n, other;      /* other: a wait's cause, a problem's surfaced hotspot;
	                              * a thread's or host's wait (kind HYW_ROW + its
	                              * kind): its index in the lanes' waits */
	uint64_t amount;
	uint8_t kind;
};
/* The wait states list's rows of the threads' and hosts' waits (hybrid.h)
 * have kinds from here, after Scalasca's. */
#define HYW_ROW WAIT_KIND_COUNT

struct rankrow {
	uint32_t rank, max_lop, hot;
	uint64_t late, diff, max, wait;
};

struct view_lists {
	struct vt_col ocols[OC_COUNT], rcols[RK_COUNT];   /* in a Charm++ run's words */
	int list, scope;
	uint32_t tsel_seen;
	int valid;
	uint64_t key[4];
	struct oprow *ops;
	struct rankrow *ranks;
	uint32_t n, warn[WARN_COUNT];
	int data_list;               /* the list ops, ranks and n are of */
	/* each other list's rows as last computed, with their key: going
	 * round the lists (v) takes them back instead of computing them
	 * again (lateness per chare of a 10^7-record run: 60 ms) */
	struct li_kept {
		struct oprow *ops;
		struct rankrow *ranks;
		uint32_t n;
		uint64_t key[4];
		int valid;
	} kept[LI_COUNT];
	struct vtable tab[LI_COUNT];
	struct vt_source src[LI_COUNT];
	struct view *v;
	struct hybrid hy;            /* the lanes' waits, to name their rows */
	int hy_state;                /* 0: not computed, 1: computed, -1: failed */
};

/* The lanes' dependencies, computed on first need (NULL: none). */
static const struct hybrid *
lists_hybrid(struct view_lists *vl)
{
	if (!vl->hy_state)
		vl->hy_state = hybrid_compute(vl->v->t, &vl->hy, NULL) ? -1 : 1;
	return vl->hy_state > 0 ? &vl->hy : NULL;
}

/* A lanes' wait's place, "rank" or the thread's or stream's name. */
static const char *
place_word(const struct view *v, const struct hybrid *h, uint32_t p)
{
	if (p < h->n_timelines)
		return "the rank";
	const struct trace_lane *L = &trace_lanes(v->t, NULL)[p - h->n_timelines];
	return trace_str(v->t, trace_locations(v->t, NULL)[L->location].name);
}

static double
sec(const struct view *v, uint64_t ticks)
{
	return trace_seconds(v->t, ticks);
}

static void
op_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_lists *vl = ctx;
	struct view *v = vl->v;
	const struct oprow *x = &vl->ops[r];
	switch (c) {
	case OC_N: snprintf(buf, n, "%u", x->n + 1); break;
	case OC_WHAT:
		if (view_is_charm(v))          /* where it ran, not a lateness cause */
			snprintf(buf, n, "PE %u", analysis_lop_pe(v->a, x->lop));
		else if (vl->list == LI_PROBLEMS)
			snprintf(buf, n, "%s", analysis_problem_name((enum analysis_problem_kind)x->kind));
		else if (vl->list == LI_WAITS && x->kind >= HYW_ROW)
			snprintf(buf, n, "%s", hybrid_wait_name((enum hybrid_wait_kind)(x->kind - HYW_ROW)));
		else if (vl->list == LI_WAITS)
			snprintf(buf, n, "%s", analysis_wait_name((enum analysis_wait_kind)x->kind));
		else
			snprintf(buf, n, "%s", analysis_cause_name(analysis_lop_cause(v->a, x->lop)));
		break;
	case OC_RANK: view_row_name(v, analysis_lop_timeline(v->a, x->lop), buf, n); break;
	case OC_STEP: snprintf(buf, n, "%u", analysis_lop_step(v->a, x->lop)); break;
	case OC_REGION: {
		const struct hybrid *h = vl->list == LI_WAITS && x->kind >= HYW_ROW ? lists_hybrid(vl) : NULL;
		if (h && x->other < h->n_waits) {
			uint32_t first, cnt;
			const struct hybrid_wait *w = &h->waits[x->other];
			const struct trace_frame *fr = hybrid_place_frames(v->t, h, w->place, &first, &cnt);
			snprintf(buf, n, "%s", view_region_name(v, fr[w->frame].region));
			break;
		}
		uint32_t reg = analysis_lop_region(v->a, x->lop);
		snprintf(buf, n, "%s", reg == TRACE_NONE ? "(computation)" : view_region_name(v, reg));
		break;
	}
	case OC_AMOUNT: fmt_seconds(sec(v, x->amount), buf, n); break;
	case OC_NOTE:
		if (vl->list == LI_WAITS && x->kind >= HYW_ROW) {
			const struct hybrid *h = lists_hybrid(vl);
			if (h && x->other < h->n_waits) {
				const struct hybrid_wait *w = &h->waits[x->other];
				/* "for CUDA[0:7]: kernel", "OMP thread 1 for the rank: loop" */
				char a[72] = "", b[64];
				if (w->place >= h->n_timelines)
					snprintf(a, sizeof a, "%s ", place_word(v, h, w->place));
				snprintf(b, sizeof b, "%s", place_word(v, h, w->cause));
				snprintf(buf, n, "%sfor %s: %s", a, b,
					 view_region_name(v, hybrid_blamed_region(v->t, h, w)));
			} else {
				buf[0] = 0;
			}
		} else if (vl->list == LI_WAITS && x->other != TRACE_NONE)
			snprintf(buf, n, "for r%u step %u", analysis_lop_timeline(v->a, x->other),
				 analysis_lop_step(v->a, x->other));
		else if (vl->list == LI_PROBLEMS && x->other != TRACE_NONE && x->other != x->lop)
			snprintf(buf, n, "surfaced at r%u step %u", analysis_lop_timeline(v->a, x->other),
				 analysis_lop_step(v->a, x->other));
		else if (vl->list == LI_HOTSPOTS && view_is_charm(v)) {
			char i[32], m[32];
			snprintf(buf, n, "idle experienced %s \u00b7 imbalance %s",
				 fmt_seconds(sec(v, analysis_lop_idle_experienced(v->a, x->lop)), i, sizeof i),
				 fmt_seconds(sec(v, analysis_lop_imbalance(v->a, x->lop)), m, sizeof m));
		} else if (vl->list == LI_HOTSPOTS)
			snprintf(buf, n, "%s", analysis_cause_text(analysis_lop_cause(v->a, x->lop)));
		else
			buf[0] = 0;
		break;
	}
}

static double
op_key(void *ctx, uint32_t r, int c)
{
	struct view_lists *vl = ctx;
	const struct oprow *x = &vl->ops[r];
	switch (c) {
	case OC_N: return -(double)x->n;
	case OC_RANK: return -(double)analysis_lop_timeline(vl->v->a, x->lop);
	case OC_STEP: return -(double)analysis_lop_step(vl->v->a, x->lop);
	case OC_AMOUNT: return (double)x->amount;
	default: return 0;
	}
}

static void
rank_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_lists *vl = ctx;
	const struct rankrow *x = &vl->ranks[r];
	switch (c) {
	case RK_RANK: view_row_name(vl->v, x->rank, buf, n); break;
	case RK_LATE: fmt_seconds(sec(vl->v, x->late), buf, n); break;
	case RK_DIFF: fmt_seconds(sec(vl->v, x->diff), buf, n); break;
	case RK_MAX: fmt_seconds(sec(vl->v, x->max), buf, n); break;
	case RK_HOT: snprintf(buf, n, "%u", x->hot); break;
	case RK_WAIT: fmt_seconds(sec(vl->v, x->wait), buf, n); break;
	}
}

static double
rank_key(void *ctx, uint32_t r, int c)
{
	struct view_lists *vl = ctx;
	const struct rankrow *x = &vl->ranks[r];
	switch (c) {
	case RK_RANK: return -(double)x->rank;
	case RK_LATE: return (double)x->late;
	case RK_DIFF: return (double)x->diff;
	case RK_MAX: return (double)x->max;
	case RK_HOT: return x->hot;
	default: return (double)x->wait;
	}
}

/* The warnings counted, by kind (warn holds the kinds with a count). */
static void
warn_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_lists *vl = ctx;
	enum trace_warning w = (enum trace_warning)vl->warn[r];
	if (c == WC_WHAT)
		snprintf(buf, n, "%s", trace_warning_text(vl->v->t, w));
	else
		snprintf(buf, n, "%llu", (unsigned long long)trace_info(vl->v->t)->warnings[w]);
}

static double
warn_key(void *ctx, uint32_t r, int c)
{
	struct view_lists *vl = ctx;
	(void)c;
	return (double)trace_info(vl->v->t)->warnings[vl->warn[r]];
}

int
view_lists_create(struct view *v)
{
	struct view_lists *vl = calloc(1, sizeof *vl);
	if (!vl)
		return ERR_NOMEM;
	vl->v = v;
	memcpy(vl->ocols, op_cols, sizeof op_cols);
	memcpy(vl->rcols, rank_cols, sizeof rank_cols);
	if (view_is_charm(v)) {
		/* seed 004's words and metrics: where a hotspot ran and its
		 * differential duration; per chare the sum and largest of it and
		 * the idle experienced (MPI's waiting has no counterpart) */
		vl->ocols[OC_RANK].name = vl->rcols[RK_RANK].name = "chare";
		vl->ocols[OC_RANK].width = 11;
		vl->ocols[OC_STEP].width = 4;
		vl->ocols[OC_WHAT] = (struct vt_col){ "PE", 5, 0, 1, 0 };
		vl->ocols[OC_AMOUNT] = (struct vt_col){ "diff. duration", 14, 0, 0, 0 };
		vl->ocols[OC_NOTE].name = "its metrics";
		vl->rcols[RK_LATE] = (struct vt_col){ "diff. duration", 14, 0, 0, 0 };
		vl->rcols[RK_DIFF] = (struct vt_col){ "idle experienced", 16, 1, 0, 0 };
		vl->rcols[RK_MAX] = (struct vt_col){ "largest", 10, 2, 0, 0 };
		vl->list = LI_HOTSPOTS;      /* problems and waits are MPI's */
	}
	for (int i = 0; i < LI_COUNT; i++) {
		vt_init(&vl->tab[i], OC_N);
		vl->src[i] = (struct vt_source){ vl->ocols, OC_COUNT, vl, op_cell, op_key, NULL };
	}
	vl->tab[LI_PROBLEMS].desc = vl->tab[LI_HOTSPOTS].desc = 0;
	vl->tab[LI_WAITS].sort = OC_AMOUNT;
	vl->tab[LI_RANKS].sort = RK_DIFF;
	vl->src[LI_RANKS] = (struct vt_source){ vl->rcols, view_is_charm(v) ? RK_WAIT : RK_COUNT, vl, rank_cell,
						 rank_key, NULL };
	vl->tab[LI_WARNINGS].sort = WC_COUNT_;
	vl->src[LI_WARNINGS] = (struct vt_source){ warn_cols, WC_N, vl, warn_cell, warn_key, NULL };
	v->lists = vl;
	return 0;
}

void
view_lists_destroy(struct view_lists *vl)
{
	if (!vl)
		return;
	free(vl->ops);
	free(vl->ranks);
	for (int i = 0; i < LI_COUNT; i++) {
		vt_fini(&vl->tab[i]);
		free(vl->kept[i].ops);
		free(vl->kept[i].ranks);
	}
	hybrid_free(&vl->hy);
	free(vl);
}

/* Is lop in the scope s (the kept ranks, each rank's window)? */
static int
in_scope(const struct analysis *a, const struct profile_scope *s, uint32_t lop)
{
	uint32_t r = analysis_lop_timeline(a, lop);
	if (s->ranks && !s->ranks[r])
		return 0;
	uint64_t t = analysis_lop_enter(a, lop);
	uint64_t lo = s->tl_from ? s->tl_from[r] : s->from, hi = s->tl_from ? s->tl_to[r] : s->to;
	if (s->tl_from && lo == hi)
		return 0;
	return t >= lo && (t < hi || (s->tl_from && t <= hi));
}

static int
push(struct oprow **ops, uint32_t *n, size_t *cap, struct oprow x)
{
	if (*n >= *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct oprow *p = realloc(*ops, c * sizeof *p);
		if (!p)
			return ERR_NOMEM;
		*ops = p;
		*cap = c;
	}
	(*ops)[(*n)++] = x;
	return 0;
}

/* What the rows of a list are made from: nothing the view's keys change
 * (a job copies it, view_prefetch.c). */
struct rows_in {
	const struct analysis *a;
	const struct view_index *ix;
	int startup, charm;
};

struct ranks_job {
	const struct rows_in *in;
	const struct profile_scope *s;
	struct rankrow *out;
	uint32_t nr;
};

/* Worker w's share of the ranks: lateness summed, created lateness, the
 * latest operation, over the operations in scope. */
static int
ranks_work(void *ctx, uint32_t wi, uint32_t nw)
{
	struct ranks_job *j = ctx;
	const struct analysis *a = j->in->a;
	int startup = j->in->startup, a_charm = j->in->charm;
	uint32_t r0, r1;
	par_share(j->nr, wi, nw, &r0, &r1);
	for (uint32_t r = r0; r < r1; r++) {
		struct rankrow *x = &j->out[r];
		x->rank = r;
		x->max_lop = TRACE_NONE;
		if (j->s->ranks && !j->s->ranks[r])
			continue;
		uint32_t first, end;
		view_index_rank_lops(j->in->ix, r, &first, &end);
		for (uint32_t l = first; l < end; l++) {
			if (!in_scope(a, j->s, l) || (!startup && analysis_lop_from_startup(a, l)))
				continue;
			/* a Charm++ run: seed 004's differential duration (its
			 * sum and largest) and idle experienced */
			uint64_t late = a_charm ? analysis_lop_diff_duration(a, l) : analysis_lop_lateness(a, l);
			x->late += late;
			x->diff += a_charm ? analysis_lop_idle_experienced(a, l) : analysis_lop_diff(a, l);
			if (late > x->max || x->max_lop == TRACE_NONE) {
				x->max = late;
				x->max_lop = l;
			}
		}
	}
	return 0;
}

/* Lateness per rank over scope s: the kept ranks' rows, in rank order,
 * into *out (allocated), their count in *n. */
static int
rank_rows(const struct rows_in *in, const struct profile_scope *s, struct rankrow **out, uint32_t *n)
{
	const struct analysis *a = in->a;
	uint32_t nr = view_index_ranks(in->ix), k;
	struct rankrow *rows = calloc((size_t)nr + 1, sizeof *rows);
	if (!rows)
		return ERR_NOMEM;
	/* every rank's operations, on every core */
	struct ranks_job rj = { in, s, rows, nr };
	par_run(par_workers(), ranks_work, &rj);
	const struct analysis_wait *w = analysis_waits(a, &k);
	for (uint32_t i = 0; i < k; i++)
		if (in_scope(a, s, w[i].lop))
			rows[analysis_lop_timeline(a, w[i].lop)].wait += w[i].time;
	const uint32_t *h = analysis_hotspots_startup(a, in->startup, &k);
	for (uint32_t i = 0; i < k; i++)
		if (in_scope(a, s, h[i]))
			rows[analysis_lop_timeline(a, h[i])].hot++;
	/* the kept ranks, in rank order */
	*n = 0;
	for (uint32_t r = 0; r < nr; r++)
		if (!s->ranks || s->ranks[r])
			rows[(*n)++] = rows[r];
	*out = rows;
	return 0;
}

/* The wait states in scope s, as rows into *ops (allocated), n of them:
 * Scalasca's, then the threads' and hosts' (hybrid.h), each at the
 * operation its rank was in when it began (where Enter goes). */
static int
wait_rows(const struct rows_in *in, const struct profile_scope *s, struct oprow **ops, uint32_t *n)
{
	const struct analysis *a = in->a;
	uint32_t k;
	size_t cap = 0;
	const struct analysis_wait *w = analysis_waits(a, &k);
	*n = 0;
	for (uint32_t i = 0; i < k; i++)
		if (in_scope(a, s, w[i].lop) &&
		    push(ops, n, &cap, (struct oprow){ w[i].lop, i, w[i].cause_lop, w[i].time, w[i].kind }))
			return ERR_NOMEM;
	uint32_t n_lanes;
	trace_lanes(analysis_trace(a), &n_lanes);
	struct hybrid h;
	if (!n_lanes || in->charm || hybrid_compute(analysis_trace(a), &h, NULL))
		return 0;
	int rc = 0;
	for (uint32_t i = 0; i < h.n_waits && !rc; i++) {
		const struct hybrid_wait *x = &h.waits[i];
		uint32_t r = hybrid_place_rank(analysis_trace(a), &h, x->place);
		uint32_t l = view_index_lop_at_time(in->ix, r, x->from);
		if (l != TRACE_NONE && in_scope(a, s, l))
			rc = push(ops, n, &cap, (struct oprow){ l, k + i, i, x->to - x->from,
								(uint8_t)(HYW_ROW + x->kind) });
	}
	hybrid_free(&h);
	return rc;
}

static void
rows_in_of(const struct view *v, struct rows_in *in)
{
	*in = (struct rows_in){ v->a, v->ix, view_index_startup(v->ix), view_is_charm(v) };
}

static int
fill(struct view *v, const struct profile_scope *s)
{
	struct view_lists *vl = v->lists;
	const struct analysis *a = v->a;
	size_t cap = 0;
	uint32_t n;
	struct rows_in in;
	rows_in_of(v, &in);
	vl->n = 0;
	free(vl->ops);
	vl->ops = NULL;
	if (vl->list == LI_PROBLEMS) {
		const struct analysis_problem *p = analysis_problems(a, &n);
		for (uint32_t i = 0; i < n; i++)
			if (in_scope(a, s, p[i].lop) &&
			    push(&vl->ops, &vl->n, &cap,
				 (struct oprow){ p[i].lop, i, p[i].surfaced, p[i].amount, p[i].kind }))
				return ERR_NOMEM;
	} else if (vl->list == LI_HOTSPOTS) {
		const uint32_t *h = analysis_hotspots_startup(a, in.startup, &n);
		for (uint32_t i = 0; i < n; i++)
			if (in_scope(a, s, h[i]) &&
			    push(&vl->ops, &vl->n, &cap, (struct oprow){ h[i], i, TRACE_NONE, in.charm
							   ? analysis_lop_diff_duration(a, h[i]) : analysis_lop_diff(a, h[i]), 0 }))
				return ERR_NOMEM;
	} else if (vl->list == LI_WAITS) {
		return wait_rows(&in, s, &vl->ops, &vl->n);
	} else if (vl->list == LI_RANKS) {
		free(vl->ranks);
		vl->ranks = NULL;
		return rank_rows(&in, s, &vl->ranks, &vl->n);
	} else {
		const struct trace_info *ti = trace_info(v->t);
		for (int w = 0; w < WARN_COUNT; w++)
			if (ti->warnings[w])
				vl->warn[vl->n++] = (uint32_t)w;
	}
	return 0;
}

/* Jobs run ahead (view_prefetch.c): the wait states sorted as the list
 * first sorts them, and lateness per rank, over the whole trace. */
struct job_in {
	struct rows_in in;
	int which, sort, desc;
	struct view *v;              /* for op_key: v->a only, never changed */
	struct vt_col ocols[OC_COUNT];
};

struct job_out {
	struct oprow *ops;
	struct rankrow *ranks;
	uint32_t n;
	uint32_t *order;             /* the wait states' sorted order */
	size_t cap;
	int sort_seen;               /* sorted by: column << 1 | desc */
};

static void
job_drop(void *out)
{
	struct job_out *o = out;
	if (!o)
		return;
	free(o->ops);
	free(o->ranks);
	free(o->order);
	free(o);
}

static void *
job_run(const struct trace *tr, void *arg)
{
	(void)tr;
	struct job_in *j = arg;
	struct job_out *o = calloc(1, sizeof *o);
	struct profile_scope s;
	profile_scope_all(&s);
	int rc = !o;
	if (!rc && j->which == PF_RANKS) {
		rc = rank_rows(&j->in, &s, &o->ranks, &o->n);
	} else if (!rc) {
		rc = wait_rows(&j->in, &s, &o->ops, &o->n);
		/* sorted by a table of the job's own, over a copy of the pane
		 * whose rows are the job's */
		struct view_lists shadow = { .ops = o->ops, .v = j->v, .list = LI_WAITS };
		memcpy(shadow.ocols, j->ocols, sizeof shadow.ocols);
		struct vt_source src = { shadow.ocols, OC_COUNT, &shadow, op_cell, op_key, NULL };
		struct vtable t;
		vt_init(&t, j->sort);
		t.desc = j->desc;
		/* by a number only: a text column's cells read the view */
		if (!rc && !j->ocols[j->sort].text && !(rc = vt_reset(&t, o->n)) && !(rc = vt_sort(&t, &src))) {
			o->order = t.order;
			o->cap = t.cap;
			o->sort_seen = t.sort << 1 | t.desc;
		} else {
			vt_fini(&t);
		}
	}
	free(j);
	if (rc) {
		job_drop(o);
		return NULL;
	}
	return o;
}

int
view_lists_job(struct view *v, int which, struct view_job *j)
{
	struct view_lists *vl = v->lists;
	int list = which == PF_RANKS ? LI_RANKS : LI_WAITS;
	if (view_is_charm(v) && list == LI_WAITS)
		return 0;                    /* no wait states in a Charm++ run */
	struct job_in *in = calloc(1, sizeof *in);
	if (!in)
		return 0;
	rows_in_of(v, &in->in);
	in->which = which;
	in->sort = vl->tab[list].sort;
	in->desc = vl->tab[list].desc;
	in->v = v;
	memcpy(in->ocols, vl->ocols, sizeof in->ocols);
	/* the key compute() makes for this list (and the start-up setting) */
	*j = (struct view_job){ job_run, job_drop, in,
				(uint64_t)list << 40 ^ (uint64_t)in->in.startup << 48 };
	return 1;
}

/* Takes the rows (and for the wait states the order) computed ahead,
 * when they answer key and the table is still sorted as the job sorted
 * it; 1 if it did. */
static int
adopt(struct view *v, const uint64_t key[4])
{
	struct view_lists *vl = v->lists;
	if (vl->list != LI_WAITS && vl->list != LI_RANKS)
		return 0;
	struct job_out *o = view_prefetch_take(v, vl->list == LI_WAITS ? PF_WAITS : PF_RANKS, key);
	if (!o)
		return 0;
	struct vtable *t = &vl->tab[vl->list];
	free(vl->ops);
	free(vl->ranks);
	vl->ops = o->ops;
	vl->ranks = o->ranks;
	vl->n = o->n;
	if (o->order && o->sort_seen == (t->sort << 1 | t->desc)) {
		vt_adopt(t, o->order, o->cap, o->n);
	} else {
		free(o->order);
		vt_reset(t, vl->n);
		vt_sort(t, &vl->src[vl->list]);
	}
	free(o);
	return 1;
}

/* The rows of the list they were computed for, kept for coming back to
 * it (the warnings' are in warn[] for good). */
static void
keep(struct view_lists *vl)
{
	struct li_kept *k = &vl->kept[vl->data_list];
	free(k->ops);
	free(k->ranks);
	*k = (struct li_kept){ vl->ops, vl->ranks, vl->n, { 0 }, vl->data_list != LI_WARNINGS };
	memcpy(k->key, vl->key, sizeof k->key);
	vl->ops = NULL;
	vl->ranks = NULL;
	vl->n = 0;
}

/* The current list's kept rows when they are key's: 1, the rows back in
 * place (then sorted as computed ones are). */
static int
take_back(struct view_lists *vl, const uint64_t key[4])
{
	struct li_kept *k = &vl->kept[vl->list];
	if (!k->valid || memcmp(k->key, key, sizeof k->key)) {
		free(k->ops);
		free(k->ranks);
		*k = (struct li_kept){ 0 };
		return 0;
	}
	free(vl->ops);
	free(vl->ranks);
	vl->ops = k->ops;
	vl->ranks = k->ranks;
	vl->n = k->n;
	*k = (struct li_kept){ 0 };
	return 1;
}

static void
compute(struct view *v)
{
	struct view_lists *vl = v->lists;
	struct profile_scope s;
	uint64_t *buf, key[4];
	if (vl->tsel_seen != v->tsel_gen) {      /* a new window: look at it */
		vl->tsel_seen = v->tsel_gen;
		vl->scope = TSCOPE_TIME;
	}
	if (view_scope_fill(v, vl->scope, &s, &buf, key))
		return;
	key[0] ^= (uint64_t)vl->list << 40 ^ (uint64_t)view_index_startup(v->ix) << 48;
	if (vl->valid && memcmp(key, vl->key, sizeof key) == 0) {
		free(buf);
		return;
	}
	if (vl->valid && vl->data_list != vl->list)
		keep(vl);
	vl->data_list = vl->list;
	if (take_back(vl, key)) {
		free(buf);
		vl->valid = 1;
		memcpy(vl->key, key, sizeof key);
		vt_reset(&vl->tab[vl->list], vl->n);
		vt_sort(&vl->tab[vl->list], &vl->src[vl->list]);
		return;
	}
	if (adopt(v, key)) {
		free(buf);
		vl->valid = 1;
		memcpy(vl->key, key, sizeof key);
		return;
	}
	vl->valid = fill(v, &s) == 0;
	free(buf);
	memcpy(vl->key, key, sizeof key);
	vt_reset(&vl->tab[vl->list], vl->n);
	vt_sort(&vl->tab[vl->list], &vl->src[vl->list]);
}

static void
li_title(struct view *v, char *buf, size_t n)
{
	struct view_lists *vl = v->lists;
	char sc[160];
	view_scope_text(v, vl->scope, sc, sizeof sc);
	snprintf(buf, n, "%s \u00b7 %u \u00b7 %s \u00b7 v: next list",
		 vl->list == LI_RANKS && view_is_charm(v) ? "per chare" : list_name[vl->list], vl->n,
		 vl->list == LI_WARNINGS ? "the whole trace" : sc);
}

static void
li_prepare(struct view *v, int w, int h)
{
	struct view_lists *vl = v->lists;
	compute(v);
	vt_layout(&vl->tab[vl->list], &vl->src[vl->list], w, h - 2 > 1 ? h - 2 : 1);
}

static void
li_row(struct view *v, int y, struct grid *row)
{
	struct view_lists *vl = v->lists;
	struct vtable *t = &vl->tab[vl->list];
	const struct vt_source *s = &vl->src[vl->list];
	if (y == 0) {
		vt_header(t, s, row, 0);
		return;
	}
	if (y <= t->rows) {
		vt_row(t, s, y - 1, row, 0);
		if (y == 1 && t->n == 0)
			grid_text(row, 0, 0, row->w, ST_DIM, vl->list == LI_WARNINGS
				  ? "the reader warned of nothing" : "none in this scope");
		return;
	}
	if (y == t->rows + 1)
		grid_text(row, 0, 0, row->w, ST_DIM, vl->list == LI_WARNINGS
			  ? "what the reader closed, skipped or could not match ('skein info' lists them too)"
			  : "Enter: go to it \u00b7 o: sort \u00b7 w: scope \u00b7 v: next list");
}

static void
go(struct view *v)
{
	struct view_lists *vl = v->lists;
	uint32_t r = vt_selected(&vl->tab[vl->list]), lop = TRACE_NONE;
	if (r == UINT32_MAX)
		return;
	if (vl->list == LI_WARNINGS) {
		view_set_message(v, 0, "a warning is about the trace as a whole: it names no operation");
		return;
	}
	lop = vl->list == LI_RANKS ? vl->ranks[r].max_lop : vl->ops[r].lop;
	if (lop == TRACE_NONE)
		return;
	if (v->big == PANE_LISTS) {
		v->big = -1;
		v->focus = PANE_GRID;
	}
	view_jump_lop(v, lop);
	char what[64];
	if (vl->list == LI_RANKS)
		snprintf(what, sizeof what, "the latest operation of %s %u", view_row_noun(v), vl->ranks[r].rank);
	else
		snprintf(what, sizeof what, "%s %u of %u", list_name[vl->list], vl->ops[r].n + 1, vl->n);
	view_set_message(v, 0, "%s", what);
}

static int
li_request(struct view *v, enum action act)
{
	struct view_lists *vl = v->lists;
	struct vtable *t = &vl->tab[vl->list];
	const struct vt_source *s = &vl->src[vl->list];
	int page = t->rows > 1 ? t->rows - 1 : 1;
	switch (act) {
	case ACT_MOVE_UP: vt_move(t, -1); return 1;
	case ACT_MOVE_DOWN: vt_move(t, 1); return 1;
	case ACT_PAGE_UP: vt_move(t, -page); return 1;
	case ACT_PAGE_DOWN: vt_move(t, page); return 1;
	case ACT_FIRST_RANK: case ACT_FIRST_STEP: vt_home(t, 0); return 1;
	case ACT_LAST_RANK: case ACT_LAST_STEP: vt_home(t, 1); return 1;
	case ACT_PANE_METRIC: case ACT_MOVE_RIGHT: case ACT_MOVE_LEFT:
		vt_sort_next(t, s, act == ACT_MOVE_LEFT ? -1 : 1);
		return 1;
	case ACT_PANE_MODE:
		do
			vl->list = (vl->list + 1) % LI_COUNT;
		while (view_is_charm(v) && (vl->list == LI_PROBLEMS || vl->list == LI_WAITS));
		return 1;                /* the key names the list: compute() keeps the rows left */
	case ACT_PANE_SCOPE:
		vl->scope = view_scope_next(v, vl->scope);
		return 1;
	case ACT_CLUSTER_TOGGLE: go(v); return 1;
	case ACT_CLOSE:
		if (v->big == PANE_LISTS)
			view_big_toggle(v, PANE_LISTS);
		return 1;
	default: return 0;
	}
}

static int
li_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	struct view_lists *vl = v->lists;
	struct vtable *t = &vl->tab[vl->list];
	if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN) {
		vt_move(t, kind == MOUSE_WHEEL_UP ? -3 : 3);
	} else if (kind == MOUSE_LEFT && y == 0 && vt_column_at(t, x) >= 0) {
		vt_sort_by(t, &vl->src[vl->list], vt_column_at(t, x));
	} else if (kind == MOUSE_LEFT && y >= 1 && t->top + (uint32_t)(y - 1) < t->n) {
		uint32_t at = t->top + (uint32_t)(y - 1);
		if (at == t->sel)
			go(v);
		else
			vt_move(t, (long)at - (long)t->sel);
	}
	return 1;
}

static const struct pane_key li_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the row above / below" },
	{ ACT_PANE_MODE, ACT_NONE, "problems, hotspots, wait states, lateness per rank, warnings" },
	{ ACT_PANE_METRIC, ACT_NONE, "sort by the next column (a click on a header: by it; again: reversed)" },
	{ ACT_PANE_SCOPE, ACT_NONE, "whole trace, partition, iteration, steps in view, the timeline's window" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "go to the row's operation" },
	{ ACT_NONE, ACT_NONE, NULL },
};

static const struct pane_key li_charm_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the row above / below" },
	{ ACT_PANE_MODE, ACT_NONE, "hotspots, lateness per chare, warnings (the other lists are MPI's)" },
	{ ACT_PANE_METRIC, ACT_NONE, "sort by the next column (a click on a header: by it; again: reversed)" },
	{ ACT_PANE_SCOPE, ACT_NONE, "whole trace, phase, iteration, steps in view, the timeline's window" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "go to the row's execution" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_lists_ops = {
	.name = "lists",
	.focusable = 1,
	.title = li_title,
	.prepare = li_prepare,
	.row = li_row,
	.request = li_request,
	.mouse = li_mouse,
	.keys_title = "In the lists (i)",
	.keys = li_keys,
	.charm_keys = li_charm_keys,
};

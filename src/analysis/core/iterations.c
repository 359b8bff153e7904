/* iterations.c — finding the iterations (iterations.h says what they are).
 *
 * Work: the signature pass is linear in lops and message ends; the period
 * search compares the token sequence with itself shifted by each
 * candidate period, stopping at a budget of comparisons (PERIOD_BUDGET)
 * so a trace with tens of thousands of partitions and no period does not
 * stall; the region check is linear in frames.
 */
#include "analysis_impl.h"
#include "iterations.h"
#include "iterations_impl.h"
#include "signature.h"

#include "base/par.h"
#include "base/vec.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REGION_CANDIDATES 32

/* In a distributed analysis, every rank's rc agreed on (the lowest
 * failing rank's) before the next collective; else rc. */
static int
all_agree(const struct analysis *a, int rc)
{
	return a->dc ? dcomm_agree(a->dc, rc) : rc;
}

static void
bounds_fini(struct bounds *b)
{
	free(b->b);
	memset(b, 0, sizeof *b);
}

static uint64_t
tl_weight(const void *ctx, uint32_t tl)
{
	const struct analysis *a = ctx;
	return (uint64_t)(a->tl_lop[tl + 1] - a->tl_lop[tl]) + 1;
}

/* Is every lop of timeline tl entered no earlier than the one before?
 * Worked out once per timeline (s->sorted: 0 not yet, 1 yes, 2 no). */
static int
tl_sorted(const struct seq *s, uint32_t tl)
{
	const struct analysis *a = s->a;
	if (!s->sorted[tl]) {
		uint8_t v = 1;
		uint64_t prev = 0;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1] && v == 1; l++) {
			uint64_t t = lop_enter(a, l);
			if (l > a->tl_lop[tl] && t < prev)
				v = 2;
			prev = t;
		}
		s->sorted[tl] = v;
	}
	return s->sorted[tl] == 1;
}

/* The last lop of timeline tl entered at or before t, or its first lop
 * when none is. Where the timeline's enters are sorted that lop is
 * unique, and it is looked for from *hint (the answer to a nearby
 * question) outwards; elsewhere by bisecting the whole timeline as
 * always, so the answer never depends on the hint. */
static uint32_t
lop_at(const struct seq *s, uint32_t tl, uint64_t t, uint32_t *hint)
{
	const struct analysis *a = s->a;
	uint32_t first = a->tl_lop[tl], last = a->tl_lop[tl + 1];
	uint32_t lo = first, hi = last;   /* enter(lo) <= t or lo == first; t < enter(hi) or hi == last */
	uint32_t h = *hint;
	if (h >= first && h < last && tl_sorted(s, tl)) {
		uint32_t step = 1;
		if (lop_enter(a, h) <= t) {
			lo = h;
			while (step < last - lo && lop_enter(a, lo + step) <= t) {
				lo += step;
				step *= 2;
			}
			hi = step < last - lo ? lo + step : last;
		} else {
			hi = h;
			while (step < hi - first && lop_enter(a, hi - step) > t) {
				hi -= step;
				step *= 2;
			}
			lo = step < hi - first ? hi - step : first;
		}
	}
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (lop_enter(a, mid) <= t)
			lo = mid;
		else
			hi = mid;
	}
	*hint = lo;
	return lo;
}

/* The position of the partition an iteration starting at time t on
 * timeline tl begins with: the partition of the lop holding t (the
 * computation before a communication belongs to the communication's
 * partition). UINT32_MAX when t is after the timeline's last lop. hint
 * as for lop_at. */
static uint32_t
pos_at(const struct seq *s, uint32_t tl, uint64_t t, int leave, uint32_t *hint)
{
	struct analysis *a = s->a;
	uint32_t first = a->tl_lop[tl], last = a->tl_lop[tl + 1];
	if (first == last)
		return UINT32_MAX;
	uint32_t lo = lop_at(s, tl, t, hint);
	if (t >= lop_exit(a, lo) && lo + 1 == last && !leave)
		return UINT32_MAX;
	/* A Leave inside computation closes what came before: the
	 * communication lop before it. */
	if (leave && a->lop_kind[lo] == OP_COMPUTE && lo > first && t < lop_exit(a, lo))
		lo--;
	return s->pos[a->lop_part[lo]];
}

/* The Enters and Leaves of region r on pieces of the timelines: the
 * earliest partition each k-th Enter falls before (b, per worker, m of
 * them) and one past the latest a Leave falls in (end, per worker). */
struct bounding {
	const struct seq *s;
	uint32_t r, m;
	struct par_pieces pieces;     /* of the timelines, cut[] */
	uint32_t cut[PAR_PIECES_MAX + 1];
	uint32_t *b[PAR_MAX];
	uint32_t end[PAR_MAX];
};

static int
bounds_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct bounding *g = ctx;
	const struct seq *s = g->s;
	const struct trace_timeline *tls = trace_timelines(s->a->t, NULL);
	const struct trace_frame *fr = trace_frames(s->a->t, NULL);
	uint32_t r = g->r, m = g->m, *b = g->b[w], end = 0, c;
	(void)nw;
	for (uint32_t k = 0; k <= m; k++)
		b[k] = UINT32_MAX;
	while (par_take(&g->pieces, w, &c)) {
		for (uint32_t tl = g->cut[c]; tl < g->cut[c + 1]; tl++) {
			if (s->a->tl_lop[tl] == s->a->tl_lop[tl + 1])
				continue;
			uint32_t k = 0, hint = s->a->tl_lop[tl];
			for (uint32_t f = tls[tl].frame_first; f < tls[tl].frame_first + tls[tl].frame_count; f++) {
				if (fr[f].region != r)
					continue;
				/* frames are in enter order: each Enter is found from
				 * the one before, its Leave from its Enter */
				uint32_t p = pos_at(s, tl, fr[f].t_enter, 0, &hint), leave_hint = hint;
				if (k < m && p < b[k])
					b[k] = p;
				uint32_t q = pos_at(s, tl, fr[f].t_leave, 1, &leave_hint);
				if (q != UINT32_MAX && q + 1 > end)
					end = q + 1;
				k++;
			}
		}
	}
	g->end[w] = end;
	return 0;
}

/* A distributed analysis's: the ranks' earliest boundaries and latest
 * end (each rank saw its own timelines'). */
static int
combine_bounds(const struct analysis *a, int rc, uint32_t *b, uint32_t m, uint32_t *end)
{
	uint64_t *v = rc ? NULL : malloc(((size_t)m + 2) * sizeof *v);
	rc = all_agree(a, rc ? rc : v ? 0 : ERR_NOMEM);
	for (uint32_t k = 0; k < m && !rc; k++)
		v[k] = b[k];
	uint64_t e = *end;
	if (!rc)
		rc = dcomm_reduce(a->dc, v, m, DCOMM_MIN);
	if (!rc)
		rc = dcomm_reduce(a->dc, &e, 1, DCOMM_MAX);
	for (uint32_t k = 0; k < m && !rc; k++)
		b[k] = (uint32_t)v[k];
	*end = (uint32_t)e;
	free(v);
	return rc;
}

/* Iterations marked by the Enters of region r (entered m times on every
 * communicating timeline): the k-th boundary is the earliest partition
 * any rank's k-th Enter falls before. Found on every core, pieces of
 * the timelines that the workers take in turn, the workers' earliest and
 * latest then taken. */
static int
region_bounds(const struct seq *s, uint32_t r, uint32_t m, struct bounds *out)
{
	uint32_t n_tl, nw = par_workers();
	trace_timelines(s->a->t, &n_tl);
	struct bounding g = { .s = s, .r = r, .m = m };
	int rc = 0;
	for (uint32_t w = 0; w < nw && !rc; w++) {
		g.b[w] = malloc(((size_t)m + 1) * sizeof *g.b[w]);
		rc = g.b[w] ? 0 : ERR_NOMEM;
	}
	if (!rc) {
		par_split(n_tl, PAR_PIECES(nw), tl_weight, s->a, g.cut);
		par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
		par_run(nw, bounds_worker, &g);
	}
	uint32_t *b = g.b[0], end = 0;
	for (uint32_t w = 0; w < nw && !rc; w++) {
		for (uint32_t k = 0; w && k < m; k++)
			if (g.b[w][k] < b[k])
				b[k] = g.b[w][k];
		if (g.end[w] > end)
			end = g.end[w];
	}
	for (uint32_t w = 1; w < nw; w++)
		free(g.b[w]);
	if (s->a->dc)
		rc = combine_bounds(s->a, rc, b, m, &end);
	if (rc) {
		free(b);
		return rc;
	}
	/* Enters after all communication start no iteration. */
	while (m && b[m - 1] == UINT32_MAX)
		m--;
	int ok = m >= 2;
	for (uint32_t k = 0; k + 1 < m && ok; k++)
		ok = b[k] < b[k + 1];
	if (ok)
		b[m] = end > b[m - 1] ? end : s->n;
	if (!ok) {
		free(b);
		return 0;
	}
	out->b = b;
	out->count = m;
	out->region = r;
	return 0;
}

/* Do the stretches between boundaries share their partitions? At least
 * half the interior iterations (the first and last may differ) must
 * hold one signature in common, and none may be empty: one iteration
 * whose exchange carries an extra message does not hide the loop. */
static int
alike(const struct seq *s, const struct bounds *bd, uint32_t *stamp, uint32_t *hits)
{
	uint32_t k0 = bd->count >= 3 ? 1 : 0, k1 = bd->count >= 3 ? bd->count - 1 : 1;
	uint32_t segs = k1 - k0;
	memset(hits, 0, s->distinct * sizeof *hits);
	memset(stamp, 0xff, s->distinct * sizeof *stamp);
	for (uint32_t k = k0; k < k1; k++) {
		if (bd->b[k] >= bd->b[k + 1])
			return 0;
		for (uint32_t i = bd->b[k]; i < bd->b[k + 1]; i++)
			if (stamp[s->tok[i]] != k) {
				stamp[s->tok[i]] = k;
				hits[s->tok[i]]++;
			}
	}
	for (uint32_t x = 0; x < s->distinct; x++)
		if (2 * hits[x] >= segs && hits[x] * 3 >= segs * 2)
			return 1;
	return 0;
}

struct cand {
	uint32_t region, count, depth;
};

static int
cmp_cand(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return a->region < b->region ? -1 : a->region > b->region;
}

/* A distributed analysis's: each rank counted its own timelines (have:
 * it has a communicating one); the counts must agree over all (want the
 * largest with a glob), depths are the least. */
static int
combine_counts(const struct analysis *a, int rc, const char *glob, int have, uint32_t n_reg,
	       uint32_t *want, uint8_t *ok, uint32_t *depth)
{
	size_t n = n_reg;
	uint64_t *v = rc ? NULL : malloc((4 * n + 2) * sizeof *v);
	rc = all_agree(a, rc ? rc : v ? 0 : ERR_NOMEM);
	uint64_t *lo = v, *hi = v + n, *okv = v + 2 * n, *dp = v + 3 * n;
	for (size_t r = 0; r < n && !rc; r++) {
		lo[r] = have ? want[r] : UINT64_MAX;
		hi[r] = have ? want[r] : 0;
		okv[r] = ok[r];
		dp[r] = depth[r];
	}
	uint64_t any = (uint64_t)have;
	if (!rc)
		rc = dcomm_reduce(a->dc, lo, n, DCOMM_MIN);
	if (!rc)
		rc = dcomm_reduce(a->dc, hi, n, DCOMM_MAX);
	if (!rc)
		rc = dcomm_reduce(a->dc, okv, 2 * n, DCOMM_MIN);    /* ok and depth */
	if (!rc)
		rc = dcomm_reduce(a->dc, &any, 1, DCOMM_MAX);
	for (size_t r = 0; r < n && !rc; r++) {
		want[r] = !any ? 0 : glob ? (uint32_t)hi[r] : (uint32_t)lo[r];
		ok[r] = okv[r] && (glob || !any || lo[r] == hi[r]);
		depth[r] = (uint32_t)dp[r];
	}
	free(v);
	return rc;
}

/* User regions entered equally often (at least twice) on every
 * communicating timeline, outermost first; with glob, those whose name
 * matches it, whatever their counts. */
static int
region_candidates(const struct seq *s, const char *glob, struct cand **out, uint32_t *n_out)
{
	const struct trace *t = s->a->t;
	uint32_t n_tl, n_reg;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	const struct trace_region *regs = trace_regions(t, &n_reg);
	const struct trace_frame *fr = trace_frames(t, NULL);
	uint32_t *want = calloc((size_t)n_reg + 1, sizeof *want);
	uint32_t *cnt = calloc((size_t)n_reg + 1, sizeof *cnt);
	uint32_t *depth = malloc(((size_t)n_reg + 1) * sizeof *depth);
	uint8_t *ok = malloc((size_t)n_reg + 1);
	int rc = want && cnt && depth && ok ? 0 : ERR_NOMEM;
	*out = NULL;
	*n_out = 0;
	if (!rc) {
		memset(depth, 0xff, ((size_t)n_reg + 1) * sizeof *depth);
		for (uint32_t r = 0; r < n_reg; r++)
			ok[r] = regs[r].role == ROLE_USER &&
				(!glob || fnmatch(glob, trace_str(t, regs[r].name), 0) == 0);
	}
	int first = 1;
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++) {
		if (s->a->tl_lop[tl] == s->a->tl_lop[tl + 1])
			continue;
		uint32_t f0 = tls[tl].frame_first, f1 = f0 + tls[tl].frame_count;
		for (uint32_t f = f0; f < f1; f++) {
			cnt[fr[f].region]++;
			if (fr[f].depth < depth[fr[f].region])
				depth[fr[f].region] = fr[f].depth;
		}
		for (uint32_t r = 0; r < n_reg; r++) {
			if (first)
				want[r] = cnt[r];
			else if (glob && cnt[r] > want[r])
				want[r] = cnt[r];
			else if (!glob && cnt[r] != want[r])
				ok[r] = 0;
			cnt[r] = 0;
		}
		first = 0;
	}
	if (s->a->dc)
		rc = combine_counts(s->a, rc, glob, !first, n_reg, want, ok, depth);
	struct cand *c = NULL;
	uint32_t nc = 0;
	if (!rc) {
		c = malloc((MAX_REGION_CANDIDATES + 1) * sizeof *c);
		rc = c ? 0 : ERR_NOMEM;
	}
	for (uint32_t r = 0; r < n_reg && !rc; r++) {
		if (!ok[r] || want[r] < (glob ? 1u : 2u))
			continue;
		struct cand x = { r, want[r], depth[r] };
		if (nc < MAX_REGION_CANDIDATES) {
			c[nc++] = x;
		} else {
			/* keep the outermost */
			qsort(c, nc, sizeof *c, cmp_cand);
			if (cmp_cand(&x, &c[nc - 1]) < 0)
				c[nc - 1] = x;
		}
	}
	if (!rc)
		qsort(c, nc, sizeof *c, cmp_cand);
	free(want);
	free(cnt);
	free(depth);
	free(ok);
	if (rc) {
		free(c);
		return rc;
	}
	*out = c;
	*n_out = nc;
	return 0;
}

/* The partitions' shapes as tokens, in the sequence's order (the set of
 * their operations' kinds and regions, signature_parts' shape): what
 * iterations share when completion calls vary in number from one to the
 * next (MPI_Waitsome completing a different share of the requests each
 * time). *shape is NULL until first asked for; collective in a
 * distributed analysis, as every rank asks at the same candidate. */
static int
shape_seq(const struct seq *s, struct seq *shape)
{
	uint64_t *sig = malloc(((size_t)s->n + 1) * sizeof *sig);
	*shape = *s;
	shape->tok = malloc(((size_t)s->n + 1) * sizeof *shape->tok);
	int rc = all_agree(s->a, sig && shape->tok ? 0 : ERR_NOMEM);
	if (!rc)
		rc = signature_parts(s->a, 1, sig);
	if (!rc)
		rc = all_agree(s->a, signature_tokens(sig, s->order, s->n, shape->tok, &shape->distinct));
	free(sig);
	return rc;
}

/* The first candidate region (outermost first) whose Enters mark alike
 * iterations — alike in their signatures, else in their shapes — with
 * named set, the first whose Enters mark any. */
static int
by_region(const struct seq *s, const char *glob, struct bounds *out)
{
	struct cand *c;
	uint32_t nc;
	int rc = region_candidates(s, glob, &c, &nc);
	uint32_t *stamp = malloc(((size_t)s->distinct + 1) * sizeof *stamp);
	uint32_t *hits = malloc(((size_t)s->distinct + 1) * sizeof *hits);
	if (!rc && (!stamp || !hits))
		rc = ERR_NOMEM;
	rc = all_agree(s->a, rc);
	struct seq shape = { 0 };
	uint32_t *sstamp = NULL, *shits = NULL;
	for (uint32_t i = 0; i < nc && !rc && !out->b; i++) {
		struct bounds bd = { 0 };
		rc = region_bounds(s, c[i].region, c[i].count, &bd);
		if (rc || !bd.b)
			continue;
		int ok = glob || alike(s, &bd, stamp, hits);
		if (!ok && !shape.tok) {
			rc = shape_seq(s, &shape);
			sstamp = malloc(((size_t)shape.distinct + 1) * sizeof *sstamp);
			shits = malloc(((size_t)shape.distinct + 1) * sizeof *shits);
			rc = all_agree(s->a, rc ? rc : sstamp && shits ? 0 : ERR_NOMEM);
		}
		if (!ok && !rc)
			ok = alike(&shape, &bd, sstamp, shits);
		if (ok && !rc) {
			bd.depth = c[i].depth;
			*out = bd;
		} else {
			bounds_fini(&bd);
		}
	}
	free(shape.tok);
	free(sstamp);
	free(shits);
	free(c);
	free(stamp);
	free(hits);
	return rc;
}

/* The most common value of x[0..n) (the smallest on a tie). */
static uint32_t
mode(uint32_t *x, uint32_t n)
{
	uint32_t best = 0, best_n = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = 0;
		for (uint32_t j = 0; j < n && k <= n; j++)
			k += x[j] == x[i];
		if (k > best_n || (k == best_n && x[i] < best)) {
			best = x[i];
			best_n = k;
		}
		if (best_n > n / 2)
			break;
	}
	return best;
}

/* Runs found for one piece of the timelines: the runs, and the
 * iteration of the last lop's step (the next lop's step is most often
 * in it too). */
struct runs {
	struct iter_run *v;
	size_t n, cap;
	uint32_t near;
};

/* Lop l is in iteration k (TRACE_NONE: none): a new run where that
 * differs from the lop before, the runs saying ITER_OF_STEP where k is
 * l's step's (almost everywhere but in a pipeline). A worker's first
 * lop always opens a run (iter_runs_join drops it where it goes on
 * the run before). */
static int
run_add(const struct analysis *a, struct runs *r, uint32_t l, uint32_t k)
{
	const struct iterations *it = &a->iters;
	uint32_t s = a->lop_step[l], ks = TRACE_NONE;
	if (s != TRACE_NONE)
		ks = iterations_near_step(it, s, r->near, a);
	if (ks != TRACE_NONE)
		r->near = ks;
	if (k == ks)
		k = ITER_OF_STEP;
	if (r->n && k == r->v[r->n - 1].iter)
		return 0;
	if (VEC_GROW(r->v, r->n, r->cap))
		return ERR_NOMEM;
	r->v[r->n++] = (struct iter_run){ l, k };
	return 0;
}

/* Each operation's iteration. Iterations of a pipelined code overlap in
 * steps across ranks (a wavefront's partitions are its anti-diagonals,
 * mixing iterations), so steps alone cannot say. With a region marking
 * them, an operation belongs to the iteration its own rank's Enter of
 * the region before its end starts (a computation ends where the call
 * after it starts, inside the iteration that call belongs to), the last
 * one reaching as far as its stretch of partitions; without one, to the
 * iteration whose stretch of partitions holds its partition. Either way
 * it is nearly always the iteration of the operation's global step, and
 * where not, the same for long runs of operations: what is kept is runs
 * of operations (usually one: "the step's"), not a number for each.
 * Worked out on every core, pieces of the timelines that the workers
 * take in turn, each piece's runs joined in piece order. */
struct running {
	struct analysis *a;
	uint32_t region;          /* by region r, else by part[] */
	const uint32_t *part;     /* per partition: its iteration's stretch, or TRACE_NONE */
	struct par_pieces pieces; /* of the timelines, cut[]; runs[] per piece */
	uint32_t cut[PAR_PIECES_MAX + 1];
	struct runs runs[PAR_PIECES_MAX];
};

static int
piece_runs(struct running *g, uint32_t c)
{
	const struct analysis *a = g->a;
	uint32_t r = g->region;
	const struct trace_timeline *tls = trace_timelines(a->t, NULL);
	const struct trace_frame *fr = trace_frames(a->t, NULL);
	struct runs *runs = &g->runs[c];
	runs->near = TRACE_NONE;
	for (uint32_t tl = g->cut[c]; tl < g->cut[c + 1]; tl++) {
		if (r == TRACE_NONE) {
			for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++)
				if (run_add(a, runs, l, a->lop_part[l] == TRACE_NONE ? TRACE_NONE
					    : g->part[a->lop_part[l]]))
					return ERR_NOMEM;
			continue;
		}
		/* f: the next Enter of r on this timeline; k: the Enters
		 * before it */
		uint32_t f = tls[tl].frame_first, f1 = f + tls[tl].frame_count, k = 0;
		while (f < f1 && fr[f].region != r)
			f++;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint64_t x = lop_exit(a, l);
			while (f < f1 && x >= fr[f].t_enter) {
				f++;
				k++;
				while (f < f1 && fr[f].region != r)
					f++;
			}
			/* before the first Enter: set-up; after the last, the
			 * last iteration until its stretch of partitions ends */
			uint32_t it = k == 0 || k > a->iters.count ? TRACE_NONE : k - 1;
			if (it != TRACE_NONE && k == a->iters.count &&
			    (a->lop_part[l] == TRACE_NONE || g->part[a->lop_part[l]] == TRACE_NONE))
				it = TRACE_NONE;
			if (run_add(a, runs, l, it))
				return ERR_NOMEM;
		}
	}
	return 0;
}

static int
runs_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct running *g = ctx;
	uint32_t c;
	(void)nw;
	while (par_take(&g->pieces, w, &c))
		if (piece_runs(g, c))
			return ERR_NOMEM;
	return 0;
}

/* A distributed analysis's runs: lop ids made global, and the rank's
 * first run dropped where it goes on the run before, the last of the
 * ranks before it (none before the first: lops before it are in no
 * iteration, as TRACE_NONE says). */
static int
join_runs(struct analysis *a, int rc)
{
	struct dcomm *c = a->dc;
	uint32_t n = c->size;
	uint64_t *v = rc ? NULL : calloc(2 * (size_t)n, sizeof *v);
	rc = all_agree(a, rc ? rc : v ? 0 : ERR_NOMEM);
	if (!rc && a->n_iter_runs) {
		v[c->rank] = (uint64_t)a->iter_runs[a->n_iter_runs - 1].iter + 1;   /* 0: none */
		v[n + c->rank] = a->n_iter_runs;
	}
	if (!rc)
		rc = dcomm_reduce(c, v, 2 * (size_t)n, DCOMM_SUM);
	uint32_t last = TRACE_NONE;
	for (uint32_t r = 0; r < c->rank && !rc; r++)
		if (v[n + r])
			last = (uint32_t)(v[r] - 1);
	free(v);
	if (rc)
		return rc;
	uint32_t k = 0;
	for (uint32_t i = 0; i < a->n_iter_runs; i++) {
		if (i == 0 && a->iter_runs[0].iter == last)
			continue;
		a->iter_runs[k] = a->iter_runs[i];
		a->iter_runs[k++].lop += a->lop_off;
	}
	a->n_iter_runs = k;
	return 0;
}

/* a->iter_runs from the pieces' runs, in their order, each piece's
 * first run dropped where it goes on the run before (before the first
 * run, lops are in no iteration). */
static int
lops_runs(struct analysis *a, uint32_t region, const uint32_t *part)
{
	uint32_t n_tl, nw = par_workers();
	trace_timelines(a->t, &n_tl);
	struct running g = { .a = a, .region = region, .part = part };
	uint32_t np = PAR_PIECES(nw);
	par_split(n_tl, np, tl_weight, a, g.cut);
	par_pieces_init(&g.pieces, np, nw);
	int rc = par_run(nw, runs_worker, &g);
	size_t total = 0;
	for (uint32_t w = 0; w < np; w++)
		total += g.runs[w].n;
	if (!rc) {
		a->iter_runs = malloc((total + 1) * sizeof *a->iter_runs);
		rc = a->iter_runs ? 0 : ERR_NOMEM;
	}
	for (uint32_t w = 0; w < np && !rc; w++) {
		const struct runs *x = &g.runs[w];
		for (size_t i = 0; i < x->n; i++) {
			uint32_t last = a->n_iter_runs ? a->iter_runs[a->n_iter_runs - 1].iter : TRACE_NONE;
			/* a distributed analysis's rank keeps its first run:
			 * join_runs knows what comes before it */
			if (i == 0 && x->v[0].iter == last && (a->n_iter_runs || !a->dc))
				continue;
			a->iter_runs[a->n_iter_runs++] = x->v[i];
		}
	}
	for (uint32_t w = 0; w < np; w++)
		free(g.runs[w].v);
	if (a->dc)
		rc = join_runs(a, rc);
	return rc;
}

/* Each lop's iteration: by the Enters of the marking region on its own
 * timeline when there is one, else by its partition's stretch. */
static int
lops_by_partition(struct analysis *a, const struct seq *s, const struct bounds *bd)
{
	uint32_t *part = malloc(((size_t)a->n_parts + 1) * sizeof *part);
	int rc = all_agree(a, part ? 0 : ERR_NOMEM);
	if (rc) {
		free(part);
		return rc;
	}
	for (uint32_t i = 0; i < s->n; i++)
		part[s->order[i]] = TRACE_NONE;
	for (uint32_t k = 0; k < bd->count; k++)
		for (uint32_t i = bd->b[k]; i < bd->b[k + 1]; i++)
			part[s->order[i]] = k;
	/* a Charm++ entry has no Enters: its iterations go by phases */
	rc = lops_runs(a, a->charm ? TRACE_NONE : bd->region, part);
	free(part);
	return rc;
}

/* Fills a->iters from boundaries: step spans, the common lengths, and
 * how many iterations differ from the most common one. */
static int
publish(struct analysis *a, const struct seq *s, const struct bounds *bd,
	enum iterations_source src)
{
	uint32_t n = bd->count;
	uint32_t *starts = malloc(((size_t)n + 1) * sizeof *starts);
	uint32_t *len = malloc(((size_t)n + 1) * sizeof *len);
	int rc = all_agree(a, starts && len ? 0 : ERR_NOMEM);
	if (rc) {
		free(starts);
		free(len);
		return rc;
	}
	for (uint32_t k = 0; k < n; k++)
		starts[k] = a->parts[s->order[bd->b[k]]].step_first;
	/* the last iteration ends where the partition after it starts, or
	 * after the last step of its own partitions */
	uint32_t end = 0;
	if (bd->b[n] < s->n) {
		end = a->parts[s->order[bd->b[n]]].step_first;
	} else {
		for (uint32_t i = bd->b[n - 1]; i < s->n; i++) {
			const struct analysis_part *p = &a->parts[s->order[i]];
			if (p->step_first + p->step_count > end)
				end = p->step_first + p->step_count;
		}
	}
	starts[n] = end > starts[n - 1] ? end : starts[n - 1] + 1;
	for (uint32_t k = 0; k < n; k++)
		len[k] = bd->b[k + 1] - bd->b[k];
	uint32_t pp = mode(len, n);
	for (uint32_t k = 0; k < n; k++)
		len[k] = starts[k + 1] - starts[k];
	uint32_t ps = mode(len, n);
	/* the most common iteration: the first of length pp whose
	 * partitions the most others repeat */
	uint32_t ref = UINT32_MAX, ref_n = 0;
	for (uint32_t k = 0; k < n && ref_n <= n / 2; k++) {
		if (bd->b[k + 1] - bd->b[k] != pp)
			continue;
		uint32_t same = 0;
		for (uint32_t j = 0; j < n; j++)
			same += bd->b[j + 1] - bd->b[j] == pp &&
				iter_agree(s->tok, bd->b[j], bd->b[k], pp) == pp;
		if (same > ref_n) {
			ref = k;
			ref_n = same;
		}
	}
	free(len);
	a->iter_starts = starts;
	a->iters = (struct iterations){
		.count = n, .source = src, .region = bd->region,
		.period_parts = pp, .period_steps = ps,
		.irregular = ref == UINT32_MAX ? n : n - ref_n,
		.starts = starts,
	};
	rc = lops_by_partition(a, s, bd);
	if (rc)
		a->iters.count = 0;
	return rc;
}

int
iterations_detect(struct analysis *a)
{
	a->iters = (struct iterations){ .source = ITER_NONE, .region = TRACE_NONE };
	/* the signatures folded while stepping, when they were */
	uint64_t *sig = a->part_isig;
	int have = sig != NULL;
	a->part_isig = NULL;
	if (a->opts.iter_find == ITER_FIND_OFF || a->n_parts < 2 || !a->n_steps) {
		free(sig);
		return 0;
	}
	struct seq s = { .a = a, .n = a->n_parts };
	if (!sig)
		sig = malloc(((size_t)s.n + 1) * sizeof *sig);
	s.order = malloc(((size_t)s.n + 1) * sizeof *s.order);
	s.pos = malloc(((size_t)s.n + 1) * sizeof *s.pos);
	s.tok = malloc(((size_t)s.n + 1) * sizeof *s.tok);
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	s.sorted = calloc((size_t)n_tl + 1, 1);
	int rc = all_agree(a, sig && s.order && s.pos && s.tok && s.sorted ? 0 : ERR_NOMEM);
	if (!rc && !have)
		rc = signature_parts(a, 0, sig);
	if (!rc)
		rc = signature_sequence(a, s.order);
	if (!rc)
		rc = all_agree(a, signature_tokens(sig, s.order, s.n, s.tok, &s.distinct));
	for (uint32_t i = 0; i < s.n && !rc; i++)
		s.pos[s.order[i]] = i;
	struct bounds bd = { 0 };
	enum iterations_source src = ITER_NONE;
	/* a Charm++ run: entry methods mark them, else its application
	 * phases repeat (iterations_period.c) */
	if (!rc && a->opts.iter_region) {
		rc = a->charm ? iter_charm_entry(&s, a->opts.iter_region, &bd)
			: by_region(&s, a->opts.iter_region, &bd);
		src = ITER_NAMED;
		a->iters.named_none = !rc && !bd.b;
	} else if (!rc) {
		if (a->opts.iter_find == ITER_FIND_AUTO && !a->charm) {
			rc = by_region(&s, NULL, &bd);
			src = ITER_REGION;
		}
		if (!rc && !bd.b) {
			rc = a->charm ? iter_charm_phases(&s, &bd) : iter_period(s.tok, s.n, &bd);
			src = ITER_STRUCTURE;
		}
	}
	rc = all_agree(a, rc);
	/* a Charm++ run's runtime phases are the runtime's: alike as such */
	for (uint32_t i = 0; !rc && a->charm && i < s.n; i++)
		if (a->parts[s.order[i]].runtime)
			s.tok[i] = s.distinct;
	if (!rc && bd.b && bd.count)
		rc = publish(a, &s, &bd, src);
	bounds_fini(&bd);
	free(sig);
	free(s.order);
	free(s.pos);
	free(s.tok);
	free(s.sorted);
	return rc;
}

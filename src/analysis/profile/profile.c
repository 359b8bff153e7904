/* profile.c — the flat profile (profile.h, doc/profile.md).
 *
 * Each timeline is swept once in time order over its three streams of
 * region instances, each sorted by enter time: the user frames, the
 * stored ops (MPI calls with records; Charm++ executions) and the quiet
 * calls (MPI calls without records, and those made inside other MPI
 * calls). A stack of open instances gives the nesting: an instance that
 * closes hands its inclusive time to the one below it, whose exclusive
 * time is its own less that. Where two instances enter together, the
 * one that leaves later is the outer; where they also leave together, a
 * frame encloses an MPI call (the order the builder nests them in).
 * Instances are clipped to the window and lose the spans where
 * measurement was off. Timelines are cut into pieces the workers take
 * (par_take); the rows are sorted at the end, so the result does not
 * depend on the workers.
 */
#include "profile.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/vec.h"
#include "model/charm.h"

void
profile_scope_all(struct profile_scope *s)
{
	memset(s, 0, sizeof *s);
	s->to = UINT64_MAX;
	s->lanes = 1;
}

double
profile_imbalance(const struct profile_region *r)
{
	return r->excl_mean > 0 ? (double)r->excl_max / r->excl_mean : 0;
}

/* An instance of a region on the timeline being swept. */
struct inst {
	uint64_t enter, leave;
	uint32_t region;
	uint32_t key;              /* the rank it counts for: timeline or PE */
};

/* An open instance. */
struct open {
	uint64_t enter, leave;
	uint64_t incl, child;
	uint32_t region, key;
};

/* A worker's sums: one slot per (key, region) in use. Keys are the
 * timeline being swept (then only region indexes it, and the slots are
 * flushed at the end of each timeline) or, by PE, the PE too. */
struct acc {
	uint64_t calls, incl, excl, largest, largest_enter;
	uint32_t key;
	uint32_t used;
};

struct worker {
	struct acc *acc;
	uint32_t *touched;
	size_t n_touched;
	struct open *stack;
	size_t cap_stack;
	struct profile_row *rows;
	size_t n_rows, cap_rows;
	uint64_t *gap_lo, *gap_sum;   /* the timeline's gaps in the window, prefix sums */
	size_t n_gaps, cap_gaps;
	double *span_cw;           /* weighted spans: the weighted time before each of the timeline's */
	size_t cap_cw;
	/* cursors for the instances' starts, which only grow: the first gap,
	 * and the first weighted span, that ends after the last start */
	size_t gap_k;
	uint32_t span_k;
	int rc;
};

struct job {
	const struct trace *t;
	const struct profile_scope *s;
	struct trace_opv ops;
	uint32_t n_regions, n_keys;
	int by_pe;
	uint32_t *cut;             /* pieces of timelines */
	/* with the lanes: timeline tl's are lane_ids[lane_first[tl] ..
	 * lane_first[tl + 1]); NULL without */
	uint32_t *lane_first, *lane_ids;
	struct par_pieces pieces;
	struct worker w[PAR_MAX];
};

static void
window_of(const struct profile_scope *s, uint32_t tl, uint64_t *a, uint64_t *b)
{
	if (s->span_first) {
		uint32_t k0 = s->span_first[tl], k1 = s->span_first[tl + 1];
		*a = k1 > k0 ? s->span_lo[k0] : 0;
		*b = k1 > k0 ? s->span_hi[k1 - 1] : 0;
	} else if (s->tl_from) {
		*a = s->tl_from[tl];
		*b = s->tl_to[tl];
	} else {
		*a = s->from;
		*b = s->to;
	}
}

/* Appends the excluded span [lo, hi) (after the last one, or joined to
 * it where they meet) with its prefix sum. */
static int
add_gap(struct worker *w, uint64_t lo, uint64_t hi, uint64_t *sum)
{
	if (w->n_gaps && lo <= w->gap_lo[2 * w->n_gaps - 1]) {
		uint64_t *end = &w->gap_lo[2 * w->n_gaps - 1];
		if (hi > *end) {
			*sum += hi - *end;
			*end = hi;
		}
		return 0;
	}
	if (w->n_gaps + 1 >= w->cap_gaps) {
		size_t cap = w->cap_gaps;
		if (vec_reserve((void **)&w->gap_lo, &cap, w->n_gaps + 2, 2 * sizeof *w->gap_lo))
			return ERR_NOMEM;
		uint64_t *gs = realloc(w->gap_sum, cap * 2 * sizeof *gs);
		if (!gs)
			return ERR_NOMEM;
		w->gap_sum = gs;
		w->cap_gaps = cap;
	}
	/* gap k is [gap_lo[2k], gap_lo[2k + 1]); gap_sum[k] the gaps before it */
	w->gap_lo[2 * w->n_gaps] = lo;
	w->gap_lo[2 * w->n_gaps + 1] = hi;
	w->gap_sum[w->n_gaps] = *sum;
	*sum += hi - lo;
	w->n_gaps++;
	return 0;
}

/* The time that does not count on the timeline within [a, b), with
 * prefix sums: its measurement gaps, clipped, and where the scope gives
 * spans, the time between them (both in time order: merged). */
static int
collect_gaps(struct worker *w, const struct profile_scope *s, uint32_t tl, const struct trace_call *c,
	     uint32_t n, uint64_t a, uint64_t b)
{
	w->n_gaps = 0;
	uint64_t sum = 0;
	uint32_t k = s->span_first ? s->span_first[tl] : 0, k_end = s->span_first ? s->span_first[tl + 1] : 0;
	uint32_t i = 0;
	for (;;) {
		while (i < n && trace_call_kind(&c[i]) != CALL_GAP)
			i++;
		/* the next gap between spans: [span_hi[k], span_lo[k + 1]) */
		int have_s = k + 1 < k_end, have_c = i < n;
		if (!have_s && !have_c)
			break;
		uint64_t lo, hi;
		if (have_s && (!have_c || s->span_hi[k] <= c[i].t_enter)) {
			lo = s->span_hi[k];
			hi = s->span_lo[k + 1];
			k++;
		} else {
			lo = c[i].t_enter;
			hi = lo + trace_call_ticks(&c[i]);
			i++;
		}
		lo = lo > a ? lo : a;
		hi = hi < b ? hi : b;
		if (hi <= lo)
			continue;
		if (add_gap(w, lo, hi, &sum))
			return ERR_NOMEM;
	}
	return 0;
}

/* Time with measurement off before t (the gaps are few). */
static uint64_t
gap_before(const struct worker *w, uint64_t t)
{
	size_t lo = 0, hi = w->n_gaps;    /* the gaps that begin before t */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (w->gap_lo[2 * mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	size_t k = lo - 1;
	uint64_t end = w->gap_lo[2 * k + 1];
	return w->gap_sum[k] + (t < end ? t : end) - w->gap_lo[2 * k];
}

static struct acc *
slot(struct job *j, struct worker *w, uint32_t key, uint32_t region)
{
	size_t i = j->by_pe ? (size_t)key * j->n_regions + region : region;
	struct acc *x = &w->acc[i];
	if (!x->used) {
		memset(x, 0, sizeof *x);
		x->used = 1;
		x->key = key;
		w->touched[w->n_touched++] = (uint32_t)i;
	}
	return x;
}

/* Is a call of duration d entered at e the region's largest, against
 * the largest so far (dl, entered at el)? Of equal durations, the one
 * entered first: the same whichever core or order found them (the
 * workers' rows of a rank are merged in no fixed order). */
static int
longer(uint64_t d, uint64_t e, uint64_t dl, uint64_t el)
{
	return d > dl || (d == dl && e < el);
}

/* Closes the top of the stack. */
static void
pop(struct job *j, struct worker *w, size_t *sp)
{
	struct open *o = &w->stack[--*sp];
	if (!o->incl && j->s->span_first)
		return;            /* none of it in the spans: no call of theirs */
	uint64_t excl = o->incl > o->child ? o->incl - o->child : 0;
	struct acc *x = slot(j, w, o->key, o->region);
	x->calls++;
	x->incl += o->incl;
	x->excl += excl;
	if (x->calls == 1 || longer(o->incl, o->enter, x->largest, x->largest_enter)) {
		x->largest = o->incl;
		x->largest_enter = o->enter;
	}
	if (*sp)
		w->stack[*sp - 1].child += o->incl;
}

/* The weighted time of timeline tl's spans before t (span_cw holds the
 * weighted time before each). */
static double
weighted_before(const struct worker *w, const struct profile_scope *s, uint32_t tl, uint64_t t)
{
	uint32_t k0 = s->span_first[tl], lo = k0, hi = s->span_first[tl + 1];
	while (lo < hi) {      /* the spans that begin before t */
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->span_lo[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == k0)
		return 0;
	uint32_t k = lo - 1;
	uint64_t end = t < s->span_hi[k] ? t : s->span_hi[k];
	return w->span_cw[k - k0] + s->span_w[k] * (double)(end - s->span_lo[k]);
}

static int
weigh_spans(struct worker *w, const struct profile_scope *s, uint32_t tl)
{
	uint32_t k0 = s->span_first[tl], n = s->span_first[tl + 1] - k0;
	if (n > w->cap_cw && vec_reserve((void **)&w->span_cw, &w->cap_cw, n, sizeof *w->span_cw))
		return ERR_NOMEM;
	double sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		w->span_cw[i] = sum;
		sum += s->span_w[k0 + i] * (double)(s->span_hi[k0 + i] - s->span_lo[k0 + i]);
	}
	return 0;
}

static int
push(struct job *j, struct worker *w, size_t sp, const struct inst *x, uint64_t a, uint64_t b, uint32_t tl)
{
	if (sp >= w->cap_stack &&
	    vec_reserve((void **)&w->stack, &w->cap_stack, sp + 1, sizeof *w->stack))
		return ERR_NOMEM;
	uint64_t lo = x->enter > a ? x->enter : a, hi = x->leave < b ? x->leave : b;
	uint64_t incl = hi > lo ? hi - lo : 0;
	const struct profile_scope *s = j->s;
	if (incl && s->span_w) {
		/* most instances lie inside one span, or between two */
		uint32_t end = s->span_first[tl + 1];
		while (w->span_k < end && s->span_hi[w->span_k] <= lo)
			w->span_k++;
		uint32_t k = w->span_k;
		if (k == end || hi <= s->span_lo[k]) {
			incl = 0;
		} else if (lo >= s->span_lo[k] && hi <= s->span_hi[k]) {
			double v = s->span_w[k] * (double)incl;
			incl = v < 0x1p64 - 4096 ? (uint64_t)(v + 0.5) : UINT64_MAX;
		} else {
			double v = weighted_before(w, s, tl, hi) - weighted_before(w, s, tl, lo);
			incl = !(v > 0) ? 0 : v < 0x1p64 - 4096 ? (uint64_t)(v + 0.5) : UINT64_MAX;
		}
	} else if (incl && w->n_gaps) {
		while (w->gap_k < w->n_gaps && w->gap_lo[2 * w->gap_k + 1] <= lo)
			w->gap_k++;
		size_t g = w->gap_k;
		if (g < w->n_gaps && lo >= w->gap_lo[2 * g] && hi <= w->gap_lo[2 * g + 1])
			incl = 0;          /* inside one gap (between the spans) */
		else if (g < w->n_gaps && hi > w->gap_lo[2 * g])
			incl -= gap_before(w, hi) - gap_before(w, lo);
	}
	w->stack[sp] = (struct open){ x->enter, x->leave, incl, 0, x->region, x->key };
	return 0;
}

/* The streams of one timeline: each a cursor over its records, giving
 * its next instance in *x (0 when done). */
struct streams {
	const struct trace *t;
	const struct trace_opv *ops;
	const struct trace_frame *fr;
	uint32_t f, f_end;
	uint32_t o, o_end;         /* stored op records */
	const struct trace_call *ca;
	uint32_t c, c_end;
	int charm;
	uint32_t tl;
};

static int
next_frame(struct streams *s, struct inst *x)
{
	if (s->f >= s->f_end)
		return 0;
	const struct trace_frame *f = &s->fr[s->f];
	*x = (struct inst){ f->t_enter, f->t_leave, f->region, s->tl };
	return 1;
}

/* The next op record with a region: a call split where two collectives
 * came in one (build.c) and the pieces of one Charm++ execution are one
 * instance. *adv is how many records it covers. */
static int
next_op(struct streams *s, struct inst *x, uint32_t *adv)
{
	const struct trace_oprec *r = s->ops->rec;
	while (s->o < s->o_end && (r[s->o].region == TRACE_OPREC_NO_REGION ||
				   (s->charm && (r[s->o].flags & OPF_LOOSE))))
		s->o++;
	if (s->o >= s->o_end)
		return 0;
	const struct trace_oprec *c = &r[s->o];
	uint32_t k = s->o + 1;
	uint64_t leave = c->t_exit;
	while (k < s->o_end && r[k].region == c->region &&
	       (s->charm ? (r[k].flags & OPF_EXEC_CONT) != 0
			 : c->kind == OP_COLLECTIVE && r[k].kind == OP_COLLECTIVE &&
				   r[k].t_enter == leave)) {
		leave = r[k].t_exit;
		k++;
	}
	uint32_t key = s->tl;
	*x = (struct inst){ c->t_enter, leave, c->region, key };
	*adv = k - s->o;
	return 1;
}

static int
next_call(struct streams *s, struct inst *x)
{
	while (s->c < s->c_end && trace_call_kind(&s->ca[s->c]) == CALL_GAP)
		s->c++;
	if (s->c >= s->c_end)
		return 0;
	const struct trace_call *c = &s->ca[s->c];
	uint32_t r = trace_call_region(c);
	*x = (struct inst){ c->t_enter, c->t_enter + trace_call_ticks(c),
			    r == TRACE_NONE ? 0 : r, s->tl };
	return 1;
}

/* The first of records lo .. hi - 1 (each size bytes, its enter time,
 * a u64, at byte off; in enter order) entered at or after a, searched
 * from lo in steps that double, then by halves: a search that goes a
 * short way reads a few records near lo (the critical path's spans are
 * sought one after the other, most a few records apart). */
static uint32_t
first_entered(const void *base, size_t size, size_t off, uint32_t lo, uint32_t hi, uint64_t a)
{
	const char *p = base;
#define ENTER(i) (*(const uint64_t *)(const void *)(p + (size_t)(i) * size + off))
	if (lo >= hi || ENTER(lo) >= a)
		return lo;
	uint32_t before = lo, step = 1;    /* entered before a */
	for (;;) {
		uint32_t probe = hi - before > step ? before + step : hi;
		if (probe == hi || ENTER(probe) >= a) {
			hi = probe;
			break;
		}
		before = probe;
		step *= 2;
	}
	lo = before + 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ENTER(mid) < a)
			lo = mid + 1;
		else
			hi = mid;
	}
#undef ENTER
	return lo;
}

/* Where each stream starts for a window beginning at a, from where it
 * stands: the first record entered at or after a, or the outermost one
 * still open at a. */
static void
seek(struct streams *s, uint64_t a)
{
	if (a == 0)
		return;
	/* frames: the outermost open one is an ancestor of the last entered before a */
	uint32_t lo = first_entered(s->fr, sizeof *s->fr, offsetof(struct trace_frame, t_enter), s->f,
				    s->f_end, a);
	uint32_t start = lo;
	for (uint32_t f = lo > s->f ? lo - 1 : TRACE_NONE; f != TRACE_NONE && f >= s->f;
	     f = s->fr[f].parent)
		if (s->fr[f].t_leave > a)
			start = f;
	s->f = start;
	/* ops do not overlap: the one before may be open (two, where a call was split) */
	const struct trace_oprec *r = s->ops->rec;
	lo = first_entered(r, sizeof *r, offsetof(struct trace_oprec, t_enter), s->o, s->o_end, a);
	if (lo > s->o && r[lo - 1].t_exit > a)
		lo--;
	/* an execution's pieces, and a call split in two, start at their first */
	while (s->charm && lo > s->o && lo < s->o_end && (r[lo].flags & OPF_EXEC_CONT))
		lo--;
	while (!s->charm && lo > s->o && lo < s->o_end && r[lo].kind == OP_COLLECTIVE &&
	       r[lo - 1].kind == OP_COLLECTIVE && r[lo - 1].region == r[lo].region &&
	       r[lo - 1].t_exit == r[lo].t_enter)
		lo--;                  /* a call cut at each collective it held: its first piece */
	s->o = lo;
	/* quiet calls: back over calls made inside other calls to the last
	 * one not inside another, which is open at a or closed before it;
	 * calls entered on one tick lie longest first (build.c), so the one
	 * still open (or a call made inside an op on that tick) may come
	 * before a shorter one of that tick: from the first of that tick
	 * when one of them is open */
	lo = first_entered(s->ca, sizeof *s->ca, offsetof(struct trace_call, t_enter), s->c, s->c_end, a);
	uint32_t k = lo;
	while (k > s->c) {
		const struct trace_call *c = &s->ca[k - 1];
		if (trace_call_kind(c) == CALL_MPI) {
			uint32_t j = k - 1, open = 0;
			while (j > s->c && s->ca[j - 1].t_enter == c->t_enter)
				j--;
			for (uint32_t i = j; i < k; i++)
				open |= trace_call_kind(&s->ca[i]) != CALL_GAP &&
					s->ca[i].t_enter + trace_call_ticks(&s->ca[i]) > a;
			if (open)
				k = j;
			break;
		}
		k--;
	}
	s->c = k;
}

/* The order of the streams' heads: by enter, and on one tick what takes
 * no time first (it holds nothing, and a stream's head may be such a
 * record while what encloses another stream's head comes after it in
 * its stream: taken after the head it holds, it was made its sibling),
 * then the longer. */
static int
inst_before(const struct inst *x, const struct inst *y)
{
	if (x->enter != y->enter)
		return x->enter < y->enter;
	int zx = x->leave == x->enter, zy = y->leave == y->enter;
	if (zx != zy)
		return zx;
	return x->leave > y->leave;
}

/* Do more than SEEK_FAR records of one of the streams lie before a? A
 * shorter way is read through rather than sought. */
#define SEEK_FAR 16
static int
far_before(const struct streams *s, uint64_t a)
{
	return (s->f_end - s->f > SEEK_FAR && s->fr[s->f + SEEK_FAR].t_enter < a) ||
	       (s->o_end - s->o > SEEK_FAR && s->ops->rec[s->o + SEEK_FAR].t_enter < a) ||
	       (s->c_end - s->c > SEEK_FAR && s->ca[s->c + SEEK_FAR].t_enter < a);
}

/* Sweeps timeline tl over [a, b), or its lane `lane` (TRACE_NONE: the
 * timeline itself): a lane has frames only. */
static int
sweep(struct job *j, struct worker *w, uint32_t tl, uint32_t lane)
{
	const struct trace *t = j->t;
	uint32_t ntl;
	const struct trace_timeline *x = &trace_timelines(t, &ntl)[tl];
	uint64_t a, b;
	window_of(j->s, tl, &a, &b);
	if (b <= a)
		return 0;
	uint32_t nf, nc;
	struct streams s = {
		.t = t, .ops = &j->ops, .fr = trace_frames(t, &nf), .f = x->frame_first,
		.f_end = x->frame_first + x->frame_count, .ca = trace_calls(t, &nc),
		.c = x->call_first, .c_end = x->call_first + x->call_count,
		.charm = trace_info(t)->paradigm == PARADIGM_CHARM, .tl = tl,
	};
	s.o = j->ops.implied ? x->op_first / 2 : x->op_first;
	s.o_end = s.o + (j->ops.implied ? x->op_count / 2 : x->op_count);
	if (lane != TRACE_NONE) {
		const struct trace_lane *L = &trace_lanes(t, NULL)[lane];
		s.fr = trace_lane_frames(t, &nf);
		s.f = L->frame_first;
		s.f_end = L->frame_first + L->frame_count;
		s.o = s.o_end = s.c = s.c_end = 0;
		s.ca = NULL;
	}
	int rc = collect_gaps(w, j->s, tl, s.ca ? s.ca + s.c : NULL, s.c_end - s.c, a, b);
	if (!rc && j->s->span_w)
		rc = weigh_spans(w, j->s, tl);
	w->gap_k = 0;
	w->span_k = j->s->span_first ? j->s->span_first[tl] : 0;
	if (rc)
		return rc;
	seek(&s, a);
	const uint32_t *pe = j->by_pe ? trace_op_pes(t) : NULL;
	size_t sp = 0;
	struct inst in[3];
	uint32_t adv = 1;
	int have[3] = { next_frame(&s, &in[0]), next_op(&s, &in[1], &adv), next_call(&s, &in[2]) };
	const struct profile_scope *sc = j->s;
	uint32_t sk = sc->span_first ? sc->span_first[tl] : 0, sk_end = sc->span_first ? sc->span_first[tl + 1] : 0,
		 sought = TRACE_NONE;
	for (;;) {
		int k = -1;
		for (int i = 0; i < 3; i++)
			if (have[i] && (k < 0 || inst_before(&in[i], &in[k])))
				k = i;
		if (k < 0 || in[k].enter >= b)
			break;
		if (sc->span_first && !s.charm) {
			/* entered between two spans: what lies wholly there
			 * counts for nothing (pop), so the streams move on to
			 * what is open at the next span's start or entered from
			 * it, once a span, when that is far (not over a Charm++
			 * run: a chare's executions may overlap where clocks
			 * are skewed, which a seek does not follow) */
			while (sk < sk_end && sc->span_hi[sk] <= in[k].enter)
				sk++;
			if (sk < sk_end && in[k].enter < sc->span_lo[sk] && sk != sought &&
			    far_before(&s, sc->span_lo[sk])) {
				sought = sk;
				seek(&s, sc->span_lo[sk]);
				have[0] = next_frame(&s, &in[0]);
				have[1] = next_op(&s, &in[1], &adv);
				have[2] = next_call(&s, &in[2]);
				continue;
			}
		}
		struct inst cur = in[k];
		if (k == 1 && pe)
			cur.key = pe[j->ops.implied ? 2 * s.o + 1 : s.o];
		if (k == 0) {
			s.f++;
			have[0] = next_frame(&s, &in[0]);
		} else if (k == 1) {
			s.o += adv;
			have[1] = next_op(&s, &in[1], &adv);
		} else {
			s.c++;
			have[2] = next_call(&s, &in[2]);
		}
		if (cur.leave <= a && !(cur.enter == cur.leave && cur.enter >= a))
			continue;
		if (j->by_pe && cur.key >= j->n_keys)
			continue;          /* a PE the run does not have */
		while (sp && w->stack[sp - 1].leave < cur.leave)
			pop(j, w, &sp);
		if ((rc = push(j, w, sp, &cur, a, b, tl)))
			return rc;
		sp++;
	}
	while (sp)
		pop(j, w, &sp);
	return 0;
}

/* The slots in use become rows. */
static int
flush(struct job *j, struct worker *w, uint32_t tl)
{
	for (size_t i = 0; i < w->n_touched; i++) {
		struct acc *x = &w->acc[w->touched[i]];
		if (VEC_GROW(w->rows, w->n_rows, w->cap_rows))
			return ERR_NOMEM;
		uint32_t region = j->by_pe ? w->touched[i] % j->n_regions : w->touched[i];
		w->rows[w->n_rows++] = (struct profile_row){
			.rank = j->by_pe ? x->key : tl, .region = region, .calls = x->calls,
			.incl = x->incl, .excl = x->excl, .largest = x->largest,
			.largest_enter = x->largest_enter,
		};
		x->used = 0;
	}
	w->n_touched = 0;
	return 0;
}

static int
work(void *ctx, uint32_t wi, uint32_t nw)
{
	struct job *j = ctx;
	struct worker *w = &j->w[wi];
	(void)nw;
	size_t slots = j->by_pe ? (size_t)j->n_keys * j->n_regions : j->n_regions;
	w->acc = calloc(slots + 1, sizeof *w->acc);
	w->touched = malloc((slots + 1) * sizeof *w->touched);
	if (!w->acc || !w->touched)
		return w->rc = ERR_NOMEM;
	uint32_t piece;
	while (!w->rc && par_take(&j->pieces, wi, &piece)) {
		for (uint32_t tl = j->cut[piece]; tl < j->cut[piece + 1] && !w->rc; tl++) {
			if (j->s->ranks && !j->s->ranks[tl])
				continue;
			w->rc = sweep(j, w, tl, TRACE_NONE);
			for (uint32_t k = j->lane_first ? j->lane_first[tl] : 0;
			     j->lane_first && k < j->lane_first[tl + 1] && !w->rc; k++)
				w->rc = sweep(j, w, tl, j->lane_ids[k]);
			if (!w->rc && !j->by_pe)
				w->rc = flush(j, w, tl);
		}
	}
	if (!w->rc && j->by_pe)
		w->rc = flush(j, w, 0);
	return w->rc;
}

static uint64_t
tl_weight(const void *ctx, uint32_t k)
{
	const struct trace *t = ctx;
	uint32_t n;
	const struct trace_timeline *x = &trace_timelines(t, &n)[k];
	return 1 + (uint64_t)x->op_count + x->frame_count + x->call_count;
}

static int
row_cmp(const void *p, const void *q)
{
	const struct profile_row *x = p, *y = q;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

static int
region_cmp(const void *p, const void *q)
{
	const struct profile_region *x = p, *y = q;
	if (x->excl != y->excl)
		return x->excl > y->excl ? -1 : 1;
	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

/* Rows of one rank and region from several workers (by PE) become one. */
static uint32_t
merge_rows(struct profile_row *r, uint32_t n)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (k && r[k - 1].rank == r[i].rank && r[k - 1].region == r[i].region) {
			struct profile_row *y = &r[k - 1];
			y->calls += r[i].calls;
			y->incl += r[i].incl;
			y->excl += r[i].excl;
			if (longer(r[i].largest, r[i].largest_enter, y->largest, y->largest_enter)) {
				y->largest = r[i].largest;
				y->largest_enter = r[i].largest_enter;
			}
			continue;
		}
		r[k++] = r[i];
	}
	return k;
}

/* The regions' totals and their spread over the ranks in scope. */
static int
regions_of(struct profile *p, uint32_t n_regions)
{
	uint32_t *at = malloc(((size_t)n_regions + 1) * sizeof *at);
	if (!at)
		return ERR_NOMEM;
	for (uint32_t r = 0; r <= n_regions; r++)
		at[r] = TRACE_NONE;
	for (uint32_t i = 0; i < p->n_rows; i++) {
		const struct profile_row *x = &p->rows[i];
		if (at[x->region] == TRACE_NONE) {
			at[x->region] = p->n_regions++;
			p->regions[at[x->region]] = (struct profile_region){
				.region = x->region, .max_rank = x->rank, .excl_min = UINT64_MAX,
				.largest_tl = x->rank, .largest = x->largest,
				.largest_enter = x->largest_enter,
			};
		}
		struct profile_region *g = &p->regions[at[x->region]];
		g->ranks++;
		g->calls += x->calls;
		g->incl += x->incl;
		g->excl += x->excl;
		/* rows come by rank: the lowest rank wins a tie */
		if (x->excl > g->excl_max) {
			g->excl_max = x->excl;
			g->max_rank = x->rank;
		}
		if (x->excl < g->excl_min)
			g->excl_min = x->excl;
		if (x->largest > g->largest) {
			g->largest = x->largest;
			g->largest_enter = x->largest_enter;
			g->largest_tl = x->rank;
		}
	}
	for (uint32_t i = 0; i < p->n_regions; i++) {
		struct profile_region *g = &p->regions[i];
		if (g->ranks < p->n_ranks)
			g->excl_min = 0;     /* a rank in scope never entered it */
		g->excl_mean = p->n_ranks ? (double)g->excl / p->n_ranks : 0;
	}
	free(at);
	qsort(p->regions, p->n_regions, sizeof *p->regions, region_cmp);
	return 0;
}

/* The scope's time: its window within the trace's span, per timeline
 * (and per lane, with them: lanes_of counts a timeline's); by PE, per PE
 * over the kept timelines' windows from the earliest to the latest (a
 * chare's executions run on the PEs, whose time is the run's). */
static void
totals_of(const struct trace *t, const struct profile_scope *s, struct profile *p, int by_pe,
	  uint32_t n_keys, const uint32_t *lane_first)
{
	const struct trace_info *ti = trace_info(t);
	uint32_t ntl;
	trace_timelines(t, &ntl);
	uint64_t a0 = s->from > ti->t_begin ? s->from : ti->t_begin;
	uint64_t b0 = s->to < ti->t_end ? s->to : ti->t_end;
	p->from = a0;
	p->to = b0 > a0 ? b0 : a0;
	p->by_pe = by_pe;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t tl = 0; tl < ntl; tl++) {
		if (s->ranks && !s->ranks[tl])
			continue;
		uint64_t a, b;
		window_of(s, tl, &a, &b);
		a = a > ti->t_begin ? a : ti->t_begin;
		b = b < ti->t_end ? b : ti->t_end;
		uint64_t lanes = lane_first ? lane_first[tl + 1] - lane_first[tl] : 0;
		p->total += (b > a ? b - a : 0) * (1 + lanes);
		p->n_ranks += !by_pe;
		if (b > a) {
			lo = a < lo ? a : lo;
			hi = b > hi ? b : hi;
		}
	}
	if (by_pe) {
		p->n_ranks = n_keys;
		p->total = hi > lo ? (hi - lo) * n_keys : 0;
	}
}

/* Each region's one-sided operations in scope: an operation counts at
 * the region of the call that issued it (or, for records outside any MPI
 * call, of the user region holding them), when its origin is kept and it
 * was issued in the window. */
static int
rma_of_regions(const struct trace *t, const struct profile_scope *s, struct profile *out)
{
	uint32_t n, nr, n_tl, n_lanes;
	const struct trace_rma *rmas = trace_rmas(t, &n);
	trace_regions(t, &nr);
	trace_timelines(t, &n_tl);
	trace_lanes(t, &n_lanes);
	if ((!n && !(s->lanes && n_lanes)) || !out->n_regions)
		return 0;
	uint32_t *at = malloc(((size_t)nr + 1) * sizeof *at);
	if (!at)
		return ERR_NOMEM;
	for (uint32_t r = 0; r < nr; r++)
		at[r] = TRACE_NONE;
	for (uint32_t i = 0; i < out->n_regions; i++)
		if (out->regions[i].region < nr)
			at[out->regions[i].region] = i;
	struct trace_opv ops = trace_ops(t, NULL);
	for (uint32_t i = 0; i < n; i++) {
		const struct trace_rma *r = &rmas[i];
		if (r->op == TRACE_NONE || r->origin >= n_tl || (s->ranks && !s->ranks[r->origin]))
			continue;
		uint64_t a = s->tl_from ? s->tl_from[r->origin] : s->from;
		uint64_t b = s->tl_from ? s->tl_to[r->origin] : s->to;
		/* a call without a region (records outside any MPI call: an
		 * offload copy) counts at the region holding it */
		struct trace_op o = trace_op_get(&ops, r->op);
		uint32_t reg = o.region != TRACE_NONE || o.frame == TRACE_NONE ? o.region
			: trace_frames(t, NULL)[o.frame].region;
		if (r->t_issue < a || r->t_issue >= b || reg >= nr || at[reg] == TRACE_NONE)
			continue;
		out->regions[at[reg]].rma_ops++;
		out->regions[at[reg]].rma_bytes += r->bytes_sent + r->bytes_recv;
	}
	/* a stream's copies (comm's device copies too), at their own
	 * regions, when the lanes count */
	const struct trace_lane *L = trace_lanes(t, NULL);
	const struct trace_frame *fr = trace_lane_frames(t, NULL);
	uint32_t nb;
	const uint64_t *bytes = trace_lane_bytes(t, &nb);
	for (uint32_t i = 0; s->lanes && !s->span_first && i < n_lanes; i++) {
		uint32_t o = L[i].timeline;
		if (L[i].kind != LANE_GPU || o >= n_tl || (s->ranks && !s->ranks[o]))
			continue;
		uint64_t a = s->tl_from ? s->tl_from[o] : s->from, b = s->tl_from ? s->tl_to[o] : s->to;
		for (uint32_t f = L[i].frame_first; f < L[i].frame_first + L[i].frame_count; f++) {
			uint32_t reg = fr[f].region;
			if (fr[f].t_enter < a || fr[f].t_enter >= b || reg >= nr || at[reg] == TRACE_NONE ||
			    !trace_region_is_copy(t, reg))
				continue;
			out->regions[at[reg]].rma_ops++;
			out->regions[at[reg]].rma_bytes += f < nb ? bytes[f] : 0;
		}
	}
	free(at);
	return 0;
}

/* Each timeline's lanes (none: lane_first stays NULL). */
static int
lanes_of(const struct trace *t, struct job *j)
{
	uint32_t n;
	trace_lanes(t, &n);
	return n ? trace_lanes_by_rank(t, &j->lane_first, &j->lane_ids) : 0;
}

int
profile_compute(const struct trace *t, const struct profile_scope *scope, struct profile *out,
		struct err *e)
{
	memset(out, 0, sizeof *out);
	struct profile_scope all;
	if (!scope) {
		profile_scope_all(&all);
		scope = &all;
	}
	uint32_t ntl, nr, n_ops, n_pes = 0;
	trace_timelines(t, &ntl);
	trace_regions(t, &nr);
	trace_pes(t, &n_pes);
	int charm = trace_info(t)->paradigm == PARADIGM_CHARM;
	struct job *j = calloc(1, sizeof *j);
	uint32_t nw = par_workers();
	if (!j)
		return err_set(e, ERR_NOMEM, "profile: out of memory");
	*j = (struct job){ .t = t, .s = scope, .ops = trace_ops(t, &n_ops), .n_regions = nr ? nr : 1,
			   .by_pe = charm && scope->by_pe && n_pes, .n_keys = n_pes };
	uint32_t np = PAR_PIECES(nw);
	if (np > ntl)
		np = ntl ? ntl : 1;
	int rc = scope->lanes && !scope->span_first && !j->by_pe ? lanes_of(t, j) : 0;
	j->cut = malloc(((size_t)np + 1) * sizeof *j->cut);
	if (!j->cut && !rc)
		rc = ERR_NOMEM;
	if (!rc && ntl) {
		par_split(ntl, np, tl_weight, t, j->cut);
		par_pieces_init(&j->pieces, np, nw);
		rc = par_run(nw, work, j);
	}
	size_t rows = 0;
	for (uint32_t i = 0; i < nw; i++)
		rows += j->w[i].n_rows;
	if (!rc) {
		out->rows = malloc((rows + 1) * sizeof *out->rows);
		out->regions = malloc((rows + 1) * sizeof *out->regions);
		if (!out->rows || !out->regions)
			rc = ERR_NOMEM;
	}
	for (uint32_t i = 0; i < nw && !rc; i++) {
		if (j->w[i].n_rows)
			memcpy(out->rows + out->n_rows, j->w[i].rows, j->w[i].n_rows * sizeof *out->rows);
		out->n_rows += (uint32_t)j->w[i].n_rows;
	}
	for (uint32_t i = 0; i < PAR_MAX; i++) {
		struct worker *w = &j->w[i];
		free(w->acc);
		free(w->touched);
		free(w->stack);
		free(w->rows);
		free(w->gap_lo);
		free(w->gap_sum);
		free(w->span_cw);
	}
	if (!rc) {
		qsort(out->rows, out->n_rows, sizeof *out->rows, row_cmp);
		out->n_rows = merge_rows(out->rows, out->n_rows);
		totals_of(t, scope, out, j->by_pe, n_pes, j->lane_first);
		rc = regions_of(out, nr);
		if (!rc && !j->by_pe)
			rc = rma_of_regions(t, scope, out);
		const struct trace_info *ti = trace_info(t);
		out->misnested = ti->warnings[WARN_MISNESTED_LEAVE];
		out->unclosed = ti->warnings[WARN_UNCLOSED_REGION];
		out->stray = ti->warnings[WARN_STRAY_LEAVE];
	}
	free(j->cut);
	free(j->lane_first);
	free(j->lane_ids);
	free(j);
	if (rc) {
		profile_free(out);
		return err_set(e, rc, "profile: %s", err_name(rc));
	}
	return 0;
}

void
profile_free(struct profile *p)
{
	if (!p)
		return;
	free(p->regions);
	free(p->rows);
	memset(p, 0, sizeof *p);
}

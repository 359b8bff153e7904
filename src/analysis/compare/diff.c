/* diff.c — aligning two analyses (diff.h says what and why). */
#include "analysis/core/analysis_impl.h"
#include "diff_impl.h"
#include "analysis/core/signature.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/hmap.h"
#include "base/vec.h"

/* The LCS table is filled for middles up to this many cells; past it
 * the alignment goes greedily with a bounded look-ahead. */
#define LCS_CELLS (16u << 20)
#define LOOKAHEAD 64

struct side {
	const struct analysis *a;
	uint32_t n;            /* partitions */
	uint32_t *order;       /* position -> partition */
	uint32_t *tok;         /* position -> token shared by both runs */
	uint64_t *sig;         /* per partition: its signature (or shape) */
	struct diff_side *tot; /* per partition */
};

static void
side_fini(struct side *s)
{
	free(s->order);
	free(s->tok);
	free(s->sig);
	free(s->tot);
}

/* What a Charm++ runtime phase aligns by: being one. Its reduction and
 * broadcast trees are the runtime's choice and differ between runs (and
 * iterations) of one program; aligned by their signatures, a run's
 * runtime phases would match none of the other's, and its application
 * phases, all alike, would pair across iterations. */
#define RUNTIME_PHASE_TOKEN 0x52554e54494d45ull

static double
secs(const struct analysis *a, uint64_t ticks)
{
	return trace_seconds(a->t, ticks);
}

static int
side_init(struct side *s, const struct analysis *a, int shape, struct hmap *tokens,
	  uint32_t *next)
{
	s->a = a;
	s->n = a->n_parts;
	s->order = malloc(((size_t)s->n + 1) * sizeof *s->order);
	s->tok = malloc(((size_t)s->n + 1) * sizeof *s->tok);
	s->tot = calloc((size_t)s->n + 1, sizeof *s->tot);
	uint64_t *sig = s->sig = malloc(((size_t)s->n + 1) * sizeof *sig);
	int rc = s->order && s->tok && s->tot && sig ? 0 : ERR_NOMEM;
	if (!rc)
		rc = signature_parts(a, shape, sig);
	if (!rc)
		rc = signature_sequence(a, s->order);
	for (uint32_t i = 0; i < s->n && !rc; i++) {
		uint64_t x = sig[s->order[i]];
		if (a->charm && a->parts[s->order[i]].runtime)
			x = RUNTIME_PHASE_TOKEN;
		uint32_t *v = hmap_get(tokens, x, 1);
		if (v) {
			s->tok[i] = *v;
		} else {
			rc = hmap_put(tokens, x, 1, *next);
			s->tok[i] = (*next)++;
		}
	}
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		struct diff_side *t = &s->tot[a->lop_part[l]];
		t->late += secs(a, lop_late(a, l));
		t->diff += secs(a, lop_diff(a, l));
		t->duration += secs(a, lop_exit(a, l) - lop_enter(a, l));
		t->ddur += secs(a, analysis_lop_diff_duration(a, l));
		t->idle += secs(a, analysis_lop_idle_experienced(a, l));
		if (a->lop_kind[l] != OP_COMPUTE) {
			uint32_t ne;
			const struct trace_end *e = lop_ends(a, l, &ne);
			t->ops++;
			for (uint32_t i = 0; i < ne; i++)
				t->messages += e[i].role == END_SEND;
		}
	}
	return rc;
}

/* ---- aligning the two token sequences ---- */

struct pair {
	uint32_t i, j;    /* positions; UINT32_MAX on a missing side */
};

struct pairs {
	struct pair *v;
	size_t n, cap;
};

static int
push(struct pairs *p, uint32_t i, uint32_t j)
{
	if (VEC_GROW(p->v, p->n, p->cap))
		return ERR_NOMEM;
	p->v[p->n++] = (struct pair){ i, j };
	return 0;
}

/* LCS of x[0..n) and y[0..m) by dynamic programming, pairs appended in
 * order (matches as (i, j), the rest one-sided). */
static int
lcs(const uint32_t *x, uint32_t n, const uint32_t *y, uint32_t m, uint32_t i0, uint32_t j0,
    struct pairs *out)
{
	uint32_t *L = calloc(((size_t)n + 1) * ((size_t)m + 1), sizeof *L);
	if (!L)
		return ERR_NOMEM;
#define AT(i, j) L[(size_t)(i) * ((size_t)m + 1) + (j)]
	for (uint32_t i = n; i-- > 0;)
		for (uint32_t j = m; j-- > 0;)
			AT(i, j) = x[i] == y[j] ? AT(i + 1, j + 1) + 1 :
				   AT(i + 1, j) >= AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1);
	uint32_t i = 0, j = 0;
	int rc = 0;
	while ((i < n || j < m) && !rc) {
		if (i < n && j < m && x[i] == y[j]) {
			rc = push(out, i0 + i++, j0 + j++);
		} else if (j == m || (i < n && AT(i + 1, j) >= AT(i, j + 1))) {
			rc = push(out, i0 + i++, UINT32_MAX);
		} else {
			rc = push(out, UINT32_MAX, j0 + j++);
		}
	}
#undef AT
	free(L);
	return rc;
}

/* Greedy alignment for middles too large for the table: equal tokens
 * pair; otherwise the side whose token reappears sooner on the other
 * skips ahead to it, within LOOKAHEAD; else both step on (changed). */
static int
greedy(const uint32_t *x, uint32_t n, const uint32_t *y, uint32_t m, uint32_t i0, uint32_t j0,
       struct pairs *out)
{
	uint32_t i = 0, j = 0;
	int rc = 0;
	while ((i < n || j < m) && !rc) {
		if (i < n && j < m && x[i] == y[j]) {
			rc = push(out, i0 + i++, j0 + j++);
			continue;
		}
		uint32_t dx = UINT32_MAX, dy = UINT32_MAX;
		for (uint32_t k = 1; k <= LOOKAHEAD && i < n && j + k < m && dy == UINT32_MAX; k++)
			if (y[j + k] == x[i])
				dy = k;
		for (uint32_t k = 1; k <= LOOKAHEAD && j < m && i + k < n && dx == UINT32_MAX; k++)
			if (x[i + k] == y[j])
				dx = k;
		if (j < m && (i == n || (dy != UINT32_MAX && dy <= dx)))
			rc = push(out, UINT32_MAX, j0 + j++);
		else if (i < n && (j == m || dx != UINT32_MAX))
			rc = push(out, i0 + i++, UINT32_MAX);
		else {
			rc = push(out, i0 + i++, UINT32_MAX);
			if (!rc)
				rc = push(out, UINT32_MAX, j0 + j++);
		}
	}
	return rc;
}

static int
align(const struct side *b, const struct side *a, struct pairs *out)
{
	uint32_t n = b->n, m = a->n, pre = 0, suf = 0;
	while (pre < n && pre < m && b->tok[pre] == a->tok[pre])
		pre++;
	while (suf < n - pre && suf < m - pre && b->tok[n - 1 - suf] == a->tok[m - 1 - suf])
		suf++;
	int rc = 0;
	for (uint32_t k = 0; k < pre && !rc; k++)
		rc = push(out, k, k);
	uint32_t mn = n - pre - suf, mm = m - pre - suf;
	if (!rc && (mn || mm)) {
		if ((uint64_t)(mn + 1) * (mm + 1) <= LCS_CELLS)
			rc = lcs(b->tok + pre, mn, a->tok + pre, mm, pre, pre, out);
		else
			rc = greedy(b->tok + pre, mn, a->tok + pre, mm, pre, pre, out);
	}
	for (uint32_t k = 0; k < suf && !rc; k++)
		rc = push(out, n - suf + k, m - suf + k);
	return rc;
}

/* ---- building the result ---- */

/* Runs of one-sided pairs between matches pair up side by side as
 * changed partitions; what is left over is only in one run. */
static int
build_parts(struct diff *d, const struct side *b, const struct side *a, const struct pairs *p)
{
	d->parts = calloc(p->n + 1, sizeof *d->parts);
	if (!d->parts)
		return ERR_NOMEM;
	size_t k = 0;
	while (k < p->n) {
		if (p->v[k].i != UINT32_MAX && p->v[k].j != UINT32_MAX) {
			uint32_t pb = b->order[p->v[k].i], pa = a->order[p->v[k].j];
			/* Charm++ runtime phases align as such (RUNTIME_PHASE_TOKEN):
			 * alike only where their signatures are */
			int alike = b->sig[pb] == a->sig[pa];
			d->parts[d->n_parts++] = (struct diff_part){
				alike ? DIFF_ALIKE : DIFF_CHANGED, pb, pa, b->tot[pb], a->tot[pa] };
			if (alike)
				d->n_alike++;
			else
				d->n_changed++;
			k++;
			continue;
		}
		size_t e = k;
		uint32_t bi[LOOKAHEAD], aj[LOOKAHEAD], nb = 0, na = 0;
		while (e < p->n && (p->v[e].i == UINT32_MAX || p->v[e].j == UINT32_MAX) &&
		       nb < LOOKAHEAD && na < LOOKAHEAD) {
			if (p->v[e].i != UINT32_MAX)
				bi[nb++] = p->v[e].i;
			else
				aj[na++] = p->v[e].j;
			e++;
		}
		/* in order of the AFTER run where there is one */
		uint32_t x = 0, y = 0;
		while (x < nb || y < na) {
			struct diff_part *q = &d->parts[d->n_parts++];
			memset(q, 0, sizeof *q);
			q->before = x < nb ? b->order[bi[x]] : TRACE_NONE;
			q->after = y < na ? a->order[aj[y]] : TRACE_NONE;
			if (q->before != TRACE_NONE)
				q->b = b->tot[q->before];
			if (q->after != TRACE_NONE)
				q->a = a->tot[q->after];
			q->kind = x < nb && y < na ? DIFF_CHANGED : x < nb ? DIFF_ONLY_BEFORE : DIFF_ONLY_AFTER;
			if (q->kind == DIFF_CHANGED)
				d->n_changed++;
			else if (q->kind == DIFF_ONLY_BEFORE)
				d->n_only_before++;
			else
				d->n_only_after++;
			x += x < nb;
			y += y < na;
		}
		k = e;
	}
	return 0;
}

/* Lops of partition p of a on timeline tl: part_lops holds each
 * partition's lops in lop order, so a timeline's are contiguous. */
static void
part_lops_on(const struct analysis *a, uint32_t p, uint32_t *k, uint32_t tl, uint32_t *first,
	     uint32_t *count)
{
	uint32_t end = a->part_lop_first[p + 1];
	while (*k < end && a->lop_tl[a->part_lops[*k]] < tl)
		(*k)++;
	*first = *k;
	while (*k < end && a->lop_tl[a->part_lops[*k]] == tl)
		(*k)++;
	*count = *k - *first;
}

static int
add_pair(struct diff *d, uint32_t lb, uint32_t la, size_t *cap)
{
	const struct analysis *B = d->before, *A = d->after;
	if (VEC_GROW(d->ops, d->n_ops, *cap))
		return ERR_NOMEM;
	d->ops[d->n_ops++] = (struct diff_op){
		lb, la,
		secs(A, lop_late(A, la)) - secs(B, lop_late(B, lb)),
		secs(A, lop_diff(A, la)) - secs(B, lop_diff(B, lb)),
		secs(A, lop_exit(A, la) - lop_enter(A, la)) - secs(B, lop_exit(B, lb) - lop_enter(B, lb)),
		secs(A, analysis_lop_diff_duration(A, la)) - secs(B, analysis_lop_diff_duration(B, lb)),
		secs(A, analysis_lop_idle_experienced(A, la)) - secs(B, analysis_lop_idle_experienced(B, lb)),
	};
	d->after_op[la] = d->n_ops - 1;
	return 0;
}

/* A lop of a chare's stretch of a phase: its entry, and its place. */
struct piece {
	uint32_t region, at;
};

static int
cmp_piece(const void *x, const void *y)
{
	const struct piece *a = x, *b = y;
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* A Charm++ chare's lops of one phase in both runs, paired by entry
 * method and order: the k-th execution piece of an entry with the k-th
 * (the order of a chare's pieces within a phase is the replay's, and an
 * SDAG serial can fall in the phase before or after from one run to the
 * other: by place alone a compute would pair with a contribution). In
 * the AFTER run's order. */
static int
pair_by_entry(struct diff *d, const uint64_t *const rh[2], const uint32_t *lb, uint32_t nb,
	      const uint32_t *la, uint32_t na, size_t *cap)
{
	const struct analysis *B = d->before, *A = d->after;
	const uint32_t n = nb + na;
	struct piece *v = malloc(((size_t)n + 1) * sizeof *v);
	uint32_t *match = malloc(((size_t)na + 1) * sizeof *match);
	if (!v || !match) {
		free(v);
		free(match);
		return ERR_NOMEM;
	}
	/* regions are compared by name: two runs number them alike only
	 * when their .sts agree */
	for (uint32_t i = 0; i < nb; i++) {
		uint32_t r = analysis_lop_region(B, lb[i]);
		v[i] = (struct piece){ r == TRACE_NONE ? UINT32_MAX : (uint32_t)rh[0][r], i };
	}
	for (uint32_t i = 0; i < na; i++) {
		uint32_t r = analysis_lop_region(A, la[i]);
		v[nb + i] = (struct piece){ r == TRACE_NONE ? UINT32_MAX : (uint32_t)rh[1][r], i };
	}
	qsort(v, nb, sizeof *v, cmp_piece);
	qsort(v + nb, na, sizeof *v, cmp_piece);
	for (uint32_t i = 0; i < na; i++)
		match[i] = UINT32_MAX;
	for (uint32_t x = 0, y = nb; x < nb && y < n;) {
		if (v[x].region == v[y].region)
			match[v[y++].at] = v[x++].at;
		else if (v[x].region < v[y].region)
			x++;
		else
			y++;
	}
	int rc = 0;
	for (uint32_t i = 0; i < na && !rc; i++)
		if (match[i] != UINT32_MAX)
			rc = add_pair(d, lb[match[i]], la[i], cap);
	free(v);
	free(match);
	return rc;
}

/* Does BEFORE's lop b make the call AFTER's lop a makes (kind and
 * region)? */
static int
same_call(const struct diff *d, uint32_t b, uint32_t a)
{
	return d->before->lop_kind[b] == d->after->lop_kind[a] &&
	       analysis_lop_region(d->before, b) == analysis_lop_region(d->after, a);
}

/* A rank's lops of a partition whose structure changed, paired from
 * its start while both runs made the same calls, and from its end
 * likewise (the calls in between differ: they stay unpaired), in
 * AFTER's order. A rank stopped in a changed partition (NWChem, hpcc:
 * more tests, another message) was otherwise never compared. */
static int
pair_ends(struct diff *d, const uint32_t *lb, uint32_t nb, const uint32_t *la, uint32_t na, size_t *cap)
{
	uint32_t head = 0;
	while (head < nb && head < na && same_call(d, lb[head], la[head]))
		head++;
	uint32_t tail = 0;
	while (tail < nb - head && tail < na - head && same_call(d, lb[nb - 1 - tail], la[na - 1 - tail]))
		tail++;
	int rc = 0;
	for (uint32_t i = 0; i < head && !rc; i++)
		rc = add_pair(d, lb[i], la[i], cap);
	for (uint32_t i = tail; i > 0 && !rc; i--)
		rc = add_pair(d, lb[nb - i], la[na - i], cap);
	return rc;
}

static int
pair_ops(struct diff *d)
{
	const struct analysis *B = d->before, *A = d->after;
	size_t cap = 0;
	/* Charm++: each region's name hashed once, for pair_by_entry */
	uint32_t n_reg;
	uint64_t *rh[2] = { NULL, NULL };
	if (d->charm && (!(rh[0] = signature_regions(B->t, &n_reg)) || !(rh[1] = signature_regions(A->t, &n_reg)))) {
		free(rh[0]);
		return ERR_NOMEM;
	}
	int rc = 0;
	for (uint32_t q = 0; q < d->n_parts && !rc; q++) {
		const struct diff_part *P = &d->parts[q];
		/* a Charm++ runtime phase whose routes changed still pairs its
		 * chares' executions of each entry */
		if (P->kind != DIFF_ALIKE && P->kind != DIFF_CHANGED)
			continue;
		uint32_t kb = B->part_lop_first[P->before], ka = A->part_lop_first[P->after];
		for (uint32_t tl = 0; tl < d->ranks_after && tl < d->ranks_before && !rc; tl++) {
			uint32_t fb, nb, fa, na;
			part_lops_on(B, P->before, &kb, tl, &fb, &nb);
			part_lops_on(A, P->after, &ka, tl, &fa, &na);
			if (d->charm) {
				if ((rc = pair_by_entry(d, (const uint64_t *const *)rh, B->part_lops + fb, nb,
							A->part_lops + fa, na, &cap)))
					break;
				continue;
			}
			if (P->kind == DIFF_CHANGED) {
				rc = pair_ends(d, B->part_lops + fb, nb, A->part_lops + fa, na, &cap);
				continue;
			}
			for (uint32_t x = 0, y = 0; x < nb && y < na && !rc;) {
				uint32_t lb = B->part_lops[fb + x], la = A->part_lops[fa + y];
				if (B->lop_kind[lb] != A->lop_kind[la]) {
					/* a computation only one run has: skip it */
					if (B->lop_kind[lb] == OP_COMPUTE)
						x++;
					else
						y++;
					continue;
				}
				rc = add_pair(d, lb, la, &cap);
				x++;
				y++;
			}
		}
	}
	free(rh[0]);
	free(rh[1]);
	return rc;
}

struct ranked {
	double key;
	uint32_t op;
};

static int
cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->op < b->op ? -1 : a->op > b->op;
}

/* The change an op is ranked by: differential lateness, or for Charm++
 * differential duration; 0 for what the ranking leaves out (a Charm++
 * run's runtime and set-up work, unless counted). */
static double
rank_key(const struct diff *d, const struct diff_op *op, int setup)
{
	if (!d->charm)
		return op->d_diff;
	return setup ? 0 : op->d_ddur;
}

/* Worse: differential lateness grew (largest first); better: it shrank.
 * Changes below a nanosecond are clock noise of the conversion. */
static int
rank_ops(struct diff *d)
{
	uint32_t n_regions;
	trace_regions(d->after->t, &n_regions);
	int count_setup = d->charm && !analysis_options(d->after)->startup;
	uint8_t *ctor = count_setup ? calloc((size_t)n_regions + 1, 1) : NULL;
	struct ranked *r = malloc(((size_t)d->n_ops + 1) * sizeof *r);    /* worse from the front, */
	d->worse = malloc(((size_t)d->n_ops + 1) * sizeof *d->worse);     /* better from the back */
	d->better = malloc(((size_t)d->n_ops + 1) * sizeof *d->better);
	if (!r || !d->worse || !d->better || (count_setup && !ctor)) {
		free(r);
		free(ctor);
		return ERR_NOMEM;
	}
	uint32_t n = 0, m = 0;
	for (uint32_t i = 0; i < d->n_ops; i++) {
		int setup = count_setup && analysis_lop_charm_setup_memo(d->after, d->ops[i].after, ctor);
		d->n_setup += (uint32_t)setup;
		double key = rank_key(d, &d->ops[i], setup);
		if (key > 1e-9)
			r[n++] = (struct ranked){ key, i };
		else if (key < -1e-9)
			r[d->n_ops - ++m] = (struct ranked){ -key, i };
	}
	free(ctor);
	qsort(r, n, sizeof *r, cmp_ranked);
	for (uint32_t i = 0; i < n; i++)
		d->worse[i] = r[i].op;
	d->n_worse = n;
	qsort(r + d->n_ops - m, m, sizeof *r, cmp_ranked);
	for (uint32_t i = 0; i < m; i++)
		d->better[i] = r[d->n_ops - m + i].op;
	d->n_better = m;
	free(r);
	return 0;
}

/* ---- what differs inside a changed partition ---- */

struct key3 {
	uint32_t x, y, z;
	int32_t side;   /* -1 before, +1 after */
};

static int
cmp_key3(const void *p, const void *q)
{
	const struct key3 *a = p, *b = q;
	if (a->x != b->x) return a->x < b->x ? -1 : 1;
	if (a->y != b->y) return a->y < b->y ? -1 : 1;
	if (a->z != b->z) return a->z < b->z ? -1 : 1;
	return 0;
}

/* Messages (sender, receiver, tag) or calls (rank, kind, region name
 * hash) of partition p into k, marked with side. */
static int
collect(const struct analysis *a, uint32_t p, int msgs, int32_t side, struct key3 **k, size_t *n,
	size_t *cap)
{
	const struct trace_msg *m = trace_msgs(a->t, NULL);
	const struct trace_region *regs = trace_regions(a->t, NULL);
	for (uint32_t i = a->part_lop_first[p]; i < a->part_lop_first[p + 1]; i++) {
		uint32_t l = a->part_lops[i];
		if (a->lop_kind[l] == OP_COMPUTE)
			continue;
		if (!msgs) {
			if (VEC_GROW(*k, *n, *cap))
				return ERR_NOMEM;
			uint32_t r = analysis_lop_region(a, l);
			const char *name = r == TRACE_NONE ? "" : trace_str(a->t, regs[r].name);
			(*k)[(*n)++] = (struct key3){ a->lop_tl[l], a->lop_kind[l],
				(uint32_t)hash_bytes(name, strlen(name)), side };
			continue;
		}
		uint32_t ne;
		const struct trace_end *e = lop_ends(a, l, &ne);
		for (uint32_t j = 0; j < ne; j++) {
			if (e[j].role != END_SEND)
				continue;
			if (VEC_GROW(*k, *n, *cap))
				return ERR_NOMEM;
			const struct trace_msg *g = &m[e[j].id];
			(*k)[(*n)++] = (struct key3){ g->sender, g->receiver, g->tag, side };
		}
	}
	return 0;
}

/* The multiset differences of messages, then of calls. Calls name their
 * region by a hash; the first call with it gives the region id back. */
static int
part_changes(struct diff *d, uint32_t q, size_t *cap)
{
	const struct diff_part *P = &d->parts[q];
	int rc = 0;
	for (int msgs = 1; msgs >= 0 && !rc; msgs--) {
		struct key3 *k = NULL;
		size_t n = 0, kc = 0;
		rc = collect(d->before, P->before, msgs, -1, &k, &n, &kc);
		if (!rc)
			rc = collect(d->after, P->after, msgs, 1, &k, &n, &kc);
		if (!rc && n)
			qsort(k, n, sizeof *k, cmp_key3);
		for (size_t i = 0; i < n && !rc;) {
			size_t e = i;
			int32_t sum = 0;
			while (e < n && cmp_key3(&k[i], &k[e]) == 0)
				sum += k[e++].side;
			if (sum) {
				rc = VEC_GROW(d->changes, d->n_changes, *cap);
				if (!rc)
					d->changes[d->n_changes++] = (struct diff_change){
						q, sum > 0, (uint8_t)msgs, k[i].x, k[i].y, k[i].z,
						(uint32_t)(sum > 0 ? sum : -sum) };
			}
			i = e;
		}
		free(k);
	}
	return rc;
}

/* ---- regions ---- */

static int
add_regions(struct diff *d, const struct analysis *a, int after, struct hmap *idx, size_t *cap)
{
	uint32_t n_regs;
	const struct trace_region *regs = trace_regions(a->t, &n_regs);
	/* each (region, computation or not)'s row, found by name the first
	 * time: slot 2 r + comp, r = n_regs for none */
	uint32_t *row = malloc(((size_t)n_regs + 1) * 2 * sizeof *row);
	if (!row)
		return ERR_NOMEM;
	memset(row, 0xff, ((size_t)n_regs + 1) * 2 * sizeof *row);
	int rc = 0;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t r = analysis_lop_region(a, l);
		/* a Charm++ execution without messages is still its entry's */
		int comp = a->lop_kind[l] == OP_COMPUTE && !d->charm;
		if (comp) {
			uint32_t f = trace_op_get(&a->ops, lop_first_op(a, l)).frame;
			r = f == TRACE_NONE ? TRACE_NONE : trace_frames(a->t, NULL)[f].region;
		}
		size_t slot = 2 * (size_t)(r < n_regs ? r : n_regs) + (size_t)comp;
		uint32_t k = row[slot];
		if (k == TRACE_NONE) {
			const char *name = r < n_regs ? trace_str(a->t, regs[r].name) :
				comp ? "(top level)" : d->charm ? "(creation)" : "";
			uint64_t h = hash_bytes(name, strlen(name));
			uint32_t *v = hmap_get(idx, h, comp);
			if (v) {
				k = *v;
			} else {
				if (VEC_GROW(d->regions, d->n_regions, *cap) ||
				    hmap_put(idx, h, comp, d->n_regions)) {
					rc = ERR_NOMEM;
					break;
				}
				k = d->n_regions++;
				memset(&d->regions[k], 0, sizeof d->regions[k]);
				d->regions[k].name = name;
				d->regions[k].computation = comp;
			}
			row[slot] = k;
		}
		struct diff_region *g = &d->regions[k];
		double dur = secs(a, lop_exit(a, l) - lop_enter(a, l)), late = secs(a, lop_late(a, l));
		double ddur = secs(a, analysis_lop_diff_duration(a, l));
		/* a Charm++ execution split at its sends counts once */
		int call = !d->charm || !(trace_op_get(&a->ops, lop_first_op(a, l)).flags & OPF_EXEC_CONT);
		if (after) {
			g->dur_after += dur;
			g->late_after += late;
			g->ddur_after += ddur;
			g->n_after += call;
		} else {
			g->dur_before += dur;
			g->late_before += late;
			g->ddur_before += ddur;
			g->n_before += call;
		}
	}
	free(row);
	return rc;
}

/* By the change (diff_region.change), largest first, then by name. */
static int
cmp_region(const void *x, const void *y)
{
	const struct diff_region *a = x, *b = y;
	if (a->change != b->change)
		return a->change > b->change ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* ---- where each AFTER lop's lateness was created ---- */

static int
find_roots(struct diff *d)
{
	const struct analysis *A = d->after;
	d->root = malloc(((size_t)A->n_lops + 1) * sizeof *d->root);
	uint32_t *path = malloc(((size_t)A->n_lops + 1) * sizeof *path);
	if (!d->root || !path) {
		free(path);
		return ERR_NOMEM;
	}
	memset(d->root, 0xff, ((size_t)A->n_lops + 1) * sizeof *d->root);
	for (uint32_t l = 0; l < A->n_lops; l++) {
		uint32_t n = 0, x = l, r = TRACE_NONE;
		/* follow causes back (they point to earlier lops: no cycle) */
		while (x != TRACE_NONE && d->root[x] == TRACE_NONE && n <= A->n_lops) {
			path[n++] = x;
			enum analysis_cause c = lop_cause(A, x);
			if (c == CAUSE_TIMELINE || c == CAUSE_MESSAGE)
				x = lop_cause_lop(A, x);
			else
				break;
		}
		if (x != TRACE_NONE && d->root[x] != TRACE_NONE)
			r = d->root[x];
		else if (x != TRACE_NONE)
			r = lop_cause(A, x) == CAUSE_NONE ? TRACE_NONE : x;
		for (uint32_t i = 0; i < n; i++)
			d->root[path[i]] = r == TRACE_NONE ? UINT32_MAX - 1 : r;
	}
	for (uint32_t l = 0; l < A->n_lops; l++)
		if (d->root[l] == UINT32_MAX - 1)
			d->root[l] = TRACE_NONE;
	free(path);
	return 0;
}

static int
reached(const struct diff *d, uint32_t l, uint32_t from, double min_d_late)
{
	if (l == from || d->root[l] != from)
		return 0;
	double grew = d->after_op[l] != TRACE_NONE ? d->ops[d->after_op[l]].d_late :
		secs(d->after, lop_late(d->after, l));
	return grew >= min_d_late;
}

int
diff_propagation(const struct diff *d, uint32_t from, double min_d_late, uint32_t **out,
		 uint32_t *n)
{
	const struct analysis *A = d->after;
	*out = NULL;
	*n = 0;
	uint32_t k = 0;
	for (uint32_t l = 0; l < A->n_lops; l++)
		k += reached(d, l, from, min_d_late);
	if (!k)
		return 0;
	uint32_t *v = malloc(k * sizeof *v);
	if (!v)
		return ERR_NOMEM;
	k = 0;
	for (uint32_t l = 0; l < A->n_lops; l++)
		if (reached(d, l, from, min_d_late))
			v[k++] = l;
	*out = v;
	*n = k;
	return 0;
}

int
diff_run(const struct analysis *before, const struct analysis *after, struct diff **out,
	 struct err *e)
{
	*out = NULL;
	if ((trace_info(before->t)->paradigm == PARADIGM_CHARM) !=
	    (trace_info(after->t)->paradigm == PARADIGM_CHARM))
		return err_set(e, ERR_USAGE, "%s and %s: a Charm++ run and an MPI trace are not two runs of "
			       "one program: nothing to compare", trace_info(before->t)->path,
			       trace_info(after->t)->path);
	struct diff *d = calloc(1, sizeof *d);
	if (!d)
		return err_set(e, ERR_NOMEM, "out of memory");
	d->before = before;
	d->after = after;
	trace_timelines(before->t, &d->ranks_before);
	trace_timelines(after->t, &d->ranks_after);
	d->same_ranks = d->ranks_before == d->ranks_after;
	d->charm = trace_info(before->t)->paradigm == PARADIGM_CHARM &&
		   trace_info(after->t)->paradigm == PARADIGM_CHARM;
	struct hmap tokens = { 0 }, regidx = { 0 };
	uint32_t next = 0;
	struct side b = { 0 }, a = { 0 };
	struct pairs p = { 0 };
	size_t cap = 0;
	int rc = side_init(&b, before, !d->same_ranks, &tokens, &next);
	if (!rc)
		rc = side_init(&a, after, !d->same_ranks, &tokens, &next);
	if (!rc)
		rc = align(&b, &a, &p);
	if (!rc)
		rc = build_parts(d, &b, &a, &p);
	d->after_op = malloc(((size_t)after->n_lops + 1) * sizeof *d->after_op);
	d->after_part = malloc(((size_t)after->n_parts + 1) * sizeof *d->after_part);
	if (!rc && (!d->after_op || !d->after_part))
		rc = ERR_NOMEM;
	if (!rc) {
		memset(d->after_op, 0xff, ((size_t)after->n_lops + 1) * sizeof *d->after_op);
		memset(d->after_part, 0xff, ((size_t)after->n_parts + 1) * sizeof *d->after_part);
		for (uint32_t q = 0; q < d->n_parts; q++)
			if (d->parts[q].after != TRACE_NONE)
				d->after_part[d->parts[q].after] = q;
	}
	if (!rc && d->same_ranks)
		rc = pair_ops(d);
	if (!rc)
		rc = rank_ops(d);
	if (!rc)
		rc = diff_unpaired(d);
	for (uint32_t q = 0; q < d->n_parts && !rc; q++)
		if (d->parts[q].kind == DIFF_CHANGED && d->same_ranks)
			rc = part_changes(d, q, &cap);
	cap = 0;
	if (!rc)
		rc = add_regions(d, before, 0, &regidx, &cap);
	if (!rc)
		rc = add_regions(d, after, 1, &regidx, &cap);
	for (uint32_t i = 0; i < d->n_regions; i++) {
		struct diff_region *g = &d->regions[i];
		g->change = fabs(g->dur_after - g->dur_before) +
			    (d->charm ? fabs(g->ddur_after - g->ddur_before) : fabs(g->late_after - g->late_before));
	}
	if (!rc && d->n_regions)
		qsort(d->regions, d->n_regions, sizeof *d->regions, cmp_region);
	if (!rc)
		rc = find_roots(d);
	for (uint32_t l = 0; l < before->n_lops && !rc; l++) {
		d->late_before += secs(before, lop_late(before, l));
		d->diff_before += secs(before, lop_diff(before, l));
		d->ddur_before += secs(before, analysis_lop_diff_duration(before, l));
		d->idle_before += secs(before, analysis_lop_idle_experienced(before, l));
	}
	for (uint32_t l = 0; l < after->n_lops && !rc; l++) {
		d->late_after += secs(after, lop_late(after, l));
		d->diff_after += secs(after, lop_diff(after, l));
		d->ddur_after += secs(after, analysis_lop_diff_duration(after, l));
		d->idle_after += secs(after, analysis_lop_idle_experienced(after, l));
	}
	hmap_fini(&tokens);
	hmap_fini(&regidx);
	side_fini(&b);
	side_fini(&a);
	free(p.v);
	if (rc) {
		diff_destroy(d);
		return err_set(e, rc, "diff: %s", err_name(rc));
	}
	*out = d;
	return 0;
}

void
diff_destroy(struct diff *d)
{
	if (!d)
		return;
	free(d->parts);
	free(d->ops);
	free(d->worse);
	free(d->better);
	free(d->unpaired);
	free(d->unpaired_better);
	free(d->changes);
	free(d->regions);
	free(d->after_op);
	free(d->after_part);
	free(d->root);
	free(d);
}

const char *
diff_part_kind_name(enum diff_part_kind k)
{
	switch (k) {
	case DIFF_ALIKE: return "alike";
	case DIFF_CHANGED: return "changed";
	case DIFF_ONLY_BEFORE: return "only-before";
	case DIFF_ONLY_AFTER: return "only-after";
	}
	return "?";
}

/* waits.c — Scalasca's wait states, read from the matched messages and
 * collectives the model already has (doc/analysis.md, "Wait states").
 *
 * Point to point, per receiving lop: the latest of the sends it received
 * began after the lop entered (late sender); per blocking send: its
 * receive, a blocking receive, began after the send entered and while the
 * send was still in its call (late receiver). Per collective, by type:
 * every member's wait for the last to enter (N x N, barrier), a member's
 * wait for the root of a one-to-all (late broadcast), the root's wait for
 * the last member of an all-to-one (early reduce). A wait never exceeds
 * the waiting operation's own duration. One wait per lop: the longest.
 * Found on every core, in the order one core finds them.
 */
#include "explain_impl.h"

#include "base/par.h"
#include "base/recycle.h"
#include "base/bitset.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

static int
push(struct waits_out *w, uint32_t lop, uint32_t cause, uint64_t t, enum analysis_wait_kind k)
{
	if (t == 0)
		return 0;
	if (VEC_GROW(w->v, w->n, w->cap))
		return ERR_NOMEM;
	w->v[w->n++] = (struct analysis_wait){ .lop = lop, .cause_lop = cause, .root_lop = TRACE_NONE,
					       .kind = (uint8_t)k, .time = t };
	return 0;
}

/* Does lop l hold trace op x? */
static int
lop_holds(const struct analysis *a, uint32_t l, uint32_t x)
{
	return x >= lop_first_op(a, l) && x <= lop_last_op(a, l);
}

/* waited from `from` until `until`, inside [from, end]: 0 unless until is later */
static uint64_t
waited(uint64_t from, uint64_t until, uint64_t end)
{
	if (until <= from)
		return 0;
	return (until < end ? until : end) - from;
}

/* What a region's calls can be in a wait state, by name (Scalasca's
 * rules): a blocking receive (MPI_Recv) posts a receive whose post time
 * the model knows; a blocking send call (MPI_Send, MPI_Ssend) or a
 * blocking completion (MPI_Wait*, not MPI_Test*) can wait for a late
 * receiver; a test never waits (its polling is not a wait state). */
uint8_t *
explain_region_flags(const struct analysis *a)
{
	uint32_t n;
	const struct trace_region *r = trace_regions(a->t, &n);
	uint8_t *f = calloc((size_t)n + 1, 1);
	if (!f)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		const char *name = trace_str(a->t, r[i].name);
		if (!strcmp(name, "MPI_Recv"))
			f[i] = R_RECV;
		else if (!strcmp(name, "MPI_Send") || !strcmp(name, "MPI_Ssend") || !strcmp(name, "MPI_Wait") ||
			 !strcmp(name, "MPI_Waitany") || !strcmp(name, "MPI_Waitall") ||
			 !strcmp(name, "MPI_Waitsome"))
			f[i] = R_SEND_BLOCKS;
		else if (!strncmp(name, "MPI_Test", 8))
			f[i] = R_TEST;
	}
	return f;
}

static uint8_t
op_flags(const struct analysis *a, const uint8_t *rf, uint32_t op)
{
	uint32_t r = trace_op_get(&a->ops, op).region, n;
	trace_regions(a->t, &n);
	return r < n ? rf[r] : 0;
}

/* Timeline tl's quiet calls from the first entered at or after `from`:
 * [*k, *end) of the array returned; *nr the regions. */
static const struct trace_call *
calls_from(const struct analysis *a, uint32_t tl, uint64_t from, uint32_t *k, uint32_t *end, uint32_t *nr)
{
	const struct trace_timeline *T = &trace_timelines(a->t, NULL)[tl];
	const struct trace_call *c = trace_calls(a->t, NULL);
	trace_regions(a->t, nr);
	uint32_t lo = T->call_first, hi = T->call_first + T->call_count;
	*end = hi;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c[mid].t_enter < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	*k = lo;
	return c;
}

static int
failed_test(const struct trace_call *c, const uint8_t *rf, uint32_t nr)
{
	uint32_t r = trace_call_region(c);
	return trace_call_kind(c) == CALL_MPI && r < nr && (rf[r] & R_TEST);
}

/* The enter of the first call of timeline tl in [from, to) that tested
 * and completed nothing (a quiet MPI_Test*: no record), or UINT64_MAX. */
static uint64_t
first_failed_test(const struct analysis *a, const uint8_t *rf, uint32_t tl, uint64_t from, uint64_t to)
{
	uint32_t k, end, nr;
	const struct trace_call *c = calls_from(a, tl, from, &k, &end, &nr);
	for (; k < end && c[k].t_enter < to; k++)
		if (failed_test(&c[k], rf, nr))
			return c[k].t_enter;
	return UINT64_MAX;
}

uint64_t
explain_polled(const struct analysis *a, const uint8_t *rf, uint32_t tl, uint64_t en, uint64_t ex)
{
	uint32_t k, end, nr;
	const struct trace_call *c = calls_from(a, tl, en, &k, &end, &nr);
	uint64_t first = UINT64_MAX, last = 0, gap = 0;
	for (; k < end && c[k].t_enter < ex; k++) {
		if (!failed_test(&c[k], rf, nr))
			continue;
		if (first == UINT64_MAX)
			first = c[k].t_enter;
		else if (c[k].t_enter - last > gap)
			gap = c[k].t_enter - last;
		last = c[k].t_enter;
	}
	if (first != UINT64_MAX && ex - last > gap)
		gap = ex - last;
	return first != UINT64_MAX && 2 * (ex - first) >= ex - en && 4 * gap <= ex - en ? first : UINT64_MAX;
}

/* The receives of lop l: late sender. The send each message waited for
 * is the call that sent it (an Isend's own enter, as Scalasca takes it).
 * A test does not wait; but when the test that completed the receive
 * came after tests that completed nothing in the computation before it,
 * that computation polled: it waited from its first such test until
 * the send began (polling, held by the computation). */
static int
late_sender(const struct analysis *a, const uint8_t *rf, uint32_t l, struct waits_out *w)
{
	int test = (op_flags(a, rf, lop_first_op(a, l)) & R_TEST) != 0;
	uint32_t ne, tl = a->lop_tl[l], cause = TRACE_NONE;
	uint64_t latest = 0;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if (e[i].role != END_RECV || !msg_ok(a, e[i].id))
			continue;
		const struct trace_msg *m = &a->msgs[e[i].id];
		if (m->sender == tl)
			continue;
		uint64_t s = trace_op_get(&a->ops, m->send_op).t_enter;
		if (cause == TRACE_NONE || s > latest) {
			latest = s;
			cause = op_lop_of(a, m->send_op);
		}
	}
	if (cause == TRACE_NONE)
		return 0;
	if (test) {
		uint32_t c = l - 1;      /* the computation before, on the same rank */
		if (l == 0 || a->lop_tl[c] != tl || a->lop_kind[c] != OP_COMPUTE)
			return 0;
		uint64_t from = first_failed_test(a, rf, tl, lop_enter(a, c), lop_exit(a, c));
		if (from == UINT64_MAX)
			return 0;
		return push(w, c, cause, waited(from, latest, lop_exit(a, c)), WAIT_POLLING);
	}
	return push(w, l, cause, waited(lop_enter(a, l), latest, lop_exit(a, l)), WAIT_LATE_SENDER);
}

/* The sends lop l completes in a blocking call: late receiver. Only a
 * receive posted by a blocking call says when it was posted (an Irecv's
 * post is no operation of the model), and only a send still in its
 * completing call when the receive came waited for it (an eager send
 * has returned). Scalasca's: Rreq.enter - Scmp.enter when Scmp.leave is
 * after Rreq.enter. */
static int
late_receiver(const struct analysis *a, const uint8_t *rf, uint32_t l, struct waits_out *w)
{
	uint32_t ne, tl = a->lop_tl[l], cause = TRACE_NONE;
	uint64_t best = 0;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if ((e[i].role != END_SEND && e[i].role != END_ISEND_DONE) || !msg_ok(a, e[i].id))
			continue;
		const struct trace_msg *m = &a->msgs[e[i].id];
		uint32_t cmp = m->send_done_op;
		if (m->receiver == tl || cmp == TRACE_NONE || !lop_holds(a, l, cmp) ||
		    (e[i].role == END_SEND && cmp != m->send_op) || !(op_flags(a, rf, cmp) & R_SEND_BLOCKS) ||
		    !(op_flags(a, rf, m->recv_op) & R_RECV))
			continue;
		struct trace_op s = trace_op_get(&a->ops, cmp);
		uint64_t r = trace_op_get(&a->ops, m->recv_op).t_enter;
		if (r >= s.t_exit)
			continue;
		uint64_t t = waited(s.t_enter, r, s.t_exit);
		if (t > best) {
			best = t;
			cause = op_lop_of(a, m->recv_op);
		}
	}
	return cause == TRACE_NONE ? 0 : push(w, l, cause, best, WAIT_LATE_RECEIVER);
}

static int
coll_kind(uint8_t type)
{
	switch (type) {
	case COLL_BARRIER:
		return WAIT_BARRIER;
	case COLL_ALLGATHER: case COLL_ALLGATHERV: case COLL_ALLTOALL: case COLL_ALLTOALLV:
	case COLL_ALLTOALLW: case COLL_ALLREDUCE: case COLL_REDUCE_SCATTER: case COLL_REDUCE_SCATTER_BLOCK:
		return WAIT_NXN;
	case COLL_BCAST: case COLL_SCATTER: case COLL_SCATTERV:
		return WAIT_LATE_BROADCAST;
	case COLL_GATHER: case COLL_GATHERV: case COLL_REDUCE:
		return WAIT_EARLY_REDUCE;
	default:
		return -1;
	}
}

static int
collective(const struct analysis *a, const struct trace_coll *c, const uint32_t *members,
	   struct waits_out *w)
{
	int k = coll_kind(c->type);
	/* a non-blocking collective's members are the calls that completed
	 * it: when the others started it is not among them (doc/analysis.md) */
	if (k < 0 || c->member_count < 2 || (c->flags & COLLF_NONBLOCKING))
		return 0;
	const uint32_t *m = members + c->member_first;
	uint32_t last = TRACE_NONE, root = TRACE_NONE;
	uint64_t last_enter = 0;
	for (uint32_t i = 0; i < c->member_count; i++) {
		uint32_t l = op_lop_of(a, m[i]);
		uint64_t en = lop_enter(a, l);
		if (last == TRACE_NONE || en > last_enter) {
			last_enter = en;
			last = l;
		}
		if (a->lop_tl[l] == c->root)
			root = l;
	}
	int rc = 0;
	if (k == WAIT_NXN || k == WAIT_BARRIER) {
		for (uint32_t i = 0; i < c->member_count && !rc; i++) {
			uint32_t l = op_lop_of(a, m[i]);
			rc = push(w, l, last, waited(lop_enter(a, l), last_enter, lop_exit(a, l)),
				  (enum analysis_wait_kind)k);
		}
	} else if (root != TRACE_NONE && k == WAIT_LATE_BROADCAST) {
		uint64_t r = lop_enter(a, root);
		for (uint32_t i = 0; i < c->member_count && !rc; i++) {
			uint32_t l = op_lop_of(a, m[i]);
			if (l != root)
				rc = push(w, l, root, waited(lop_enter(a, l), r, lop_exit(a, l)),
					  WAIT_LATE_BROADCAST);
		}
	} else if (root != TRACE_NONE) {
		/* early reduce: the root waits for the last of the others */
		uint32_t cause = TRACE_NONE;
		uint64_t latest = 0;
		for (uint32_t i = 0; i < c->member_count; i++) {
			uint32_t l = op_lop_of(a, m[i]);
			uint64_t en = lop_enter(a, l);
			if (l != root && (cause == TRACE_NONE || en > latest)) {
				latest = en;
				cause = l;
			}
		}
		rc = push(w, root, cause, waited(lop_enter(a, root), latest, lop_exit(a, root)),
			  WAIT_EARLY_REDUCE);
	}
	return rc;
}

/* The waits found on every core: the lops cut into pieces, then the
 * collectives, each piece's waits in a list of its own; the lists are
 * joined in piece order, which is the order one core finds them in. */
struct finding {
	struct analysis *a;
	const uint8_t *rf;
	const struct trace_coll *colls;
	const uint32_t *members;
	uint32_t n_colls, n_pieces;  /* pieces of each: lops, collectives */
	struct par_pieces pieces;
	struct waits_out out[2 * PAR_PIECES_MAX + 1];   /* and the lock waits */
};

static int
find_worker(void *ctx, uint32_t wk, uint32_t nw)
{
	struct finding *f = ctx;
	const struct analysis *a = f->a;
	uint32_t c;
	(void)nw;
	while (par_take(&f->pieces, wk, &c)) {
		struct waits_out *w = &f->out[c];
		uint32_t i0, i1;
		int rc = 0;
		if (c < f->n_pieces) {
			par_share(a->n_lops, c, f->n_pieces, &i0, &i1);
			for (uint32_t l = i0; l < i1 && !rc; l++) {
				uint8_t k = a->lop_kind[l];
				if (k == OP_RECV || k == OP_SENDRECV)
					rc = late_sender(a, f->rf, l, w);
				if (!rc && k != OP_COMPUTE && k != OP_COLLECTIVE)
					rc = late_receiver(a, f->rf, l, w);
			}
		} else {
			par_share(f->n_colls, c - f->n_pieces, f->n_pieces, &i0, &i1);
			for (uint32_t i = i0; i < i1 && !rc; i++)
				rc = collective(a, &f->colls[i], f->members, w);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* The waits found, one per lop: its longest, the first found of those
 * as long, in lop order. The lops that wait are a set (a bit a lop, and
 * the members before each word of 64): a wait's place in the list is
 * its lop's rank there, so each found wait goes straight to its place,
 * list after list in the order they were found, and each list is freed
 * once read. Joining the lists, then a radix sort by lop (its keys and
 * their copy) and a copy of the longest took 64 bytes a wait beside the
 * lists, the run's peak at 10^8 events (doc/performance.md). */
static int
one_per_lop(const struct analysis *a, struct waits_out *in, uint32_t n_in, struct analysis_wait **out,
	    uint32_t *n_out)
{
	size_t nw = bitset_words(a->n_lops) + 1, total = 0;
	struct bitset lops = { 0 }, placed = { 0 };
	uint32_t *before = malloc(nw * sizeof *before), n = 0;
	struct analysis_wait *v = NULL;
	int rc = before && !bitset_init(&lops, a->n_lops) ? 0 : ERR_NOMEM;
	for (uint32_t c = 0; !rc && c < n_in; c++) {
		total += in[c].n;
		for (size_t i = 0; i < in[c].n; i++)
			bitset_set(&lops, in[c].v[i].lop);
	}
	if (!rc && total > UINT32_MAX)
		rc = ERR_NOMEM;
	for (size_t k = 0; !rc && k < nw; k++) {
		before[k] = n;
		n += k < bitset_words(a->n_lops) ? (uint32_t)__builtin_popcountll(lops.w[k]) : 0;
	}
	if (!rc && (!(v = recycle_malloc(((size_t)n + 1) * sizeof *v)) || bitset_init(&placed, n)))
		rc = ERR_NOMEM;
	for (uint32_t c = 0; !rc && c < n_in; c++) {
		for (size_t i = 0; i < in[c].n; i++) {
			const struct analysis_wait *x = &in[c].v[i];
			uint64_t word = lops.w[x->lop / 64], bit = UINT64_C(1) << (x->lop % 64);
			uint32_t k = before[x->lop / 64] + (uint32_t)__builtin_popcountll(word & (bit - 1));
			if (!bitset_test(&placed, k)) {
				bitset_set(&placed, k);
				v[k] = *x;
			} else if (x->time > v[k].time) {
				v[k] = *x;
			}
		}
		free(in[c].v);
		in[c] = (struct waits_out){ 0 };
	}
	bitset_fini(&lops);
	bitset_fini(&placed);
	free(before);
	if (rc || !n) {
		free(v);           /* none: no list, as before */
		v = NULL;
	}
	if (rc)
		return rc;
	*out = v;
	*n_out = n;
	return 0;
}

int
explain_waits(struct analysis *a)
{
	struct finding *f = calloc(1, sizeof *f);
	uint8_t *rf = explain_region_flags(a);
	int rc = f && rf ? 0 : ERR_NOMEM;
	if (!rc) {
		uint32_t nw = par_workers();
		f->a = a;
		f->rf = rf;
		f->colls = trace_colls(a->t, &f->n_colls);
		f->members = trace_coll_members(a->t);
		f->n_pieces = PAR_PIECES(nw);
		par_pieces_init(&f->pieces, 2 * f->n_pieces, nw);
		rc = par_run(nw, find_worker, f);
	}
	/* the lock waits after the pieces' */
	if (!rc)
		rc = explain_lock_waits(a, &f->out[2 * f->n_pieces]);
	free(rf);
	struct analysis_wait *v = NULL;
	uint32_t n = 0;
	if (!rc)
		rc = one_per_lop(a, f->out, 2 * f->n_pieces + 1, &v, &n);
	for (uint32_t c = 0; f && c < 2 * f->n_pieces + 1; c++)
		free(f->out[c].v);
	free(f);
	if (rc)
		return rc;
	a->waits = v;
	a->n_waits = n;
	return 0;
}

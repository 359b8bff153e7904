/* match.c — build_finish(): pairing message ends and collective members.
 *
 * Messages obey MPI's non-overtaking rule: between one sender and one
 * receiver on one communicator with one tag, the n-th receive matches the
 * n-th send. Sends and receives are threaded onto per-channel FIFO lists
 * (one hash entry per channel, O(1) per message), then zipped, channel
 * by channel. On every core: the ops are cut into ranges at timeline
 * boundaries, and each worker threads its range's sends onto its own
 * channels (those of its senders), then its range's receives onto
 * theirs (found in their sender's worker, read only: a channel's
 * receives are all its receiver's), then zips its channels.
 * Collectives: the k-th collective a rank starts on a communicator is the
 * k-th invocation on it (self communicators give one-member invocations);
 * a window's collectives are counted on the window.
 */
#include "build_impl.h"

#include "base/sat.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/recycle.h"
#include "base/vec.h"

/* ---- cutting the work by op ranges ---- */

/* Timelines' ops are contiguous, and sends, receives and collective
 * members are recorded in op order, each with the op it belongs to: so
 * cutting the ops into ranges at timeline boundaries cuts each of those
 * into runs, found by binary search, where every timeline's records lie
 * in one run. */
struct cut {
	uint32_t n;                   /* ranges */
	uint32_t op[PAR_MAX + 1];     /* range w: ops [op[w], op[w + 1]) */
	uint8_t *owner;               /* timeline -> its range */
};

static int
cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* Cuts t's ops into n ranges of about the same size (1 when the records
 * are too few to share). */
static int
cut_ops(const struct trace *t, uint32_t n, struct cut *c)
{
	uint32_t n_ops = trace_op_count(t);
	c->n = 1;
	c->op[0] = 0;
	c->op[1] = n_ops;
	if (!(c->owner = calloc(t->n_timelines + 1, 1)))
		return ERR_NOMEM;
	if (n <= 1)
		return 0;
	uint32_t *first = malloc((t->n_timelines + 1) * sizeof *first), nf = 0;
	if (!first)
		return ERR_NOMEM;
	for (size_t i = 0; i < t->n_timelines; i++)
		if (t->timelines[i].op_count)
			first[nf++] = t->timelines[i].op_first;
	qsort(first, nf, sizeof *first, cmp_u32);
	for (uint32_t k = 1, f = 0; k < n; k++) {
		uint64_t want = (uint64_t)n_ops * k / n;
		while (f < nf && first[f] < want)
			f++;
		if (f < nf && first[f] > c->op[c->n - 1])
			c->op[c->n++] = first[f];
	}
	c->op[c->n] = n_ops;
	free(first);
	for (size_t i = 0; i < t->n_timelines; i++) {
		uint32_t k = 0;
		while (k + 1 < c->n && t->timelines[i].op_first >= c->op[k + 1])
			k++;
		c->owner[i] = (uint8_t)k;
	}
	return 0;
}

/* The first of n records whose op (read by op_of) is at least op. */
static size_t
run_start(const void *recs, size_t n, size_t size, size_t op_at, uint32_t op)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t v;
		memcpy(&v, (const char *)recs + mid * size + op_at, sizeof v);
		if (v < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- messages ---- */

/* Worker w: the channels of the senders in its range. */
struct mworker {
	struct hmap of;          /* key -> index in c */
	struct channel *c;
	size_t n, cap;
	size_t send_lo, send_hi, recv_lo, recv_hi;   /* its runs */
	uint32_t *orphan;        /* receives whose channel has no send */
	size_t n_orphan, cap_orphan;
	uint64_t size_mismatch;
	int unordered;           /* a record out of op order: share no work */
	int rc;
};

struct matching {
	struct build *b;
	struct cut cut;
	/* next_recv[r], once receive r is paired (or made a message of its
	 * own), is its message: the ends' receive ids become those */
	uint32_t *next_send, *next_recv;
	struct mworker w[PAR_MAX];
};

/* A: the range's sends onto its senders' channels. */
static int
thread_sends(void *ctx, uint32_t wi, uint32_t n)
{
	(void)n;
	struct matching *mt = ctx;
	const struct trace *t = mt->b->t;
	struct mworker *w = &mt->w[wi];
	uint32_t prev = 0;
	for (size_t i = w->send_lo; i < w->send_hi; i++) {
		const struct trace_msg *m = &t->msgs[i];
		if (m->send_op < prev || mt->cut.owner[m->sender] != wi) {
			w->unordered = 1;
			return 0;
		}
		prev = m->send_op;
		uint64_t ka = (uint64_t)m->sender << 32 | m->receiver, kb = (uint64_t)m->comm << 32 | m->tag;
		uint32_t *ci = hmap_get(&w->of, ka, kb), ch;
		if (ci) {
			ch = *ci;
		} else {
			if (VEC_GROW(w->c, w->n, w->cap) || hmap_put(&w->of, ka, kb, (uint32_t)w->n))
				return w->rc = ERR_NOMEM;
			ch = (uint32_t)w->n++;
			w->c[ch] = (struct channel){ TRACE_NONE, TRACE_NONE, TRACE_NONE, TRACE_NONE, i };
		}
		channel_thread(&w->c[ch].send_head, &w->c[ch].send_tail, mt->next_send, (uint32_t)i);
	}
	return 0;
}

/* B: the range's receives onto their channels, found (read only) with
 * their sender's worker. A channel's receives are all its receiver's,
 * so only this worker writes them. */
static int
thread_recvs(void *ctx, uint32_t wi, uint32_t n)
{
	(void)n;
	struct matching *mt = ctx;
	const struct build *b = mt->b;
	struct mworker *w = &mt->w[wi];
	uint32_t prev = 0;
	for (size_t r = w->recv_lo; r < w->recv_hi; r++) {
		const struct recv_half *h = &b->recvs[r];
		uint32_t receiver = trace_oprec_of(b->t, h->op)->timeline;
		if (h->op < prev || mt->cut.owner[receiver] != wi) {
			w->unordered = 1;
			return 0;
		}
		prev = h->op;
		uint64_t ka = (uint64_t)h->sender << 32 | receiver, kb = (uint64_t)h->comm << 32 | h->tag;
		struct mworker *sw = &mt->w[mt->cut.owner[h->sender]];
		const uint32_t *ci = hmap_get(&sw->of, ka, kb);
		if (!ci) {
			if (VEC_GROW(w->orphan, w->n_orphan, w->cap_orphan))
				return w->rc = ERR_NOMEM;
			w->orphan[w->n_orphan++] = (uint32_t)r;
			continue;
		}
		struct channel *c = &sw->c[*ci];
		channel_thread(&c->recv_head, &c->recv_tail, mt->next_recv, (uint32_t)r);
	}
	return 0;
}

/* C: the worker's channels, sends and receives paired in order; what is
 * left over stays threaded from the heads. */
static int
pair_channels(void *ctx, uint32_t wi, uint32_t n)
{
	(void)n;
	struct matching *mt = ctx;
	struct build *b = mt->b;
	struct trace *t = b->t;
	struct mworker *w = &mt->w[wi];
	for (size_t ch = 0; ch < w->n; ch++) {
		struct channel *c = &w->c[ch];
		uint32_t s = c->send_head, r = c->recv_head;
		while (s != TRACE_NONE && r != TRACE_NONE) {
			struct trace_msg *m = &t->msgs[s];
			const struct recv_half *h = &b->recvs[r];
			m->recv_op = h->op;
			m->t_recv = h->time;
			if (h->bytes != m->bytes) {
				m->flags |= MSGF_SIZE_MISMATCH;
				w->size_mismatch++;
			}
			uint32_t rn = mt->next_recv[r];
			mt->next_recv[r] = s;
			s = mt->next_send[s];
			r = rn;
		}
		c->send_head = s;
		c->recv_head = r;
	}
	return 0;
}

int
lone_recv_cmp(const void *pa, const void *pb)
{
	const struct lone_recv *a = pa, *b = pb;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return (a->recv > b->recv) - (a->recv < b->recv);
}

/* Receives without a send: their channel's first sight, the orphans'
 * being their first receive (the workers' lists are in receive order). */
static int
lone_receives(struct matching *mt, struct lone_recv **out, size_t *n_out)
{
	const struct build *b = mt->b;
	size_t n_sends = b->t->n_msgs, n = 0, cap = 0;
	struct lone_recv *lone = NULL;
	struct hmap first_of = { 0 };
	int rc = 0;
	for (uint32_t wi = 0; wi < mt->cut.n && !rc; wi++) {
		const struct mworker *w = &mt->w[wi];
		for (size_t ch = 0; ch < w->n && !rc; ch++)
			for (uint32_t r = w->c[ch].recv_head; r != TRACE_NONE && !rc; r = mt->next_recv[r]) {
				if ((rc = VEC_GROW(lone, n, cap)))
					break;
				lone[n++] = (struct lone_recv){ w->c[ch].first, r };
			}
		for (size_t i = 0; i < w->n_orphan && !rc; i++) {
			const struct recv_half *h = &b->recvs[w->orphan[i]];
			uint64_t ka = (uint64_t)h->sender << 32 | trace_oprec_of(b->t, h->op)->timeline;
			uint64_t kb = (uint64_t)h->comm << 32 | h->tag;
			uint32_t *f = hmap_get(&first_of, ka, kb), first = f ? *f : w->orphan[i];
			if ((!f && hmap_put(&first_of, ka, kb, first)) || VEC_GROW(lone, n, cap)) {
				rc = ERR_NOMEM;
				break;
			}
			lone[n++] = (struct lone_recv){ n_sends + first, w->orphan[i] };
		}
	}
	hmap_fini(&first_of);
	if (n > 1)
		qsort(lone, n, sizeof *lone, lone_recv_cmp);
	*out = lone;
	*n_out = n;
	return rc;
}

/* What the pairing left over: sends without a receive are flagged;
 * receives without a send become messages of their own after the
 * others, channel by channel in the order the channels were first seen
 * (sends first), each channel's in receive order. */
static int
leftovers(struct matching *mt)
{
	struct build *b = mt->b;
	struct trace *t = b->t;
	for (uint32_t wi = 0; wi < mt->cut.n; wi++) {
		const struct mworker *w = &mt->w[wi];
		t->info.warnings[WARN_SIZE_MISMATCH] += w->size_mismatch;
		for (size_t ch = 0; ch < w->n; ch++)
			for (uint32_t s = w->c[ch].send_head; s != TRACE_NONE; s = mt->next_send[s]) {
				t->info.warnings[WARN_UNMATCHED_SEND]++;
				trace_oprec_of(t, t->msgs[s].send_op)->flags |= OPF_UNMATCHED;
			}
	}
	struct lone_recv *lone;
	size_t n_lone;
	int rc = lone_receives(mt, &lone, &n_lone);
	for (size_t i = 0; i < n_lone && !rc; i++) {
		const struct recv_half *h = &b->recvs[lone[i].recv];
		t->info.warnings[WARN_UNMATCHED_RECV]++;
		trace_oprec_of(t, h->op)->flags |= OPF_UNMATCHED;
		uint32_t id;
		rc = VEC_NEW_ID(t->msgs, t->n_msgs, t->cap_msgs, &id);
		if (!rc && id > TRACE_END_ID_MAX)
			rc = ERR_LIMIT;     /* ends name messages in 30 bits */
		if (rc)
			break;
		mt->next_recv[lone[i].recv] = id;
		t->msgs[id] = (struct trace_msg){
			.t_send = 0, .t_recv = h->time, .bytes = h->bytes,
			.send_op = TRACE_NONE, .recv_op = h->op,
			.send_done_op = TRACE_NONE, .sender = h->sender,
			.receiver = trace_oprec_of(t, h->op)->timeline, .comm = h->comm, .tag = h->tag,
		};
	}
	free(lone);
	return rc;
}

static void
workers_fini(struct matching *mt)
{
	for (uint32_t wi = 0; wi < PAR_MAX; wi++) {
		hmap_fini(&mt->w[wi].of);
		free(mt->w[wi].c);
		free(mt->w[wi].orphan);
		mt->w[wi] = (struct mworker){ 0 };
	}
	free(mt->cut.owner);
	mt->cut.owner = NULL;
}

/* Matches on n workers (the three passes); *unordered when the records
 * were not in op order and could not be shared. */
static int
match_on(struct matching *mt, uint32_t n, int *unordered)
{
	struct build *b = mt->b;
	const struct trace *t = b->t;
	int rc = cut_ops(t, n, &mt->cut);
	if (rc)
		return rc;
	for (uint32_t wi = 0; wi < mt->cut.n; wi++) {
		struct mworker *w = &mt->w[wi];
		uint32_t lo = mt->cut.op[wi], hi = mt->cut.op[wi + 1];
		int last = wi + 1 == mt->cut.n;
		w->send_lo = wi ? run_start(t->msgs, t->n_msgs, sizeof *t->msgs,
					    offsetof(struct trace_msg, send_op), lo) : 0;
		w->send_hi = last ? t->n_msgs : run_start(t->msgs, t->n_msgs, sizeof *t->msgs,
							  offsetof(struct trace_msg, send_op), hi);
		w->recv_lo = wi ? run_start(b->recvs, b->n_recvs, sizeof *b->recvs,
					    offsetof(struct recv_half, op), lo) : 0;
		w->recv_hi = last ? b->n_recvs : run_start(b->recvs, b->n_recvs, sizeof *b->recvs,
							   offsetof(struct recv_half, op), hi);
	}
	par_fn pass[3] = { thread_sends, thread_recvs, pair_channels };
	*unordered = 0;
	for (int p = 0; p < 3 && !rc && !*unordered; p++) {
		rc = par_run(mt->cut.n, pass[p], mt);
		for (uint32_t wi = 0; wi < mt->cut.n; wi++) {
			rc = rc ? rc : mt->w[wi].rc;
			*unordered |= mt->w[wi].unordered;
		}
	}
	return rc;
}

/* below this many sends and receives, one worker */
#define MATCH_PAR_MIN (1u << 16)

/* Matches the messages; *recv_msg (the caller's to free) gives each
 * receive's message. */
static int
match_messages(struct build *b, uint32_t **recv_msg)
{
	struct trace *t = b->t;
	size_t n_sends = t->n_msgs, n_recvs = b->n_recvs;
	struct matching mt = { .b = b };
	mt.next_send = malloc((n_sends + 1) * sizeof *mt.next_send);
	mt.next_recv = malloc((n_recvs + 1) * sizeof *mt.next_recv);
	int rc = ERR_NOMEM, unordered = 0;
	if (mt.next_send && mt.next_recv) {
		uint32_t n = n_sends + n_recvs < MATCH_PAR_MIN ? 1 : par_workers();
		rc = match_on(&mt, n, &unordered);
		if (!rc && unordered) {
			/* one worker makes no assumption on the order */
			workers_fini(&mt);
			rc = match_on(&mt, 1, &unordered);
		}
	}
	if (!rc)
		rc = leftovers(&mt);
	workers_fini(&mt);
	recycle_free(mt.next_send, (n_sends + 1) * sizeof *mt.next_send);
	if (rc) {
		free(mt.next_recv);
		mt.next_recv = NULL;
	}
	*recv_msg = mt.next_recv;
	return rc;
}

static int
group_collectives(struct build *b, uint32_t *coll_of)
{
	struct trace *t = b->t;
	size_t n = b->n_colls, n_keys = t->n_comms + t->n_wins;
	struct hmap seen = { 0 };             /* (key, timeline) -> calls so far */
	uint32_t *ninst = calloc(n_keys + 1, sizeof *ninst);
	uint32_t *count = NULL;
	int rc = ERR_NOMEM;
	if (!ninst)
		goto out;

	/* coll_of[h] = sequence number on its key, for now: its place in
	 * the order its timeline started its collectives there (pos), which
	 * is the order the halves come in unless pos says otherwise */
	uint32_t n_self = 0;
	for (size_t h = 0; h < n; h++) {
		const struct coll_half *c = &b->colls[h];
		if (t->comms[c->comm].is_self) {
			coll_of[h] = n_self++;
			continue;
		}
		uint32_t seq = c->pos;
		if (seq == TRACE_NONE) {
			uint32_t *k = hmap_get(&seen, c->key, c->timeline);
			seq = 0;
			if (k)
				seq = (*k)++;
			else if (hmap_put(&seen, c->key, c->timeline, 1))
				goto out;
		}
		coll_of[h] = seq;
		if (seq + 1 > ninst[c->key])
			ninst[c->key] = seq + 1;
	}
	/* ninst becomes the first instance id of each key: communicators,
	 * then windows */
	size_t total = 0;
	for (size_t c = 0; c < n_keys; c++) {
		uint32_t k = ninst[c];
		ninst[c] = (uint32_t)total;
		total += k;
	}
	size_t self_base = total;
	total += n_self;
	if (total >= TRACE_NONE) {
		rc = ERR_LIMIT;
		goto out;
	}
	for (size_t h = 0; h < n; h++) {
		const struct coll_half *c = &b->colls[h];
		coll_of[h] += t->comms[c->comm].is_self ? (uint32_t)self_base : ninst[c->key];
	}

	t->colls = calloc(total + 1, sizeof *t->colls);
	t->coll_members = malloc((n + 1) * sizeof *t->coll_members);
	t->coll_sent = malloc((n + 1) * sizeof *t->coll_sent);
	count = calloc(total + 1, sizeof *count);
	if (!t->colls || !t->coll_members || !t->coll_sent || !count)
		goto out;
	t->n_colls = t->cap_colls = total;
	t->n_coll_members = t->cap_coll_members = n;
	t->n_coll_sent = t->cap_coll_sent = n;
	for (size_t h = 0; h < n; h++)
		count[coll_of[h]]++;
	uint32_t first = 0;
	for (size_t i = 0; i < total; i++) {
		t->colls[i].member_first = first;
		first += count[i];
		count[i] = t->colls[i].member_first;
	}
	for (size_t h = 0; h < n; h++) {
		const struct coll_half *c = &b->colls[h];
		struct trace_coll *k = &t->colls[coll_of[h]];
		t->coll_sent[count[coll_of[h]]] = c->sent;
		t->coll_members[count[coll_of[h]]++] = c->op;
		if (k->member_count++ == 0) {
			k->comm = c->comm;
			k->type = c->type;
			k->flags = c->flags;
			k->root = c->root;
			k->expected = t->comms[c->comm].is_self ? 1 : t->comms[c->comm].size;
		}
		k->bytes_sent = sat_add(k->bytes_sent, c->sent);
		k->bytes_recv = sat_add(k->bytes_recv, c->received);
	}
	for (size_t i = 0; i < total; i++)
		if (t->colls[i].member_count != t->colls[i].expected)
			t->info.warnings[WARN_INCOMPLETE_COLL]++;
	rc = 0;
out:
	hmap_fini(&seen);
	free(ninst);
	free(count);
	return rc;
}

/* The ends' receive and collective ids become message and collective
 * ids, a share of the ends on each worker; the last gives the collective
 * halves back first (unmapping them was a serial 10 ms at 10^8 events). */
struct renumber {
	struct trace *t;
	const uint32_t *recv_msg, *coll_of;
	struct build *b;         /* its collective halves freed meanwhile */
};

static int
renumber_ends(void *ctx, uint32_t i, uint32_t n)
{
	const struct renumber *rn = ctx;
	uint32_t lo, hi;
	if (i == n - 1) {
		recycle_free(rn->b->colls, rn->b->n_colls * sizeof *rn->b->colls);
		rn->b->colls = NULL;
		rn->b->n_colls = rn->b->cap_colls = 0;
	}
	par_share((uint32_t)rn->t->n_ends, i, n, &lo, &hi);
	for (uint32_t k = lo; k < hi; k++) {
		struct trace_end *e = &rn->t->ends[k];
		if (e->role == END_RECV)
			e->id = rn->recv_msg[e->id];
		else if (e->role == END_COLL)
			e->id = rn->coll_of[e->id];
	}
	return 0;
}

/* Grouping the collectives is sequential; meanwhile another core gives
 * the receive halves back (unmapping them takes about as long as the
 * grouping: 4 ms each at 10^7 events). */
struct finishing {
	struct build *b;
	uint32_t *coll_of;
};

static int
finish_worker(void *ctx, uint32_t w, uint32_t n)
{
	struct finishing *f = ctx;
	if (w == n - 1) {
		recycle_free(f->b->recvs, f->b->n_recvs * sizeof *f->b->recvs);
		f->b->recvs = NULL;
		f->b->n_recvs = f->b->cap_recvs = 0;
	}
	return w == 0 ? group_collectives(f->b, f->coll_of) : 0;
}

/* The halves are freed as soon as they are paired or grouped. */
int
build_finish(struct build *b, trace_progress_fn progress, void *ud)
{
	struct trace *t = b->t;
	uint32_t *recv_msg = NULL;
	size_t n_recvs = b->n_recvs, n_colls = b->n_colls;   /* the halves go on the way */
	uint32_t *coll_of = malloc((n_colls + 1) * sizeof *coll_of);
	int rc = ERR_NOMEM;
	if (!coll_of)
		goto out;
	if (progress && progress(ud, "matching", 0, t->n_msgs + b->n_recvs)) {
		rc = ERR_CANCELLED;
		goto out;
	}
	if ((rc = match_messages(b, &recv_msg)))
		goto out;
	if (progress && progress(ud, "collectives", 0, b->n_colls)) {
		rc = ERR_CANCELLED;
		goto out;
	}
	struct finishing f = { b, coll_of };
	if ((rc = par_run(b->n_colls < MATCH_PAR_MIN || par_workers() < 2 ? 1 : 2, finish_worker, &f)))
		goto out;
	struct renumber rn = { t, recv_msg, coll_of, b };
	rc = par_run(t->n_ends < MATCH_PAR_MIN ? 1 : par_workers(), renumber_ends, &rn);
out:
	recycle_free(recv_msg, (n_recvs + 1) * sizeof *recv_msg);
	recycle_free(coll_of, (n_colls + 1) * sizeof *coll_of);
	return rc;
}

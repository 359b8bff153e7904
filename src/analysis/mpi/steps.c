/* steps.c — local and global step assignment (seed 000, section 3.2).
 *
 * Within a partition:
 *  1. strides: a longest-path walk over sends and collectives only. Each
 *     timeline keeps the largest stride it has seen (its own sends, and
 *     the senders of what it received); a send gets that plus one; a
 *     collective gets one more than the largest over its members, so its
 *     members share a stride. MPI_Sendrecv calls that exchange messages
 *     with each other form a rendezvous like a collective's members: they
 *     share one stride (a ring shift or an exchange is simultaneous), and
 *     each still comes after the plain sends it receives from.
 *  2. communication steps: all sends and collectives of stride k share one
 *     step, the first after everything before them on their timelines;
 *     receives and waits go as early as happened-before allows (after the
 *     previous op on their timeline and after their senders).
 *  3. a communication op at step c gets local step 2c + 1, the aggregated
 *     computation before it 2c (Ravel's doubling), so computation has a
 *     column of its own.
 * Globally, a partition starts after the last step of all its DAG
 * predecessors. Work is linear in lops plus messages.
 */
#include "analysis/core/analysis_impl.h"
#include "stages.h"
#include "analysis/core/signature.h"

#include "base/par.h"
#include "base/recycle.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* The lop at the other end of a message, and its timeline. */
struct link {
	uint32_t lop, tl;
};

/* A run of a partition's lops on one timeline: lops l0 .. l0 + n - 1,
 * at places k0 .. k0 + n - 1 of the batch (link_batch). */
struct seg {
	uint32_t tl, l0, n, k0;
};

/* A batch is the partitions of a piece that fit in about LINK_RUN places
 * a timeline (within LINK_MIN and LINK_MAX places), or one larger
 * partition: long enough runs of each timeline's records to be read in
 * order, few enough places for the batch's arrays to stay in the cache
 * while its partitions are stepped. */
#define LINK_RUN 64u
#define LINK_MIN (1u << 12)
#define LINK_MAX (1u << 16)

/* Regions at most for a table of signature heads (struct stepping) */
#define HEAD_REGIONS_MAX (1u << 16)

struct stepper {
	struct analysis *a;
	/* per lop: stride in pass 1, communication step in pass 2, then
	 * the local step (it is a->lop_step) */
	uint32_t *val;
	/* per timeline (only those in the current partition are touched) */
	uint32_t *cursor, *begin, *end, *running;
	/* the receive a timeline waits at, and how many of its ends were
	 * found sent (senders_pending) */
	uint32_t *wait_lop, *wait_end;
	uint8_t *state;       /* 0 idle, 1 queued, 2 blocked, 3 done */
	uint32_t *queue;
	uint32_t *tls;        /* timelines of the current partition */
	uint32_t n_tls;
	/* rendezvous: collective invocations and groups of Sendrecvs that
	 * exchange messages; their members share a stride */
	const uint32_t *rv_of;        /* per lop, or TRACE_NONE */
	const uint32_t *rv_first, *rv_lops;
	uint32_t *arrived, *rv_running;
	/* stride buckets */
	uint32_t *bucket_first, *bucket;
	/* The current batch's messages, read once (link_batch): for each of
	 * its lops, by its place in the batch (place in part_lops less the
	 * batch's first), the lops that send what it receives
	 * (from[from_first .. from_end]) and those that receive what it sends
	 * (to[to_first .. to_end]), in the order of its ends. A lop's place is
	 * its id plus delta[] of its timeline (a partition's lops on a
	 * timeline are contiguous). */
	uint32_t *delta;
	uint32_t *from_first, *from_end, *to_first, *to_end;
	struct link *from, *to;
	size_t cap_from, cap_to;
	uint8_t *kind;        /* per place: the lop's kind */
	/* the batch's runs (struct seg), partition by partition (part_seg:
	 * each partition's first), and their order timeline by timeline;
	 * tl_count (zero between batches) and tl_seen sort them */
	struct seg *seg;
	uint32_t *seg_order, *part_seg, *tl_count, *tl_seen;
	/* with signatures asked for: per place, the lop's (call, caller) key
	 * and its term of the iterations' signature (signature.h; rh: each
	 * region's name hash, n_reg; head: each region's and kind's
	 * signature_lop_head, or NULL); room for a partition's distinct keys
	 * (steps_key_add) */
	uint64_t *key, *term;
	uint64_t *keys;
	const uint64_t *rh, *head;
	uint32_t n_reg;
	uint64_t relaxed;     /* orderings broken by this worker */
};

enum { ST_IDLE, ST_QUEUED, ST_BLOCKED, ST_DONE };

/* val[] of a rendezvous member that arrived but is not placed yet */
#define ARRIVED (TRACE_NONE - 1)

static int
is_stride_kind(uint8_t k)
{
	return k == OP_SEND || k == OP_SENDRECV || k == OP_COLLECTIVE;
}

/* Largest stride (pass 1) / step (pass 2) among the processed senders of
 * the messages lop l receives; `have` says whether any was processed. */
static uint32_t
senders_max(struct stepper *s, uint32_t tl, uint32_t l, int *have)
{
	uint32_t k = l + s->delta[tl], best = 0;
	*have = 0;
	for (uint32_t i = s->from_first[k]; i < s->from_end[k]; i++) {
		uint32_t src = s->from[i].lop;
		if (src == l || s->val[src] == TRACE_NONE || s->val[src] == ARRIVED)
			continue;
		if (s->val[src] >= best)
			best = s->val[src];
		*have = 1;
	}
	return best;
}

static void
push(struct stepper *s, uint32_t tl, uint32_t *tail)
{
	if (s->state[tl] == ST_QUEUED || s->state[tl] == ST_DONE)
		return;
	s->state[tl] = ST_QUEUED;
	s->queue[(*tail)++ % (s->n_tls + 1)] = tl;
}

/* Does receive-side lop r wait for sender lop l? Sendrecvs do not wait
 * for each other: they meet in a rendezvous instead. */
static int
waits_for(const struct analysis *a, uint32_t r, uint32_t l)
{
	return r != l && !(a->lop_kind[r] == OP_SENDRECV && a->lop_kind[l] == OP_SENDRECV);
}

/* Has sender lop l been given its stride, and told its receivers
 * (notify_receivers)? A collective meeting in a rendezvous tells none. */
static int
sent(const struct stepper *s, uint32_t l)
{
	return s->val[l] != TRACE_NONE && s->val[l] != ARRIVED &&
	       (s->rv_of[l] == TRACE_NONE || s->a->lop_kind[l] == OP_SENDRECV);
}

/* Does receive-side lop x, at the cursor of timeline tl, still wait for
 * a sender? Its ends are read on from where the last look stopped (a
 * sender once sent stays sent), so each is read once while x waits. */
static int
senders_pending(struct stepper *s, uint32_t tl, uint32_t x)
{
	const struct analysis *a = s->a;
	uint32_t k = x + s->delta[tl], n = s->from_end[k];
	if (s->wait_lop[tl] != x) {
		s->wait_lop[tl] = x;
		s->wait_end[tl] = s->from_first[k];
	}
	for (uint32_t i = s->wait_end[tl]; i < n; i++) {
		uint32_t src = s->from[i].lop;
		if (waits_for(a, x, src) && !sent(s, src)) {
			s->wait_end[tl] = i;
			return 1;
		}
	}
	s->wait_end[tl] = n;
	return 0;
}

/* A send lop was given its stride: a receiver waiting for it may go on. */
static void
notify_receivers(struct stepper *s, uint32_t ltl, uint32_t l, uint32_t *tail)
{
	const struct analysis *a = s->a;
	uint32_t k = l + s->delta[ltl];
	for (uint32_t i = s->to_first[k]; i < s->to_end[k]; i++) {
		uint32_t r = s->to[i].lop, tl = s->to[i].tl;
		if (waits_for(a, r, l) && s->state[tl] == ST_BLOCKED && s->cursor[tl] == r &&
		    s->val[r] == TRACE_NONE && !senders_pending(s, tl, r))
			push(s, tl, tail);
	}
}

/* Skips computation lops at the cursor of timeline tl. */
static void
skip_compute(struct stepper *s, uint32_t tl)
{
	while (s->cursor[tl] < s->end[tl] && s->kind[s->cursor[tl] + s->delta[tl]] == OP_COMPUTE)
		s->cursor[tl]++;
}

/* Advances timeline tl as far as it can. Returns 1 if it blocked. With
 * force, the op at the cursor is placed even if what it waits for is not
 * (breaking a cycle the records imply; counted in relaxed). */
static int
advance(struct stepper *s, uint32_t tl, uint32_t *tail, int force)
{
	struct analysis *a = s->a;
	for (;;) {
		skip_compute(s, tl);
		if (s->cursor[tl] >= s->end[tl]) {
			s->state[tl] = ST_DONE;
			return 0;
		}
		uint32_t x = s->cursor[tl];
		uint8_t k = s->kind[x + s->delta[tl]];
		int have;
		if ((k == OP_RECV || k == OP_SENDRECV) && s->val[x] == TRACE_NONE &&
		    senders_pending(s, tl, x)) {
			if (!force) {
				s->state[tl] = ST_BLOCKED;
				return 1;
			}
			s->relaxed++;
		}
		if (k == OP_RECV) {
			uint32_t m = senders_max(s, tl, x, &have);
			if (have && m > s->running[tl])
				s->running[tl] = m;
			s->cursor[tl]++;
			force = 0;
			continue;
		}
		if (k == OP_WAIT || k == OP_RMA) {   /* Isends completed, one-sided: no constraint */
			s->cursor[tl]++;
			force = 0;
			continue;
		}
		if (k == OP_SENDRECV && s->val[x] == TRACE_NONE) {
			/* after the plain sends it received from */
			uint32_t m = senders_max(s, tl, x, &have);
			if (have && m > s->running[tl])
				s->running[tl] = m;
		}
		uint32_t rv = s->rv_of[x];
		if (k == OP_SEND || rv == TRACE_NONE) {
			s->val[x] = s->running[tl] + 1;
			s->running[tl] = s->val[x];
			notify_receivers(s, tl, x, tail);
			s->cursor[tl]++;
			force = 0;
			continue;
		}
		/* a rendezvous: wait until every member has arrived */
		if (s->val[x] == TRACE_NONE) {
			if (s->arrived[rv]++ == 0 || s->running[tl] > s->rv_running[rv])
				s->rv_running[rv] = s->running[tl];
			s->val[x] = ARRIVED;
		}
		if (s->arrived[rv] < s->rv_first[rv + 1] - s->rv_first[rv]) {
			if (!force) {
				s->state[tl] = ST_BLOCKED;
				return 1;
			}
			s->relaxed++;
		}
		force = 0;
		uint32_t stride = s->rv_running[rv] + 1;
		for (uint32_t i = s->rv_first[rv]; i < s->rv_first[rv + 1]; i++) {
			uint32_t y = s->rv_lops[i], ytl = a->lop_tl[y];
			if (s->val[y] != ARRIVED)
				continue;        /* not arrived (forced) */
			s->val[y] = stride;
			s->running[ytl] = stride;
			s->cursor[ytl] = y + 1;
			if (a->lop_kind[y] == OP_SENDRECV)
				notify_receivers(s, ytl, y, tail);
			if (ytl != tl)
				push(s, ytl, tail);
		}
		/* a member arriving after a forced placement joins at the same
		 * stride when its own history allows */
		s->rv_running[rv] = stride - 1;
	}
}

/* Pass 1 for partition p: strides of its sends and collectives. */
static void
strides(struct stepper *s, uint32_t p)
{
	struct analysis *a = s->a;
	uint32_t head = 0, tail = 0;
	for (uint32_t i = 0; i < s->n_tls; i++)
		push(s, s->tls[i], &tail);
	for (;;) {
		while (head < tail) {
			uint32_t tl = s->queue[head++ % (s->n_tls + 1)];
			if (s->state[tl] != ST_QUEUED)
				continue;
			s->state[tl] = ST_IDLE;
			advance(s, tl, &tail, 0);
		}
		/* Nothing can move: a cycle the trace's records imply (e.g. a
		 * receive of a message sent after a non-synchronising collective
		 * the receiver has not reached). Break it at the blocked op that
		 * entered first, and count it. */
		uint32_t pick = TRACE_NONE;
		uint64_t best = UINT64_MAX;
		for (uint32_t i = 0; i < s->n_tls; i++) {
			uint32_t tl = s->tls[i];
			if (s->state[tl] != ST_BLOCKED)
				continue;
			uint64_t t = lop_enter(a, s->cursor[tl]);
			if (t < best) {
				best = t;
				pick = tl;
			}
		}
		if (pick == TRACE_NONE)
			break;
		s->state[pick] = ST_IDLE;
		advance(s, pick, &tail, 1);
	}
	(void)p;
}

/* Pass 2 for partition p (place k of part_lops is place k - batch of
 * the batch): communication steps (into s->val). */
static void
comm_steps(struct stepper *s, uint32_t p, uint32_t max_stride, uint32_t batch)
{
	struct analysis *a = s->a;
	uint32_t first = a->part_lop_first[p], last = a->part_lop_first[p + 1];
	/* bucket stride lops by stride (counting sort) */
	memset(s->bucket_first, 0, (max_stride + 2) * sizeof *s->bucket_first);
	for (uint32_t k = first; k < last; k++)
		if (is_stride_kind(s->kind[k - batch]))
			s->bucket_first[s->val[a->part_lops[k]]]++;
	uint32_t sum = 0;
	for (uint32_t k = 0; k <= max_stride + 1; k++) {
		uint32_t c = s->bucket_first[k];
		s->bucket_first[k] = sum;
		sum += c;
	}
	for (uint32_t k = first; k < last; k++)
		if (is_stride_kind(s->kind[k - batch]))
			s->bucket[s->bucket_first[s->val[a->part_lops[k]]]++] = a->part_lops[k];
	/* bucket_first[k] now ends bucket k; bucket k starts at end of k-1 */
	for (uint32_t i = 0; i < s->n_tls; i++) {
		uint32_t tl = s->tls[i];
		s->cursor[tl] = s->begin[tl];
		s->running[tl] = TRACE_NONE;        /* no step yet */
	}
	/* stride lops are re-marked as unplaced for pass 2 */
	for (uint32_t k = first; k < last; k++)
		s->val[a->part_lops[k]] = TRACE_NONE;

	uint32_t prev_base = TRACE_NONE;
	for (uint32_t stride = 1; stride <= max_stride + 1; stride++) {
		uint32_t b0 = stride == 1 ? 0 : s->bucket_first[stride - 1];
		uint32_t b1 = stride <= max_stride ? s->bucket_first[stride] : b0;
		int final = stride == max_stride + 1;
		uint32_t base = prev_base == TRACE_NONE ? 0 : prev_base + 1;
		/* place what comes before the stride's lops on their timelines
		 * (or everything left, after the last stride) */
		for (uint32_t i = 0; i < (final ? s->n_tls : b1 - b0); i++) {
			uint32_t tl = final ? s->tls[i] : a->lop_tl[s->bucket[b0 + i]];
			uint32_t stop = final ? s->end[tl] : s->bucket[b0 + i];
			for (; s->cursor[tl] < stop; s->cursor[tl]++) {
				uint32_t r = s->cursor[tl];
				if (s->kind[r + s->delta[tl]] == OP_COMPUTE)
					continue;
				uint32_t c = s->running[tl] == TRACE_NONE ? 0 : s->running[tl] + 1;
				int have;
				uint32_t m = senders_max(s, tl, r, &have);
				if (have && m + 1 > c)
					c = m + 1;
				s->val[r] = c;
				s->running[tl] = c;
			}
			if (!final) {
				uint32_t c = s->running[tl] == TRACE_NONE ? 0 : s->running[tl] + 1;
				if (c > base)
					base = c;
			}
		}
		if (final)
			break;
		for (uint32_t i = b0; i < b1; i++) {
			uint32_t x = s->bucket[i], tl = a->lop_tl[x];
			s->val[x] = base;
			s->running[tl] = base;
			s->cursor[tl] = x + 1;
		}
		prev_base = base;
	}
}

/* State shared by the stepping workers; each steps pieces of contiguous
 * partitions (taken in turn, par_take), which own disjoint lops and
 * collectives. */
struct stepping {
	struct analysis *a;
	uint32_t *val, *arrived, *rv_running, *width;
	struct sig *sig;              /* per partition, or NULL: not asked */
	uint64_t *isig;               /* a->part_isig */
	uint64_t *rh;                 /* with isig: each region's name hash, n_reg */
	uint64_t *head;               /* and each signature_lop_head (region,
				       * kind; n_reg for none), or NULL */
	uint32_t n_reg;
	const uint32_t *offset;       /* per partition: its first global step */
	uint32_t *rv_of, *rv_first, *rv_lops;
	uint32_t most;                /* lops in the largest partition */
	struct par_pieces pieces;     /* of the partitions, cut[] */
	uint32_t cut[PAR_PIECES_MAX + 1];
	uint64_t relaxed[PAR_MAX];
	uint32_t sendrecv[PAR_MAX];   /* prep_worker's counts */
};

static void
stepper_free(struct stepper *s)
{
	free(s->cursor);
	free(s->begin);
	free(s->end);
	free(s->running);
	free(s->wait_lop);
	free(s->wait_end);
	free(s->state);
	free(s->queue);
	free(s->tls);
	free(s->bucket);
	free(s->bucket_first);
	free(s->delta);
	free(s->from_first);
	free(s->from_end);
	free(s->to_first);
	free(s->to_end);
	free(s->from);
	free(s->to);
	free(s->kind);
	free(s->seg);
	free(s->seg_order);
	free(s->part_seg);
	free(s->tl_count);
	free(s->tl_seen);
	free(s->key);
	free(s->term);
	free(s->keys);
}

/* The links of lop l at place k of the batch (struct stepper), and with
 * signatures asked for its key and term. Returns 0 or ERR_NOMEM. */
static int
link_lop(struct stepper *s, uint32_t l, uint32_t k, size_t *nf, size_t *nt)
{
	const struct analysis *a = s->a;
	const struct trace_msg *msgs = a->msgs;
	uint8_t kind = a->lop_kind[l];
	uint32_t n;
	s->kind[k] = kind;
	s->from_first[k] = (uint32_t)*nf;
	s->to_first[k] = (uint32_t)*nt;
	if (kind != OP_COMPUTE) {
		const struct trace_op o = trace_op_get(&a->ops, lop_first_op(a, l));
		uint32_t caller = o.frame == TRACE_NONE ? TRACE_NONE
							: trace_frames(a->t, NULL)[o.frame].region;
		if (s->key)
			s->key[k] = (uint64_t)o.region << 32 | caller;
		uint64_t ends = 0;
		const struct trace_end *e = lop_ends(a, l, &n);
		for (uint32_t i = 0; i < n; i++) {
			if (s->rh)
				ends += signature_end_of(&e[i], msgs, trace_colls(a->t, NULL));
			if ((e[i].role != END_RECV && e[i].role != END_SEND) || !msg_ok(a, e[i].id))
				continue;
			const struct trace_msg *m = &msgs[e[i].id];
			if (e[i].role == END_RECV) {
				if (VEC_GROW(s->from, *nf, s->cap_from))
					return ERR_NOMEM;
				uint32_t src = op_lop_of(a, m->send_op);
				s->from[(*nf)++] = (struct link){ src, a->lop_tl[src] };
			} else {
				if (VEC_GROW(s->to, *nt, s->cap_to))
					return ERR_NOMEM;
				uint32_t dst = op_lop_of(a, m->recv_op);
				s->to[(*nt)++] = (struct link){ dst, a->lop_tl[dst] };
			}
		}
		if (s->rh) {       /* the region as analysis_lop_region */
			uint32_t reg = o.region != TRACE_NONE ? o.region : caller;
			if (reg >= s->n_reg)
				reg = s->n_reg;
			s->term[k] = s->head ? signature_term_of(s->head[reg * OP_KIND_COUNT + kind], ends)
					     : signature_term(kind, reg < s->n_reg ? s->rh[reg] : 0, ends);
		}
	}
	s->from_end[k] = (uint32_t)*nf;
	s->to_end[k] = (uint32_t)*nt;
	return 0;
}

/* The links of partitions p0 .. p1 - 1 (a batch), read timeline by
 * timeline: a partition's lops lie on many timelines at once, and read
 * partition by partition, each timeline's op records, ends and the other
 * ends' lops are each at a place of their own; read timeline by timeline
 * over the batch, they are read in order. Each message is read here once,
 * not each time the stepping asks about it. Returns 0 or ERR_NOMEM. */
static int
link_batch(struct stepper *s, uint32_t p0, uint32_t p1)
{
	const struct analysis *a = s->a;
	uint32_t base = a->part_lop_first[p0], n_seg = 0, n_seen = 0;
	for (uint32_t p = p0; p < p1; p++) {
		s->part_seg[p - p0] = n_seg;
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
			uint32_t l = a->part_lops[k], tl = a->lop_tl[l];
			struct seg *g = n_seg ? &s->seg[n_seg - 1] : NULL;
			if (g && k > a->part_lop_first[p] && g->tl == tl && g->l0 + g->n == l) {
				g->n++;
				continue;
			}
			s->seg[n_seg++] = (struct seg){ tl, l, 1, k - base };
			if (s->tl_count[tl]++ == 0)
				s->tl_seen[n_seen++] = tl;
		}
	}
	s->part_seg[p1 - p0] = n_seg;
	/* the runs timeline by timeline (a counting sort), then each
	 * timeline's count back to zero */
	uint32_t sum = 0;
	for (uint32_t i = 0; i < n_seen; i++) {
		uint32_t tl = s->tl_seen[i], c = s->tl_count[tl];
		s->tl_count[tl] = sum;
		sum += c;
	}
	for (uint32_t i = 0; i < n_seg; i++)
		s->seg_order[s->tl_count[s->seg[i].tl]++] = i;
	for (uint32_t i = 0; i < n_seen; i++)
		s->tl_count[s->tl_seen[i]] = 0;
	size_t nf = 0, nt = 0;
	for (uint32_t j = 0; j < n_seg; j++) {
		const struct seg *g = &s->seg[s->seg_order[j]];
		for (uint32_t i = 0; i < g->n; i++)
			if (link_lop(s, g->l0 + i, g->k0 + i, &nf, &nt))
				return ERR_NOMEM;
	}
	return 0;
}

/* Partition p of the batch from place base on (link_batch read its
 * links): its timelines and their lop ranges, its signatures when asked
 * for, its strides, communication steps and local steps. */
static void
step_partition(struct stepper *s, struct stepping *g, uint32_t p, uint32_t p0, uint32_t base)
{
	struct analysis *a = s->a;
	uint32_t first = a->part_lop_first[p], last = a->part_lop_first[p + 1];
	s->n_tls = 0;
	for (uint32_t j = s->part_seg[p - p0]; j < s->part_seg[p - p0 + 1]; j++) {
		const struct seg *r = &s->seg[j];
		if (s->n_tls == 0 || s->tls[s->n_tls - 1] != r->tl) {
			s->tls[s->n_tls++] = r->tl;
			s->delta[r->tl] = r->k0 - r->l0;
			s->cursor[r->tl] = s->begin[r->tl] = r->l0;
			s->running[r->tl] = 0;
			s->state[r->tl] = ST_IDLE;
		}
		s->end[r->tl] = r->l0 + r->n;
	}
	if (g->sig || g->isig) {
		uint32_t last_tl = TRACE_NONE, n_keys = 0;
		uint64_t isig = signature_start();
		for (uint32_t j = s->part_seg[p - p0]; j < s->part_seg[p - p0 + 1]; j++) {
			const struct seg *r = &s->seg[j];
			for (uint32_t k = r->k0; k < r->k0 + r->n; k++) {
				if (s->kind[k] == OP_COMPUTE)
					continue;
				if (s->key)
					n_keys = steps_key_add(s->keys, n_keys, s->key[k]);
				if (s->rh)
					isig = signature_fold_term(isig, &last_tl, r->tl, s->term[k]);
			}
		}
		if (g->sig)
			g->sig[p] = steps_sig_of(s->keys, n_keys);
		if (g->isig)
			g->isig[p] = isig;
	}
	strides(s, p);
	uint32_t max_stride = 0;
	for (uint32_t k = first; k < last; k++) {
		uint32_t l = a->part_lops[k];
		if (is_stride_kind(s->kind[k - base]) && s->val[l] != TRACE_NONE && s->val[l] > max_stride)
			max_stride = s->val[l];
	}
	comm_steps(s, p, max_stride, base);
	/* local steps, in place of the communication steps (val is
	 * lop_step): a lop's is written after its own was read, and the one
	 * before it is never read again */
	uint32_t wd = 0;
	for (uint32_t j = s->part_seg[p - p0]; j < s->part_seg[p - p0 + 1]; j++) {
		const struct seg *r = &s->seg[j];
		for (uint32_t i = 0; i < r->n; i++) {
			uint32_t l = r->l0 + i;
			if (s->kind[r->k0 + i] == OP_COMPUTE)
				continue;
			uint32_t c = s->val[l];
			a->lop_step[l] = 2 * c + 1;
			if (a->lop_step[l] + 1 > wd)
				wd = a->lop_step[l] + 1;
			/* the computation before it, if it belongs to p */
			if (i > 0 ? s->kind[r->k0 + i - 1] == OP_COMPUTE
				  : l > 0 && a->lop_tl[l - 1] == r->tl && a->lop_part[l - 1] == p)
				a->lop_step[l - 1] = 2 * c;
		}
	}
	g->width[p] = wd;
	for (uint32_t i = 0; i < s->n_tls; i++)
		s->state[s->tls[i]] = ST_IDLE;
}

static int
step_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct stepping *g = ctx;
	struct analysis *a = g->a;
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	(void)nw;
	uint32_t run = n_tl < LINK_MAX / LINK_RUN ? n_tl * LINK_RUN : LINK_MAX;
	uint32_t most = g->most, batch = run < LINK_MIN ? LINK_MIN : run, piece;
	uint32_t cap = most > batch ? most : batch;      /* places a batch holds */
	struct stepper s = {
		.a = a, .val = g->val,
		.arrived = g->arrived, .rv_running = g->rv_running,
		.rv_of = g->rv_of, .rv_first = g->rv_first, .rv_lops = g->rv_lops,
		.rh = g->rh, .head = g->head, .n_reg = g->n_reg,
	};
	s.cursor = malloc((n_tl + 1) * sizeof *s.cursor);
	s.begin = malloc((n_tl + 1) * sizeof *s.begin);
	s.end = malloc((n_tl + 1) * sizeof *s.end);
	s.running = malloc((n_tl + 1) * sizeof *s.running);
	s.wait_lop = malloc((n_tl + 1) * sizeof *s.wait_lop);
	s.wait_end = malloc((n_tl + 1) * sizeof *s.wait_end);
	s.state = malloc(n_tl + 1);
	s.queue = malloc((n_tl + 2) * sizeof *s.queue);
	s.tls = malloc((n_tl + 1) * sizeof *s.tls);
	s.bucket = malloc(((size_t)most + 1) * sizeof *s.bucket);
	s.bucket_first = malloc(((size_t)most + 3) * sizeof *s.bucket_first);
	s.delta = malloc((n_tl + 1) * sizeof *s.delta);
	s.from_first = malloc(((size_t)cap + 1) * sizeof *s.from_first);
	s.from_end = malloc(((size_t)cap + 1) * sizeof *s.from_end);
	s.to_first = malloc(((size_t)cap + 1) * sizeof *s.to_first);
	s.to_end = malloc(((size_t)cap + 1) * sizeof *s.to_end);
	s.kind = malloc((size_t)cap + 1);
	s.seg = malloc(((size_t)cap + 1) * sizeof *s.seg);
	s.seg_order = malloc(((size_t)cap + 1) * sizeof *s.seg_order);
	s.part_seg = malloc(((size_t)cap + 2) * sizeof *s.part_seg);
	s.tl_count = calloc(n_tl + 1, sizeof *s.tl_count);
	s.tl_seen = malloc((n_tl + 1) * sizeof *s.tl_seen);
	if (g->sig) {
		s.keys = malloc(((size_t)most + 1) * sizeof *s.keys);
		s.key = malloc(((size_t)cap + 1) * sizeof *s.key);
	}
	if (s.rh)
		s.term = malloc(((size_t)cap + 1) * sizeof *s.term);
	if (!s.cursor || !s.begin || !s.end || !s.running || !s.wait_lop || !s.wait_end ||
	    !s.state || !s.queue || !s.tls || !s.bucket || !s.bucket_first || !s.delta ||
	    !s.from_first || !s.from_end || !s.to_first || !s.to_end || !s.kind || !s.seg ||
	    !s.seg_order || !s.part_seg || !s.tl_count || !s.tl_seen ||
	    (g->sig && (!s.keys || !s.key)) || (s.rh && !s.term)) {
		stepper_free(&s);
		return ERR_NOMEM;
	}
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		s.state[tl] = ST_IDLE;
		s.wait_lop[tl] = TRACE_NONE;
	}
	while (par_take(&g->pieces, w, &piece)) {
		/* batches of the piece's partitions: as many as fit in batch
		 * places, one at least */
		for (uint32_t p0 = g->cut[piece], p1; p0 < g->cut[piece + 1]; p0 = p1) {
			uint32_t base = a->part_lop_first[p0];
			for (p1 = p0 + 1; p1 < g->cut[piece + 1] &&
					  a->part_lop_first[p1 + 1] - base <= batch; p1++)
				;
			if (link_batch(&s, p0, p1)) {
				stepper_free(&s);
				return ERR_NOMEM;
			}
			for (uint32_t p = p0; p < p1; p++)
				step_partition(&s, g, p, p0, base);
		}
	}
	g->relaxed[w] = s.relaxed;
	stepper_free(&s);
	return 0;
}

/* Before stepping, on every core: each lop's step and rendezvous marked
 * unknown (TRACE_NONE), and the Sendrecvs counted. */
static int
prep_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct stepping *g = ctx;
	const struct analysis *a = g->a;
	uint32_t l0, l1, n = 0;
	par_share(a->n_lops + 1, w, nw, &l0, &l1);
	memset(g->val + l0, 0xff, ((size_t)l1 - l0) * sizeof *g->val);
	memset(g->rv_of + l0, 0xff, ((size_t)l1 - l0) * sizeof *g->rv_of);
	for (uint32_t l = l0; l < l1 && l < a->n_lops; l++)
		n += a->lop_kind[l] == OP_SENDRECV;
	g->sendrecv[w] = n;
	return 0;
}

/* collective_rendezvous' workers: each lists the members of a share of
 * the collectives (cut), numbering their rendezvous from rv_base. */
struct listing {
	struct analysis *a;
	struct stepping *g;
	uint32_t cut[PAR_MAX + 1], rv_base[PAR_MAX];
	int bad;                      /* a member twice, or out of lop order */
};

static int
rv_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct listing *x = ctx;
	const struct analysis *a = x->a;
	struct stepping *g = x->g;
	const struct trace_coll *colls = trace_colls(a->t, NULL);
	const uint32_t *members = trace_coll_members(a->t);
	uint32_t rv = x->rv_base[w];
	(void)nw;
	for (uint32_t c = x->cut[w]; c < x->cut[w + 1]; c++) {
		if (!coll_meets(&colls[c]))
			continue;
		uint32_t *out = g->rv_lops + g->rv_first[rv];
		for (uint32_t i = 0; i < colls[c].member_count; i++) {
			uint32_t l = op_lop_of(a, members[colls[c].member_first + i]), none = TRACE_NONE;
			/* a lop two collectives name may be another worker's */
			if ((i > 0 && l <= out[i - 1]) ||
			    !__atomic_compare_exchange_n(&g->rv_of[l], &none, rv, 0, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED)) {
				__atomic_store_n(&x->bad, 1, __ATOMIC_RELAXED);
				return 0;
			}
			out[i] = l;
		}
		rv++;
	}
	return 0;
}

static uint64_t
coll_weight(const void *ctx, uint32_t c)
{
	const struct trace_coll *colls = ctx;
	return (uint64_t)colls[c].member_count + 1;
}

/* The members of every collective with more than one, in member order
 * (op order, so lop order), a share of the collectives on each core; 0,
 * ERR_NOMEM, or 1 when a lop is a member twice or the members are not in
 * lop order (build_rendezvous' general way then, which marks every
 * member again as this does). */
static int
collective_rendezvous(struct analysis *a, struct stepping *g, uint32_t n_rv)
{
	uint32_t n_colls, nw = par_workers();
	const struct trace_coll *colls = trace_colls(a->t, &n_colls);
	struct listing x = { .a = a, .g = g };
	g->rv_first = calloc((size_t)n_rv + 2, sizeof *g->rv_first);
	if (!g->rv_first)
		return ERR_NOMEM;
	par_split(n_colls, nw, coll_weight, colls, x.cut);
	uint32_t rv = 0;
	for (uint32_t c = 0, w = 0; c < n_colls; c++) {
		for (; w < nw && x.cut[w] == c; w++)
			x.rv_base[w] = rv;
		if (coll_meets(&colls[c])) {
			g->rv_first[rv + 1] = g->rv_first[rv] + colls[c].member_count;
			rv++;
		}
	}
	g->rv_lops = malloc(((size_t)g->rv_first[n_rv] + 1) * sizeof *g->rv_lops);
	if (!g->rv_lops)
		return ERR_NOMEM;
	par_run(nw, rv_worker, &x);
	return x.bad;
}

/* The general way: every lop's rendezvous (collective members, then the
 * Sendrecv groups' roots in u), the members listed in lop order. */
static int
general_rendezvous(struct analysis *a, struct stepping *g, struct uf *u, uint32_t n_rv,
		   uint32_t n_sendrecv)
{
	uint32_t n = a->n_lops, n_colls;
	const struct trace_coll *colls = trace_colls(a->t, &n_colls);
	const uint32_t *members = trace_coll_members(a->t);
	g->rv_first = calloc((size_t)n_rv + 2, sizeof *g->rv_first);
	if (!g->rv_first)
		return ERR_NOMEM;
	uint32_t rv = 0;
	for (uint32_t c = 0; c < n_colls; c++) {
		if (!coll_meets(&colls[c]))
			continue;
		for (uint32_t i = 0; i < colls[c].member_count; i++)
			g->rv_of[op_lop_of(a, members[colls[c].member_first + i])] = rv;
		rv++;
	}
	for (uint32_t l = 0; n_sendrecv > 1 && l < n; l++)
		if (a->lop_kind[l] == OP_SENDRECV)
			g->rv_of[l] = g->rv_of[uf_find(u, l)];
	/* CSR of members, in lop order */
	for (uint32_t l = 0; l < n; l++)
		if (g->rv_of[l] != TRACE_NONE)
			g->rv_first[g->rv_of[l] + 1]++;
	for (uint32_t i = 0; i < n_rv; i++)
		g->rv_first[i + 1] += g->rv_first[i];
	g->rv_lops = malloc(((size_t)g->rv_first[n_rv] + 1) * sizeof *g->rv_lops);
	uint32_t *fill = malloc(((size_t)n_rv + 1) * sizeof *fill);
	if (!g->rv_lops || !fill) {
		free(fill);
		return ERR_NOMEM;
	}
	memcpy(fill, g->rv_first, ((size_t)n_rv + 1) * sizeof *fill);
	for (uint32_t l = 0; l < n; l++)
		if (g->rv_of[l] != TRACE_NONE)
			g->rv_lops[fill[g->rv_of[l]]++] = l;
	free(fill);
	return 0;
}

/* Rendezvous: every collective invocation with more than one member, and
 * every group of Sendrecvs linked by messages between them (a union-find
 * over lops). Fills g->rv_of (marked unknown by prep_worker) / rv_first /
 * rv_lops. */
static int
build_rendezvous(struct analysis *a, struct stepping *g, uint32_t n_sendrecv)
{
	uint32_t n = a->n_lops, n_colls, n_msgs;
	const struct trace_coll *colls = trace_colls(a->t, &n_colls);
	trace_msgs(a->t, &n_msgs);
	struct uf u = { 0 };
	uint32_t n_rv = 0;
	for (uint32_t c = 0; c < n_colls; c++)
		n_rv += coll_meets(&colls[c]);
	/* without Sendrecv groups, the collectives' own member lists, not a
	 * pass over every lop */
	int rc = n_sendrecv <= 1 ? collective_rendezvous(a, g, n_rv) : 1;
	if (rc == 1) {
		free(g->rv_first);
		free(g->rv_lops);
		g->rv_first = g->rv_lops = NULL;
	}
	/* Sendrecv groups: only where there are two Sendrecvs to group */
	if (rc == 1 && n_sendrecv > 1) {
		if (uf_init(&u, n))
			return ERR_NOMEM;
		for (uint32_t m = 0; m < n_msgs; m++) {
			if (!msg_ok(a, m))
				continue;
			uint32_t s = op_lop_of(a, a->msgs[m].send_op), r = op_lop_of(a, a->msgs[m].recv_op);
			if (a->lop_kind[s] == OP_SENDRECV && a->lop_kind[r] == OP_SENDRECV)
				uf_union(&u, s, r);
		}
		/* a group needs two members: number roots seen twice, the
		 * number kept at the root (a member) until the others take it */
		for (uint32_t l = 0; l < n; l++)
			if (a->lop_kind[l] == OP_SENDRECV && uf_find(&u, l) != l &&
			    g->rv_of[uf_find(&u, l)] == TRACE_NONE)
				g->rv_of[uf_find(&u, l)] = n_rv++;
	}
	if (rc == 1)
		rc = general_rendezvous(a, g, &u, n_rv, n_sendrecv);
	uf_fini(&u);
	if (rc)
		return rc;
	g->arrived = calloc((size_t)n_rv + 1, sizeof *g->arrived);
	g->rv_running = calloc((size_t)n_rv + 1, sizeof *g->rv_running);
	return g->arrived && g->rv_running ? 0 : ERR_NOMEM;
}

/* Local steps made global: share w of the lops. */
static int
offset_worker(void *ctx, uint32_t w, uint32_t nw)
{
	const struct stepping *g = ctx;
	struct analysis *a = g->a;
	uint32_t l0, l1;
	par_share(a->n_lops, w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++)
		if (a->lop_step[l] != TRACE_NONE)
			a->lop_step[l] += g->offset[a->lop_part[l]];
	return 0;
}

int
steps_local(struct analysis *a, uint32_t *width, struct sig *sig)
{
	uint32_t n = a->n_lops;
	struct stepping g = { .a = a, .width = width, .sig = sig, .isig = a->part_isig };
	/* the strides and steps of each partition are worked out in
	 * lop_step itself (step_worker) */
	free(a->lop_step);
	a->lop_step = NULL;
	int rc = ERR_NOMEM;
	if (g.isig && !(g.rh = signature_regions(a->t, &g.n_reg)))
		goto out;
	/* the heads of the signature's terms, where the regions are not too
	 * many for a table: a lop's term is then one mix, not three */
	if (g.rh && g.n_reg < HEAD_REGIONS_MAX) {
		if (!(g.head = malloc(((size_t)g.n_reg + 1) * OP_KIND_COUNT * sizeof *g.head)))
			goto out;
		for (uint32_t r = 0; r <= g.n_reg; r++)
			for (uint8_t k = 0; k < OP_KIND_COUNT; k++)
				g.head[r * OP_KIND_COUNT + k] =
					signature_lop_head(k, r < g.n_reg ? g.rh[r] : 0);
	}
	a->lop_step = g.val = recycle_malloc((n + 1) * sizeof *a->lop_step);
	g.rv_of = recycle_malloc((n + 1) * sizeof *g.rv_of);
	if (!a->lop_step || !g.rv_of)
		goto out;
	uint32_t nw = par_workers(), n_sendrecv = 0;
	par_run(nw, prep_worker, &g);
	for (uint32_t w = 0; w < nw; w++)
		n_sendrecv += g.sendrecv[w];
	if (build_rendezvous(a, &g, n_sendrecv))
		goto out;
	for (uint32_t p = 0; p < a->n_parts; p++)
		if (a->part_lop_first[p + 1] - a->part_lop_first[p] > g.most)
			g.most = a->part_lop_first[p + 1] - a->part_lop_first[p];
	uint32_t np = PAR_PIECES(nw);
	par_split(a->n_parts, np, part_weight, a, g.cut);
	par_pieces_init(&g.pieces, np, nw);
	if ((rc = par_run(nw, step_worker, &g)))
		goto out;
	for (uint32_t w = 0; w < nw; w++)
		a->verify.relaxed += g.relaxed[w];
out:
	free(g.rh);
	free(g.head);
	free(g.arrived);
	free(g.rv_running);
	recycle_free(g.rv_of, ((size_t)n + 1) * sizeof *g.rv_of);
	free(g.rv_first);
	free(g.rv_lops);
	return rc;
}

int
steps_offsets(struct analysis *a, const uint32_t *width, uint32_t *offset)
{
	memset(offset, 0, ((size_t)a->n_parts + 1) * sizeof *offset);
	a->n_steps = 0;
	for (uint32_t i = 0; i < a->n_parts; i++) {
		uint32_t p = a->part_order[i];
		uint32_t endp = offset[p] + width[p];
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
			if (endp > offset[a->dag_succ[e]])
				offset[a->dag_succ[e]] = endp;
		a->parts[p].step_first = offset[p];
		a->parts[p].step_count = width[p];
		if (endp > a->n_steps)
			a->n_steps = endp;
	}
	return 0;
}

int
steps_assign(struct analysis *a, struct sig *sig)
{
	uint32_t *width = calloc(a->n_parts + 1, sizeof *width);
	uint32_t *offset = calloc(a->n_parts + 1, sizeof *offset);
	/* the signatures iterations_detect will want, made as each
	 * partition's messages are read */
	int isig = a->opts.iter_find != ITER_FIND_OFF && a->n_parts >= 2;
	free(a->part_isig);
	a->part_isig = isig ? malloc(((size_t)a->n_parts + 1) * sizeof *a->part_isig) : NULL;
	int rc = width && offset && (!isig || a->part_isig) ? steps_local(a, width, sig) : ERR_NOMEM;
	if (!rc) {
		/* global: each partition after all its predecessors */
		steps_offsets(a, width, offset);
		struct stepping g = { .a = a, .offset = offset };
		par_run(par_workers(), offset_worker, &g);
	}
	free(offset);
	free(width);
	return rc;
}

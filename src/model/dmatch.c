/* dmatch.c — the distributed match (dmodel.h: dmodel_finish): each rank's
 * share, read and joined but not matched, becomes its shard of the model
 * build_finish (match.c) gives, no rank holding more than its share (but
 * for the collectives' records, which every shard has: dmodel.h).
 *
 * 1. Counts. Every rank's records of each kind are allgathered: the
 *    offsets its local ids move by and the totals.
 * 2. Messages. A channel (sender, receiver, communicator, tag) is matched
 *    on the rank holding its receiver, which has all its receives. Every
 *    send goes there (alltoallv): ranks send in rank order, each its own
 *    in id order, so a rank gets them in global id order, threads them
 *    and its receives (in op order) onto their channels and pairs them
 *    FIFO, as match.c does; it sends back, for each message, the
 *    receive's op and time and the size flag, or that none came.
 *    Receives left over are numbered after all sends in match.c's order:
 *    by their channel's first send, or for a channel without sends the
 *    sends' count plus its first receive's global index, then by
 *    receive. Those keys (receives whose send is missing: few) are
 *    allgathered and sorted on every rank.
 * 3. Collectives (dcoll.c).
 * 4. Information. What the events counted is summed over the ranks; what
 *    the definitions gave is every rank's alike and kept; the events,
 *    the count mismatches and the span are taken over the whole.
 *
 * Every step that can fail on one rank ends with dcomm_agree, so every
 * rank leaves at the same step with the same code.
 */
#include "dmatch_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"

/* ---- 1. counts ---- */

/* t's records come in timeline order, its timelines [lo, hi) only. */
static int
in_timeline_order(struct trace *t, uint32_t lo, uint32_t hi)
{
	uint64_t ops = 0, frames = 0, calls = 0;
	if (lo > hi || hi > t->n_timelines)
		return ERR_USAGE;
	for (uint32_t tl = 0; tl < t->n_timelines; tl++) {
		struct trace_timeline *x = &t->timelines[tl];
		if (tl < lo || tl >= hi) {
			if (x->op_count || x->frame_count || x->call_count)
				return ERR_USAGE;
			continue;
		}
		if ((x->op_count && x->op_first != ops) || (x->frame_count && x->frame_first != frames) ||
		    (x->call_count && x->call_first != calls))
			return ERR_USAGE;
		ops += x->op_count;
		frames += x->frame_count;
		calls += x->call_count;
	}
	return ops == 2 * (uint64_t)t->n_oprec && frames == t->n_frames && calls == t->n_calls
		? 0 : ERR_USAGE;
}

/* The rank's timelines never begun (b->tls: no location of its share
 * has them) hold the whole model's 0 as a local id: 0 less the offsets
 * (dmodel.h). */
static int
unbegun_timelines(struct dm *m)
{
	struct trace *t = m->t;
	const struct build *b = m->b;
	uint8_t *begun = calloc(t->n_timelines + 1, 1);
	if (!begun)
		return ERR_NOMEM;
	for (size_t i = 0; i < b->n_tls; i++)
		if (b->tls[i] < t->n_timelines)
			begun[b->tls[i]] = 1;
	for (uint32_t tl = m->d->tl_lo; tl < m->d->tl_hi; tl++)
		if (!begun[tl]) {
			t->timelines[tl].op_first = (uint32_t)(0 - 2 * m->off[K_OPS]);
			t->timelines[tl].frame_first = (uint32_t)(0 - m->off[K_FRAMES]);
			t->timelines[tl].call_first = (uint32_t)(0 - m->off[K_CALLS]);
		}
	free(begun);
	return 0;
}

static int
share_counts(struct dm *m, uint32_t tl_lo, uint32_t tl_hi)
{
	const struct trace *t = m->t;
	uint32_t n = m->c->size;
	uint64_t mine[K_COUNT] = { tl_lo, tl_hi, t->n_oprec, t->n_ends, t->n_frames, t->n_msgs,
				   m->b->n_recvs, 0, t->n_calls, t->n_rmas, t->n_epochs };
	for (size_t h = 0; h < m->b->n_colls; h++)
		mine[K_SELF] += m->b->colls[h].comm < t->n_comms && t->comms[m->b->colls[h].comm].is_self;
	uint64_t *all;
	int rc = dcomm_allgatherv(m->c, mine, sizeof mine, (void **)&all, m->rcount);
	if (rc)
		return rc;
	/* the same table on every rank: the same verdict */
	memset(m->off, 0, sizeof m->off);
	memset(m->all, 0, sizeof m->all);
	for (uint32_t r = 0; r < n && !rc; r++) {
		const uint64_t *k = all + (size_t)r * K_COUNT;
		if (k[K_TL_LO] != (r ? all[(size_t)(r - 1) * K_COUNT + K_TL_HI] : 0) ||
		    k[K_TL_LO] > k[K_TL_HI] || (r + 1 == n && k[K_TL_HI] != t->n_timelines))
			rc = ERR_USAGE;
		m->tl_first[r] = (uint32_t)k[K_TL_LO];
		for (int j = K_OPS; j < K_COUNT; j++) {
			if (r < m->c->rank)
				m->off[j] += k[j];
			m->all[j] += k[j];
		}
	}
	m->tl_first[n] = (uint32_t)t->n_timelines;
	free(all);
	if (rc)
		return rc;
	if (m->all[K_OPS] > VEC_MAX_ID / 2 || m->all[K_ENDS] > VEC_MAX_ID ||
	    m->all[K_FRAMES] > VEC_MAX_ID || m->all[K_CALLS] > VEC_MAX_ID ||
	    m->all[K_RMAS] > VEC_MAX_ID || m->all[K_EPOCHS] > VEC_MAX_ID ||
	    m->all[K_SENDS] > TRACE_END_ID_MAX + 1ull ||
	    m->all[K_RECVS] > TRACE_END_ID_MAX + 1ull)
		return ERR_LIMIT;
	return 0;
}

/* ---- 2. messages ---- */

/* A send, at its receiver's rank. */
struct dsend {
	uint64_t bytes;
	uint32_t id, sender, receiver, comm, tag;
};

/* What became of a send, back at its sender's rank. */
struct dreply {
	uint64_t t_recv;
	uint32_t id, recv_op, flags, pad;
};

/* Every send to the rank holding its receiver, in id order per rank,
 * packed by destination as they are made (no second copy); they arrive
 * by sender rank, in rank order: from each rank, sent[r] bytes. */
static int
ship_sends(struct dm *m, struct dsend **in, size_t *n_in, uint64_t *sent)
{
	const struct trace *t = m->t;
	uint32_t nr = m->c->size;
	size_t ns = t->n_msgs;
	uint64_t *count = calloc(nr, sizeof *count), *at = calloc(nr + 1, sizeof *at);
	struct dsend *buf = NULL;
	int rc = count && at ? 0 : ERR_NOMEM;
	if (!rc)
		rc = dm_alloc(&buf, ns, sizeof *buf);
	for (size_t i = 0; i < ns && !rc; i++)
		count[dmodel_rank_of(m->tl_first, nr, t->msgs[i].receiver)]++;
	for (uint32_t r = 0; r < nr && !rc; r++) {
		at[r + 1] = at[r] + count[r];
		count[r] *= sizeof *buf;
	}
	for (size_t i = 0; i < ns && !rc; i++) {
		const struct trace_msg *x = &t->msgs[i];
		uint32_t r = dmodel_rank_of(m->tl_first, nr, x->receiver);
		buf[at[r]++] = (struct dsend){
			.bytes = x->bytes, .id = (uint32_t)(m->off[K_SENDS] + i), .sender = x->sender,
			.receiver = x->receiver, .comm = x->comm, .tag = x->tag,
		};
	}
	*in = NULL;
	*n_in = 0;
	rc = dcomm_send_packed(m->c, rc, buf, count, sent, sizeof *buf, (void **)in, n_in);
	free(buf);
	free(count);
	free(at);
	return rc;
}

struct pairing {
	struct hmap of;            /* channel -> index in ch */
	struct channel *ch;
	size_t n_ch, cap_ch;
	uint32_t *next_send, *next_recv;
	struct lone_recv *lone;
	size_t n_lone, cap_lone;
};

/* The received sends and the rank's receives threaded onto their
 * channels; receives of a channel without sends are lone at once. */
static int
thread_all(struct dm *m, const struct dsend *in, size_t n_in, struct pairing *p)
{
	const struct build *b = m->b;
	for (size_t s = 0; s < n_in; s++) {
		const struct dsend *x = &in[s];
		uint64_t ka = (uint64_t)x->sender << 32 | x->receiver, kb = (uint64_t)x->comm << 32 | x->tag;
		uint32_t *ci = hmap_get(&p->of, ka, kb), c;
		if (ci) {
			c = *ci;
		} else {
			if (VEC_GROW(p->ch, p->n_ch, p->cap_ch) || hmap_put(&p->of, ka, kb, (uint32_t)p->n_ch))
				return ERR_NOMEM;
			c = (uint32_t)p->n_ch++;
			p->ch[c] = (struct channel){ TRACE_NONE, TRACE_NONE, TRACE_NONE, TRACE_NONE, x->id };
		}
		channel_thread(&p->ch[c].send_head, &p->ch[c].send_tail, p->next_send, (uint32_t)s);
	}
	struct hmap first_of = { 0 };     /* channels without sends: first receive */
	int rc = 0;
	for (size_t r = 0; r < b->n_recvs && !rc; r++) {
		const struct recv_half *h = &b->recvs[r];
		uint32_t receiver = trace_oprec_of(m->t, h->op)->timeline;
		uint64_t ka = (uint64_t)h->sender << 32 | receiver, kb = (uint64_t)h->comm << 32 | h->tag;
		const uint32_t *ci = hmap_get(&p->of, ka, kb);
		if (ci) {
			struct channel *c = &p->ch[*ci];
			channel_thread(&c->recv_head, &c->recv_tail, p->next_recv, (uint32_t)r);
			continue;
		}
		uint32_t *f = hmap_get(&first_of, ka, kb), first = f ? *f : (uint32_t)r;
		if ((!f && hmap_put(&first_of, ka, kb, first)) || VEC_GROW(p->lone, p->n_lone, p->cap_lone)) {
			rc = ERR_NOMEM;
			break;
		}
		p->lone[p->n_lone++] = (struct lone_recv){ m->all[K_SENDS] + m->off[K_RECVS] + first,
							  m->off[K_RECVS] + r };
	}
	hmap_fini(&first_of);
	return rc;
}

/* Pairs each channel FIFO: a reply for every send received, the
 * receives' messages, the receives left over lone. */
static int
pair_all(struct dm *m, const struct dsend *in, struct pairing *p, struct dreply *rep)
{
	struct trace *t = m->t;
	const struct build *b = m->b;
	uint32_t op_off = (uint32_t)(2 * m->off[K_OPS]);
	for (size_t k = 0; k < p->n_ch; k++) {
		const struct channel *c = &p->ch[k];
		uint32_t s = c->send_head, r = c->recv_head;
		for (; s != TRACE_NONE && r != TRACE_NONE; s = p->next_send[s], r = p->next_recv[r]) {
			const struct recv_half *h = &b->recvs[r];
			rep[s] = (struct dreply){ .t_recv = h->time, .id = in[s].id, .recv_op = h->op + op_off };
			if (h->bytes != in[s].bytes) {
				rep[s].flags = MSGF_SIZE_MISMATCH;
				t->info.warnings[WARN_SIZE_MISMATCH]++;
			}
			m->recv_msg[r] = in[s].id;
		}
		for (; s != TRACE_NONE; s = p->next_send[s]) {
			rep[s] = (struct dreply){ .id = in[s].id, .recv_op = TRACE_NONE };
			t->info.warnings[WARN_UNMATCHED_SEND]++;
		}
		for (; r != TRACE_NONE; r = p->next_recv[r]) {
			if (VEC_GROW(p->lone, p->n_lone, p->cap_lone))
				return ERR_NOMEM;
			p->lone[p->n_lone++] = (struct lone_recv){ c->first, m->off[K_RECVS] + r };
		}
	}
	return 0;
}

/* The replies, back at the senders: receive ops and times, flags. */
static int
take_replies(struct dm *m, const struct dreply *back, size_t n_back)
{
	struct trace *t = m->t;
	for (size_t i = 0; i < n_back; i++) {
		const struct dreply *x = &back[i];
		if (x->id < m->off[K_SENDS] || x->id - m->off[K_SENDS] >= t->n_msgs)
			return ERR_USAGE;
		struct trace_msg *msg = &t->msgs[x->id - m->off[K_SENDS]];
		if (x->recv_op == TRACE_NONE) {
			trace_oprec_of(t, msg->send_op)->flags |= OPF_UNMATCHED;
			continue;
		}
		msg->recv_op = x->recv_op;
		msg->t_recv = x->t_recv;
		msg->flags |= x->flags;
	}
	return 0;
}

/* The lone receives of every rank in order; the rank's own become
 * messages after its sends, ids after all sends. */
static int
number_lone(struct dm *m, struct pairing *p)
{
	struct trace *t = m->t;
	const struct build *b = m->b;
	struct dmodel *d = m->d;
	size_t ns = t->n_msgs;
	int rc = vec_reserve((void **)&t->msgs, &t->cap_msgs, ns + p->n_lone, sizeof *t->msgs);
	if (!rc)
		rc = dm_alloc(&d->lone_id, p->n_lone, sizeof *d->lone_id);
	if ((rc = dcomm_agree(m->c, rc)))
		return rc;
	struct lone_recv *all;
	if ((rc = dcomm_allgatherv(m->c, p->lone, p->n_lone * sizeof *p->lone, (void **)&all,
				   m->rcount)))
		return rc;
	size_t n_all = 0;
	for (uint32_t r = 0; r < m->c->size; r++)
		n_all += m->rcount[r] / sizeof *all;
	if (n_all && m->all[K_SENDS] + n_all - 1 > TRACE_END_ID_MAX) {
		free(all);
		return ERR_LIMIT;     /* ends name messages in 30 bits */
	}
	qsort(all, n_all, sizeof *all, lone_recv_cmp);
	uint32_t op_off = (uint32_t)(2 * m->off[K_OPS]), k = 0;
	for (size_t i = 0; i < n_all; i++) {
		if (all[i].recv < m->off[K_RECVS] || all[i].recv - m->off[K_RECVS] >= b->n_recvs)
			continue;
		uint32_t r = (uint32_t)(all[i].recv - m->off[K_RECVS]), id = (uint32_t)(m->all[K_SENDS] + i);
		const struct recv_half *h = &b->recvs[r];
		struct trace_oprec *o = trace_oprec_of(t, h->op);
		o->flags |= OPF_UNMATCHED;
		t->info.warnings[WARN_UNMATCHED_RECV]++;
		m->recv_msg[r] = id;
		d->lone_id[k++] = id;
		t->msgs[ns + k - 1] = (struct trace_msg){
			.t_send = 0, .t_recv = h->time, .bytes = h->bytes, .send_op = TRACE_NONE,
			.recv_op = h->op + op_off, .send_done_op = TRACE_NONE, .sender = h->sender,
			.receiver = o->timeline, .comm = h->comm, .tag = h->tag,
		};
	}
	free(all);
	d->n_lone = k;
	d->lone_all = (uint32_t)n_all;
	t->n_msgs = ns + k;
	return 0;
}

static void
pairing_fini(struct pairing *p)
{
	hmap_fini(&p->of);
	free(p->ch);
	free(p->next_send);
	free(p->next_recv);
	free(p->lone);
}

static int
match_messages(struct dm *m)
{
	struct dsend *in = NULL;
	struct dreply *rep = NULL, *back = NULL;
	struct pairing p = { 0 };
	size_t n_in;
	uint32_t nr = m->c->size;
	uint64_t *sent = calloc(nr, sizeof *sent), *rsent = calloc(nr, sizeof *rsent);
	int rc = dcomm_agree(m->c, sent && rsent ? 0 : ERR_NOMEM);
	if (!rc)
		rc = ship_sends(m, &in, &n_in, sent);
	if (rc)
		goto out;
	if (!(rc = dm_alloc(&p.next_send, n_in, sizeof *p.next_send)) &&
	    !(rc = dm_alloc(&p.next_recv, m->b->n_recvs, sizeof *p.next_recv)) &&
	    !(rc = dm_alloc(&rep, n_in, sizeof *rep)) && !(rc = thread_all(m, in, n_in, &p)))
		rc = pair_all(m, in, &p, rep);
	free(in);
	in = NULL;
	/* the replies go back the way the sends came: they stand in the
	 * order the sends arrived, by sender rank */
	for (uint32_t r = 0; r < nr; r++)
		sent[r] = sent[r] / sizeof(struct dsend) * sizeof *rep;
	size_t n_back = 0;
	if ((rc = dcomm_send_packed(m->c, rc, rep, sent, rsent, sizeof *rep, (void **)&back,
				    &n_back)))
		goto out;
	free(rep);
	rep = NULL;
	if ((rc = dcomm_agree(m->c, n_back == m->t->n_msgs ? take_replies(m, back, n_back) : ERR_USAGE)))
		goto out;
	rc = number_lone(m, &p);
out:
	free(in);
	free(rep);
	free(back);
	free(sent);
	free(rsent);
	pairing_fini(&p);
	return rc;
}

/* ---- 4. information ---- */

static int
summed(int w)
{
	return w != WARN_NO_MPI_RANKS && w != WARN_NO_LOCAL_DEFS && w != WARN_EVENT_COUNT_MISMATCH &&
	       w != WARN_DUP_DEF &&       /* every rank reads the definitions */
	       w != WARN_INCOMPLETE_COLL;
}

/* The trace's information over all ranks (the locations' events are
 * summed to count it, each keeping the rank's own: dmodel.h), the
 * timelines' starts and events every rank's. */
static int
share_info(struct dm *m)
{
	struct trace *t = m->t;
	struct trace_info *info = &t->info;
	enum { V_REC = 0, V_WARN = REC_OTHER, V_CALLS = V_WARN + WARN_COUNT, V_N };
	uint64_t v[V_N], span[2] = { info->t_begin, UINT64_MAX - info->t_end };
	memcpy(v + V_REC, info->records, REC_OTHER * sizeof *v);
	for (int w = 0; w < WARN_COUNT; w++)
		v[V_WARN + w] = summed(w) ? info->warnings[w] : 0;
	v[V_CALLS] = info->mpi_calls_without_records;
	int rc = dcomm_reduce(m->c, v, V_N, DCOMM_SUM);
	if (!rc)
		rc = dcomm_reduce(m->c, span, 2, DCOMM_MIN);
	if (rc)
		return rc;
	memcpy(info->records, v + V_REC, REC_OTHER * sizeof *v);
	for (int w = 0; w < WARN_COUNT; w++)
		if (summed(w))
			info->warnings[w] = v[V_WARN + w];
	info->mpi_calls_without_records = v[V_CALLS];
	info->t_begin = span[0] == UINT64_MAX ? 0 : span[0];
	info->t_end = UINT64_MAX - span[1];

	/* each location's events are the one rank's that read it */
	uint64_t *ev, *tl = NULL;
	size_t n_tl = m->d->tl_hi - m->d->tl_lo;
	rc = dm_alloc(&ev, t->n_locations, sizeof *ev);
	if (!rc && (rc = dm_alloc(&tl, 2 * n_tl, sizeof *tl)))
		free(ev);
	if ((rc = dcomm_agree(m->c, rc)))
		return rc;
	for (size_t i = 0; i < t->n_locations; i++)
		ev[i] = t->locations[i].events;
	for (size_t i = 0; i < n_tl; i++) {
		tl[2 * i] = t->timelines[m->d->tl_lo + i].t_start;
		tl[2 * i + 1] = t->timelines[m->d->tl_lo + i].events;
	}
	uint64_t *all = NULL;
	rc = dcomm_reduce(m->c, ev, t->n_locations, DCOMM_SUM);
	if (!rc)
		rc = dcomm_allgatherv(m->c, tl, 2 * n_tl * sizeof *tl, (void **)&all, m->rcount);
	if (!rc) {
		info->events = 0;
		info->warnings[WARN_EVENT_COUNT_MISMATCH] = 0;
		for (size_t i = 0; i < t->n_locations; i++) {
			info->events += ev[i];
			info->warnings[WARN_EVENT_COUNT_MISMATCH] += ev[i] != t->locations[i].events_declared;
		}
		uint64_t known = 0;
		for (int j = 0; j < REC_OTHER; j++)
			known += info->records[j];
		info->records[REC_OTHER] = info->events - known;
		for (size_t i = 0; i < t->n_timelines; i++) {
			t->timelines[i].t_start = all[2 * i];
			t->timelines[i].events = all[2 * i + 1];
		}
	}
	free(all);
	free(ev);
	free(tl);
	return rc;
}

/* ---- the whole ---- */

/* Ends name global messages and collectives; messages name global ops. */
static void
renumber(struct dm *m)
{
	struct trace *t = m->t;
	uint32_t op_off = (uint32_t)(2 * m->off[K_OPS]), send_off = (uint32_t)m->off[K_SENDS];
	for (size_t k = 0; k < t->n_ends; k++) {
		struct trace_end *e = &t->ends[k];
		e->id = e->role == END_RECV ? m->recv_msg[e->id]
			: e->role == END_COLL ? m->coll_of[e->id] : e->id + send_off;
	}
	for (size_t i = 0; i < m->d->sends.n; i++) {
		struct trace_msg *x = &t->msgs[i];
		x->send_op += op_off;
		if (x->send_done_op != TRACE_NONE)
			x->send_done_op += op_off;
	}
}

static int
cancelled(trace_progress_fn progress, void *ud, const char *stage, uint64_t total)
{
	return progress && progress(ud, stage, 0, total) ? ERR_CANCELLED : 0;
}

int
dmodel_finish(struct dcomm *c, struct trace *t, struct build *b, uint32_t tl_lo, uint32_t tl_hi,
	      struct dmodel *out, trace_progress_fn progress, void *ud)
{
	memset(out, 0, sizeof *out);
	struct dm m = { .c = c, .t = t, .b = b, .d = out };
	*out = (struct dmodel){ .rank = c->rank, .size = c->size, .tl_lo = tl_lo, .tl_hi = tl_hi };
	int rc = 0;
	if (!(rc = dm_alloc(&m.tl_first, c->size + 1, sizeof *m.tl_first)) &&
	    !(rc = dm_alloc(&m.rcount, c->size, sizeof *m.rcount)) &&
	    !(rc = dm_alloc(&m.recv_msg, b->n_recvs, sizeof *m.recv_msg)) &&
	    !(rc = dm_alloc(&m.coll_of, b->n_colls, sizeof *m.coll_of)))
		rc = t->ops_implied ? in_timeline_order(t, tl_lo, tl_hi) : ERR_USAGE;
	if ((rc = dcomm_agree(c, rc)) || (rc = share_counts(&m, tl_lo, tl_hi)) ||
	    (rc = dcomm_agree(c, unbegun_timelines(&m))))
		goto out;
	out->oprec = (struct dslice){ (uint32_t)m.off[K_OPS], (uint32_t)t->n_oprec, (uint32_t)m.all[K_OPS] };
	out->ends = (struct dslice){ (uint32_t)m.off[K_ENDS], (uint32_t)t->n_ends, (uint32_t)m.all[K_ENDS] };
	out->frames = (struct dslice){ (uint32_t)m.off[K_FRAMES], (uint32_t)t->n_frames,
				       (uint32_t)m.all[K_FRAMES] };
	out->calls = (struct dslice){ (uint32_t)m.off[K_CALLS], (uint32_t)t->n_calls,
				      (uint32_t)m.all[K_CALLS] };
	out->sends = (struct dslice){ (uint32_t)m.off[K_SENDS], (uint32_t)t->n_msgs,
				      (uint32_t)m.all[K_SENDS] };
	/* the share's RMA operations and epochs name its ops by local id
	 * already (its builder counted from 0) */
	out->rmas = (struct dslice){ (uint32_t)m.off[K_RMAS], (uint32_t)t->n_rmas,
				     (uint32_t)m.all[K_RMAS] };
	out->epochs = (struct dslice){ (uint32_t)m.off[K_EPOCHS], (uint32_t)t->n_epochs,
				       (uint32_t)m.all[K_EPOCHS] };
	if ((rc = dcomm_agree(c, cancelled(progress, ud, "matching", t->n_msgs + b->n_recvs))) ||
	    (rc = match_messages(&m)))
		goto out;
	free(b->recvs);
	b->recvs = NULL;
	b->n_recvs = b->cap_recvs = 0;
	if ((rc = dcomm_agree(c, cancelled(progress, ud, "collectives", b->n_colls))) ||
	    (rc = dmatch_collectives(&m)) || (rc = share_info(&m)))
		goto out;
	renumber(&m);
	out->t = t;
	t = NULL;
out:
	free(m.tl_first);
	free(m.rcount);
	free(m.recv_msg);
	free(m.coll_of);
	build_destroy(b);
	if (rc) {
		trace_destroy(t);
		dmodel_free(out);
	}
	return rc;
}

/* match.c — build_finish(): pairing message ends and collective members.
 *
 * Messages obey MPI's non-overtaking rule: between one sender and one
 * receiver on one communicator with one tag, the n-th receive matches the
 * n-th send. Sends are threaded onto per-channel FIFO lists (one hash
 * entry per channel, O(1) per message), and each receive takes the next
 * send of its channel.
 * Collectives: the k-th collective a rank calls on a communicator is the
 * k-th invocation on it (self communicators give one-member invocations).
 */
#include "build_impl.h"

#include "base/sat.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

struct channel {
	uint32_t send_head, send_tail;   /* its sends in order, threaded by next_send */
	uint32_t cursor;                 /* the first send no receive took yet */
};

/* The channel of (sender, receiver, comm, tag), made (with no sends) if
 * there is none yet: channels are numbered in order of first sight. */
static int
channel_of(struct hmap *chan_of, struct channel **chans, size_t *n, size_t *cap,
	   uint32_t s, uint32_t r, uint32_t c, uint32_t g, uint32_t *ch)
{
	uint64_t ka = (uint64_t)s << 32 | r, kb = (uint64_t)c << 32 | g;
	uint32_t *ci = hmap_get(chan_of, ka, kb);
	if (ci) {
		*ch = *ci;
		return 0;
	}
	if (VEC_GROW(*chans, *n, *cap) || hmap_put(chan_of, ka, kb, (uint32_t)*n))
		return ERR_NOMEM;
	*ch = (uint32_t)(*n)++;
	(*chans)[*ch] = (struct channel){ TRACE_NONE, TRACE_NONE, TRACE_NONE };
	return 0;
}

/* A receive that found no send, in its channel. */
struct lone_recv {
	uint32_t ch, recv;
};

static int
cmp_lone(const void *pa, const void *pb)
{
	const struct lone_recv *a = pa, *b = pb;
	if (a->ch != b->ch)
		return a->ch < b->ch ? -1 : 1;
	return (a->recv > b->recv) - (a->recv < b->recv);
}

/* Sends are threaded onto their channels' lists; each receive, in order,
 * takes the first send of its channel that no receive took yet. Receives
 * left without a send become messages of their own, after the others,
 * channel by channel in the order channels were first seen. */
static int
match_messages(struct build *b, uint32_t *recv_msg)
{
	struct trace *t = b->t;
	size_t n_sends = t->n_msgs, n_recvs = b->n_recvs;
	struct hmap chan_of = { 0 };
	struct channel *chans = NULL;
	size_t n_chans = 0, cap_chans = 0;
	struct lone_recv *lone = NULL;
	size_t n_lone = 0, cap_lone = 0;
	uint32_t *next_send = malloc((n_sends + 1) * sizeof *next_send);
	uint32_t ch;
	int rc = ERR_NOMEM;
	if (!next_send)
		goto out;

	for (size_t i = 0; i < n_sends; i++) {
		const struct trace_msg *m = &t->msgs[i];
		if (channel_of(&chan_of, &chans, &n_chans, &cap_chans, m->sender, m->receiver, m->comm,
			       m->tag, &ch))
			goto out;
		struct channel *c = &chans[ch];
		next_send[i] = TRACE_NONE;
		if (c->send_tail == TRACE_NONE)
			c->send_head = c->cursor = (uint32_t)i;
		else
			next_send[c->send_tail] = (uint32_t)i;
		c->send_tail = (uint32_t)i;
	}

	for (size_t r = 0; r < n_recvs; r++) {
		const struct recv_half *h = &b->recvs[r];
		if (channel_of(&chan_of, &chans, &n_chans, &cap_chans, h->sender, h->receiver, h->comm,
			       h->tag, &ch))
			goto out;
		uint32_t s = chans[ch].cursor;
		if (s == TRACE_NONE) {
			if (VEC_GROW(lone, n_lone, cap_lone))
				goto out;
			lone[n_lone++] = (struct lone_recv){ ch, (uint32_t)r };
			continue;
		}
		chans[ch].cursor = next_send[s];
		struct trace_msg *m = &t->msgs[s];
		m->recv_op = h->op;
		m->t_recv = h->time;
		if (h->bytes != m->bytes) {
			m->flags |= MSGF_SIZE_MISMATCH;
			t->info.warnings[WARN_SIZE_MISMATCH]++;
		}
		recv_msg[r] = s;
	}

	for (size_t c = 0; c < n_chans; c++)
		for (uint32_t s = chans[c].cursor; s != TRACE_NONE; s = next_send[s]) {
			t->info.warnings[WARN_UNMATCHED_SEND]++;
			trace_oprec_of(t, t->msgs[s].send_op)->flags |= OPF_UNMATCHED;
		}
	if (n_lone > 1)
		qsort(lone, n_lone, sizeof *lone, cmp_lone);
	for (size_t i = 0; i < n_lone; i++) {
		const struct recv_half *h = &b->recvs[lone[i].recv];
		t->info.warnings[WARN_UNMATCHED_RECV]++;
		trace_oprec_of(t, h->op)->flags |= OPF_UNMATCHED;
		uint32_t id;
		int err = VEC_NEW_ID(t->msgs, t->n_msgs, t->cap_msgs, &id);
		if (!err && id > TRACE_END_ID_MAX)
			err = ERR_LIMIT;     /* ends name messages in 30 bits */
		if (err) {
			rc = err;
			goto out;
		}
		recv_msg[lone[i].recv] = id;
		t->msgs[id] = (struct trace_msg){
			.t_send = 0, .t_recv = h->time, .bytes = h->bytes,
			.send_op = TRACE_NONE, .recv_op = h->op,
			.send_done_op = TRACE_NONE, .sender = h->sender,
			.receiver = h->receiver, .comm = h->comm, .tag = h->tag,
		};
	}
	rc = 0;
out:
	hmap_fini(&chan_of);
	free(chans);
	free(lone);
	free(next_send);
	return rc;
}

static int
group_collectives(struct build *b, uint32_t *coll_of)
{
	struct trace *t = b->t;
	size_t n = b->n_colls;
	struct hmap seen = { 0 };             /* (comm, timeline) -> calls so far */
	uint32_t *ninst = calloc(t->n_comms + 1, sizeof *ninst);
	uint32_t *count = NULL;
	int rc = ERR_NOMEM;
	if (!ninst)
		goto out;

	/* coll_of[h] = sequence number on its communicator, for now */
	uint32_t n_self = 0;
	for (size_t h = 0; h < n; h++) {
		const struct coll_half *c = &b->colls[h];
		if (t->comms[c->comm].is_self) {
			coll_of[h] = n_self++;
			continue;
		}
		uint32_t *k = hmap_get(&seen, c->comm, c->timeline), seq = 0;
		if (k)
			seq = (*k)++;
		else if (hmap_put(&seen, c->comm, c->timeline, 1))
			goto out;
		coll_of[h] = seq;
		if (seq + 1 > ninst[c->comm])
			ninst[c->comm] = seq + 1;
	}
	/* ninst becomes the first instance id of each communicator */
	size_t total = 0;
	for (size_t c = 0; c < t->n_comms; c++) {
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
		coll_of[h] += t->comms[c->comm].is_self ? (uint32_t)self_base : ninst[c->comm];
	}

	t->colls = calloc(total + 1, sizeof *t->colls);
	t->coll_members = malloc((n + 1) * sizeof *t->coll_members);
	count = calloc(total + 1, sizeof *count);
	if (!t->colls || !t->coll_members || !count)
		goto out;
	t->n_colls = t->cap_colls = total;
	t->n_coll_members = t->cap_coll_members = n;
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
		t->coll_members[count[coll_of[h]]++] = c->op;
		if (k->member_count++ == 0) {
			k->comm = c->comm;
			k->type = c->type;
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

int
build_finish(struct build *b, trace_progress_fn progress, void *ud)
{
	struct trace *t = b->t;
	uint32_t *recv_msg = malloc((b->n_recvs + 1) * sizeof *recv_msg);
	uint32_t *coll_of = malloc((b->n_colls + 1) * sizeof *coll_of);
	int rc = ERR_NOMEM;
	if (!recv_msg || !coll_of)
		goto out;
	if (progress && progress(ud, "matching", 0, t->n_msgs + b->n_recvs)) {
		rc = ERR_CANCELLED;
		goto out;
	}
	if ((rc = match_messages(b, recv_msg)))
		goto out;
	if (progress && progress(ud, "collectives", 0, b->n_colls)) {
		rc = ERR_CANCELLED;
		goto out;
	}
	if ((rc = group_collectives(b, coll_of)))
		goto out;
	for (size_t i = 0; i < t->n_ends; i++) {
		struct trace_end *e = &t->ends[i];
		if (e->role == END_RECV)
			e->id = recv_msg[e->id];
		else if (e->role == END_COLL)
			e->id = coll_of[e->id];
	}
	rc = 0;
out:
	free(recv_msg);
	free(coll_of);
	return rc;
}

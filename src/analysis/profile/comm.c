/* comm.c — who sends how much to whom (profile.h, doc/profile.md).
 *
 * Messages are counted once each, at their sender as the send recorded
 * them (the bytes of its send record); a receive whose send is missing
 * counts at its receive. Senders and receivers are world ranks: the
 * builder translated every communicator-local rank (model/build.c), so
 * sub-communicators need nothing more here. Pairs are counted by sorting
 * 64-bit (sender, receiver) keys, in O(m log m) for m messages in scope,
 * with no table of ranks x ranks.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

/* A message counted in scope: when it counts, and whether. One whose
 * sender or receiver the trace does not name (a Charm++ invocation from
 * outside any chare) has no cell of the matrix. */
static int
msg_in(const struct trace_msg *m, const struct profile_scope *s, uint32_t n_tl)
{
	if (m->sender >= n_tl || m->receiver >= n_tl)
		return 0;
	if (s->ranks && (!s->ranks[m->sender] || !s->ranks[m->receiver]))
		return 0;
	uint64_t t = m->send_op != TRACE_NONE ? m->t_send : m->t_recv;
	uint64_t a = s->from, b = s->to;
	if (s->tl_from) {
		uint32_t tl = m->send_op != TRACE_NONE ? m->sender : m->receiver;
		a = s->tl_from[tl];
		b = s->tl_to[tl];
	}
	return t >= a && t < b;
}

static unsigned
size_bin(uint64_t bytes)
{
	unsigned k = 0;
	while (bytes && k + 1 < COMM_SIZE_BINS) {
		bytes >>= 1;
		k++;
	}
	return k;
}

struct key_msg {
	uint64_t key;              /* sender << 32 | receiver */
	uint64_t bytes, transfer;
};

static int
key_cmp(const void *p, const void *q)
{
	const struct key_msg *x = p, *y = q;
	return x->key < y->key ? -1 : x->key > y->key;
}

int
comm_compute(const struct trace *t, const struct profile_scope *scope, struct comm *out,
	     struct err *e)
{
	memset(out, 0, sizeof *out);
	struct profile_scope all;
	if (!scope) {
		profile_scope_all(&all);
		scope = &all;
	}
	const struct trace_info *ti = trace_info(t);
	uint32_t nm, nc, nops, n_tl;
	trace_timelines(t, &n_tl);
	const struct trace_msg *msgs = trace_msgs(t, &nm);
	const struct trace_coll *colls = trace_colls(t, &nc);
	const uint32_t *members = trace_coll_members(t);
	struct trace_opv ops = trace_ops(t, &nops);
	out->from = scope->from > ti->t_begin ? scope->from : ti->t_begin;
	out->to = scope->to < ti->t_end ? scope->to : ti->t_end;
	if (out->to < out->from)
		out->to = out->from;
	uint64_t span = out->to - out->from;
	struct key_msg *k = malloc(((size_t)nm + 1) * sizeof *k);
	if (!k)
		return err_set(e, ERR_NOMEM, "comm: out of memory");
	size_t n = 0;
	for (uint32_t i = 0; i < nm; i++) {
		const struct trace_msg *m = &msgs[i];
		if (!msg_in(m, scope, n_tl))
			continue;
		int both = m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE;
		k[n++] = (struct key_msg){ (uint64_t)m->sender << 32 | m->receiver, m->bytes,
					   both && m->t_recv > m->t_send ? m->t_recv - m->t_send : 0 };
		out->messages++;
		out->bytes += m->bytes;
		out->size_bins[size_bin(m->bytes)]++;
		uint64_t at = m->send_op != TRACE_NONE ? m->t_send : m->t_recv;
		if (span && at >= out->from && at < out->to) {
			unsigned bin = (unsigned)((double)(at - out->from) / (double)span * COMM_TIME_BINS);
			bin = bin < COMM_TIME_BINS ? bin : COMM_TIME_BINS - 1;
			out->time_bytes[bin] += m->bytes;
			out->time_msgs[bin]++;
		}
	}
	qsort(k, n, sizeof *k, key_cmp);
	size_t pairs = 0;
	for (size_t i = 0; i < n; i++)
		pairs += i == 0 || k[i].key != k[i - 1].key;
	out->pairs = malloc((pairs + 1) * sizeof *out->pairs);
	if (!out->pairs) {
		free(k);
		return err_set(e, ERR_NOMEM, "comm: out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || k[i].key != k[i - 1].key)
			out->pairs[out->n_pairs++] = (struct comm_pair){ (uint32_t)(k[i].key >> 32),
									 (uint32_t)k[i].key, 0, 0, 0 };
		struct comm_pair *p = &out->pairs[out->n_pairs - 1];
		p->messages++;
		p->bytes += k[i].bytes;
		p->transfer += k[i].transfer;
	}
	free(k);
	for (uint32_t i = 0; i < out->n_pairs; i++) {
		if (out->pairs[i].messages > out->max_messages)
			out->max_messages = out->pairs[i].messages;
		if (out->pairs[i].bytes > out->max_bytes)
			out->max_bytes = out->pairs[i].bytes;
	}
	/* collectives: an invocation counts when one of its members in scope
	 * entered in the window; its time is its members' calls in scope */
	for (uint8_t ty = 0; ty < COLL_TYPE_COUNT; ty++)
		out->colls[ty].type = ty;
	for (uint32_t c = 0; c < nc; c++) {
		const struct trace_coll *x = &colls[c];
		int in = 0;
		uint64_t time = 0;
		for (uint32_t i = 0; i < x->member_count; i++) {
			struct trace_op o = trace_op_get(&ops, members[x->member_first + i]);
			if (scope->ranks && !scope->ranks[o.timeline])
				continue;
			uint64_t a = scope->tl_from ? scope->tl_from[o.timeline] : scope->from;
			uint64_t b = scope->tl_from ? scope->tl_to[o.timeline] : scope->to;
			if (o.t_enter < a || o.t_enter >= b)
				continue;
			in = 1;
			time += o.t_exit - o.t_enter;
		}
		if (!in)
			continue;
		struct comm_coll *y = &out->colls[x->type < COLL_TYPE_COUNT ? x->type : COLL_OTHER];
		y->count++;
		y->bytes += x->bytes_sent;
		y->time += time;
	}
	return 0;
}

void
comm_free(struct comm *c)
{
	if (!c)
		return;
	free(c->pairs);
	memset(c, 0, sizeof *c);
}

int
comm_block_msgs(const struct trace *t, const struct profile_scope *scope, uint32_t s0, uint32_t s1,
		uint32_t r0, uint32_t r1, uint32_t **ids, uint32_t *n)
{
	struct profile_scope all;
	if (!scope) {
		profile_scope_all(&all);
		scope = &all;
	}
	uint32_t nm, n_tl;
	const struct trace_msg *msgs = trace_msgs(t, &nm);
	trace_timelines(t, &n_tl);
	*n = 0;
	*ids = NULL;
	size_t cap = 0;
	for (uint32_t i = 0; i < nm; i++) {
		const struct trace_msg *m = &msgs[i];
		if (m->sender < s0 || m->sender >= s1 || m->receiver < r0 || m->receiver >= r1 ||
		    !msg_in(m, scope, n_tl))
			continue;
		if (*n >= cap) {
			cap = cap ? 2 * cap : 64;
			uint32_t *v = realloc(*ids, cap * sizeof *v);
			if (!v) {
				free(*ids);
				*ids = NULL;
				*n = 0;
				return ERR_NOMEM;
			}
			*ids = v;
		}
		(*ids)[(*n)++] = i;
	}
	return 0;
}

void
comm_blocks(const struct comm *c, uint32_t s0, uint32_t s_per, uint32_t r0, uint32_t r_per,
	    uint32_t rows, uint32_t cols, int by_bytes, uint64_t *cells)
{
	memset(cells, 0, (size_t)rows * cols * sizeof *cells);
	if (!s_per || !r_per)
		return;
	for (uint32_t i = 0; i < c->n_pairs; i++) {
		const struct comm_pair *p = &c->pairs[i];
		if (p->sender < s0 || p->receiver < r0)
			continue;
		uint64_t row = (p->sender - s0) / s_per, col = (p->receiver - r0) / r_per;
		if (row < rows && col < cols)
			cells[row * cols + col] += by_bytes ? p->bytes : p->messages;
	}
}

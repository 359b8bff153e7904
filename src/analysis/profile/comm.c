/* comm.c — who sends how much to whom (profile.h, doc/profile.md).
 *
 * Messages are counted once each, at their sender as the send recorded
 * them (the bytes of its send record); a receive whose send is missing
 * counts at its receive. Senders and receivers are world ranks: the
 * builder translated every communicator-local rank (model/build.c), so
 * sub-communicators need nothing more here. Pairs are counted in one
 * pass over the messages on every core, a sender's receivers in dense
 * arrays of the ranks (never a table of ranks x ranks), each pair kept
 * once per worker (a hash of the pairs it has), then the workers' pairs
 * sorted and merged: O(m + p log p) for m messages and p pairs. RMA
 * operations are counted apart, by origin and target (rma_compute).
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/par.h"

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

/* A worker's share of the messages [m0, m1): each run of one sender's
 * messages (an MPI trace's sends come by sender, trace.h) sums its
 * receivers in dense arrays, whose cells in use are added to the
 * worker's pairs when the sender changes. A Charm++ run's messages come
 * in creation order, the sender changing at almost every one, so a
 * sender's later runs find its pairs again through `seen` (at 10^7
 * records 1.2 million runs made 24,000 pairs, which were sorted as 1.2
 * million). The pairs of all workers are sorted and merged at the end,
 * so the result does not depend on the workers. */
struct cworker {
	uint32_t m0, m1;
	uint64_t *msgs, *bytes, *took;     /* per receiver, for the current sender */
	uint32_t *touched;
	size_t n_touched;
	struct comm_pair *pairs;
	size_t n_pairs, cap_pairs;
	struct hmap seen;                  /* (sender, receiver) -> its index in pairs */
	uint64_t messages, bytes_all;
	uint64_t size_bins[COMM_SIZE_BINS], time_bytes[COMM_TIME_BINS], time_msgs[COMM_TIME_BINS];
	int rc;
};

struct cjob {
	const struct trace_msg *msgs;
	const struct profile_scope *s;
	uint32_t n_tl;
	uint64_t from, to;
	struct cworker w[PAR_MAX];
};

static int
flush_sender(struct cworker *w, uint32_t sender)
{
	if (w->n_pairs + w->n_touched > w->cap_pairs) {
		size_t cap = w->cap_pairs ? 2 * w->cap_pairs : 256;
		while (cap < w->n_pairs + w->n_touched)
			cap *= 2;
		struct comm_pair *p = realloc(w->pairs, cap * sizeof *p);
		if (!p)
			return ERR_NOMEM;
		w->pairs = p;
		w->cap_pairs = cap;
	}
	for (size_t i = 0; i < w->n_touched; i++) {
		uint32_t r = w->touched[i];
		uint32_t *at = hmap_get(&w->seen, sender, r);
		if (at) {
			struct comm_pair *p = &w->pairs[*at];
			p->messages += w->msgs[r];
			p->bytes += w->bytes[r];
			p->transfer += w->took[r];
		} else {
			if (hmap_put(&w->seen, sender, r, (uint32_t)w->n_pairs))
				return ERR_NOMEM;
			w->pairs[w->n_pairs++] = (struct comm_pair){ sender, r, w->msgs[r], w->bytes[r], w->took[r] };
		}
		w->msgs[r] = w->bytes[r] = w->took[r] = 0;
	}
	w->n_touched = 0;
	return 0;
}

static int
cwork(void *ctx, uint32_t wi, uint32_t nw)
{
	struct cjob *j = ctx;
	struct cworker *w = &j->w[wi];
	(void)nw;
	w->msgs = calloc((size_t)j->n_tl + 1, sizeof *w->msgs);
	w->bytes = calloc((size_t)j->n_tl + 1, sizeof *w->bytes);
	w->took = calloc((size_t)j->n_tl + 1, sizeof *w->took);
	w->touched = malloc(((size_t)j->n_tl + 1) * sizeof *w->touched);
	if (!w->msgs || !w->bytes || !w->took || !w->touched)
		return w->rc = ERR_NOMEM;
	uint64_t span = j->to - j->from;
	uint32_t cur = TRACE_NONE;
	for (uint32_t i = w->m0; i < w->m1 && !w->rc; i++) {
		const struct trace_msg *m = &j->msgs[i];
		if (!msg_in(m, j->s, j->n_tl))
			continue;
		if (m->sender != cur) {
			if (cur != TRACE_NONE && (w->rc = flush_sender(w, cur)))
				break;
			cur = m->sender;
		}
		uint32_t r = m->receiver;
		if (!w->msgs[r])
			w->touched[w->n_touched++] = r;
		w->msgs[r]++;
		w->bytes[r] += m->bytes;
		if (m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE && m->t_recv > m->t_send)
			w->took[r] += m->t_recv - m->t_send;
		w->messages++;
		w->bytes_all += m->bytes;
		w->size_bins[size_bin(m->bytes)]++;
		uint64_t at = m->send_op != TRACE_NONE ? m->t_send : m->t_recv;
		if (span && at >= j->from && at < j->to) {
			unsigned bin = (unsigned)((double)(at - j->from) / (double)span * COMM_TIME_BINS);
			bin = bin < COMM_TIME_BINS ? bin : COMM_TIME_BINS - 1;
			w->time_bytes[bin] += m->bytes;
			w->time_msgs[bin]++;
		}
	}
	if (!w->rc && cur != TRACE_NONE)
		w->rc = flush_sender(w, cur);
	return w->rc;
}

static int
pair_cmp(const void *p, const void *q)
{
	const struct comm_pair *x = p, *y = q;
	if (x->sender != y->sender)
		return x->sender < y->sender ? -1 : 1;
	return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static int
rma_pair_cmp(const void *p, const void *q)
{
	const struct comm_rma_pair *x = p, *y = q;
	if (x->origin != y->origin)
		return x->origin < y->origin ? -1 : 1;
	return x->target < y->target ? -1 : x->target > y->target;
}

/* A copy of rank o's between host and device, to_device bytes one way
 * and to_host the other. 0 or ERR_NOMEM. */
static int
device_copy(struct comm *out, uint32_t n_tl, uint32_t o, uint64_t to_device, uint64_t to_host)
{
	if (!out->device) {
		if (!(out->device = calloc(n_tl ? n_tl : 1, sizeof *out->device)))
			return ERR_NOMEM;
		out->n_device = n_tl;
	}
	out->device_ops++;
	out->device_bytes += to_device + to_host;
	out->device[o].ops++;
	out->device[o].to_device += to_device;
	out->device[o].to_host += to_host;
	return 0;
}

/* The RMA operations in scope, by origin and target: one entry per
 * operation sorted and merged (they are few beside the messages). */
static int
rma_compute(const struct trace *t, const struct profile_scope *s, struct comm *out)
{
	uint32_t n, n_tl;
	const struct trace_rma *rmas = trace_rmas(t, &n);
	trace_timelines(t, &n_tl);
	if (!n)
		return 0;
	struct comm_rma_pair *v = malloc((size_t)n * sizeof *v);
	if (!v)
		return ERR_NOMEM;
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct trace_rma *r = &rmas[i];
		uint32_t o = r->origin;
		if (o >= n_tl || (s->ranks && !s->ranks[o]))
			continue;
		uint64_t a = s->tl_from ? s->tl_from[o] : s->from, b = s->tl_from ? s->tl_to[o] : s->to;
		if (r->t_issue < a || r->t_issue >= b)
			continue;
		if (r->target >= n_tl) {
			if (device_copy(out, n_tl, o, r->bytes_sent, r->bytes_recv)) {
				free(v);
				return ERR_NOMEM;
			}
			continue;
		}
		if (s->ranks && !s->ranks[r->target])
			continue;
		unsigned kind = r->kind < RMA_KIND_COUNT ? r->kind : RMA_ATOMIC;
		out->rma_ops[kind]++;
		out->rma_bytes_put += r->bytes_sent;
		out->rma_bytes_got += r->bytes_recv;
		v[k] = (struct comm_rma_pair){ .origin = o, .target = r->target,
					       .bytes_put = r->bytes_sent, .bytes_got = r->bytes_recv };
		v[k++].ops[kind] = 1;
	}
	qsort(v, k, sizeof *v, rma_pair_cmp);
	uint32_t m = 0;
	for (uint32_t i = 0; i < k; i++) {
		if (m && v[m - 1].origin == v[i].origin && v[m - 1].target == v[i].target) {
			for (int x = 0; x < RMA_KIND_COUNT; x++)
				v[m - 1].ops[x] += v[i].ops[x];
			v[m - 1].bytes_put += v[i].bytes_put;
			v[m - 1].bytes_got += v[i].bytes_got;
		} else {
			v[m++] = v[i];
		}
	}
	out->rma_pairs = v;
	out->n_rma_pairs = m;
	return 0;
}

/* A stream's copies (trace.h's lanes), as device copies of its rank's:
 * each issued in its rank's window counts, with its bytes (when the
 * scope counts lanes, as the profile does). */
static int
lane_copies(const struct trace *t, const struct profile_scope *s, struct comm *out)
{
	uint32_t n_lanes, n_tl, nf, nb, nr;
	const struct trace_lane *L = trace_lanes(t, &n_lanes);
	const struct trace_frame *fr = trace_lane_frames(t, &nf);
	const uint64_t *bytes = trace_lane_bytes(t, &nb);
	const struct trace_region *reg = trace_regions(t, &nr);
	trace_timelines(t, &n_tl);
	for (uint32_t i = 0; s->lanes && i < n_lanes; i++) {
		uint32_t o = L[i].timeline;
		if (L[i].kind != LANE_GPU || o >= n_tl || (s->ranks && !s->ranks[o]))
			continue;
		uint64_t a = s->tl_from ? s->tl_from[o] : s->from, b = s->tl_from ? s->tl_to[o] : s->to;
		for (uint32_t f = L[i].frame_first; f < L[i].frame_first + L[i].frame_count; f++) {
			if (fr[f].t_enter < a || fr[f].t_enter >= b || !trace_region_is_copy(t, fr[f].region))
				continue;
			uint64_t n = f < nb ? bytes[f] : 0;
			int in = !strcmp(trace_str(t, reg[fr[f].region].name), TRACE_COPY_TO_DEVICE);
			if (device_copy(out, n_tl, o, in ? n : 0, in ? 0 : n))
				return ERR_NOMEM;
		}
	}
	return 0;
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
	struct cjob *j = calloc(1, sizeof *j);
	if (!j)
		return err_set(e, ERR_NOMEM, "comm: out of memory");
	*j = (struct cjob){ .msgs = msgs, .s = scope, .n_tl = n_tl, .from = out->from, .to = out->to };
	uint32_t nw = par_workers();
	nw = nm < 65536 ? 1 : nw;
	for (uint32_t i = 0; i < nw; i++)
		par_share(nm, i, nw, &j->w[i].m0, &j->w[i].m1);
	int rc = par_run(nw, cwork, j);
	size_t n = 0;
	for (uint32_t i = 0; i < nw; i++)
		n += j->w[i].n_pairs;
	if (!rc && !(out->pairs = malloc((n + 1) * sizeof *out->pairs)))
		rc = ERR_NOMEM;
	for (uint32_t i = 0; i < nw && !rc; i++) {
		struct cworker *w = &j->w[i];
		if (w->n_pairs)
			memcpy(out->pairs + out->n_pairs, w->pairs, w->n_pairs * sizeof *w->pairs);
		out->n_pairs += (uint32_t)w->n_pairs;
		out->messages += w->messages;
		out->bytes += w->bytes_all;
		for (int k = 0; k < COMM_SIZE_BINS; k++)
			out->size_bins[k] += w->size_bins[k];
		for (int k = 0; k < COMM_TIME_BINS; k++) {
			out->time_bytes[k] += w->time_bytes[k];
			out->time_msgs[k] += w->time_msgs[k];
		}
	}
	for (uint32_t i = 0; i < PAR_MAX; i++) {
		free(j->w[i].msgs);
		free(j->w[i].bytes);
		free(j->w[i].took);
		free(j->w[i].touched);
		free(j->w[i].pairs);
		hmap_fini(&j->w[i].seen);
	}
	free(j);
	if (rc) {
		comm_free(out);
		return err_set(e, rc, "comm: %s", err_name(rc));
	}
	/* one pair from several workers (a sender cut between them)
	 * becomes one */
	qsort(out->pairs, out->n_pairs, sizeof *out->pairs, pair_cmp);
	uint32_t k = 0;
	for (uint32_t i = 0; i < out->n_pairs; i++) {
		if (k && out->pairs[k - 1].sender == out->pairs[i].sender &&
		    out->pairs[k - 1].receiver == out->pairs[i].receiver) {
			out->pairs[k - 1].messages += out->pairs[i].messages;
			out->pairs[k - 1].bytes += out->pairs[i].bytes;
			out->pairs[k - 1].transfer += out->pairs[i].transfer;
		} else {
			out->pairs[k++] = out->pairs[i];
		}
	}
	out->n_pairs = k;
	for (uint32_t i = 0; i < out->n_pairs; i++) {
		if (out->pairs[i].messages > out->max_messages)
			out->max_messages = out->pairs[i].messages;
		if (out->pairs[i].bytes > out->max_bytes)
			out->max_bytes = out->pairs[i].bytes;
	}
	/* collectives: as the profile counts calls, a member's call in scope
	 * counts when it overlaps the window (or takes no time and lies in
	 * it), with its time clipped to the window and the bytes it sent
	 * whole (a saved file from before the members' bytes: each an equal
	 * share of the invocation's); an invocation counts when one of its
	 * members does */
	uint32_t n_sent;
	const uint64_t *sent = trace_coll_sent(t, &n_sent);
	for (uint8_t ty = 0; ty < COLL_TYPE_COUNT; ty++)
		out->colls[ty].type = out->win_colls[ty].type = ty;
	for (uint32_t c = 0; c < nc; c++) {
		const struct trace_coll *x = &colls[c];
		int in = 0;
		uint64_t time = 0, bytes = 0;
		for (uint32_t i = 0; i < x->member_count; i++) {
			struct trace_op o = trace_op_get(&ops, members[x->member_first + i]);
			if (scope->ranks && !scope->ranks[o.timeline])
				continue;
			uint64_t a = scope->tl_from ? scope->tl_from[o.timeline] : scope->from;
			uint64_t b = scope->tl_from ? scope->tl_to[o.timeline] : scope->to;
			if (o.t_enter >= b || !(o.t_exit > a || (o.t_exit == o.t_enter && o.t_enter >= a)))
				continue;
			in = 1;
			time += (o.t_exit < b ? o.t_exit : b) - (o.t_enter > a ? o.t_enter : a);
			bytes += n_sent ? sent[x->member_first + i] : x->bytes_sent / x->member_count;
		}
		if (!in)
			continue;
		struct comm_coll *y = (x->flags & COLLF_RMA ? out->win_colls : out->colls) +
			(x->type < COLL_TYPE_COUNT ? x->type : COLL_OTHER);
		y->count++;
		y->bytes += bytes;
		y->time += time;
	}
	if (rma_compute(t, scope, out) || lane_copies(t, scope, out)) {
		comm_free(out);
		return err_set(e, ERR_NOMEM, "comm: out of memory");
	}
	return 0;
}

struct comm_device
comm_device_block(const struct comm *c, uint32_t r0, uint32_t per)
{
	struct comm_device d = { 0 };
	for (uint32_t r = r0; c->device && r < c->n_device && r - r0 < per; r++) {
		d.ops += c->device[r].ops;
		d.to_device += c->device[r].to_device;
		d.to_host += c->device[r].to_host;
	}
	return d;
}

void
comm_free(struct comm *c)
{
	if (!c)
		return;
	free(c->pairs);
	free(c->rma_pairs);
	free(c->device);
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

void
comm_rma_blocks(const struct comm *c, uint32_t s0, uint32_t s_per, uint32_t r0, uint32_t r_per,
		uint32_t rows, uint32_t cols, int by_bytes, uint64_t *cells)
{
	memset(cells, 0, (size_t)rows * cols * sizeof *cells);
	if (!s_per || !r_per)
		return;
	for (uint32_t i = 0; i < c->n_rma_pairs; i++) {
		const struct comm_rma_pair *p = &c->rma_pairs[i];
		if (p->origin < s0 || p->target < r0)
			continue;
		uint64_t row = (p->origin - s0) / s_per, col = (p->target - r0) / r_per;
		if (row < rows && col < cols)
			cells[row * cols + col] += by_bytes ? p->bytes_put + p->bytes_got
				: p->ops[RMA_PUT] + p->ops[RMA_GET] + p->ops[RMA_ATOMIC];
	}
}

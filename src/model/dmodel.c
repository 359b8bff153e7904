/* dmodel.c — a rank's shard of the model: cut from a whole model (the
 * tests' reference), compared, freed (dmodel.h). */
#include "dmodel.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dcomm.h"
#include "base/err.h"
#include "base/vec.h"
#include "trace_impl.h"

uint32_t
dmodel_rank_of(const uint32_t *tl_first, uint32_t size, uint32_t tl)
{
	uint32_t lo = 0, hi = size;   /* the last rank whose first is <= tl */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (tl_first[mid] <= tl)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void
dmodel_free(struct dmodel *d)
{
	if (!d)
		return;
	struct trace *t = d->t;
	if (t && d->shell) {
		free(t->timelines);
		free(t->locations);
		free(t->oprec);
		free(t->ends);
		free(t->msgs);
		free(t->colls);
		free(t->coll_members);
		free(t->coll_sent);
		free(t->frames);
		free(t->calls);
		free(t->rmas);
		free(t->epochs);
		free(t);
	} else {
		trace_destroy(t);
	}
	free(d->lone_id);
	free(d->coll_first);
	free(d->member_before);
	memset(d, 0, sizeof *d);
}

/* Copies n records of size `size` from src (NULL for none) into a new
 * array; 0 or ERR_NOMEM. */
static int
copy_of(void **dst, const void *src, size_t n, size_t size)
{
	*dst = malloc(n ? n * size : 1);
	if (!*dst)
		return ERR_NOMEM;
	if (n)
		memcpy(*dst, src, n * size);
	return 0;
}

static uint32_t
local_id(uint32_t id, uint32_t off)
{
	return id == TRACE_NONE ? TRACE_NONE : id - off;
}

/* The oprec, frame and quiet call runs of timelines [lo, hi) (an empty
 * run starts where the records before lo end): ERR_USAGE when the
 * timelines' records are not in id order. */
static int
runs_of(const struct trace *t, uint32_t lo, uint32_t hi, struct dslice *op, struct dslice *fr,
	struct dslice *ca)
{
	uint32_t ops = 0, frames = 0, calls = 0;
	*op = (struct dslice){ 0, 0, (uint32_t)t->n_oprec };
	*fr = (struct dslice){ 0, 0, (uint32_t)t->n_frames };
	*ca = (struct dslice){ 0, 0, (uint32_t)t->n_calls };
	for (uint32_t tl = 0; tl <= t->n_timelines; tl++) {
		if (tl == lo)
			op->off = ops, fr->off = frames, ca->off = calls;
		if (tl == hi)
			op->n = ops - op->off, fr->n = frames - fr->off, ca->n = calls - ca->off;
		if (tl == t->n_timelines)
			break;
		const struct trace_timeline *x = &t->timelines[tl];
		if ((x->op_count && x->op_first != 2 * ops) ||
		    (x->frame_count && x->frame_first != frames) ||
		    (x->call_count && x->call_first != calls))
			return ERR_USAGE;
		ops += x->op_count / 2;
		frames += x->frame_count;
		calls += x->call_count;
	}
	return 0;
}

int
dmodel_slice(const struct trace *full, uint32_t rank, uint32_t size, uint32_t tl_lo,
	     uint32_t tl_hi, struct dmodel *out)
{
	memset(out, 0, sizeof *out);
	if (!full->ops_implied || tl_lo > tl_hi || tl_hi > full->n_timelines)
		return ERR_USAGE;
	struct dmodel *d = out;
	d->rank = rank;
	d->size = size;
	d->tl_lo = tl_lo;
	d->tl_hi = tl_hi;
	int rc = runs_of(full, tl_lo, tl_hi, &d->oprec, &d->frames, &d->calls);
	if (rc)
		return rc;
	struct trace *t = malloc(sizeof *t);
	if (!t)
		return ERR_NOMEM;
	*t = *full;
	t->timelines = NULL, t->oprec = NULL, t->ends = NULL, t->msgs = NULL, t->locations = NULL;
	t->colls = NULL, t->coll_members = NULL, t->coll_sent = NULL, t->frames = NULL, t->calls = NULL;
	t->rmas = NULL, t->epochs = NULL;
	d->t = t;
	d->shell = 1;
	/* RMA operations and epochs: those of its timelines (in timeline order) */
	uint32_t ra, rb, ea, eb;
	trace_tl_rmas(full, tl_lo, &ra);
	trace_tl_rmas(full, tl_hi, &rb);
	trace_tl_epochs(full, tl_lo, &ea);
	trace_tl_epochs(full, tl_hi, &eb);
	d->rmas = (struct dslice){ ra, rb - ra, (uint32_t)full->n_rmas };
	d->epochs = (struct dslice){ ea, eb - ea, (uint32_t)full->n_epochs };

	/* ends: from the first call's first end to the next rank's */
	uint32_t o0 = d->oprec.off, o1 = o0 + d->oprec.n;
	uint32_t e0 = o0 < full->n_oprec ? full->oprec[o0].end_first : (uint32_t)full->n_ends;
	uint32_t e1 = o1 < full->n_oprec ? full->oprec[o1].end_first : (uint32_t)full->n_ends;
	d->ends = (struct dslice){ e0, e1 - e0, (uint32_t)full->n_ends };

	/* sends come first among the messages, in send op order */
	uint32_t op_lo = 2 * d->oprec.off, op_hi = op_lo + 2 * d->oprec.n;
	uint32_t n_sends = 0, s0 = 0, s1 = 0, lone = 0;
	for (uint32_t m = 0; m < full->n_msgs; m++) {
		const struct trace_msg *x = &full->msgs[m];
		if (x->send_op == TRACE_NONE) {
			lone += x->recv_op >= op_lo && x->recv_op < op_hi;
			continue;
		}
		n_sends = m + 1;
		if (x->send_op < op_lo)
			s0 = m + 1;
		if (x->send_op < op_hi)
			s1 = m + 1;
	}
	d->sends = (struct dslice){ s0, s1 - s0, n_sends };
	d->lone_all = (uint32_t)full->n_msgs - n_sends;
	d->n_lone = lone;

	size_t nc = full->n_colls;
	if ((rc = copy_of((void **)&t->timelines, full->timelines, full->n_timelines,
			  sizeof *t->timelines)) ||
	    (rc = copy_of((void **)&t->oprec, full->oprec + d->oprec.off, d->oprec.n,
			  sizeof *t->oprec)) ||
	    (rc = copy_of((void **)&t->ends, full->ends + e0, d->ends.n, sizeof *t->ends)) ||
	    (rc = copy_of((void **)&t->msgs, full->msgs + s0, d->sends.n + lone, sizeof *t->msgs)) ||
	    (rc = copy_of((void **)&t->frames, full->frames ? full->frames + d->frames.off : NULL, d->frames.n,
			  sizeof *t->frames)) ||
	    (rc = copy_of((void **)&t->calls, full->calls ? full->calls + d->calls.off : NULL, d->calls.n,
			  sizeof *t->calls)) ||
	    (rc = copy_of((void **)&t->rmas, full->rmas + ra, d->rmas.n, sizeof *t->rmas)) ||
	    (rc = copy_of((void **)&t->epochs, full->epochs + ea, d->epochs.n, sizeof *t->epochs)) ||
	    (rc = copy_of((void **)&t->colls, full->colls, nc, sizeof *t->colls)))
		goto fail;
	d->lone_id = malloc((lone + 1) * sizeof *d->lone_id);
	d->coll_first = calloc(nc + 1, sizeof *d->coll_first);
	d->member_before = calloc(nc + 1, sizeof *d->member_before);
	t->coll_members = malloc((full->n_coll_members + 1) * sizeof *t->coll_members);
	t->coll_sent = malloc((full->n_coll_members + 1) * sizeof *t->coll_sent);
	if (!d->lone_id || !d->coll_first || !d->member_before || !t->coll_members || !t->coll_sent) {
		rc = ERR_NOMEM;
		goto fail;
	}
	t->n_timelines = t->cap_timelines = full->n_timelines;
	t->n_oprec = t->cap_oprec = d->oprec.n;
	t->n_ends = t->cap_ends = d->ends.n;
	t->n_frames = t->cap_frames = d->frames.n;
	t->n_calls = t->cap_calls = d->calls.n;
	t->n_rmas = t->cap_rmas = d->rmas.n;
	t->n_epochs = t->cap_epochs = d->epochs.n;
	t->n_colls = t->cap_colls = nc;
	for (uint32_t i = 0; i < d->rmas.n; i++) {
		t->rmas[i].op = local_id(t->rmas[i].op, op_lo);
		t->rmas[i].done_op = local_id(t->rmas[i].done_op, op_lo);
	}
	for (uint32_t i = 0; i < d->epochs.n; i++) {
		t->epochs[i].op_begin = local_id(t->epochs[i].op_begin, op_lo);
		t->epochs[i].op_end = local_id(t->epochs[i].op_end, op_lo);
	}
	for (uint32_t tl = 0; tl < t->n_timelines; tl++) {
		struct trace_timeline *x = &t->timelines[tl];
		if (tl >= tl_lo && tl < tl_hi) {
			/* modulo 2^32, as every local id: a timeline never begun
			 * (0 in the whole model) comes back to 0 */
			x->op_first -= op_lo;
			x->frame_first -= d->frames.off;
			x->call_first -= d->calls.off;
		} else {
			x->op_first = x->op_count = x->frame_first = x->frame_count = 0;
			x->call_first = x->call_count = 0;
		}
	}
	/* the events of locations read elsewhere: the rank of their timeline,
	 * rank 0 for those without one */
	if ((rc = copy_of((void **)&t->locations, full->locations, full->n_locations,
			  sizeof *t->locations)))
		goto fail;
	for (size_t i = 0; i < t->n_locations; i++) {
		uint32_t tl = t->locations[i].timeline;
		int mine = tl == TRACE_NONE ? rank == 0 : tl >= tl_lo && tl < tl_hi;
		if (!mine)
			t->locations[i].events = 0;
	}
	for (uint32_t i = 0; i < d->oprec.n; i++) {
		t->oprec[i].frame = local_id(t->oprec[i].frame, d->frames.off);
		t->oprec[i].end_first -= e0;
	}
	for (uint32_t i = 0; i < d->frames.n; i++)
		t->frames[i].parent = local_id(t->frames[i].parent, d->frames.off);
	/* the lone receives, after the sends */
	size_t k = d->sends.n;
	for (uint32_t m = n_sends; m < full->n_msgs; m++) {
		const struct trace_msg *x = &full->msgs[m];
		if (x->recv_op >= op_lo && x->recv_op < op_hi) {
			d->lone_id[k - d->sends.n] = m;
			t->msgs[k++] = *x;
		}
	}
	t->n_msgs = t->cap_msgs = k;
	/* the rank's own collective members, in the global list's order */
	size_t nm = 0;
	for (size_t c = 0; c < nc; c++) {
		const struct trace_coll *x = &full->colls[c];
		d->coll_first[c] = (uint32_t)nm;
		for (uint32_t j = 0; j < x->member_count; j++) {
			uint32_t op = full->coll_members[x->member_first + j];
			if (op >= op_lo && op < op_hi) {
				t->coll_sent[nm] = full->n_coll_sent ? full->coll_sent[x->member_first + j] : 0;
				t->coll_members[nm++] = op;
			}
			else if (op < op_lo)
				d->member_before[c]++;
		}
	}
	d->coll_first[nc] = (uint32_t)nm;
	t->n_coll_members = t->cap_coll_members = nm;
	t->n_coll_sent = t->cap_coll_sent = full->n_coll_sent ? nm : 0;
	return 0;
fail:
	dmodel_free(d);
	return rc;
}

/* ---- comparing ---- */

#define DIFF(...) (snprintf(why, n, __VA_ARGS__), 1)

static int
same_slice(const char *what, struct dslice a, struct dslice b, char *why, size_t n)
{
	if (a.off == b.off && a.n == b.n && a.all == b.all)
		return 1;
	snprintf(why, n, "%s: [%u, +%u) of %u against [%u, +%u) of %u", what, a.off, a.n, a.all,
		 b.off, b.n, b.all);
	return 0;
}

static int
msgs_differ(const struct trace_msg *x, const struct trace_msg *y)
{
	return x->t_send != y->t_send || x->t_recv != y->t_recv || x->bytes != y->bytes ||
	       x->send_op != y->send_op || x->recv_op != y->recv_op ||
	       x->send_done_op != y->send_done_op || x->sender != y->sender ||
	       x->receiver != y->receiver || x->comm != y->comm || x->tag != y->tag ||
	       x->flags != y->flags;
}

static int
colls_differ(const struct trace_coll *x, const struct trace_coll *y)
{
	return x->comm != y->comm || x->root != y->root || x->member_first != y->member_first ||
	       x->member_count != y->member_count || x->expected != y->expected ||
	       x->type != y->type || x->flags != y->flags || x->bytes_sent != y->bytes_sent ||
	       x->bytes_recv != y->bytes_recv;
}

static int
timelines_differ(const struct trace_timeline *x, const struct trace_timeline *y)
{
	return x->location != y->location || x->name != y->name || x->node != y->node ||
	       x->op_first != y->op_first || x->op_count != y->op_count ||
	       x->frame_first != y->frame_first || x->frame_count != y->frame_count ||
	       x->t_start != y->t_start || x->call_first != y->call_first ||
	       x->call_count != y->call_count;
}

int
dmodel_compare(const struct dmodel *a, const struct dmodel *b, char *why, size_t n)
{
	const struct trace *s = a->t, *t = b->t;
	if (a->rank != b->rank || a->size != b->size || a->tl_lo != b->tl_lo || a->tl_hi != b->tl_hi)
		return DIFF("rank %u of %u, timelines [%u, %u) against rank %u of %u, [%u, %u)",
			    a->rank, a->size, a->tl_lo, a->tl_hi, b->rank, b->size, b->tl_lo, b->tl_hi);
	if (!same_slice("calls", a->oprec, b->oprec, why, n) ||
	    !same_slice("ends", a->ends, b->ends, why, n) ||
	    !same_slice("frames", a->frames, b->frames, why, n) ||
	    !same_slice("sends", a->sends, b->sends, why, n) ||
	    !same_slice("quiet calls", a->calls, b->calls, why, n) ||
	    !same_slice("RMA operations", a->rmas, b->rmas, why, n) ||
	    !same_slice("epochs", a->epochs, b->epochs, why, n))
		return 1;
	if (a->n_lone != b->n_lone || a->lone_all != b->lone_all)
		return DIFF("lone receives: %u of %u against %u of %u", a->n_lone, a->lone_all,
			    b->n_lone, b->lone_all);
	if (s->n_timelines != t->n_timelines || s->n_msgs != t->n_msgs ||
	    s->n_colls != t->n_colls || s->n_coll_members != t->n_coll_members)
		return DIFF("counts: %zu timelines, %zu messages, %zu collectives, %zu members "
			    "against %zu, %zu, %zu, %zu", s->n_timelines, s->n_msgs, s->n_colls,
			    s->n_coll_members, t->n_timelines, t->n_msgs, t->n_colls,
			    t->n_coll_members);
	for (size_t i = 0; i < s->n_timelines; i++)
		if (timelines_differ(&s->timelines[i], &t->timelines[i]))
			return DIFF("timeline %zu differs", i);
	for (uint32_t i = 0; i < a->oprec.n; i++)
		if (memcmp(&s->oprec[i], &t->oprec[i], sizeof *s->oprec))
			return DIFF("call %u (global %u) differs", i, a->oprec.off + i);
	for (uint32_t i = 0; i < a->ends.n; i++)
		if (s->ends[i].id != t->ends[i].id || s->ends[i].role != t->ends[i].role)
			return DIFF("end %u (global %u): id %u role %u against id %u role %u", i,
				    a->ends.off + i, s->ends[i].id, s->ends[i].role, t->ends[i].id,
				    t->ends[i].role);
	for (uint32_t i = 0; i < a->frames.n; i++)
		if (memcmp(&s->frames[i], &t->frames[i], sizeof *s->frames))
			return DIFF("frame %u (global %u) differs", i, a->frames.off + i);
	for (uint32_t i = 0; i < a->calls.n; i++)
		if (memcmp(&s->calls[i], &t->calls[i], sizeof *s->calls))
			return DIFF("quiet call %u (global %u) differs", i, a->calls.off + i);
	for (uint32_t i = 0; i < a->rmas.n; i++)
		if (memcmp(&s->rmas[i], &t->rmas[i], sizeof *s->rmas))
			return DIFF("RMA operation %u (global %u) differs", i, a->rmas.off + i);
	for (uint32_t i = 0; i < a->epochs.n; i++)
		if (memcmp(&s->epochs[i], &t->epochs[i], sizeof *s->epochs))
			return DIFF("epoch %u (global %u) differs", i, a->epochs.off + i);
	for (size_t i = 0; i < s->n_msgs; i++)
		if (msgs_differ(&s->msgs[i], &t->msgs[i]))
			return DIFF("message %zu of the rank's differs", i);
	for (uint32_t i = 0; i < a->n_lone; i++)
		if (a->lone_id[i] != b->lone_id[i])
			return DIFF("lone receive %u: message %u against %u", i, a->lone_id[i],
				    b->lone_id[i]);
	for (size_t i = 0; i < s->n_colls; i++)
		if (colls_differ(&s->colls[i], &t->colls[i]) ||
		    a->coll_first[i] != b->coll_first[i] || a->member_before[i] != b->member_before[i])
			return DIFF("collective %zu differs", i);
	for (size_t i = 0; i < s->n_coll_members; i++)
		if (s->coll_members[i] != t->coll_members[i])
			return DIFF("collective member %zu: op %u against %u", i, s->coll_members[i],
				    t->coll_members[i]);
	if (s->n_coll_sent != t->n_coll_sent)
		return DIFF("bytes of %zu collective members against %zu", s->n_coll_sent, t->n_coll_sent);
	for (size_t i = 0; i < s->n_coll_sent; i++)
		if (s->coll_sent[i] != t->coll_sent[i])
			return DIFF("collective member %zu: %" PRIu64 " bytes sent against %" PRIu64, i,
				    s->coll_sent[i], t->coll_sent[i]);
	const struct trace_info *x = &s->info, *y = &t->info;
	if (x->events != y->events || x->t_begin != y->t_begin || x->t_end != y->t_end ||
	    memcmp(x->records, y->records, sizeof x->records) ||
	    memcmp(x->warnings, y->warnings, sizeof x->warnings) ||
	    x->mpi_calls_without_records != y->mpi_calls_without_records)
		return DIFF("the trace's information (events, records, warnings or span) differs");
	return 0;
}

/* Every rank's *v (*n records of elem bytes) concatenated in rank order
 * into *v on every rank (rcount: scratch, c->size + 1). 0, ERR_LIMIT or
 * the communication's error. */
static int
gather_whole(struct dcomm *c, void **v, size_t *n, size_t *cap, size_t elem, uint64_t *rcount)
{
	void *all = NULL;
	int rc = dcomm_allgatherv(c, *v, *n * elem, &all, rcount);
	if (rc)
		return rc;
	uint64_t got = 0;
	for (uint32_t r = 0; r < c->size; r++)
		got += rcount[r] / elem;
	free(*v);
	*v = all;
	*n = *cap = (size_t)got;
	return got > VEC_MAX_ID ? ERR_LIMIT : 0;
}

int
trace_lanes_gather(struct dcomm *c, struct trace *t)
{
	uint64_t *rcount = calloc((size_t)c->size + 1, sizeof *rcount);
	void *recv = NULL;
	int rc = rcount ? 0 : ERR_NOMEM;
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = dcomm_allgatherv(c, t->lane_frames, t->n_lane_frames * sizeof *t->lane_frames, &recv,
				      rcount);
	if (rc) {
		free(rcount);
		free(recv);
		return rc;
	}
	struct trace_frame *f = recv;
	uint64_t n = 0, all = 0;
	for (uint32_t r = 0; r < c->size; r++)
		all += rcount[r] / sizeof *f;
	if (all > VEC_MAX_ID) {
		free(rcount);
		free(recv);
		return ERR_LIMIT;
	}
	for (uint32_t r = 0; r < c->size; r++) {
		uint64_t k = rcount[r] / sizeof *f;
		/* a rank's parents are indices into its own run */
		for (uint64_t i = n; i < n + k; i++)
			if (f[i].parent != TRACE_NONE)
				f[i].parent += (uint32_t)n;
		n += k;
	}
	for (size_t l = 0; l < t->n_lanes; l++)
		t->lanes[l].frame_first = t->lanes[l].frame_count = 0;
	for (uint64_t i = n; i-- > 0;) {
		struct trace_lane *L = &t->lanes[f[i].timeline];
		L->frame_first = (uint32_t)i;
		L->frame_count++;
	}
	free(t->lane_frames);
	t->lane_frames = f;
	t->n_lane_frames = t->cap_lane_frames = (size_t)n;
	/* the copies' bytes likewise, in the same order */
	void *bytes = NULL;
	rc = dcomm_allgatherv(c, t->lane_bytes, t->n_lane_bytes * sizeof *t->lane_bytes, &bytes, rcount);
	if (!rc) {
		uint64_t got = 0;
		for (uint32_t r = 0; r < c->size; r++)
			got += rcount[r] / sizeof *t->lane_bytes;
		free(t->lane_bytes);
		t->lane_bytes = bytes;
		/* every rank's or none: a frame without its bytes has none */
		t->n_lane_bytes = t->cap_lane_bytes = got == n ? (size_t)n : 0;
	}
	/* the locks' holds and the tags, in rank order: by location, as a
	 * serial read's */
	if (!rc)
		rc = gather_whole(c, (void **)&t->holds, &t->n_holds, &t->cap_holds, sizeof *t->holds, rcount);
	if (!rc)
		rc = gather_whole(c, (void **)&t->tags, &t->n_tags, &t->cap_tags, sizeof *t->tags, rcount);
	free(rcount);
	return rc;
}

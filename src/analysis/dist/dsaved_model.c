/* dsaved_model.c — the model's sections of a saved analysis written from
 * the ranks' shards (dsaved.h, model/dmodel.h): each rank its own runs
 * of calls, ends, messages, frames and collective members, with their
 * ids made global; the definitions and the collectives' records, the
 * same on every rank, by rank 0; the locations' event counts summed. */
#include "dsaved.h"

#include <stdlib.h>
#include <string.h>

#include "model/dmodel.h"
#include "analysis/saved/saved_impl.h"

static uint32_t
global_id(uint32_t id, uint32_t off)
{
	return id == TRACE_NONE ? TRACE_NONE : id + off;
}

/* A section held whole by every rank, written by rank 0. */
static int
put_whole(struct dsaved *w, const struct dcomm *c, uint32_t id, uint32_t elem, const void *data,
	  uint64_t n)
{
	struct drun r = { 0, n, data };
	return dsaved_put(w, id, elem, n, &r, c->rank == 0 && n ? 1 : 0);
}

static int
put_one(struct dsaved *w, uint32_t id, uint32_t elem, uint64_t all, uint64_t first,
	const void *data, uint64_t n)
{
	struct drun r = { first, n, data };
	return dsaved_put(w, id, elem, all, &r, n ? 1 : 0);
}

int
dsaved_put_model(struct dsaved *w, struct dcomm *c, const struct dmodel *d)
{
	const struct trace *t = d->t;
	uint32_t n_tl = (uint32_t)t->n_timelines, ntl = d->tl_hi - d->tl_lo;
	uint64_t n_loc = t->n_locations;
	size_t most = ntl * sizeof *t->timelines;
#define AT_LEAST(x) do { if ((x) > most) most = (x); } while (0)
	AT_LEAST(n_loc * sizeof *t->locations);
	AT_LEAST(d->oprec.n * sizeof *t->oprec);
	AT_LEAST(d->frames.n * sizeof *t->frames);
	AT_LEAST(n_loc * sizeof(uint64_t));
	AT_LEAST(d->rmas.n * sizeof *t->rmas);
	AT_LEAST(d->epochs.n * sizeof *t->epochs);
#undef AT_LEAST
	char *tmp = malloc(most + 1);
	uint32_t n_runs = d->n_lone;
	for (size_t i = 0; i < t->n_colls; i++)
		n_runs += d->coll_first[i + 1] > d->coll_first[i];
	struct drun *runs = malloc((n_runs + 1) * sizeof *runs);
	int rc = dcomm_agree(c, tmp && runs ? 0 : ERR_NOMEM);

	/* timelines: its own, first op and frame global */
	struct trace_timeline *tls = (struct trace_timeline *)tmp;
	for (uint32_t i = 0; i < ntl && !rc; i++) {
		tls[i] = t->timelines[d->tl_lo + i];
		tls[i].op_first += 2 * d->oprec.off;
		tls[i].frame_first += d->frames.off;
		tls[i].call_first += d->calls.off;
	}
	if (!rc)
		rc = put_one(w, S_TIMELINES, sizeof *tls, n_tl, d->tl_lo, tls, ntl);
	/* locations: the events read on every rank, summed */
	uint64_t *ev = (uint64_t *)tmp;
	for (uint64_t i = 0; i < n_loc && !rc; i++)
		ev[i] = t->locations[i].events;
	if (!rc)
		rc = dcomm_reduce(c, ev, n_loc, DCOMM_SUM);
	struct trace_location *locs = NULL;
	if (!rc && c->rank == 0)
		locs = malloc((n_loc + 1) * sizeof *locs);
	rc = rc ? rc : dcomm_agree(c, c->rank == 0 && !locs ? ERR_NOMEM : 0);
	for (uint64_t i = 0; locs && i < n_loc && !rc; i++) {
		locs[i] = t->locations[i];
		locs[i].events = ev[i];
	}
	if (!rc)
		rc = put_whole(w, c, S_LOCATIONS, sizeof *locs, locs, n_loc);
	free(locs);
	if (!rc)
		rc = put_whole(w, c, S_REGIONS, sizeof *t->regions, t->regions, t->n_regions);
	if (!rc)
		rc = put_whole(w, c, S_COMMS, sizeof *t->comms, t->comms, t->n_comms);
	if (!rc)
		rc = put_whole(w, c, S_COMM_MEMBERS, sizeof *t->comm_members, t->comm_members,
			       t->n_comm_members);
	if (!rc)
		rc = put_whole(w, c, S_NODES, sizeof *t->nodes, t->nodes, t->n_nodes);
	/* calls: frame and first end global */
	struct trace_oprec *ops = (struct trace_oprec *)tmp;
	for (uint32_t i = 0; i < d->oprec.n && !rc; i++) {
		ops[i] = t->oprec[i];
		ops[i].frame = global_id(ops[i].frame, d->frames.off);
		ops[i].end_first += d->ends.off;
	}
	if (!rc)
		rc = put_one(w, S_OPS, sizeof *ops, d->oprec.all, d->oprec.off, ops, d->oprec.n);
	if (!rc)
		rc = put_one(w, S_ENDS, sizeof *t->ends, d->ends.all, d->ends.off, t->ends, d->ends.n);
	/* messages: its sends in a run, each lone receive's at its id */
	uint32_t k = 0;
	if (!rc && d->sends.n)
		runs[k++] = (struct drun){ d->sends.off, d->sends.n, t->msgs };
	for (uint32_t i = 0; i < d->n_lone && !rc; i++)
		runs[k++] = (struct drun){ d->lone_id[i], 1, &t->msgs[d->sends.n + i] };
	if (!rc)
		rc = dsaved_put(w, S_MSGS, sizeof *t->msgs, (uint64_t)d->sends.all + d->lone_all, runs, k);
	if (!rc)
		rc = put_whole(w, c, S_COLLS, sizeof *t->colls, t->colls, t->n_colls);
	/* collective members: each collective's of this rank where they sit */
	uint64_t members = 0;
	k = 0;
	for (size_t i = 0; i < t->n_colls && !rc; i++) {
		members += t->colls[i].member_count;
		uint32_t n = d->coll_first[i + 1] - d->coll_first[i];
		if (n)
			runs[k++] = (struct drun){ (uint64_t)t->colls[i].member_first + d->member_before[i],
						   n, &t->coll_members[d->coll_first[i]] };
	}
	if (!rc)
		rc = dsaved_put(w, S_COLL_MEMBERS, sizeof *t->coll_members, members, runs, k);
	/* frames: parent global */
	struct trace_frame *fr = (struct trace_frame *)tmp;
	for (uint32_t i = 0; i < d->frames.n && !rc; i++) {
		fr[i] = t->frames[i];
		fr[i].parent = global_id(fr[i].parent, d->frames.off);
	}
	if (!rc)
		rc = put_one(w, S_FRAMES, sizeof *fr, d->frames.all, d->frames.off, fr, d->frames.n);

	/* Charm++'s sections, empty for an MPI trace */
	static const struct {
		uint32_t id, elem;
	} charm[] = { { S_PES, sizeof(struct trace_pe) }, { S_IDLES, sizeof(struct trace_idle) },
		      { S_CHARES, sizeof(struct trace_chare) },
		      { S_ENTRIES, sizeof(struct trace_entry) }, { S_OP_PE, sizeof(uint32_t) } };
	for (size_t i = 0; i < sizeof charm / sizeof *charm && !rc; i++)
		rc = dsaved_put(w, charm[i].id, charm[i].elem, 0, NULL, 0);
	/* quiet calls: as they are */
	if (!rc)
		rc = put_one(w, S_CALLS, sizeof *t->calls, d->calls.all, d->calls.off, t->calls,
			     d->calls.n);
	/* one-sided: windows (definitions), RMA operations and epochs with
	 * their op ids global */
	if (!rc)
		rc = put_whole(w, c, S_WINS, sizeof *t->wins, t->wins, t->n_wins);
	uint32_t op_off = 2 * d->oprec.off;
	struct trace_rma *rm = (struct trace_rma *)tmp;
	for (uint32_t i = 0; i < d->rmas.n && !rc; i++) {
		rm[i] = t->rmas[i];
		rm[i].op = global_id(rm[i].op, op_off);
		rm[i].done_op = global_id(rm[i].done_op, op_off);
	}
	if (!rc)
		rc = put_one(w, S_RMAS, sizeof *rm, d->rmas.all, d->rmas.off, rm, d->rmas.n);
	struct trace_epoch *ep = (struct trace_epoch *)tmp;
	for (uint32_t i = 0; i < d->epochs.n && !rc; i++) {
		ep[i] = t->epochs[i];
		ep[i].op_begin = global_id(ep[i].op_begin, op_off);
		ep[i].op_end = global_id(ep[i].op_end, op_off);
	}
	if (!rc)
		rc = put_one(w, S_EPOCHS, sizeof *ep, d->epochs.all, d->epochs.off, ep, d->epochs.n);
	/* lanes: whole on every rank (a distributed read gathers them,
	 * trace_lanes_gather), written by rank 0 */
	if (!rc && t->n_lanes)
		rc = put_whole(w, c, S_LANES, sizeof *t->lanes, t->lanes, t->n_lanes);
	if (!rc && t->n_lanes)
		rc = put_whole(w, c, S_LANE_FRAMES, sizeof *t->lane_frames, t->lane_frames,
			       t->n_lane_frames);
	if (!rc && t->n_lanes)
		rc = put_whole(w, c, S_LANE_BYTES, sizeof *t->lane_bytes, t->lane_bytes, t->n_lane_bytes);
	if (!rc && t->n_holds)
		rc = put_whole(w, c, S_HOLDS, sizeof *t->holds, t->holds, t->n_holds);
	if (!rc && t->n_tags)
		rc = put_whole(w, c, S_TAGS, sizeof *t->tags, t->tags, t->n_tags);
	/* the bytes each collective member sent: where its member sits */
	k = 0;
	for (size_t i = 0; i < t->n_colls && !rc; i++) {
		uint32_t n = d->coll_first[i + 1] - d->coll_first[i];
		if (n)
			runs[k++] = (struct drun){ (uint64_t)t->colls[i].member_first + d->member_before[i],
						   n, &t->coll_sent[d->coll_first[i]] };
	}
	if (!rc && members)
		rc = dsaved_put(w, S_COLL_SENT, sizeof *t->coll_sent, members, runs, k);
	free(tmp);
	free(runs);
	return rc;
}

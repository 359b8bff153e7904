/* verify.c — the invariants every analysis must satisfy, checked on the
 * result rather than assumed:
 *   - a message's send step is before its receive step (an exchange of two
 *     MPI_Sendrecv calls may share a step, as collective members do);
 *   - steps strictly increase along every timeline;
 *   - all members of a collective share one step (of a non-blocking
 *     one, the calls that completed it, need not: they meet nowhere);
 *   - a partition ends before any DAG successor begins;
 *   - both ends of a message, and all members of a collective, are in one
 *     partition;
 *   - (Charm++) the ops of one serial block keep their order;
 *   - (MPI, reordered) whatever came before a send, collective or wait in
 *     time still comes before it.
 */
#include "analysis_impl.h"

#include "base/par.h"

/* The messages, timelines, collectives and partitions are cut into
 * pieces the workers take in turn, each counting into its own struct;
 * the counts are summed. */
struct verifying {
	struct analysis *a;
	struct par_pieces pieces;
	struct analysis_verify v[PAR_MAX];
};

/* Are collective k's members at one step (but for a non-blocking one's,
 * the calls that completed it: no rendezvous, steps.c) and in one
 * partition? */
static void
check_collective(const struct analysis *a, const struct trace_coll *k, const uint32_t *members,
		 struct analysis_verify *v)
{
	if (k->member_count == 0)
		return;
	uint32_t first = op_lop_of(a, members[k->member_first]);
	for (uint32_t i = 1; i < k->member_count && !(k->flags & COLLF_NONBLOCKING); i++) {
		uint32_t l = op_lop_of(a, members[k->member_first + i]);
		if (a->lop_step[l] != a->lop_step[first]) {
			v->collective_split++;
			break;
		}
	}
	for (uint32_t i = 1; i < k->member_count; i++)
		if (a->lop_part[op_lop_of(a, members[k->member_first + i])] != a->lop_part[first]) {
			v->cross_partition++;
			break;
		}
}

static int
verify_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct verifying *g = ctx;
	const struct analysis *a = g->a;
	const struct trace *t = a->t;
	struct analysis_verify *v = &g->v[w];
	uint32_t n_msgs, n_colls, n_tl, from, to, c, np = g->pieces.n;
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	const struct trace_coll *colls = trace_colls(t, &n_colls);
	const uint32_t *members = trace_coll_members(t);
	trace_timelines(t, &n_tl);
	(void)nw;

	while (par_take(&g->pieces, w, &c)) {
		par_share(n_msgs, c, np, &from, &to);
		for (uint32_t m = from; m < to; m++) {
			if (!msg_ok(a, m))
				continue;
			uint32_t s = op_lop_of(a, msgs[m].send_op), r = op_lop_of(a, msgs[m].recv_op);
			v->messages_checked++;
			if (a->lop_part[s] != a->lop_part[r])
				v->cross_partition++;
			if (s == r)
				continue;         /* a Sendrecv to itself */
			int exchange = a->lop_kind[s] == OP_SENDRECV && a->lop_kind[r] == OP_SENDRECV;
			if (exchange ? a->lop_step[s] > a->lop_step[r] : a->lop_step[s] >= a->lop_step[r])
				v->message_order++;
		}
		par_share(n_tl, c, np, &from, &to);
		for (uint32_t tl = from; tl < to; tl++)
			for (uint32_t l = a->tl_lop[tl] + 1; l < a->tl_lop[tl + 1]; l++)
				if (a->lop_step[l - 1] >= a->lop_step[l])
					v->timeline_order++;
		par_share(n_colls, c, np, &from, &to);
		for (uint32_t k = from; k < to; k++)
			check_collective(a, &colls[k], members, v);
		par_share(a->n_parts, c, np, &from, &to);
		for (uint32_t p = from; p < to; p++)
			for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++) {
				const struct analysis_part *q = &a->parts[a->dag_succ[e]];
				if (a->parts[p].step_first + a->parts[p].step_count > q->step_first)
					v->partition_overlap++;
			}
		/* Charm++ reordering may put a chare's serial blocks out of
		 * time order, never the ops within one block */
		par_share(a->n_ops, c, np, &from, &to);
		for (uint32_t op = from > 0 ? from : 1; a->op_of_lop && op < to; op++)
			if ((trace_op_get(&a->ops, op).flags & OPF_BLOCK_CONT) &&
			    trace_op_get(&a->ops, op).timeline == trace_op_get(&a->ops, op - 1).timeline &&
			    a->lop_step[op_lop_of(a, op - 1)] >= a->lop_step[op_lop_of(a, op)])
				v->block_order++;
	}
	return 0;
}

void
verify_run(struct analysis *a)
{
	const struct trace *t = a->t;
	struct analysis_verify *v = &a->verify;
	struct verifying g = { .a = a };
	uint32_t nw = par_workers();
	par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
	par_run(nw, verify_worker, &g);
	for (uint32_t w = 0; w < nw; w++) {
		v->messages_checked += g.v[w].messages_checked;
		v->cross_partition += g.v[w].cross_partition;
		v->message_order += g.v[w].message_order;
		v->timeline_order += g.v[w].timeline_order;
		v->collective_split += g.v[w].collective_split;
		v->partition_overlap += g.v[w].partition_overlap;
		v->block_order += g.v[w].block_order;
	}
	/* MPI reordering moves receives only, and only ahead (reorder.c) */
	uint32_t before = 0, tl_now = TRACE_NONE;      /* largest step so far + 1 */
	int mpi_reordered = a->op_of_lop && trace_info(t)->paradigm != PARADIGM_CHARM;
	for (uint32_t op = 0; mpi_reordered && op < a->n_ops; op++) {
		const struct trace_op o = trace_op_get(&a->ops, op);
		if (o.timeline != tl_now) {
			tl_now = o.timeline;
			before = 0;
		}
		uint32_t l = op_lop_of(a, op);
		if (o.kind == OP_COMPUTE || lop_first_op(a, l) != op)
			continue;          /* computation, or not a lop's first op */
		if (o.kind != OP_RECV && before > a->lop_step[l])
			v->block_order++;
		if (a->lop_step[l] + 1 > before)
			before = a->lop_step[l] + 1;
	}
}

int
analysis_verified(const struct analysis *a)
{
	const struct analysis_verify *v = &a->verify;
	return !v->message_order && !v->timeline_order && !v->collective_split &&
	       !v->partition_overlap && !v->cross_partition && !v->block_order;
}

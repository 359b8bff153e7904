/* trace_check.c — a model that no reader built, checked against what
 * the readers' builders guarantee (trace.h, trace_check).
 *
 * A saved analysis (analysis/saved/) maps its model back from a file;
 * the opener checks that every index is in range, which is all its
 * reports and views need. Analysing that model again (other structure
 * options) runs every stage over it, and the stages follow the links
 * between ops, ends, messages and collectives as the builders make them
 * (build.c for MPI, projections/prj_build.c for Charm++): each end named
 * back by its message or collective, each op's kind what its ends say,
 * each timeline's calls in time order, frames nested on one timeline.
 * This checks those links, once, before such an analysis.
 */
#include "trace_impl.h"

#include <stdlib.h>

/* The kind an op's ends give it (build.c's emit_call, prj_build.c's
 * emit_exec): what an MPI call without sends, receives or a collective
 * is (a wait, or with no end at all a one-sided call), and a Charm++
 * execution without ends (a computation). */
static uint8_t
kind_of_ends(const struct trace *t, uint32_t s, uint32_t r, uint32_t c, uint32_t n)
{
	return c ? OP_COLLECTIVE : s && r ? OP_SENDRECV : s ? OP_SEND : r ? OP_RECV
		: !t->ops_implied ? OP_COMPUTE : n ? OP_WAIT : OP_RMA;
}

/* Each stored op: its ends name it back, its kind is theirs, and its
 * times run forward (on an MPI timeline, from one call to the next). */
static int
check_ops(const struct trace *t, struct err *e)
{
	const struct trace_msg *m = t->msgs;
	for (size_t k = 0; k < t->n_oprec; k++) {
		const struct trace_oprec *o = &t->oprec[k];
		uint32_t op = t->ops_implied ? (uint32_t)(2 * k + 1) : (uint32_t)k;
		uint32_t end = k + 1 < t->n_oprec ? t->oprec[k + 1].end_first : (uint32_t)t->n_ends;
		uint32_t s = 0, r = 0, c = 0, bad = 0;
		for (uint32_t i = o->end_first; i < end && !bad; i++) {
			const struct trace_end *x = &t->ends[i];
			switch (x->role) {
			case END_SEND: s++; bad = m[x->id].send_op != op; break;
			case END_RECV: r++; bad = m[x->id].recv_op != op; break;
			case END_ISEND_DONE: bad = m[x->id].send_done_op != op || !t->ops_implied; break;
			default: c++; bad = c > 1 || !t->ops_implied; break;
			}
		}
		if (bad || o->kind != kind_of_ends(t, s, r, c, end - o->end_first))
			return err_set(e, ERR_FORMAT, "op %u does not match its ends", op);
		if (o->t_exit < o->t_enter ||
		    (t->ops_implied && k > 0 && o->timeline == o[-1].timeline && o->t_enter < o[-1].t_exit))
			return err_set(e, ERR_FORMAT, "op %u runs backwards", op);
		if (o->frame != TRACE_NONE && t->frames[o->frame].timeline != o->timeline)
			return err_set(e, ERR_FORMAT, "op %u is in a frame of another timeline", op);
	}
	return 0;
}

/* Does op (an op id) have an end of role naming id? */
static int
has_end(const struct trace *t, uint32_t op, uint32_t role, uint32_t id)
{
	if (t->ops_implied && !(op & 1))
		return 0;            /* an implied computation op has no ends */
	uint32_t k = trace_oprec_index(t, op);
	uint32_t end = k + 1 < t->n_oprec ? t->oprec[k + 1].end_first : (uint32_t)t->n_ends;
	for (uint32_t i = t->oprec[k].end_first; i < end; i++)
		if (t->ends[i].role == role && t->ends[i].id == id)
			return 1;
	return 0;
}

/* Is op a stored call of timeline tl? */
static int
call_on(const struct trace *t, uint32_t op, uint32_t tl)
{
	if (op == TRACE_NONE || (t->ops_implied && !(op & 1)))
		return 0;
	uint32_t k = trace_oprec_index(t, op);
	return k < t->n_oprec && t->oprec[k].timeline == tl;
}

/* Each message's ends are ends of its ops, on its sender's and
 * receiver's timelines; each collective's members are ops that name it. */
static int
check_links(const struct trace *t, struct err *e)
{
	for (size_t i = 0; i < t->n_msgs; i++) {
		const struct trace_msg *m = &t->msgs[i];
		uint32_t id = (uint32_t)i;
		if ((m->send_op != TRACE_NONE &&
		     (!has_end(t, m->send_op, END_SEND, id) ||
		      t->oprec[trace_oprec_index(t, m->send_op)].timeline != m->sender)) ||
		    (m->recv_op != TRACE_NONE &&
		     (!has_end(t, m->recv_op, END_RECV, id) ||
		      t->oprec[trace_oprec_index(t, m->recv_op)].timeline != m->receiver)) ||
		    (m->send_done_op != TRACE_NONE && m->send_done_op != m->send_op &&
		     !has_end(t, m->send_done_op, END_ISEND_DONE, id)))
			return err_set(e, ERR_FORMAT, "message %zu does not match its ops", i);
	}
	for (size_t c = 0; c < t->n_colls; c++) {
		const struct trace_coll *x = &t->colls[c];
		for (uint32_t k = 0; k < x->member_count; k++)
			if (!has_end(t, t->coll_members[x->member_first + k], END_COLL, (uint32_t)c))
				return err_set(e, ERR_FORMAT, "collective %zu does not match its ops", c);
	}
	/* quiet calls: each timeline's in order of entry */
	for (size_t i = 0; i < t->n_timelines; i++) {
		const struct trace_timeline *tl = &t->timelines[i];
		for (uint64_t k = (uint64_t)tl->call_first + 1; k < (uint64_t)tl->call_first + tl->call_count; k++)
			if (t->calls[k].t_enter < t->calls[k - 1].t_enter)
				return err_set(e, ERR_FORMAT, "timeline %zu's calls run backwards", i);
	}
	/* RMA operations and epochs: by timeline, their calls on it */
	for (size_t i = 0; i < t->n_rmas; i++) {
		const struct trace_rma *x = &t->rmas[i];
		if ((i > 0 && x->origin < x[-1].origin) || !call_on(t, x->op, x->origin) ||
		    (x->done_op != TRACE_NONE && !call_on(t, x->done_op, x->origin)))
			return err_set(e, ERR_FORMAT, "RMA operation %zu does not match its calls", i);
	}
	for (size_t i = 0; i < t->n_epochs; i++) {
		const struct trace_epoch *x = &t->epochs[i];
		if ((i > 0 && x->timeline < x[-1].timeline) ||
		    (x->op_begin != TRACE_NONE && !call_on(t, x->op_begin, x->timeline)) ||
		    (x->op_end != TRACE_NONE && !call_on(t, x->op_end, x->timeline)))
			return err_set(e, ERR_FORMAT, "epoch %zu does not match its calls", i);
	}
	/* frames: a parent entered before on the same timeline, one deeper */
	for (size_t f = 0; f < t->n_frames; f++) {
		const struct trace_frame *x = &t->frames[f];
		const struct trace_frame *p = x->parent != TRACE_NONE ? &t->frames[x->parent] : NULL;
		if (p ? p->timeline != x->timeline || x->depth != p->depth + 1 : x->depth != 0)
			return err_set(e, ERR_FORMAT, "frame %zu is not nested in its parent", f);
	}
	return 0;
}

/* The timelines' ops, frames and calls one after another in timeline
 * (rank) order, as the builders lay them out: the stages read a rank's
 * ops as the range between its first and the next rank's (a model out of
 * that order made the steps stage read past the ends). */
static int
check_timelines(const struct trace *t, struct err *e)
{
	uint64_t op = 0, frame = 0, call = 0;
	for (size_t i = 0; i < t->n_timelines; i++) {
		const struct trace_timeline *tl = &t->timelines[i];
		if (tl->op_first != op || tl->frame_first != frame || tl->call_first != call)
			return i ? err_set(e, ERR_FORMAT, "timeline %zu's operations do not follow timeline "
					   "%zu's", i, i - 1)
				: err_set(e, ERR_FORMAT, "timeline 0's operations do not come first");
		op += tl->op_count;
		frame += tl->frame_count;
		call += tl->call_count;
	}
	return 0;
}

int
trace_check(const struct trace *t, struct err *e)
{
	int rc = check_timelines(t, e);
	if (!rc)
		rc = check_ops(t, e);
	return rc ? rc : check_links(t, e);
}

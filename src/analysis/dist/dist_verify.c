/* dist_verify.c — verify.c's invariants checked by every rank on its own
 * lops (dist_verify.h): a message by its receiver's rank, told the
 * sender lop's partition, step and kind; a collective by the least and
 * largest step and partition of its members, reduced; the partition DAG
 * on rank 0. The counts are summed. */
#include "dist_verify.h"

#include <stdlib.h>
#include <string.h>

#include "model/trace_impl.h"

/* A message's sender side, for its receiver's rank. */
struct vsend {
	uint32_t recv_op;        /* global */
	uint32_t lop, part, step, kind;
};

static int
messages(struct dcomm *c, const struct dver_in *in, struct analysis_verify *v)
{
	const struct dmodel *d = in->d;
	const struct analysis *a = in->la;
	const struct trace_msg *msgs = d->t->msgs;
	uint32_t n = c->size;
	struct vsend *s = malloc(((size_t)d->sends.n + 1) * sizeof *s);
	uint32_t *to = malloc(((size_t)d->sends.n + 1) * sizeof *to);
	uint32_t *tl_first = calloc(n + 1, sizeof *tl_first);
	int rc = dcomm_agree(c, s && to && tl_first ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_firsts(c, d->tl_lo, (uint32_t)d->t->n_timelines, tl_first);
	size_t k = 0;
	for (uint32_t i = 0; i < d->sends.n && !rc; i++) {
		const struct trace_msg *m = &msgs[i];
		if (m->recv_op == TRACE_NONE || (a->opts.match_size && (m->flags & MSGF_SIZE_MISMATCH)))
			continue;
		uint32_t l = op_lop_of(a, dmodel_op_local(d, m->send_op));
		s[k] = (struct vsend){ m->recv_op, in->lop_off + l, a->lop_part[l], a->lop_step[l],
				       a->lop_kind[l] };
		to[k++] = dmodel_rank_of(tl_first, n, m->receiver);
	}
	void *recv = NULL;
	size_t n_recv = 0;
	if (!rc)
		rc = dcomm_exchange(c, s, k, sizeof *s, to, &recv, &n_recv);
	const struct vsend *x = recv;
	for (size_t i = 0; i < n_recv && !rc; i++) {
		uint32_t op = dmodel_op_local(d, x[i].recv_op);
		if (op == TRACE_NONE) {
			rc = ERR_USAGE;
			break;
		}
		uint32_t r = op_lop_of(a, op);
		v->messages_checked++;
		if (x[i].part != a->lop_part[r])
			v->cross_partition++;
		if (x[i].lop == in->lop_off + r)
			continue;         /* a Sendrecv to itself */
		int exchange = x[i].kind == OP_SENDRECV && a->lop_kind[r] == OP_SENDRECV;
		if (exchange ? x[i].step > a->lop_step[r] : x[i].step >= a->lop_step[r])
			v->message_order++;
	}
	free(recv);
	free(s);
	free(to);
	free(tl_first);
	return dcomm_agree(c, rc);
}

/* Each collective's members' least and largest step and partition (the
 * serial check compares every member with the first: the same as
 * asking whether they all agree). */
static int
collectives(struct dcomm *c, const struct dver_in *in, struct analysis_verify *v)
{
	const struct dmodel *d = in->d;
	const struct analysis *a = in->la;
	size_t nc = d->t->n_colls;
	uint64_t *lo = malloc((2 * nc + 1) * sizeof *lo), *hi = malloc((2 * nc + 1) * sizeof *hi);
	int rc = dcomm_agree(c, lo && hi ? 0 : ERR_NOMEM);
	for (size_t i = 0; i < nc && !rc; i++) {
		lo[2 * i] = lo[2 * i + 1] = UINT64_MAX;
		hi[2 * i] = hi[2 * i + 1] = 0;
		for (uint32_t k = d->coll_first[i]; k < d->coll_first[i + 1]; k++) {
			uint32_t l = op_lop_of(a, dmodel_op_local(d, d->t->coll_members[k]));
			uint64_t st = a->lop_step[l], pt = a->lop_part[l];
			if (st < lo[2 * i])
				lo[2 * i] = st;
			if (st > hi[2 * i])
				hi[2 * i] = st;
			if (pt < lo[2 * i + 1])
				lo[2 * i + 1] = pt;
			if (pt > hi[2 * i + 1])
				hi[2 * i + 1] = pt;
		}
	}
	if (!rc)
		rc = dcomm_reduce(c, lo, 2 * nc, DCOMM_MIN);
	if (!rc)
		rc = dcomm_reduce(c, hi, 2 * nc, DCOMM_MAX);
	for (size_t i = 0; i < nc && !rc && c->rank == 0; i++) {
		if (d->t->colls[i].member_count == 0)
			continue;
		v->collective_split += lo[2 * i] != hi[2 * i] &&
			!(d->t->colls[i].flags & COLLF_NONBLOCKING);
		v->cross_partition += lo[2 * i + 1] != hi[2 * i + 1];
	}
	free(lo);
	free(hi);
	return rc;
}

int
dist_verify(struct dcomm *c, const struct dver_in *in, struct analysis_verify *out)
{
	const struct analysis *a = in->la;
	struct analysis_verify v = { 0 };
	int rc = messages(c, in, &v);
	if (!rc)
		rc = collectives(c, in, &v);
	uint32_t n_tl = (uint32_t)in->d->t->n_timelines;
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++)
		for (uint32_t l = a->tl_lop[tl] + 1; l < a->tl_lop[tl + 1]; l++)
			if (a->lop_step[l - 1] >= a->lop_step[l])
				v.timeline_order++;
	for (uint32_t p = 0; c->rank == 0 && p < in->n_parts && !rc; p++)
		for (uint32_t e = in->dag_first[p]; e < in->dag_first[p + 1]; e++) {
			uint32_t q = in->dag_succ[e];
			if (in->step_first[p] + in->step_count[p] > in->step_first[q])
				v.partition_overlap++;
		}
	uint64_t sum[6] = { v.messages_checked, v.cross_partition, v.message_order,
			    v.timeline_order, v.collective_split, v.partition_overlap };
	if (!rc)
		rc = dcomm_reduce(c, sum, 6, DCOMM_SUM);
	if (!rc) {
		out->messages_checked = sum[0];
		out->cross_partition = sum[1];
		out->message_order = sum[2];
		out->timeline_order = sum[3];
		out->collective_split = sum[4];
		out->partition_overlap = sum[5];
	}
	return rc;
}

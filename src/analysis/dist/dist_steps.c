/* dist_steps.c — stepping each partition on the rank that owns it
 * (dist_steps.h). */
#include "dist_steps.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/mpi/stages.h"
#include "base/hmap.h"
#include "model/dmodel.h"
#include "model/trace_impl.h"

/* A lop as it travels: 32 bytes, then its ends (12 bytes each). */
struct wire_lop {
	uint64_t enter;
	uint32_t lop, tl, part, n_ends, kind, pad;
};

struct wire_end {
	uint32_t id, partner, role;
};

/* A lop of a partition the rank steps. */
struct item {
	uint64_t enter;
	uint32_t lop, tl, part, kind;
	uint32_t end_first, n_ends;    /* into the stage's ends */
};

struct stage {
	struct dcomm *c;
	const struct dstep_in *in;
	struct dstep_out *out;
	uint32_t *lop_first;           /* size + 1: every rank's first lop */
	/* the rounds: each partition's, and the rank's lops by round */
	uint32_t *round, n_rounds, *by_round, *round_first;
	uint32_t now;                  /* the round being stepped */
	uint32_t p0, p1;               /* the owned partitions it steps */
	struct item *items;            /* the lops of the partitions it steps */
	uint32_t n_items;
	struct dstep_end *ends;
	size_t n_ends;
	uint32_t *width, *offset;      /* n_parts + 1 */
	uint32_t *step;                /* n_items: local steps (reordering: clocks) */
	uint32_t *from;                /* reordering: n_items, lowest sender timelines */
	uint64_t relaxed;
};

static uint32_t
owner_of(const struct stage *g, uint32_t part)
{
	return dmodel_rank_of(g->in->part_first, g->c->size, part);
}

static int
cmp_item(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	return (a->lop > b->lop) - (a->lop < b->lop);
}

static void
consume(struct stage *g)
{
	if (!g->in->consume)
		return;
	free((void *)g->in->lops);
	free((void *)g->in->ends);
	free((void *)g->in->end_first);
}

/* The rounds (dist_steps.h): every partition's lops and ends summed
 * over the ranks, each owner's partitions cut into runs of at most the
 * budget, alike on every rank; the rank's lops sorted by their round. */
static int
plan(struct stage *g)
{
	const struct dstep_in *in = g->in;
	uint32_t np = in->n_parts, n = in->n_lops;
	/* the largest rank's lops and ends, and the largest budget asked
	 * for: every rank plans the same rounds even if told otherwise */
	uint64_t *w = calloc((size_t)np + 1, sizeof *w), mine[2] = { 0, in->batch };
	g->round = malloc(((size_t)np + 1) * sizeof *g->round);
	g->width = calloc((size_t)np + 1, sizeof *g->width);
	g->by_round = malloc(((size_t)n + 1) * sizeof *g->by_round);
	int rc = dcomm_agree(g->c, w && g->round && g->width && g->by_round ? 0 : ERR_NOMEM);
	for (uint32_t i = 0; i < n && !rc; i++) {
		uint64_t k = 1 + in->end_first[i + 1] - in->end_first[i];
		if (in->lops[i].part != TRACE_NONE)
			w[in->lops[i].part] += k;
		mine[0] += k;
	}
	if (!rc)
		rc = dcomm_reduce(g->c, w, np, DCOMM_SUM);
	if (!rc)
		rc = dcomm_reduce(g->c, mine, 2, DCOMM_MAX);
	uint64_t budget = mine[1] ? mine[1] : mine[0] / 16;
	if (!mine[1] && budget < DSTEP_BATCH_MIN)
		budget = DSTEP_BATCH_MIN;
	g->n_rounds = 0;
	for (uint32_t q = 0; q < g->c->size && !rc; q++) {
		uint64_t acc = 0;
		uint32_t k = 0;
		for (uint32_t p = in->part_first[q]; p < in->part_first[q + 1]; p++) {
			if (acc && acc + w[p] > budget) {
				k++;
				acc = 0;
			}
			g->round[p] = k;
			acc += w[p];
		}
		if (in->part_first[q + 1] > in->part_first[q] && k + 1 > g->n_rounds)
			g->n_rounds = k + 1;
	}
	free(w);
	if (!rc) {
		g->round_first = calloc((size_t)g->n_rounds + 2, sizeof *g->round_first);
		rc = dcomm_agree(g->c, g->round_first ? 0 : ERR_NOMEM);
	}
	if (rc)
		return rc;
	/* counting sort: round r's lops at [round_first[r], round_first[r + 1]) */
	for (uint32_t i = 0; i < n; i++)
		if (in->lops[i].part != TRACE_NONE)
			g->round_first[g->round[in->lops[i].part] + 2]++;
	for (uint32_t r = 0; r < g->n_rounds; r++)
		g->round_first[r + 2] += g->round_first[r + 1];
	for (uint32_t i = 0; i < n; i++)
		if (in->lops[i].part != TRACE_NONE)
			g->by_round[g->round_first[g->round[in->lops[i].part] + 1]++] = i;
	return 0;
}

/* The partitions the rank owns that are stepped in this round: [p0, p1),
 * the run after the last round's (an owner's rounds number its
 * partitions 0, 1, ... in order, with no round skipped). */
static void
owned_in_round(struct stage *g)
{
	uint32_t hi = g->in->part_first[g->c->rank + 1];
	g->p0 = g->now ? g->p1 : g->in->part_first[g->c->rank];
	g->p1 = g->p0;
	while (g->p1 < hi && g->round[g->p1] == g->now)
		g->p1++;
}

/* Sends the lops of this round's partitions owned elsewhere to their
 * owners and gathers the owned ones, own and received, sorted by
 * (partition, lop). */
static int
deal(struct stage *g)
{
	const struct dstep_in *in = g->in;
	uint32_t n = g->c->size, me = g->c->rank;
	uint64_t *count = calloc(n, sizeof *count), *rcount = calloc(n, sizeof *rcount);
	uint64_t *at = calloc(n + 1, sizeof *at);
	size_t n_own = 0, own_ends = 0;
	uint32_t j0 = g->round_first[g->now], j1 = g->round_first[g->now + 1];
	int rc = count && rcount && at ? 0 : ERR_NOMEM;
	for (uint32_t j = j0; j < j1 && !rc; j++) {
		uint32_t i = g->by_round[j], p = in->lops[i].part;
		uint32_t ne = in->end_first[i + 1] - in->end_first[i];
		uint32_t o = owner_of(g, p);
		if (o == me) {
			n_own++;
			own_ends += ne;
		} else {
			count[o] += sizeof(struct wire_lop) + ne * sizeof(struct wire_end);
		}
	}
	uint64_t total = 0;
	for (uint32_t r = 0; r < n && !rc; r++) {
		at[r] = total;
		total += count[r];
	}
	char *buf = rc ? NULL : malloc(total ? total : 1);
	rc = dcomm_agree(g->c, rc ? rc : buf ? 0 : ERR_NOMEM);
	for (uint32_t j = j0; j < j1 && !rc; j++) {
		uint32_t i = g->by_round[j];
		const struct dstep_lop *x = &in->lops[i];
		if (owner_of(g, x->part) == me)
			continue;
		uint32_t o = owner_of(g, x->part), e0 = in->end_first[i];
		struct wire_lop w = { x->enter, in->lop_off + i, x->tl, x->part,
				      in->end_first[i + 1] - e0, x->kind, 0 };
		memcpy(buf + at[o], &w, sizeof w);
		at[o] += sizeof w;
		for (uint32_t k = 0; k < w.n_ends; k++, at[o] += sizeof(struct wire_end)) {
			const struct dstep_end *e = &in->ends[e0 + k];
			struct wire_end we = { e->id, e->partner, e->role };
			memcpy(buf + at[o], &we, sizeof we);
		}
	}
	void *recv = NULL;
	if (!rc)
		rc = dcomm_alltoallv(g->c, buf, count, &recv, rcount);
	free(buf);
	/* what came: lops, then ends, counted first */
	uint64_t got = 0;
	for (uint32_t r = 0; r < n && !rc; r++)
		got += rcount[r];
	size_t n_items = n_own, n_ends = own_ends;
	for (uint64_t off = 0; !rc && off < got;) {
		struct wire_lop w;
		memcpy(&w, (char *)recv + off, sizeof w);
		n_items++;
		n_ends += w.n_ends;
		off += sizeof w + (uint64_t)w.n_ends * sizeof(struct wire_end);
	}
	if (!rc) {
		g->items = malloc((n_items + 1) * sizeof *g->items);
		g->ends = malloc((n_ends + 1) * sizeof *g->ends);
		rc = g->items && g->ends ? 0 : ERR_NOMEM;
	}
	size_t ni = 0, ne = 0;
	for (uint32_t j = j0; j < j1 && !rc; j++) {
		uint32_t i = g->by_round[j];
		const struct dstep_lop *x = &in->lops[i];
		if (owner_of(g, x->part) != me)
			continue;
		uint32_t e0 = in->end_first[i], k = in->end_first[i + 1] - e0;
		g->items[ni++] = (struct item){ x->enter, in->lop_off + i, x->tl, x->part, x->kind,
						(uint32_t)ne, k };
		memcpy(g->ends + ne, in->ends + e0, k * sizeof *g->ends);
		ne += k;
	}
	for (uint64_t off = 0; !rc && off < got;) {
		struct wire_lop w;
		memcpy(&w, (char *)recv + off, sizeof w);
		off += sizeof w;
		g->items[ni++] = (struct item){ w.enter, w.lop, w.tl, w.part, w.kind,
						(uint32_t)ne, w.n_ends };
		for (uint32_t k = 0; k < w.n_ends; k++, off += sizeof(struct wire_end)) {
			struct wire_end we;
			memcpy(&we, (char *)recv + off, sizeof we);
			g->ends[ne++] = (struct dstep_end){ we.id, we.partner, (uint8_t)we.role };
		}
	}
	free(recv);
	free(count);
	free(rcount);
	free(at);
	if (!rc) {
		g->n_items = (uint32_t)ni;
		g->n_ends = ne;
		qsort(g->items, ni, sizeof *g->items, cmp_item);
	}
	return dcomm_agree(g->c, rc);
}

/* The item of global lop `lop` among partition part's, or TRACE_NONE. */
static uint32_t
find_item(const struct stage *g, uint32_t part, uint32_t lop)
{
	size_t lo = 0, hi = g->n_items;
	struct item key = { .part = part, .lop = lop };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_item(&g->items[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n_items && g->items[lo].part == part && g->items[lo].lop == lop ?
		(uint32_t)lo : TRACE_NONE;
}

struct member {
	uint32_t coll, item;
};

static int
cmp_member(const void *x, const void *y)
{
	const struct member *a = x, *b = y;
	if (a->coll != b->coll)
		return a->coll < b->coll ? -1 : 1;
	return (a->item > b->item) - (a->item < b->item);
}

/* The round's owned partitions as a model and analysis of their own (one op per
 * lop, its ends; messages between them; collectives in id order),
 * stepped by the serial stepper into g->step and g->width. */
static int
step_owned(struct stage *g)
{
	uint32_t n = g->n_items, p0 = g->p0, np = g->p1 - g->p0;
	if (!n)
		return dcomm_agree(g->c, 0);
	struct trace *t = calloc(1, sizeof *t);
	struct analysis *a = calloc(1, sizeof *a);
	/* a message has one send end: as many messages as those, at most */
	size_t n_coll = 0, n_send = 0;
	for (size_t k = 0; k < g->n_ends; k++) {
		n_coll += g->ends[k].role == END_COLL;
		n_send += g->ends[k].role == END_SEND;
	}
	struct member *mem = malloc((n_coll + 1) * sizeof *mem);
	struct hmap msg_of = { 0 };
	size_t n_mem = 0;
	int rc = ERR_NOMEM;
	if (!t || !a || !mem)
		goto out;
	t->ops_implied = 0;
	t->n_timelines = g->in->n_timelines;
	t->oprec = calloc(n + 1, sizeof *t->oprec);
	t->ends = malloc((g->n_ends + 1) * sizeof *t->ends);
	t->msgs = calloc(n_send + 1, sizeof *t->msgs);
	a->lop_op = malloc((n + 2) * sizeof *a->lop_op);
	a->op_lop = malloc((n + 1) * sizeof *a->op_lop);
	a->lop_tl = malloc((n + 1) * sizeof *a->lop_tl);
	a->lop_kind = malloc(n + 1);
	a->lop_part = malloc((n + 1) * sizeof *a->lop_part);
	a->part_lop_first = calloc(np + 2, sizeof *a->part_lop_first);
	a->part_lops = malloc((n + 1) * sizeof *a->part_lops);
	if (!t->oprec || !t->ends || !t->msgs || !a->lop_op || !a->op_lop || !a->lop_tl ||
	    !a->lop_kind || !a->lop_part || !a->part_lop_first || !a->part_lops)
		goto out;
	size_t ne = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct item *x = &g->items[i];
		a->lop_op[i] = a->op_lop[i] = a->part_lops[i] = i;
		a->lop_tl[i] = x->tl;
		a->lop_kind[i] = (uint8_t)x->kind;
		a->lop_part[i] = x->part - p0;
		a->part_lop_first[x->part - p0 + 1]++;
		t->oprec[i] = (struct trace_oprec){ .t_enter = x->enter, .t_exit = x->enter,
						    .timeline = x->tl, .frame = TRACE_NONE,
						    .end_first = (uint32_t)ne,
						    .region = TRACE_OPREC_NO_REGION, .kind = x->kind };
		for (uint32_t k = 0; k < x->n_ends; k++) {
			const struct dstep_end *e = &g->ends[x->end_first + k];
			if (e->role == END_COLL) {
				mem[n_mem++] = (struct member){ e->id, i };
				t->ends[ne++] = (struct trace_end){ .id = 0, .role = END_COLL };
				continue;
			}
			uint32_t other = find_item(g, x->part, e->partner);
			if (other == TRACE_NONE)
				continue;        /* not a partner the analysis steps by */
			uint32_t *m = hmap_get(&msg_of, e->id, 0), id;
			if (m) {
				id = *m;
			} else {
				if (t->n_msgs >= n_send)
					continue;    /* a receive whose send end is not here */
				id = (uint32_t)t->n_msgs++;
				if (hmap_put(&msg_of, e->id, 0, id))
					goto out;
				int send = e->role == END_SEND;
				t->msgs[id] = (struct trace_msg){ .send_op = send ? i : other,
								  .recv_op = send ? other : i,
								  .send_done_op = TRACE_NONE };
			}
			t->ends[ne++] = (struct trace_end){ .id = id, .role = e->role };
		}
	}
	a->lop_op[n] = n;
	for (uint32_t p = 0; p < np; p++)
		a->part_lop_first[p + 1] += a->part_lop_first[p];
	free(g->ends);         /* in the model now */
	g->ends = NULL;
	t->n_oprec = n;
	t->n_ends = ne;
	/* collectives in id order, members in lop order */
	qsort(mem, n_mem, sizeof *mem, cmp_member);
	t->colls = calloc(n_mem + 1, sizeof *t->colls);
	t->coll_members = malloc((n_mem + 1) * sizeof *t->coll_members);
	if (!t->colls || !t->coll_members)
		goto out;
	for (size_t k = 0; k < n_mem; k++) {
		if (k == 0 || mem[k].coll != mem[k - 1].coll)
			t->colls[t->n_colls++].member_first = (uint32_t)k;
		t->colls[t->n_colls - 1].member_count++;
		t->coll_members[k] = mem[k].item;
	}
	t->n_coll_members = n_mem;
	a->t = t;
	a->ops = trace_ops(t, &a->n_ops);
	a->msgs = t->msgs;
	a->ends = t->ends;
	a->n_ends = (uint32_t)ne;
	analysis_opts_default(&a->opts);
	a->n_lops = n;
	a->n_parts = np;
	if (g->in->reorder) {
		/* the lops' global ids tell where a timeline's run of a
		 * partition is broken by another's lops */
		uint32_t *gid = malloc(((size_t)n + 1) * sizeof *gid);
		g->step = malloc(((size_t)n + 1) * sizeof *g->step);
		g->from = malloc(((size_t)n + 1) * sizeof *g->from);
		if (!gid || !g->step || !g->from) {
			free(gid);
			goto out;
		}
		for (uint32_t i = 0; i < n; i++)
			gid[i] = g->items[i].lop;
		rc = reorder_keys(a, gid, g->step, g->from);
		free(gid);
		goto out;
	}
	if ((rc = steps_local(a, g->width + p0, NULL)))
		goto out;
	g->step = a->lop_step;
	a->lop_step = NULL;
	g->relaxed += a->verify.relaxed;
	rc = 0;
out:
	hmap_fini(&msg_of);
	free(mem);
	if (t) {
		free(t->oprec);
		free(t->ends);
		free(t->msgs);
		free(t->colls);
		free(t->coll_members);
		free(t);
	}
	if (a) {
		free(a->lop_op);
		free(a->op_lop);
		free(a->lop_tl);
		free(a->lop_kind);
		free(a->lop_part);
		free(a->part_lop_first);
		free(a->part_lops);
		free(a->lop_step);
		free(a);
	}
	return dcomm_agree(g->c, rc);
}

/* Every partition's width to every rank; rank 0 works out the first
 * global steps (as steps_offsets) and sends them, with the step count,
 * to every rank. */
static int
offsets(struct stage *g)
{
	const struct dstep_in *in = g->in;
	uint32_t me = g->c->rank, p0 = in->part_first[me], p1 = in->part_first[me + 1];
	uint64_t *rc_n = malloc(g->c->size * sizeof *rc_n);
	void *all = NULL;
	int rc = dcomm_agree(g->c, rc_n ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_allgatherv(g->c, g->width + p0, (uint64_t)(p1 - p0) * sizeof(uint32_t),
				      &all, rc_n);
	if (!rc)
		memcpy(g->width, all, (size_t)in->n_parts * sizeof *g->width);
	free(all);
	all = NULL;
	uint32_t *off = NULL;
	if (!rc && me == 0) {
		off = calloc((size_t)in->n_parts + 1, sizeof *off);
		if (off) {
			uint32_t steps = 0;
			for (uint32_t i = 0; i < in->n_parts; i++) {
				uint32_t p = in->part_order[i], endp = off[p] + g->width[p];
				for (uint32_t e = in->dag_first[p]; e < in->dag_first[p + 1]; e++)
					if (endp > off[in->dag_succ[e]])
						off[in->dag_succ[e]] = endp;
				if (endp > steps)
					steps = endp;
			}
			off[in->n_parts] = steps;
		}
	}
	if (!rc)
		rc = dcomm_agree(g->c, me == 0 && !off ? ERR_NOMEM : 0);
	if (!rc)
		rc = dcomm_allgatherv(g->c, off, me == 0 ? ((uint64_t)in->n_parts + 1) * sizeof *off : 0,
				      &all, rc_n);
	free(off);
	if (!rc)
		g->offset = all;
	else
		free(all);
	free(rc_n);
	return rc;
}

/* Each of the round's lops' step within its partition back to the rank
 * that holds it, which adds the partition's first global step once all
 * are stepped (the reordering: its clock and lowest sender timeline). */
static int
give_back(struct stage *g)
{
	uint32_t n = g->c->size, me = g->c->rank, nv = g->in->reorder ? 3 : 2;
	uint64_t *count = calloc(n, sizeof *count), *rcount = calloc(n, sizeof *rcount);
	uint64_t *at = calloc(n + 1, sizeof *at);
	int rc = count && rcount && at ? 0 : ERR_NOMEM;
	for (uint32_t i = 0; i < g->n_items && !rc; i++)
		count[dmodel_rank_of(g->lop_first, n, g->items[i].lop)] += nv * sizeof(uint32_t);
	uint64_t total = 0;
	for (uint32_t r = 0; r < n && !rc; r++) {
		at[r] = total;
		total += count[r];
	}
	uint32_t *buf = rc ? NULL : malloc(total ? total : 1);
	rc = dcomm_agree(g->c, rc ? rc : buf ? 0 : ERR_NOMEM);
	for (uint32_t i = 0; i < g->n_items && !rc; i++) {
		const struct item *x = &g->items[i];
		uint32_t r = dmodel_rank_of(g->lop_first, n, x->lop);
		uint32_t v[3] = { x->lop, g->step[i], g->in->reorder ? g->from[i] : 0 };
		memcpy((char *)buf + at[r], v, nv * sizeof *v);
		at[r] += nv * sizeof *v;
	}
	void *recv = NULL;
	if (!rc)
		rc = dcomm_alltoallv(g->c, buf, count, &recv, rcount);
	uint64_t got = 0;
	for (uint32_t r = 0; r < n && !rc; r++)
		got += rcount[r];
	for (uint64_t off = 0; !rc && off < got; off += nv * sizeof(uint32_t)) {
		uint32_t v[3];
		memcpy(v, (char *)recv + off, nv * sizeof *v);
		if (g->in->reorder) {
			g->out->lop_w[v[0] - g->in->lop_off] = v[1];
			g->out->lop_from[v[0] - g->in->lop_off] = v[2];
		} else {
			g->out->lop_step[v[0] - g->in->lop_off] = v[1];    /* the partition's */
		}
	}
	(void)me;
	free(recv);
	free(buf);
	free(count);
	free(rcount);
	free(at);
	return rc;
}

/* One round's items, ends and steps, once sent back. */
static void
round_free(struct stage *g)
{
	free(g->items);
	free(g->ends);
	free(g->step);
	free(g->from);
	g->items = NULL;
	g->ends = NULL;
	g->step = g->from = NULL;
	g->n_items = 0;
	g->n_ends = 0;
}

int
dist_steps(struct dcomm *c, const struct dstep_in *in, struct dstep_out *out)
{
	struct stage g = { .c = c, .in = in, .out = out };
	for (uint32_t i = 0; i < in->n_lops; i++) {
		if (in->reorder)
			out->lop_w[i] = out->lop_from[i] = TRACE_NONE;
		else
			out->lop_step[i] = TRACE_NONE;
	}
	g.lop_first = calloc(c->size + 1, sizeof *g.lop_first);
	int rc = dcomm_agree(c, g.lop_first ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_firsts(c, in->lop_off, TRACE_NONE, g.lop_first);
	if (!rc)
		rc = plan(&g);
	for (g.now = 0; g.now < g.n_rounds && !rc; g.now++) {
		owned_in_round(&g);
		rc = deal(&g);
		if (!rc)
			rc = step_owned(&g);
		if (!rc)
			rc = give_back(&g);
		round_free(&g);
	}
	out->n_rounds = g.n_rounds;
	if (!rc && !in->reorder)
		rc = offsets(&g);
	uint64_t relaxed = g.relaxed;
	if (!rc && !in->reorder)
		rc = dcomm_reduce(c, &relaxed, 1, DCOMM_SUM);
	if (!rc && !in->reorder) {
		/* a partition's steps from its first global one */
		for (uint32_t i = 0; i < in->n_lops; i++)
			if (out->lop_step[i] != TRACE_NONE)
				out->lop_step[i] += g.offset[in->lops[i].part];
		out->relaxed = relaxed;
		out->n_steps = g.offset[in->n_parts];
		for (uint32_t p = 0; p < in->n_parts; p++) {
			if (out->step_first)
				out->step_first[p] = g.offset[p];
			if (out->step_count)
				out->step_count[p] = g.width[p];
		}
	}
	consume(&g);
	free(g.lop_first);
	free(g.round);
	free(g.by_round);
	free(g.round_first);
	free(g.width);
	free(g.offset);
	return rc;
}

int
dist_renumber(struct analysis *a, uint32_t *lop_part, uint32_t n_lops)
{
	uint32_t np = a->n_parts;
	uint32_t *order = malloc(((size_t)np + 1) * sizeof *order);
	uint32_t *newid = malloc(((size_t)np + 1) * sizeof *newid);
	struct analysis_part *parts = malloc(((size_t)np + 1) * sizeof *parts);
	uint32_t *df = malloc(((size_t)np + 2) * sizeof *df);
	uint32_t *ds = malloc(((size_t)a->dag_first[np] + 1) * sizeof *ds);
	int rc = ERR_NOMEM;
	if (!order || !newid || !parts || !df || !ds || parts_by_first_step(a, order))
		goto out;
	for (uint32_t i = 0; i < np; i++)
		newid[order[i]] = i;
	df[0] = 0;
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = order[i], m = 0;
		parts[i] = a->parts[p];
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
			ds[df[i] + m++] = newid[a->dag_succ[e]];
		df[i + 1] = df[i] + m;
	}
	for (uint32_t i = 0; i < np; i++)
		a->part_order[i] = newid[a->part_order[i]];
	for (uint32_t l = 0; l < n_lops; l++)
		if (lop_part[l] != TRACE_NONE)
			lop_part[l] = newid[lop_part[l]];
	free(a->parts);
	free(a->dag_first);
	free(a->dag_succ);
	a->parts = parts;
	a->dag_first = df;
	a->dag_succ = ds;
	parts = NULL;
	df = ds = NULL;
	rc = 0;
out:
	free(order);
	free(newid);
	free(parts);
	free(df);
	free(ds);
	return rc;
}

/* saved_check.c — every index of a saved file checked against what it
 * indexes before anything reads it (issue 37, doc/format.md).
 *
 * The sums keep a damaged file from being read; a file whose arrays
 * were altered and whose sums were then recomputed passes them. Such a
 * file must still not make any command read out of bounds, so each
 * section's records are checked as its blocks are summed (saved.c's
 * workers, while the block is in the cache): a record's indices against
 * the counts of what they index, each CSR array's ends in order, and
 * what a getter derives from two arrays (a lop's step within its
 * partition's, a partition's entries of the step minima, a lop's last
 * op not before its first). What needs the whole of a section (the
 * ends of the CSR arrays, a topological order, the lists counted by
 * flags) is checked after, in saved_check_rest. The values (times,
 * sizes, counts shown) are not indices and are taken as they are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "saved_impl.h"
#include "base/vec.h"

static const char *const names[S_END] = {
	[S_META] = "meta", [S_STRINGS] = "strings", [S_PATH] = "path", [S_CREATOR] = "creator",
	[S_PHASES] = "phases", [S_ITER_REGION] = "iteration region",
	[S_TIMELINES] = "timelines", [S_LOCATIONS] = "locations", [S_REGIONS] = "regions",
	[S_COMMS] = "comms", [S_COMM_MEMBERS] = "comm members", [S_NODES] = "nodes",
	[S_OPS] = "ops", [S_ENDS] = "ends", [S_MSGS] = "msgs", [S_COLLS] = "colls",
	[S_COLL_MEMBERS] = "coll members", [S_FRAMES] = "frames", [S_PES] = "PEs",
	[S_IDLES] = "idle intervals", [S_CHARES] = "chares", [S_ENTRIES] = "entries",
	[S_OP_PE] = "op -> PE", [S_LOP_OP] = "lop -> first op", [S_OP_LOP] = "op -> lop",
	[S_TL_LOP] = "timeline -> first lop", [S_LOP_TL] = "lop -> timeline",
	[S_LOP_KIND] = "lop kind", [S_LOP_PART] = "lop -> partition", [S_PARTS] = "partitions",
	[S_PART_LOP_FIRST] = "partition -> first lop", [S_PART_LOPS] = "lops by partition",
	[S_DAG_FIRST] = "partition -> first successor", [S_DAG_SUCC] = "successors",
	[S_PART_ORDER] = "topological order", [S_LOP_PHASE] = "lop -> phase",
	[S_LOP_PHASE_REGION] = "lop -> phase region", [S_LOP_STEP] = "lop -> global step",
	[S_PMIN] = "earliest exit per partition step", [S_PMIN_FIRST] = "partition -> first entry of 63",
	[S_GMIN] = "earliest exit per global step", [S_CAUSE] = "cause",
	[S_DIFF] = "differential lateness", [S_HOT] = "hotspots",
	[S_HOT_ALL] = "hotspots with start-up", [S_ITER_STARTS] = "iteration starts",
	[S_ITER_RUNS] = "iteration runs", [S_OP_OF_LOP] = "lop -> first op (logical order)",
	[S_OP_LAST_OF_LOP] = "lop -> last op", [S_IDLE_EXP] = "idle experienced",
	[S_DUR_DIFF] = "differential duration", [S_IMBALANCE] = "imbalance",
	[S_PART_IMBALANCE] = "phase imbalance", [S_PART_REGION] = "phase entry",
	[S_DIFF_BIG] = "large differential lateness", [S_CAUSE_FAR] = "far cause lops",
};

const char *
saved_section_name(uint32_t id)
{
	return id < S_END && names[id] ? names[id] : "unknown";
}

/* What the records are checked against: the counts of every array. */
struct lim {
	const struct trace *t;
	const struct analysis *a;
	uint32_t str, tl, region, comm, cmem, node, op, end, msg, coll, collmem, frame, pe, idle;
	uint32_t lop, part, step, iters;
};

/* v below n, or TRACE_NONE (n is at most UINT32_MAX - 2). */
#define OPT(v, n) ((uint32_t)((v) + 1) > (n))
#define IDX(v, n) ((v) >= (n))

/* The first of v[r0, r1) at or past lim (with none: TRACE_NONE allowed),
 * or UINT64_MAX: a reduction that compilers vectorise, the record looked
 * for only when there is one. */
static uint64_t
first_over(const uint32_t *v, uint64_t r0, uint64_t r1, uint32_t lim, int none)
{
	uint32_t add = none ? 1 : 0, worst = 0;
	for (uint64_t i = r0; i < r1; i++) {
		uint32_t x = v[i] + add;
		worst = x > worst ? x : worst;
	}
	if (r0 == r1 || worst < lim + add)
		return UINT64_MAX;
	for (uint64_t i = r0;; i++)
		if ((uint32_t)(v[i] + add) >= lim + add)
			return i;
}

/* The same over bytes. */
static uint64_t
first_over_u8(const uint8_t *v, uint64_t r0, uint64_t r1, uint8_t lim)
{
	uint8_t worst = 0;
	for (uint64_t i = r0; i < r1; i++)
		worst = v[i] > worst ? v[i] : worst;
	if (r0 == r1 || worst < lim)
		return UINT64_MAX;
	for (uint64_t i = r0;; i++)
		if (v[i] >= lim)
			return i;
}

/* A CSR array's entries in order (strictly: no empty row), the first 0,
 * none past last. */
static uint64_t
first_unordered(const uint32_t *v, uint64_t r0, uint64_t r1, int strict, uint32_t last)
{
	for (uint64_t i = r0; i < r1; i++)
		if (v[i] > last || (i == 0 ? v[i] != 0 : strict ? v[i] <= v[i - 1] : v[i] < v[i - 1]))
			return i;
	return UINT64_MAX;
}

/* ---- the model ---- */

static int
timeline_bad(const struct lim *L, uint64_t i)
{
	const struct trace_timeline *tl = &L->t->timelines[i];
	return IDX(tl->name, L->str) || OPT(tl->node, L->node) ||
	       (uint64_t)tl->op_first + tl->op_count > L->op ||
	       (L->t->ops_implied && ((tl->op_first | tl->op_count) & 1)) ||
	       (uint64_t)tl->frame_first + tl->frame_count > L->frame;
}

static int
location_bad(const struct lim *L, uint64_t i)
{
	const struct trace_location *l = &L->t->locations[i];
	return IDX(l->name, L->str) || IDX(l->group_name, L->str) || OPT(l->timeline, L->tl) ||
	       l->type > LOC_OTHER;
}

static int
region_bad(const struct lim *L, uint64_t i)
{
	const struct trace_region *r = &L->t->regions[i];
	return IDX(r->name, L->str) || r->role >= ROLE_COUNT;
}

/* A self communicator's members are never read (it is its caller). */
static int
comm_bad(const struct lim *L, uint64_t i)
{
	const struct trace_comm *c = &L->t->comms[i];
	return IDX(c->name, L->str) || c->member_first > L->cmem ||
	       (!c->is_self && c->size > L->cmem - c->member_first) || OPT(c->parent, L->comm);
}

static int
node_bad(const struct lim *L, uint64_t i)
{
	const struct trace_node *n = &L->t->nodes[i];
	return IDX(n->name, L->str) || IDX(n->class_name, L->str) || OPT(n->parent, L->node);
}

/* An op names what exists; its ends start where the op before's do or
 * later; it lies among its own timeline's ops (what an MPI trace's
 * implied computation ops are read from). */
static int
op_bad(const struct lim *L, uint64_t i)
{
	const struct trace *t = L->t;
	const struct trace_oprec *r = &t->oprec[i];
	if (IDX(r->timeline, L->tl) || r->kind >= OP_KIND_COUNT ||
	    (r->region != TRACE_OPREC_NO_REGION && r->region >= L->region) ||
	    OPT(r->frame, L->frame) || r->end_first > L->end ||
	    (i > 0 && r->end_first < t->oprec[i - 1].end_first))
		return 1;
	const struct trace_timeline *tl = &t->timelines[r->timeline];
	unsigned shift = t->ops_implied ? 1 : 0;
	return i < tl->op_first >> shift || i >= ((uint64_t)tl->op_first + tl->op_count) >> shift;
}

static uint64_t
check_ends(const struct lim *L, uint64_t r0, uint64_t r1)
{
	const struct trace_end *e = L->t->ends;
	int bad = 0;
	for (uint64_t i = r0; i < r1; i++)
		bad |= e[i].id >= (e[i].role == END_COLL ? L->coll : L->msg);
	for (uint64_t i = r0; bad && i < r1; i++)
		if (e[i].id >= (e[i].role == END_COLL ? L->coll : L->msg))
			return i;
	return UINT64_MAX;
}

/* A message's ends are ops; where one is there, so is its timeline (a
 * Charm++ creation delivered nowhere has no receiver). */
static int
msg_bad(const struct lim *L, uint64_t i)
{
	const struct trace_msg *m = &L->t->msgs[i];
	return OPT(m->send_op, L->op) | OPT(m->recv_op, L->op) | OPT(m->send_done_op, L->op) |
	       OPT(m->sender, L->tl) | OPT(m->receiver, L->tl) | OPT(m->comm, L->comm) |
	       (m->send_op != TRACE_NONE && m->sender == TRACE_NONE) |
	       (m->recv_op != TRACE_NONE && m->receiver == TRACE_NONE);
}

static int
coll_bad(const struct lim *L, uint64_t i)
{
	const struct trace_coll *c = &L->t->colls[i];
	return OPT(c->comm, L->comm) || OPT(c->root, L->tl) || c->member_first > L->collmem ||
	       c->member_count > L->collmem - c->member_first || c->type >= COLL_TYPE_COUNT;
}

/* A frame's parent was entered before it (so parents never make a
 * cycle), and it lies among its timeline's frames. */
static int
frame_bad(const struct lim *L, uint64_t i)
{
	const struct trace_frame *f = &L->t->frames[i];
	if (IDX(f->region, L->region) || (f->parent != TRACE_NONE && f->parent >= i) ||
	    IDX(f->timeline, L->tl))
		return 1;
	const struct trace_timeline *tl = &L->t->timelines[f->timeline];
	return i < tl->frame_first || i >= (uint64_t)tl->frame_first + tl->frame_count;
}

static int
pe_bad(const struct lim *L, uint64_t i)
{
	const struct trace_pe *p = &L->t->pes[i];
	return p->idle_first > L->idle || p->idle_count > L->idle - p->idle_first ||
	       OPT(p->runtime, L->tl);
}

/* .sts ids index tables the Charm++ stages build: at most what the
 * reader takes, an entry's rising with its region as the reader adds
 * them (so a table of them is as large as the .sts made it). */
static int
chare_bad(const struct lim *L, uint64_t i)
{
	const struct trace_chare *c = &L->t->chares[i];
	return IDX(c->type, L->str) || IDX(c->pe, L->pe) || c->ndims > TRACE_CHARE_DIMS ||
	       c->kind >= CHARE_KIND_COUNT || OPT(c->sts_id, TRACE_STS_ID_MAX + 1);
}

static int
entry_bad(const struct lim *L, uint64_t i)
{
	const struct trace_entry *en = &L->t->entries[i];
	return IDX(en->signature, L->str) || en->ep > TRACE_STS_ID_MAX ||
	       en->sts_chare > TRACE_STS_ID_MAX || (i > 0 && en->ep <= en[-1].ep);
}

/* ---- the analysis ---- */

/* A lop's timeline is the one whose lops it is among. */
static int
lop_tl_bad(const struct lim *L, uint64_t l)
{
	const struct analysis *a = L->a;
	uint32_t tl = a->lop_tl[l];
	return IDX(tl, L->tl) || l < a->tl_lop[tl] || l >= a->tl_lop[tl + 1];
}

/* A partition's steps are global steps; its phase's region a region. */
static int
part_bad(const struct lim *L, uint64_t p)
{
	const struct analysis_part *P = &L->a->parts[p];
	return (uint64_t)P->step_first + P->step_count > L->step || OPT(P->phase_region, L->region) ||
	       P->leap >= L->part;
}

/* A lop's step is a global step; a lop in a partition has one, within
 * the partition's span: lateness reads its partition's step minima at
 * it, the clusters a row of the partition's steps. */
static int
lop_step_bad(const struct lim *L, uint64_t l)
{
	const struct analysis *a = L->a;
	uint32_t s = a->lop_step[l], p = a->lop_part[l];
	if (OPT(s, L->step))
		return 1;
	if (p >= L->part)
		return 0;        /* none, or lop -> partition says it is out of range */
	return s == TRACE_NONE || s - a->parts[p].step_first >= a->parts[p].step_count;
}

/* The lops listed for a partition are its own, each once: in timeline
 * order, which is lop order (the clusters read them as rows). */
static uint64_t
check_part_lops(const struct lim *L, uint64_t r0, uint64_t r1)
{
	const struct analysis *a = L->a;
	const uint32_t *f = a->part_lop_first;
	/* the partition holding entry r0: the last whose first is at or
	 * before it (the search stays in range whatever f holds) */
	uint32_t lo = 0, hi = L->part;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;
		if (f[mid] <= r0)
			lo = mid;
		else
			hi = mid - 1;
	}
	uint32_t p = lo;
	for (uint64_t i = r0; i < r1; i++) {
		while (p < L->part && f[p + 1] <= i)
			p++;
		uint32_t l = a->part_lops[i];
		if (l >= L->lop || a->lop_part[l] != p || (i > f[p] && l <= a->part_lops[i - 1]))
			return i;
	}
	return UINT64_MAX;
}

/* Partition p's entries of the minima are as many as its steps. */
static int
pmin_first_bad(const struct lim *L, uint64_t i)
{
	const struct analysis *a = L->a;
	if (i == 0)
		return a->pmin_first[0] != 0;
	return a->pmin_first[i] - a->pmin_first[i - 1] != a->parts[i - 1].step_count;
}

static int
iter_start_bad(const struct lim *L, uint64_t i)
{
	const uint32_t *s = L->a->iter_starts;
	return s[i] > L->step || (i > 0 && s[i] < s[i - 1]);
}

static int
iter_run_bad(const struct lim *L, uint64_t i)
{
	const struct iter_run *r = &L->a->iter_runs[i];
	return IDX(r->lop, L->lop) || (i > 0 && r->lop <= r[-1].lop) ||
	       (r->iter != TRACE_NONE && r->iter != ITER_OF_STEP && r->iter >= L->iters);
}

/* A lop's last op is its first or after it. */
static int
op_last_bad(const struct lim *L, uint64_t l)
{
	const struct analysis *a = L->a;
	return IDX(a->op_last_of_lop[l], L->op) || a->op_last_of_lop[l] < a->op_of_lop[l];
}

static uint64_t
each(const struct lim *L, uint64_t r0, uint64_t r1, int (*bad)(const struct lim *, uint64_t))
{
	for (uint64_t i = r0; i < r1; i++)
		if (bad(L, i))
			return i;
	return UINT64_MAX;
}

static struct lim
limits(const struct opener *o)
{
	const struct trace *t = o->t;
	const struct analysis *a = o->a;
	return (struct lim){
		.t = t, .a = a, .str = (uint32_t)o->sec[S_STRINGS]->count,
		.tl = (uint32_t)t->n_timelines, .region = (uint32_t)t->n_regions,
		.comm = (uint32_t)t->n_comms, .cmem = (uint32_t)t->n_comm_members,
		.node = (uint32_t)t->n_nodes, .op = trace_op_count(t), .end = (uint32_t)t->n_ends,
		.msg = (uint32_t)t->n_msgs, .coll = (uint32_t)t->n_colls,
		.collmem = (uint32_t)t->n_coll_members, .frame = (uint32_t)t->n_frames,
		.pe = (uint32_t)t->n_pes, .idle = (uint32_t)t->n_idles, .lop = a->n_lops,
		.part = a->n_parts, .step = a->n_steps, .iters = a->iters.count,
	};
}

void
saved_check_block(const struct opener *o, struct block_ref *b, uint64_t k)
{
	const struct section *s = o->sec[b->id];
	if (!s->elem_size)
		return;                  /* strings: read as strings (saved.c) */
	struct lim L = limits(o);
	const struct trace *t = o->t;
	const struct analysis *a = o->a;
	/* the records that start in the block */
	uint64_t r0 = (b->off + s->elem_size - 1) / s->elem_size;
	uint64_t r1 = (b->off + k + s->elem_size - 1) / s->elem_size;
	if (r1 > s->count)
		r1 = s->count;
	uint64_t bad = UINT64_MAX;
	switch (b->id) {
	case S_TIMELINES: bad = each(&L, r0, r1, timeline_bad); break;
	case S_LOCATIONS: bad = each(&L, r0, r1, location_bad); break;
	case S_REGIONS: bad = each(&L, r0, r1, region_bad); break;
	case S_COMMS: bad = each(&L, r0, r1, comm_bad); break;
	case S_COMM_MEMBERS: bad = first_over(t->comm_members, r0, r1, L.tl, 1); break;
	case S_NODES: bad = each(&L, r0, r1, node_bad); break;
	case S_OPS: bad = each(&L, r0, r1, op_bad); break;
	case S_ENDS: bad = check_ends(&L, r0, r1); break;
	case S_MSGS: bad = each(&L, r0, r1, msg_bad); break;
	case S_COLLS: bad = each(&L, r0, r1, coll_bad); break;
	case S_COLL_MEMBERS: bad = first_over(t->coll_members, r0, r1, L.op, 0); break;
	case S_FRAMES: bad = each(&L, r0, r1, frame_bad); break;
	case S_PES: bad = each(&L, r0, r1, pe_bad); break;
	case S_CHARES: bad = each(&L, r0, r1, chare_bad); break;
	case S_ENTRIES: bad = each(&L, r0, r1, entry_bad); break;
	case S_OP_PE: bad = first_over(t->op_pe, r0, r1, L.pe, 0); break;
	case S_LOP_OP: bad = first_unordered(a->lop_op, r0, r1, 1, L.op); break;
	case S_OP_LOP: bad = first_over(a->op_lop, r0, r1, L.lop, 0); break;
	case S_TL_LOP: bad = first_unordered(a->tl_lop, r0, r1, 0, L.lop); break;
	case S_LOP_TL: bad = each(&L, r0, r1, lop_tl_bad); break;
	case S_LOP_KIND: bad = first_over_u8(a->lop_kind, r0, r1, OP_KIND_COUNT); break;
	case S_LOP_PART: bad = first_over(a->lop_part, r0, r1, L.part, 1); break;
	case S_PARTS: bad = each(&L, r0, r1, part_bad); break;
	case S_PART_LOP_FIRST: bad = first_unordered(a->part_lop_first, r0, r1, 0, UINT32_MAX); break;
	case S_PART_LOPS: bad = check_part_lops(&L, r0, r1); break;
	case S_DAG_FIRST: bad = first_unordered(a->dag_first, r0, r1, 0, UINT32_MAX); break;
	case S_DAG_SUCC: bad = first_over(a->dag_succ, r0, r1, L.part, 0); break;
	case S_PART_ORDER: bad = first_over(a->part_order, r0, r1, L.part, 0); break;
	case S_LOP_PHASE_REGION: bad = first_over(a->lop_phase_region, r0, r1, L.region, 1); break;
	case S_LOP_STEP: bad = each(&L, r0, r1, lop_step_bad); break;
	case S_PMIN_FIRST: bad = each(&L, r0, r1, pmin_first_bad); break;
	case S_CAUSE: {
		uint8_t worst = 0;
		uint32_t far = 0;
		for (uint64_t i = r0; i < r1; i++) {
			uint8_t c = a->cause[i] & CAUSE_MASK;
			worst = c > worst ? c : worst;
			far += c == CAUSE_MESSAGE && a->cause[i] >> CAUSE_SRC_SHIFT == CAUSE_SRC_FAR;
		}
		b->n_far = far;
		for (uint64_t i = r0; worst >= CAUSE_COUNT && i < r1 && bad == UINT64_MAX; i++)
			if ((a->cause[i] & CAUSE_MASK) >= CAUSE_COUNT)
				bad = i;
		break;
	}
	case S_DIFF: {
		uint32_t big = 0;
		for (uint64_t i = r0; i < r1; i++)
			big += a->diff[i] == DIFF_BIG;
		b->n_big = big;
		break;
	}
	case S_HOT: bad = first_over(a->hot, r0, r1, L.lop, 0); break;
	case S_HOT_ALL: bad = first_over(a->hot_all, r0, r1, L.lop, 0); break;
	case S_ITER_STARTS: bad = each(&L, r0, r1, iter_start_bad); break;
	case S_ITER_RUNS: bad = each(&L, r0, r1, iter_run_bad); break;
	case S_OP_OF_LOP: bad = first_over(a->op_of_lop, r0, r1, L.op, 0); break;
	case S_OP_LAST_OF_LOP: bad = each(&L, r0, r1, op_last_bad); break;
	case S_PART_REGION: bad = first_over(a->part_region, r0, r1, L.region, 1); break;
	default:
		break;           /* values, not indices; or checked whole (rest) */
	}
	b->bad = bad;
}

static int
fault(struct opener *o, uint32_t id, const char *what)
{
	return err_set(o->e, ERR_FORMAT, "%s: section %u (%s): %s", o->name, id, saved_section_name(id),
		       what);
}

/* The partition DAG: its topological order holds every partition once,
 * and every edge goes forward in it (no cycle to walk round). */
static int
check_dag(struct opener *o, const struct analysis *a)
{
	uint32_t *pos = malloc(((size_t)a->n_parts + 1) * sizeof *pos);
	if (!pos)
		return err_set(o->e, ERR_NOMEM, "%s: out of memory", o->name);
	memset(pos, 0xff, ((size_t)a->n_parts + 1) * sizeof *pos);
	int rc = 0;
	for (uint32_t i = 0; i < a->n_parts && !rc; i++) {
		if (pos[a->part_order[i]] != TRACE_NONE)
			rc = fault(o, S_PART_ORDER, "a partition is listed twice");
		pos[a->part_order[i]] = i;
	}
	for (uint32_t p = 0; p < a->n_parts && !rc; p++)
		for (uint32_t k = a->dag_first[p]; k < a->dag_first[p + 1] && !rc; k++)
			if (pos[a->dag_succ[k]] <= pos[p])
				rc = fault(o, S_DAG_SUCC, "an edge goes back in the topological order");
	free(pos);
	return rc;
}

int
saved_check_rest(struct opener *o, uint32_t n_big, uint32_t n_far)
{
	const struct trace *t = o->t;
	const struct analysis *a = o->a;
	/* the ends of the index arrays: every op a timeline's, every lop a
	 * timeline's, every op a lop's */
	uint64_t ops = 0;
	for (size_t i = 0; i < t->n_timelines; i++)
		ops += t->timelines[i].op_count;
	if (ops != trace_op_count(t))
		return fault(o, S_TIMELINES, "its ops are not every op");
	if (a->lop_op[a->n_lops] != trace_op_count(t))
		return fault(o, S_LOP_OP, "its lops are not every op");
	if (a->tl_lop[t->n_timelines] != a->n_lops)
		return fault(o, S_TL_LOP, "its timelines are not every lop");
	int rc = check_dag(o, a);
	if (rc)
		return rc;
	/* the lists of what the per-lop arrays flag, one entry per flag */
	if (n_big != a->n_diff_big)
		return fault(o, S_DIFF_BIG, "not one entry for each large differential lateness");
	for (uint32_t i = 0; i < a->n_diff_big; i++)
		if (a->diff_big[i].lop >= a->n_lops || a->diff[a->diff_big[i].lop] != DIFF_BIG ||
		    (i && a->diff_big[i].lop <= a->diff_big[i - 1].lop))
			return fault(o, S_DIFF_BIG, "an entry names a lop without one");
	if (n_far != a->n_cause_far)
		return fault(o, S_CAUSE_FAR, "not one entry for each far cause");
	for (uint32_t i = 0; i < a->n_cause_far; i++) {
		const struct lop_far *f = &a->cause_far[i];
		if (f->lop >= a->n_lops || a->cause[f->lop] >> CAUSE_SRC_SHIFT != CAUSE_SRC_FAR ||
		    OPT(f->cause_lop, a->n_lops) || (i && f->lop <= f[-1].lop))
			return fault(o, S_CAUSE_FAR, "an entry names a lop without one");
	}
	/* the iterations and the options, from the meta section */
	const struct iterations *it = &a->iters;
	if (it->count && (OPT(it->region, t->n_regions) || it->source > ITER_NAMED ||
			  it->period_parts > a->n_parts || it->period_steps > a->n_steps ||
			  it->irregular > it->count))
		return fault(o, S_META, "inconsistent iterations");
	const struct analysis_opts *op = &a->opts;
	if (!(op->leap_factor > 0) || op->leap_factor > 1e9 || op->iter_find < 0 ||
	    op->iter_find > ITER_FIND_OFF)
		return fault(o, S_META, "options out of range");
	return 0;
}

/* saved_check.c — every index of a saved file checked against what it
 * indexes before anything reads it (issue 37, doc/format.md).
 *
 * The sums keep a damaged file from being read; a file whose arrays
 * were altered and whose sums were then recomputed passes them. Such a
 * file must still not make any command read out of bounds, so each
 * section's records are checked in the loop that sums its blocks
 * (saved.c's workers, on every core): a record's indices against the
 * counts of what they index, each CSR array's ends in order, and what a
 * getter derives from two arrays (a lop's step within its partition's,
 * a partition's entries of the step minima, a lop's last op not before
 * its first). What needs the whole of a section (the ends of the CSR
 * arrays, a topological order, the lists counted by flags) is checked
 * after, in saved_check_rest. The values (times, sizes, counts shown)
 * are not indices and are taken as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "saved_impl.h"

static const char *const names[S_END] = {
	[S_META] = "meta", [S_STRINGS] = "strings", [S_PATH] = "path", [S_CREATOR] = "creator",
	[S_PHASES] = "phases", [S_ITER_REGION] = "iteration region",
	[S_TIMELINES] = "timelines", [S_LOCATIONS] = "locations", [S_REGIONS] = "regions",
	[S_COMMS] = "comms", [S_COMM_MEMBERS] = "comm members", [S_NODES] = "nodes",
	[S_OPS] = "ops", [S_ENDS] = "ends", [S_MSGS] = "msgs", [S_COLLS] = "colls",
	[S_COLL_MEMBERS] = "coll members", [S_FRAMES] = "frames", [S_PES] = "PEs",
	[S_IDLES] = "idle intervals", [S_CHARES] = "chares", [S_ENTRIES] = "entries",
	[S_OP_PE] = "op -> PE", [S_CALLS] = "quiet calls", [S_WINS] = "windows",
	[S_RMAS] = "RMA operations", [S_EPOCHS] = "passive-target epochs", [S_LANES] = "lanes", [S_LANE_FRAMES] = "lane frames", [S_LANE_BYTES] = "lane bytes", [S_HOLDS] = "lock holds", [S_TAGS] = "team tags", [S_COLL_SENT] = "collective members' bytes", [S_LOP_OP] = "lop -> first op", [S_OP_LOP] = "op -> lop",
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
	[S_WAITS] = "wait states", [S_DELAYS] = "delays", [S_OUTLIERS] = "outliers",
	[S_PROBLEMS] = "problems",
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
	uint32_t str, tl, region, comm, cmem, node, op, end, msg, coll, collmem, frame, pe, idle, call;
	uint32_t win, lane, lane_frame, loc;
	uint32_t lop, part, step, iters;
};

/* v below n, or TRACE_NONE (n is at most UINT32_MAX - 2). */
#define OPT(v, n) ((uint32_t)((v) + 1) > (n))
#define IDX(v, n) ((v) >= (n))

/* The checks are written without branches (| rather than ||, indices
 * clamped before what they index is read), as reductions over a block
 * that the compiler unrolls and vectorises: a whole file is checked at
 * the speed it is summed. Only when a block holds something wrong is it
 * gone through again for the first record that is. */

/* The first of v[r0, r1) at or past lim (with none: TRACE_NONE allowed),
 * or UINT64_MAX. */
static uint64_t
first_over(const uint32_t *v, uint64_t r0, uint64_t r1, uint32_t lim, int none)
{
	uint32_t add = none ? 1 : 0, w[8] = { 0 }, worst = 0;
	uint64_t i = r0;
	for (; i + 8 <= r1; i += 8)
		for (int k = 0; k < 8; k++) {
			uint32_t x = v[i + k] + add;
			w[k] = x > w[k] ? x : w[k];
		}
	for (; i < r1; i++) {
		uint32_t x = v[i] + add;
		worst = x > worst ? x : worst;
	}
	for (int k = 0; k < 8; k++)
		worst = w[k] > worst ? w[k] : worst;
	if (r0 == r1 || worst < lim + add)
		return UINT64_MAX;
	for (i = r0;; i++)
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
	uint32_t any = r0 == 0 && r1 > 0 && v[0] != 0;
	for (uint64_t i = r0 ? r0 : 1; i < r1; i++)
		any |= (v[i] > last) | (strict ? v[i] <= v[i - 1] : v[i] < v[i - 1]);
	for (uint64_t i = r0; any && i < r1; i++)
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
	       (uint64_t)tl->frame_first + tl->frame_count > L->frame ||
	       (uint64_t)tl->call_first + tl->call_count > L->call;
}

/* A quiet call's kind is one of three, its region one that exists (or
 * none: a gap). */
static inline int
call_bad(const struct lim *L, uint64_t i)
{
	const struct trace_call *c = &L->t->calls[i];
	uint32_t r = trace_call_region(c);
	return trace_call_kind(c) > CALL_INNER || (r != TRACE_NONE && r >= L->region);
}

static int
win_bad(const struct lim *L, uint64_t i)
{
	const struct trace_win *w = &L->t->wins[i];
	return IDX(w->name, L->str) || OPT(w->comm, L->comm) || w->flags > WINF_DEVICE;
}

/* An RMA operation names ops, ranks and a window that exist, and comes
 * among its origin's, which are in timeline order (trace_tl_rmas). */
static inline int
rma_bad(const struct lim *L, uint64_t i)
{
	const struct trace_rma *r = &L->t->rmas[i];
	return OPT(r->op, L->op) | OPT(r->done_op, L->op) | IDX(r->origin, L->tl) |
	       OPT(r->target, L->tl) | IDX(r->win, L->win) | (r->kind >= RMA_KIND_COUNT) |
	       (r->done >= RMA_DONE_COUNT) | ((i > 0) & (r->origin < r[-(i > 0)].origin));
}

static inline int
epoch_bad(const struct lim *L, uint64_t i)
{
	const struct trace_epoch *e = &L->t->epochs[i];
	return IDX(e->timeline, L->tl) | IDX(e->win, L->win) | OPT(e->target, L->tl) |
	       OPT(e->op_begin, L->op) | OPT(e->op_end, L->op) |
	       ((i > 0) & (e->timeline < e[-(i > 0)].timeline));
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
static const struct trace_timeline no_timeline;
static const struct analysis_part no_part;

static inline int
op_bad(const struct lim *L, uint64_t i)
{
	const struct trace *t = L->t;
	const struct trace_oprec *r = &t->oprec[i];
	uint32_t tl = r->timeline, region = r->region, prev = i > 0 ? r[-1].end_first : 0;
	const struct trace_timeline *T = tl < L->tl ? &t->timelines[tl] : &no_timeline;
	unsigned shift = t->ops_implied ? 1 : 0;
	return (tl >= L->tl) | (r->kind >= OP_KIND_COUNT) |
	       ((region != TRACE_OPREC_NO_REGION) & (region >= L->region)) | OPT(r->frame, L->frame) |
	       (r->end_first > L->end) | (r->end_first < prev) | (i < T->op_first >> shift) |
	       (i >= ((uint64_t)T->op_first + T->op_count) >> shift);
}

static inline int
end_bad(const struct lim *L, uint64_t i)
{
	const struct trace_end *e = &L->t->ends[i];
	return e->id >= (e->role == END_COLL ? L->coll : L->msg);
}

/* A message's ends are ops; where one is there, so is its timeline (a
 * Charm++ creation delivered nowhere has no receiver). */
static inline int
msg_bad(const struct lim *L, uint64_t i)
{
	const struct trace_msg *m = &L->t->msgs[i];
	return OPT(m->send_op, L->op) | OPT(m->recv_op, L->op) | OPT(m->send_done_op, L->op) |
	       OPT(m->sender, L->tl) | OPT(m->receiver, L->tl) | OPT(m->comm, L->comm) |
	       ((m->send_op != TRACE_NONE) & (m->sender == TRACE_NONE)) |
	       ((m->recv_op != TRACE_NONE) & (m->receiver == TRACE_NONE));
}

static int
coll_bad(const struct lim *L, uint64_t i)
{
	const struct trace_coll *c = &L->t->colls[i];
	return OPT(c->comm, L->comm) || OPT(c->root, L->tl) || c->member_first > L->collmem ||
	       c->member_count > L->collmem - c->member_first || c->type >= COLL_TYPE_COUNT ||
	       c->flags > (COLLF_RMA | COLLF_NONBLOCKING);
}

/* A frame's parent was entered before it (so parents never make a
 * cycle), and it lies among its timeline's frames. */
static inline int
frame_bad(const struct lim *L, uint64_t i)
{
	const struct trace_frame *f = &L->t->frames[i];
	const struct trace_timeline *T = f->timeline < L->tl ? &L->t->timelines[f->timeline] : &no_timeline;
	return IDX(f->region, L->region) | ((f->parent != TRACE_NONE) & (f->parent >= i)) |
	       IDX(f->timeline, L->tl) | (i < T->frame_first) |
	       (i >= (uint64_t)T->frame_first + T->frame_count);
}

static int
lane_bad(const struct lim *L, uint64_t i)
{
	const struct trace_lane *l = &L->t->lanes[i];
	return IDX(l->location, L->loc) | IDX(l->timeline, L->tl) | (l->kind > LANE_GPU) |
	       (l->frame_first > L->lane_frame) | (l->frame_count > L->lane_frame - l->frame_first);
}

static const struct trace_lane no_lane = { 0 };

/* A lane's frame: its region, its lane, its parent before it in the
 * same lane, one level up, around it; entered no earlier than the frame
 * before it in the lane (the reader's order, which the critical path's
 * walk relies on to go back in time). */
static int
lane_frame_bad(const struct lim *L, uint64_t i)
{
	const struct trace_frame *f = &L->t->lane_frames[i];
	const struct trace_lane *l = f->timeline < L->lane ? &L->t->lanes[f->timeline] : &no_lane;
	int bad = IDX(f->region, L->region) | IDX(f->timeline, L->lane) | (i < l->frame_first) |
		  (i >= (uint64_t)l->frame_first + l->frame_count) | (f->t_leave < f->t_enter);
	if (bad)
		return 1;
	if (i > l->frame_first && L->t->lane_frames[i - 1].t_enter > f->t_enter)
		return 1;
	if (f->parent == TRACE_NONE)
		return f->depth != 0;
	if (f->parent >= i || f->parent < l->frame_first)
		return 1;
	const struct trace_frame *p = &L->t->lane_frames[f->parent];
	return p->depth + 1 != f->depth || f->t_enter < p->t_enter || f->t_leave > p->t_leave;
}

/* A lock's hold: on a location, released no earlier than acquired. */
static int
hold_bad(const struct lim *L, uint64_t i)
{
	const struct trace_hold *h = &L->t->holds[i];
	return IDX(h->location, L->loc) | (h->release < h->acquire);
}

/* A team tag: on a location, of a region. */
static int
tag_bad(const struct lim *L, uint64_t i)
{
	const struct trace_tag *g = &L->t->tags[i];
	return IDX(g->location, L->loc) | IDX(g->region, L->region);
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
static inline int
lop_tl_bad(const struct lim *L, uint64_t l)
{
	const struct analysis *a = L->a;
	uint32_t tl = a->lop_tl[l], tc = tl < L->tl ? tl : 0;
	return IDX(tl, L->tl) | (l < a->tl_lop[tc]) | (l >= a->tl_lop[tc + 1]);
}

/* The last of the n + 1 entries of CSR array f at or before r: the row
 * holding entry r (in range whatever f holds). */
static uint32_t
row_of(const uint32_t *f, uint32_t n, uint64_t r)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;
		if (f[mid] <= r)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
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
static inline int
lop_step_bad(const struct lim *L, uint64_t l)
{
	const struct analysis *a = L->a;
	uint32_t s = a->lop_step[l], p = a->lop_part[l];
	/* p out of range: none, or lop -> partition says so */
	const struct analysis_part *P = p < L->part ? &a->parts[p] : &no_part;
	return OPT(s, L->step) |
	       ((p < L->part) & ((s == TRACE_NONE) | (s - P->step_first >= P->step_count)));
}

/* The lops listed for a partition are its own, each once: in timeline
 * order, which is lop order (the clusters read them as rows). */
static uint64_t
check_part_lops(const struct lim *L, uint64_t r0, uint64_t r1)
{
	const struct analysis *a = L->a;
	const uint32_t *f = a->part_lop_first, *v = a->part_lops;
	uint32_t p = row_of(f, L->part, r0), any = 0;
	for (uint64_t i = r0; i < r1;) {
		while (p < L->part && f[p + 1] <= i)
			p++;
		uint64_t end = p < L->part && f[p + 1] < r1 ? f[p + 1] : r1;
		end = end > i ? end : i + 1;
		for (; i < end; i++) {
			uint32_t l = v[i], lc = l < L->lop ? l : 0;
			any |= (l >= L->lop) | (a->lop_part[lc] != p) | ((i > f[p]) & (l <= v[i - (i > 0)]));
		}
	}
	if (!any)
		return UINT64_MAX;
	p = row_of(f, L->part, r0);
	for (uint64_t i = r0; i < r1; i++) {
		while (p < L->part && f[p + 1] <= i)
			p++;
		uint32_t l = v[i];
		if (l >= L->lop || a->lop_part[l] != p || (i > f[p] && l <= v[i - 1]))
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
static inline int
op_last_bad(const struct lim *L, uint64_t l)
{
	const struct analysis *a = L->a;
	return IDX(a->op_last_of_lop[l], L->op) | (a->op_last_of_lop[l] < a->op_of_lop[l]);
}

/* The records of [r0, r1) for which bad holds, if any: the first. The
 * predicates of the large sections are inline and without branches, so
 * the first pass runs at the speed of the loads. */
static inline uint64_t
each(const struct lim *L, uint64_t r0, uint64_t r1, int (*bad)(const struct lim *, uint64_t))
{
	int any = 0;
	for (uint64_t i = r0; i < r1; i++)
		any |= bad(L, i);
	for (uint64_t i = r0; any && i < r1; i++)
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
		.pe = (uint32_t)t->n_pes, .idle = (uint32_t)t->n_idles, .call = (uint32_t)t->n_calls,
		.win = (uint32_t)t->n_wins, .lane = (uint32_t)t->n_lanes,
		.lane_frame = (uint32_t)t->n_lane_frames, .loc = (uint32_t)t->n_locations, .lop = a->n_lops,
		.part = a->n_parts, .step = a->n_steps, .iters = a->iters.count,
	};
}

/* The sections of a few records (and the values), checked after their
 * sum: the first wrong record, or UINT64_MAX. */
static uint64_t
check_small(const struct lim *L, uint32_t id, uint64_t r0, uint64_t r1)
{
	switch (id) {
	case S_TIMELINES: return each(L, r0, r1, timeline_bad);
	case S_LOCATIONS: return each(L, r0, r1, location_bad);
	case S_REGIONS: return each(L, r0, r1, region_bad);
	case S_COMMS: return each(L, r0, r1, comm_bad);
	case S_NODES: return each(L, r0, r1, node_bad);
	case S_COLLS: return each(L, r0, r1, coll_bad);
	case S_WINS: return each(L, r0, r1, win_bad);
	case S_LANES: return each(L, r0, r1, lane_bad);
	case S_LANE_FRAMES: return each(L, r0, r1, lane_frame_bad);
	case S_HOLDS: return each(L, r0, r1, hold_bad);
	case S_TAGS: return each(L, r0, r1, tag_bad);
	case S_PES: return each(L, r0, r1, pe_bad);
	case S_CHARES: return each(L, r0, r1, chare_bad);
	case S_ENTRIES: return each(L, r0, r1, entry_bad);
	case S_PARTS: return each(L, r0, r1, part_bad);
	case S_PMIN_FIRST: return each(L, r0, r1, pmin_first_bad);
	case S_ITER_STARTS: return each(L, r0, r1, iter_start_bad);
	case S_ITER_RUNS: return each(L, r0, r1, iter_run_bad);
	default: return UINT64_MAX;     /* values, not indices; or checked whole (rest) */
	}
}

/* The first wrong record of a block of a section checked as it was
 * summed (sum_scan), once it holds one. */
static uint64_t
first_bad(const struct lim *L, uint32_t id, uint64_t r0, uint64_t r1)
{
	switch (id) {
	case S_OPS: return each(L, r0, r1, op_bad);
	case S_ENDS: return each(L, r0, r1, end_bad);
	case S_MSGS: return each(L, r0, r1, msg_bad);
	case S_FRAMES: return each(L, r0, r1, frame_bad);
	case S_CALLS: return each(L, r0, r1, call_bad);
	case S_RMAS: return each(L, r0, r1, rma_bad);
	case S_EPOCHS: return each(L, r0, r1, epoch_bad);
	case S_LOP_TL: return each(L, r0, r1, lop_tl_bad);
	case S_LOP_STEP: return each(L, r0, r1, lop_step_bad);
	default: return each(L, r0, r1, op_last_bad);
	}
}

/* ---- checked in the loop that sums ----
 *
 * A block's sum waits on its multiplications (saved_impl.h); a check
 * run in the same loop over the same bytes takes the time in between,
 * where in a loop of its own it cost nearly as much again as the sum
 * (doc/performance.md). Each kernel below sums the block as
 * saved_block_sum does and folds its records into one flag, a largest
 * value or a count; only a block that holds something wrong is gone
 * through again for its first wrong record. Records are those that
 * start in the block (they may end in the next). */

#if defined(__GNUC__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

/* u32 words plus add, the largest (add 1: TRACE_NONE counts as 0). */
static uint64_t
sum_max32(const unsigned char *b, size_t n, uint32_t add, uint32_t *worst)
{
	uint64_t h[4];
	uint32_t w[8] = { 0 }, m = 0;
	saved_sum_lanes(h, n);
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		saved_sum_stride(h, b + i);
		for (int k = 0; k < 8; k++) {
			uint32_t x;
			memcpy(&x, b + i + 4 * k, 4);
			x += add;
			w[k] = x > w[k] ? x : w[k];
		}
	}
	for (size_t j = i; j + 4 <= n; j += 4) {
		uint32_t x;
		memcpy(&x, b + j, 4);
		x += add;
		m = x > m ? x : m;
	}
	for (int k = 0; k < 8; k++)
		m = w[k] > m ? w[k] : m;
	*worst = m;
	return saved_sum_end(h, b + i, n - i);
}

/* Records of elem bytes starting in the block (the first at byte first
 * of it, index r0 of the section, r1 the end), each handed to bad in the
 * loop that sums; *any: one was bad. */
static HOT_INLINE uint64_t
sum_scan(const struct lim *L, const unsigned char *b, size_t n, uint32_t elem, uint64_t first,
	 uint64_t r0, uint64_t r1, int (*bad)(const struct lim *, uint64_t), int *any)
{
	uint64_t h[4], r = r0, at = first;
	int x = 0;
	saved_sum_lanes(h, n);
	size_t i = 0;
	if (elem <= 32 && 32 % elem == 0 && first == 0) {
		/* records tile the strides: as many in each, unrolled */
		uint32_t per = 32 / elem;
		for (; i + 32 <= n && r + per <= r1; i += 32, r += per) {
			saved_sum_stride(h, b + i);
			for (uint32_t k = 0; k < per; k++)
				x |= bad(L, r + k);
		}
	}
	for (at += i; i + 32 <= n; i += 32) {
		saved_sum_stride(h, b + i);
		for (; at < i + 32 && r < r1; at += elem, r++)
			x |= bad(L, r);
	}
	for (; r < r1; r++)
		x |= bad(L, r);
	*any = x;
	return saved_sum_end(h, b + i, n - i);
}

/* The same for the lops listed by partition (part_lops), walking the
 * partitions' first entries alongside. */
static uint64_t
sum_part_lops(const struct lim *L, const unsigned char *b, size_t n, uint64_t r0, uint64_t r1, int *any)
{
	const struct analysis *a = L->a;
	const uint32_t *f = a->part_lop_first, *v = a->part_lops;
	uint64_t h[4], r = r0;
	uint32_t p = row_of(f, L->part, r0), x = 0;
	saved_sum_lanes(h, n);
	size_t i = 0;
	for (;;) {
		int whole = i + 32 <= n;
		if (whole)
			saved_sum_stride(h, b + i);
		for (uint64_t end = whole ? r0 + (i + 32) / 4 : r1; r < end && r < r1; r++) {
			while (p < L->part && f[p + 1] <= r)
				p++;
			uint32_t l = v[r], lc = l < L->lop ? l : 0;
			x |= (l >= L->lop) | (a->lop_part[lc] != p) | ((r > f[p]) & (l <= v[r - (r > 0)]));
		}
		if (!whole)
			break;
		i += 32;
	}
	*any = x != 0;
	return saved_sum_end(h, b + i, n - i);
}

/* A CSR array: entries in order (strictly: no empty row), the first 0,
 * none past last. */
static uint64_t
sum_order(const unsigned char *b, size_t n, uint64_t r0, int strict, uint32_t last, int *any)
{
	uint64_t h[4];
	const uint32_t *v = (const uint32_t *)b;
	int64_t prev = r0 ? (int64_t)v[-1] : -1;
	uint32_t x = r0 == 0 && n >= 4 && v[0] != 0;
	saved_sum_lanes(h, n);
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		saved_sum_stride(h, b + i);
		for (int k = 0; k < 8; k++) {
			int64_t c = v[i / 4 + (size_t)k];
			x |= (c > last) | (strict ? c <= prev : c < prev);
			prev = c;
		}
	}
	for (size_t j = i / 4; j < n / 4; j++) {
		int64_t c = v[j];
		x |= (c > last) | (strict ? c <= prev : c < prev);
		prev = c;
	}
	*any = x != 0;
	return saved_sum_end(h, b + i, n - i);
}

/* Bytes: the largest (of the cause bits, with mask), and how many equal
 * far (causes from a far sender). */
static uint64_t
sum_bytes(const unsigned char *b, size_t n, uint8_t mask, int causes, uint8_t *worst, uint32_t *far)
{
	uint64_t h[4];
	uint8_t w[32] = { 0 }, m = 0;
	uint32_t c = 0;
	saved_sum_lanes(h, n);
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		saved_sum_stride(h, b + i);
		for (int k = 0; k < 32; k++) {
			uint8_t x = b[i + k] & mask;
			w[k] = x > w[k] ? x : w[k];
			c += causes & (x == CAUSE_MESSAGE) & (b[i + k] >> CAUSE_SRC_SHIFT == CAUSE_SRC_FAR);
		}
	}
	for (size_t j = i; j < n; j++) {
		uint8_t x = b[j] & mask;
		m = x > m ? x : m;
		c += causes & (x == CAUSE_MESSAGE) & (b[j] >> CAUSE_SRC_SHIFT == CAUSE_SRC_FAR);
	}
	for (int k = 0; k < 32; k++)
		m = w[k] > m ? w[k] : m;
	*worst = m;
	*far = c;
	return saved_sum_end(h, b + i, n - i);
}

/* u32 words equal to v, counted. */
static uint64_t
sum_count32(const unsigned char *b, size_t n, uint32_t v, uint32_t *count)
{
	uint64_t h[4];
	uint32_t c = 0;
	saved_sum_lanes(h, n);
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		saved_sum_stride(h, b + i);
		for (int k = 0; k < 8; k++) {
			uint32_t x;
			memcpy(&x, b + i + 4 * k, 4);
			c += x == v;
		}
	}
	for (size_t j = i; j + 4 <= n; j += 4) {
		uint32_t x;
		memcpy(&x, b + j, 4);
		c += x == v;
	}
	*count = c;
	return saved_sum_end(h, b + i, n - i);
}

/* The plain u32 sections: the count their words are below (none: or
 * TRACE_NONE). 0 for the others. */
static int
bound32(const struct lim *L, uint32_t id, uint32_t *lim, uint32_t *none)
{
	*none = 0;
	switch (id) {
	case S_COMM_MEMBERS: *lim = L->tl; *none = 1; return 1;
	case S_COLL_MEMBERS: *lim = L->op; return 1;
	case S_OP_PE: *lim = L->pe; return 1;
	case S_OP_LOP: *lim = L->lop; return 1;
	case S_LOP_PART: *lim = L->part; *none = 1; return 1;
	case S_DAG_SUCC: case S_PART_ORDER: *lim = L->part; return 1;
	case S_LOP_PHASE_REGION: case S_PART_REGION: *lim = L->region; *none = 1; return 1;
	case S_HOT: case S_HOT_ALL: *lim = L->lop; return 1;
	case S_OP_OF_LOP: *lim = L->op; return 1;
	default: return 0;
	}
}

void
saved_sum_check(const struct opener *o, struct block_ref *b, uint64_t k)
{
	const struct section *s = o->sec[b->id];
	const unsigned char *p = o->base + s->offset + b->off;
	uint32_t elem = s->elem_size, lim, none;
	if (!elem) {
		b->sum = saved_block_sum(p, (size_t)k);    /* strings: read as strings (saved.c) */
		return;
	}
	struct lim L = limits(o);
	/* the records that start in the block, the first at byte first of it */
	uint64_t r0 = (b->off + elem - 1) / elem, r1 = (b->off + k + elem - 1) / elem;
	uint64_t first = r0 * elem - b->off;
	if (r1 > s->count)
		r1 = s->count;
	int any = 0;
	size_t n = (size_t)k;
	if (bound32(&L, b->id, &lim, &none)) {
		uint32_t worst;
		b->sum = sum_max32(p, n, none, &worst);
		if (worst >= lim + none)
			b->bad = r0 + first_over((const uint32_t *)p, 0, r1 - r0, lim, (int)none);
		return;
	}
	uint8_t worst8;
	uint32_t far;
	switch (b->id) {
	case S_OPS: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, op_bad, &any); break;
	case S_ENDS: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, end_bad, &any); break;
	case S_MSGS: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, msg_bad, &any); break;
	case S_FRAMES: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, frame_bad, &any); break;
	case S_CALLS: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, call_bad, &any); break;
	case S_RMAS: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, rma_bad, &any); break;
	case S_EPOCHS: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, epoch_bad, &any); break;
	case S_LOP_TL: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, lop_tl_bad, &any); break;
	case S_LOP_STEP: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, lop_step_bad, &any); break;
	case S_OP_LAST_OF_LOP: b->sum = sum_scan(&L, p, n, elem, first, r0, r1, op_last_bad, &any); break;
	case S_PART_LOPS:
		b->sum = sum_part_lops(&L, p, n, r0, r1, &any);
		if (any)
			b->bad = check_part_lops(&L, r0, r1);
		return;
	case S_LOP_OP: case S_TL_LOP: case S_PART_LOP_FIRST: case S_DAG_FIRST: {
		int strict = b->id == S_LOP_OP;
		uint32_t last = b->id == S_LOP_OP ? L.op : b->id == S_TL_LOP ? L.lop : UINT32_MAX;
		b->sum = sum_order(p, n, r0, strict, last, &any);
		if (any)
			b->bad = first_unordered((const uint32_t *)(p - 4 * r0), r0, r1, strict, last);
		return;
	}
	case S_LOP_KIND:
		b->sum = sum_bytes(p, n, 0xff, 0, &worst8, &far);
		if (worst8 >= OP_KIND_COUNT)
			b->bad = first_over_u8(p - r0, r0, r1, OP_KIND_COUNT);
		return;
	case S_CAUSE:
		b->sum = sum_bytes(p, n, CAUSE_MASK, 1, &worst8, &far);
		b->n_far = far;
		for (uint64_t i = r0; worst8 >= CAUSE_RMA && i < r1 && b->bad == UINT64_MAX; i++)
			if ((p[i - r0] & CAUSE_MASK) >= CAUSE_RMA)
				b->bad = i;
		return;
	case S_DIFF:
		b->sum = sum_count32(p, n, DIFF_BIG, &b->n_big);
		return;
	default:
		/* the small sections (and the values: nothing to check) */
		b->sum = saved_block_sum(p, n);
		b->bad = check_small(&L, b->id, r0, r1);
		return;
	}
	if (any)
		b->bad = first_bad(&L, b->id, r0, r1);
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

/* The explanations: each entry's lops exist (a wait's cause always, its
 * root delay when it names one, a problem's hotspot likewise), kinds in
 * range; waits and delays in strictly increasing lop order (they are
 * found by binary search); no more outliers and problems than the
 * hotspots asked for. */
static int
check_explain(struct opener *o, const struct analysis *a)
{
	uint32_t nl = a->n_lops;
	for (uint32_t i = 0; i < a->n_waits; i++) {
		const struct analysis_wait *w = &a->waits[i];
		if (IDX(w->lop, nl) | IDX(w->cause_lop, nl) | OPT(w->root_lop, nl) |
		    (w->kind >= WAIT_KIND_COUNT) | (i && w->lop <= w[-1].lop))
			return fault(o, S_WAITS, "an entry names a lop or kind that is not there, or is out of order");
	}
	for (uint32_t i = 0; i < a->n_delays; i++)
		if (IDX(a->delays[i].lop, nl) | (i && a->delays[i].lop <= a->delays[i - 1].lop))
			return fault(o, S_DELAYS, "an entry names a lop that is not there, or is out of order");
	/* a lop's outlier is found by a walk of them: no more than asked for */
	if (a->n_outliers > (uint32_t)a->opts.hotspots)
		return fault(o, S_OUTLIERS, "more outliers than the hotspots asked for");
	for (uint32_t i = 0; i < a->n_outliers; i++)
		if (IDX(a->outliers[i].lop, nl))
			return fault(o, S_OUTLIERS, "an entry names a lop that is not there");
	if (a->n_problems > (uint32_t)a->opts.hotspots)
		return fault(o, S_PROBLEMS, "more problems than the hotspots asked for");
	for (uint32_t i = 0; i < a->n_problems; i++) {
		const struct analysis_problem *p = &a->problems[i];
		if (IDX(p->lop, nl) | OPT(p->surfaced, nl) | (p->kind >= PROBLEM_KIND_COUNT))
			return fault(o, S_PROBLEMS, "an entry names a lop or kind that is not there");
	}
	return 0;
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
	if (a->explained && (rc = check_explain(o, a)))
		return rc;
	/* the iterations and the options, from the meta section */
	const struct iterations *it = &a->iters;
	/* the region is read (named) whether iterations were found or not */
	if (OPT(it->region, t->n_regions) ||
	    (it->count && (it->source > ITER_NAMED || it->period_parts > a->n_parts ||
			   it->period_steps > a->n_steps || it->irregular > it->count)))
		return fault(o, S_META, "inconsistent iterations");
	const struct analysis_opts *op = &a->opts;
	if (!(op->leap_factor > 0) || op->leap_factor > 1e9 || op->iter_find < 0 ||
	    op->iter_find > ITER_FIND_OFF)
		return fault(o, S_META, "options out of range");
	return 0;
}

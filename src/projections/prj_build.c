/* prj_build.c — executions become ops, creations become messages.
 *
 * Matching (doc/charm.md): an execution names the message that started it
 * by the sending PE and that PE's event number, which the creation record
 * on the sending PE carries. When that creation is of another entry method
 * (array broadcasts are forwarded from PE to PE, and the forwarding PE
 * overwrites the sender), the execution is matched to the creation of the
 * same entry and event number on any PE: the latest one before the
 * execution began (counted as rerouted). An execution that names no
 * creation of its entry keeps a message without a sender; a creation that
 * started nothing keeps one without a receiver.
 *
 * Ops (model/charm.h): an execution is split after each creation in it;
 * the last piece runs to the end of the execution. The execution's
 * incoming message goes on the first piece, or on a zero-length piece of
 * its own when the first creation is of the other kind of dependency
 * (application vs runtime, seed 004 §3.1), so that an op never carries
 * both kinds. A creation outside any execution is a zero-length op on
 * its PE's runtime timeline.
 *
 * Kinds of dependency (MSGF_RUNTIME): an invocation is the runtime's when
 * a runtime chare sends or runs it, when the runtime invokes the entry (a
 * reduction target), or when it is a broadcast, which the runtime
 * delivers (the "broadcasts through the runtime").
 */
#include "prj_builder.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/vec.h"

struct item {
	uint64_t t;
	uint32_t pe;
	uint32_t idx;              /* execution, or creation with the top bit set */
};
#define ITEM_CRE 0x80000000u

static int
regions(struct builder *b)
{
	struct prj_reader *r = b->r;
	struct prj_sts *s = &r->sts;
	struct trace *t = b->t;
	for (uint32_t ep = 0; ep < s->n_entries; ep++) {
		struct prj_entry_def *en = &s->entries[ep];
		const struct prj_chare_def *ch = &s->chares[en->chare];
		/* "Chare::entry": the parameter list is in the signature */
		size_t n = strcspn(en->name, "(");
		while (n && en->name[n - 1] == ' ')
			n--;
		size_t len = strlen(ch->name) + 2 + n + 1;
		char *name = malloc(len);
		if (!name)
			return ERR_NOMEM;
		snprintf(name, len, "%s::%.*s", ch->name, (int)n, en->name);
		uint32_t id;
		int rc = trace_add_region(t, name, ch->runtime ? ROLE_OTHER : ROLE_USER, 0, &id);
		free(name);
		if (rc)
			return rc;
		en->region = id;
		if (VEC_GROW(t->entries, t->n_entries, t->cap_entries))
			return ERR_NOMEM;
		struct trace_entry *te = &t->entries[t->n_entries++];
		*te = (struct trace_entry){ .ep = en->id, .sts_chare = ch->id,
					    .sdag = !en->runtime && strchr(en->name, '(') == NULL,
					    .runtime = en->runtime };
		if ((rc = trace_intern(t, en->name, &te->signature)))
			return rc;
	}
	return 0;
}

/* Where a timeline's ops and ends go: from op and end on, written when
 * `write` (else only counted: the first of emit_ops's two passes). */
struct cursor {
	uint32_t op, end;
	int write;
};

static int
push_op(struct builder *b, struct cursor *cur, uint64_t t0, uint64_t t1, uint32_t tl, uint32_t region,
	uint8_t kind, uint8_t flags, uint32_t pe)
{
	struct trace *t = b->t;
	if (cur->op >= TRACE_NONE - 1)
		return ERR_LIMIT;
	if (cur->write) {
		t->op_pe[cur->op] = pe;
		t->oprec[cur->op] = (struct trace_oprec){
			.t_enter = t0, .t_exit = t1 < t0 ? t0 : t1, .timeline = tl,
			.region = trace_oprec_region(region), .frame = TRACE_NONE,
			.end_first = cur->end, .kind = kind, .flags = flags,
		};
	}
	cur->op++;
	return 0;
}

static int
add_end(struct builder *b, struct cursor *cur, uint32_t msg, uint32_t role)
{
	if (cur->end >= TRACE_NONE - 1 || msg > TRACE_END_ID_MAX)
		return ERR_LIMIT;
	if (cur->write)
		b->t->ends[cur->end] = (struct trace_end){ .id = msg, .role = role & 3 };
	cur->end++;
	return 0;
}

/* The ends of creation c on PE pe, the last op pushed: one per message it
 * became. */
static int
send_ends(struct builder *b, struct cursor *cur, uint32_t pe, uint32_t c)
{
	uint32_t first = b->msg_first[pe][c], n = b->deliv[pe][c] ? b->deliv[pe][c] : 1;
	if (cur->write) {
		if (!b->deliv[pe][c])
			b->t->oprec[cur->op - 1].flags |= OPF_UNMATCHED;
		b->c_op[pe][c] = cur->op - 1;
	}
	for (uint32_t k = 0; k < n; k++) {
		int rc = add_end(b, cur, first + k, END_SEND);
		if (rc)
			return rc;
	}
	return 0;
}

/* Is an invocation of entry ep from timeline tl a runtime dependency
 * (seed 004 §3.1: it involves a runtime chare, or the runtime makes it)? */
static int
cre_runtime(const struct builder *b, uint32_t tl, uint32_t ep)
{
	return b->t->chares[tl].runtime || b->r->sts.entries[ep].runtime;
}

static uint32_t
cre_tl(const struct builder *b, uint32_t pe, uint32_t c)
{
	uint32_t x = b->r->logs[pe].cres[c].exec;
	return x == NONE ? b->t->pes[pe].runtime : b->r->exec_tl[pe][x];
}

/* The class of creation c on PE pe: a runtime dependency when it is a
 * broadcast (the runtime delivers it: a broadcast record, or more than one
 * execution started by it), or when it involves the runtime otherwise. A
 * creation outside any execution sits on its PE's runtime timeline only
 * because its chare is unknown (the main chare's constructor runs before
 * tracing starts): there its entry decides. */
static int
cre_class(const struct builder *b, uint32_t pe, uint32_t c)
{
	const struct prj_cre *cr = &b->r->logs[pe].cres[c];
	if (cr->npes || b->deliv[pe][c] > 1)
		return 1;
	return cr->exec == NONE ? b->r->sts.entries[cr->ep].runtime
				: cre_runtime(b, cre_tl(b, pe, c), cr->ep);
}

/* Emits the ops of execution i of PE pe on timeline tl. */
static int
emit_exec(struct builder *b, struct cursor *cur, uint32_t pe, uint32_t i, uint32_t tl, int cont)
{
	const struct prj_pe_log *l = &b->r->logs[pe];
	const struct prj_exec *x = &l->execs[i];
	uint32_t region = b->r->sts.entries[x->ep].region;
	uint32_t msg = b->x_msg[pe][i];
	uint8_t flags = cont ? OPF_BLOCK_CONT : 0;
	uint8_t last_flags = (x->flags & PRJ_X_OPEN) ? OPF_TRUNCATED : 0;
	int rc;
	int sink_unmatched = msg != NONE && b->m_pe[pe][i] == NONE;
	if (sink_unmatched)
		flags |= OPF_UNMATCHED;
	if (x->n_cre == 0) {
		if ((rc = push_op(b, cur, x->t0, x->t1, tl, region, msg != NONE ? OP_RECV : OP_COMPUTE,
				  flags | last_flags, pe)))
			return rc;
		if (cur->write)
			b->x_op[pe][i] = cur->op - 1;
		return msg != NONE ? add_end(b, cur, msg, END_RECV) : 0;
	}
	int sink_alone = 0;
	if (msg != NONE) {
		uint32_t cpe = b->m_pe[pe][i];
		int sink_rt = cpe != NONE ? cre_class(b, cpe, b->m_cre[pe][i]) : cre_runtime(b, tl, x->ep);
		sink_alone = sink_rt != cre_class(b, pe, x->cre_first);
		if (sink_alone) {
			if ((rc = push_op(b, cur, x->t0, x->t0, tl, region, OP_RECV, flags, pe)))
				return rc;
			if (cur->write)
				b->x_op[pe][i] = cur->op - 1;
			if ((rc = add_end(b, cur, msg, END_RECV)))
				return rc;
			flags = OPF_BLOCK_CONT | OPF_EXEC_CONT;
		}
	}
	uint64_t from = x->t0;
	for (uint32_t k = 0; k < x->n_cre; k++) {
		uint32_t c = x->cre_first + k;
		int first = k == 0, last = k + 1 == x->n_cre;
		int with_sink = first && msg != NONE && !sink_alone;
		uint8_t f = (uint8_t)(flags | (last ? last_flags : 0));
		uint64_t to = last ? x->t1 : l->cres[c].t;
		if ((rc = push_op(b, cur, from, to, tl, region, with_sink ? OP_SENDRECV : OP_SEND, f, pe)))
			return rc;
		if (with_sink) {
			if (cur->write)
				b->x_op[pe][i] = cur->op - 1;
			if ((rc = add_end(b, cur, msg, END_RECV)))
				return rc;
		}
		if ((rc = send_ends(b, cur, pe, c)))
			return rc;
		from = l->cres[c].t;
		flags = OPF_BLOCK_CONT | OPF_EXEC_CONT;
	}
	return 0;
}

/* How many items ahead emit_ops asks for an execution's record. */
enum { PREFETCH = 8 };

static int
cmp_item(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->pe != b->pe)
		return a->pe < b->pe ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Item it of timeline tl as ops, from cur: an execution (cont: it goes
 * on with the serial block before it), or a creation outside any. */
static int
emit_item(struct builder *b, struct cursor *cur, uint32_t tl, const struct item *it, int cont)
{
	if (!(it->idx & ITEM_CRE))
		return emit_exec(b, cur, it->pe, it->idx, tl, cont);
	/* no entry method was running (or traced): no region */
	int rc = push_op(b, cur, it->t, it->t, tl, TRACE_NONE, OP_SEND, OPF_LOOSE, it->pe);
	return rc ? rc : send_ends(b, cur, it->pe, it->idx & ~ITEM_CRE);
}

/* Timeline tl's items (it[0 .. n)) in time order as ops, from cur. */
static int
emit_tl(struct builder *b, struct cursor *cur, uint32_t tl, const struct item *it, uint32_t n)
{
	struct prj_reader *r = b->r;
	uint32_t prev_pe = NONE;
	int rc = 0;
	for (uint32_t k = 0; k < n && !rc; k++) {
		uint32_t pe = it[k].pe;
		/* a timeline's executions lie scattered over the PEs' logs:
		 * ask for one a few items ahead */
		if (k + PREFETCH < n && !(it[k + PREFETCH].idx & ITEM_CRE))
			__builtin_prefetch(&r->logs[it[k + PREFETCH].pe].execs[it[k + PREFETCH].idx]);
		int exec = !(it[k].idx & ITEM_CRE);
		const struct prj_exec *x = exec ? &r->logs[pe].execs[it[k].idx] : NULL;
		/* SDAG continuations and resumed fragments go on with the
		 * serial block before them on the same PE */
		int cont = x && (x->event < 0 || (x->flags & PRJ_X_RESUMED)) && prev_pe == pe;
		rc = emit_item(b, cur, tl, &it[k], cont);
		prev_pe = exec ? pe : NONE;
	}
	return rc;
}

/* emit_ops's passes, on every core: each execution's and loose
 * creation's ops and ends counted per timeline PE by PE (each worker its
 * own counts; a PE's records lie in order), then each timeline's items
 * sorted and written from the timeline's first op and end. */
struct emitting {
	struct builder *b;
	struct item *items;
	const uint32_t *first;        /* per timeline its first item */
	uint32_t *cnt_op[PAR_MAX], *cnt_end[PAR_MAX];
	/* per worker and timeline its items, then where the next goes */
	uint32_t *cnt_item[PAR_MAX];
	uint32_t *pe_w;               /* per PE the worker that counted it */
	uint32_t *op_at, *end_at;     /* per timeline its first op and end (n_tl + 1) */
	struct par_pieces pieces;
};

static int
add_count(uint32_t *to, uint32_t n)
{
	if (*to > TRACE_NONE - 1 - n)
		return ERR_LIMIT;
	*to += n;
	return 0;
}

/* Item k of PE pe (its executions, then its creations): into *it and
 * its timeline into *tl; 0 for a creation inside an execution (which
 * goes with it). */
static int
pe_item(const struct builder *b, uint32_t pe, size_t k, struct item *it, uint32_t *tl)
{
	const struct prj_pe_log *l = &b->r->logs[pe];
	if (k < l->n_execs) {
		*it = (struct item){ .t = l->execs[k].t0, .pe = pe, .idx = (uint32_t)k };
		*tl = b->r->exec_tl[pe][k];
		return 1;
	}
	size_t c = k - l->n_execs;
	if (l->cres[c].exec != NONE)
		return 0;
	*it = (struct item){ .t = l->cres[c].t, .pe = pe, .idx = (uint32_t)c | ITEM_CRE };
	*tl = b->t->pes[pe].runtime;
	return 1;
}

static int
count_worker(void *ctx, uint32_t w, uint32_t nw)
{
	(void)nw;
	struct emitting *g = ctx;
	struct builder *b = g->b;
	uint32_t *ops = g->cnt_op[w], *ends = g->cnt_end[w], *items = g->cnt_item[w], pe;
	int rc = 0;
	while (!rc && par_take(&g->pieces, w, &pe)) {
		const struct prj_pe_log *l = &b->r->logs[pe];
		g->pe_w[pe] = w;
		for (size_t k = 0; k < l->n_execs + l->n_cres && !rc; k++) {
			struct item it;
			uint32_t tl;
			if (!pe_item(b, pe, k, &it, &tl))
				continue;
			struct cursor cur = { 0, 0, 0 };
			items[tl]++;
			rc = emit_item(b, &cur, tl, &it, 0);
			if (!rc && !(rc = add_count(&ops[tl], cur.op)))
				rc = add_count(&ends[tl], cur.end);
		}
	}
	return rc;
}

/* Each worker's PEs' items into their timelines' places, from where
 * the worker's share of each timeline begins (so in any order the
 * timeline's are then sorted into the same one). */
static int
items_worker(void *ctx, uint32_t w, uint32_t nw)
{
	(void)nw;
	struct emitting *g = ctx;
	struct builder *b = g->b;
	uint32_t *at = g->cnt_item[w];
	for (uint32_t pe = 0; pe < b->pes; pe++) {
		if (g->pe_w[pe] != w)
			continue;
		const struct prj_pe_log *l = &b->r->logs[pe];
		for (size_t k = 0; k < l->n_execs + l->n_cres; k++) {
			struct item it;
			uint32_t tl;
			if (pe_item(b, pe, k, &it, &tl))
				g->items[at[tl]++] = it;
		}
	}
	return 0;
}

static int
write_worker(void *ctx, uint32_t w, uint32_t nw)
{
	(void)nw;
	struct emitting *g = ctx;
	uint32_t tl;
	int rc = 0;
	while (!rc && par_take(&g->pieces, w, &tl)) {
		struct item *it = g->items + g->first[tl];
		uint32_t n = g->first[tl + 1] - g->first[tl];
		/* a chare that never migrated has its items in order already
		 * (one PE's log, in time order): only the others are sorted */
		uint32_t k0 = 1;
		while (k0 < n && cmp_item(&it[k0 - 1], &it[k0]) < 0)
			k0++;
		if (k0 < n)
			qsort(it, n, sizeof *it, cmp_item);
		struct cursor cur = { g->op_at[tl], g->end_at[tl], 1 };
		rc = emit_tl(g->b, &cur, tl, it, n);
		/* as counted: the counts and the ops come from the same code */
		if (!rc && (cur.op != g->op_at[tl + 1] || cur.end != g->end_at[tl + 1]))
			rc = ERR_FORMAT;
	}
	return rc;
}

/* Every timeline's executions and loose creations, in time order, as
 * ops (each timeline's ops and ends where one pass over the timelines
 * in order would put them). */
static int
emit_ops(struct builder *b)
{
	struct prj_reader *r = b->r;
	struct trace *t = b->t;
	uint32_t n_tl = (uint32_t)t->n_timelines, nw = par_workers();
	struct emitting g = { .b = b };
	uint32_t *first = calloc((size_t)n_tl + 2, sizeof *first);
	g.op_at = calloc((size_t)n_tl + 2, sizeof *g.op_at);
	g.end_at = calloc((size_t)n_tl + 2, sizeof *g.end_at);
	int rc = ERR_NOMEM;
	g.pe_w = malloc(((size_t)b->pes + 1) * sizeof *g.pe_w);
	for (uint32_t w = 0; w < nw; w++) {
		g.cnt_op[w] = calloc((size_t)n_tl + 1, sizeof **g.cnt_op);
		g.cnt_end[w] = calloc((size_t)n_tl + 1, sizeof **g.cnt_end);
		g.cnt_item[w] = calloc((size_t)n_tl + 1, sizeof **g.cnt_item);
		if (!g.cnt_op[w] || !g.cnt_end[w] || !g.cnt_item[w])
			goto out;
	}
	if (!first || !g.op_at || !g.end_at || !g.pe_w)
		goto out;
	size_t total = 0;
	for (uint32_t pe = 0; pe < b->pes; pe++)
		total += r->logs[pe].n_execs + r->logs[pe].n_cres;
	par_pieces_init(&g.pieces, b->pes, nw);
	if ((rc = par_run(nw, count_worker, &g)))
		goto out;
	/* each timeline's items, and each worker's place among them */
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		first[tl + 1] = first[tl];
		for (uint32_t w = 0; w < nw; w++) {
			uint32_t k = g.cnt_item[w][tl];
			g.cnt_item[w][tl] = first[tl + 1];
			first[tl + 1] += k;
		}
	}
	g.first = first;
	/* each timeline's first op and end: where the timelines before it
	 * end */
	uint64_t ops = 0, ends = 0;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint64_t no = 0, ne = 0;
		for (uint32_t w = 0; w < nw; w++) {
			no += g.cnt_op[w][tl];
			ne += g.cnt_end[w][tl];
		}
		t->timelines[tl].op_first = (uint32_t)ops;
		t->timelines[tl].op_count = (uint32_t)no;
		t->timelines[tl].events = (uint32_t)no;
		g.op_at[tl] = (uint32_t)ops;
		g.end_at[tl] = (uint32_t)ends;
		ops += no;
		ends += ne;
		if (ops > TRACE_NONE - 1 || ends > TRACE_NONE - 1) {
			rc = ERR_LIMIT;
			goto out;
		}
	}
	g.op_at[n_tl] = (uint32_t)ops;
	g.end_at[n_tl] = (uint32_t)ends;
	rc = ERR_NOMEM;
	g.items = malloc((total + 1) * sizeof *g.items);
	free(t->oprec);
	free(t->op_pe);
	free(t->ends);
	t->oprec = malloc((ops + 1) * sizeof *t->oprec);
	t->op_pe = malloc((ops + 1) * sizeof *t->op_pe);
	t->ends = malloc((ends + 1) * sizeof *t->ends);
	t->n_oprec = t->n_op_pe = t->cap_oprec = t->cap_op_pe = 0;
	t->n_ends = t->cap_ends = 0;
	if (!g.items || !t->oprec || !t->op_pe || !t->ends)
		goto out;
	t->n_oprec = t->n_op_pe = t->cap_oprec = t->cap_op_pe = ops;
	t->n_ends = t->cap_ends = ends;
	par_run(nw, items_worker, &g);
	par_pieces_init(&g.pieces, n_tl, nw);
	rc = par_run(nw, write_worker, &g);
out:
	for (uint32_t w = 0; w < nw; w++) {
		free(g.cnt_op[w]);
		free(g.cnt_end[w]);
		free(g.cnt_item[w]);
	}
	free(g.pe_w);
	free(g.items);
	free(first);
	free(g.op_at);
	free(g.end_at);
	return rc;
}

/* fill_msgs's two passes over the PEs, on every core: the creations'
 * side of every message (a creation's messages are its own), then the
 * executions' (an execution's message is its own). */
struct msg_fill {
	struct builder *b;
	int recv;
	struct par_pieces pieces;
};

static int
fill_worker(void *ctx, uint32_t w, uint32_t nw)
{
	(void)nw;
	struct msg_fill *g = ctx;
	struct builder *b = g->b;
	struct prj_reader *r = b->r;
	struct trace *t = b->t;
	uint32_t pe;
	while (par_take(&g->pieces, w, &pe)) {
		const struct prj_pe_log *l = &r->logs[pe];
		for (size_t c = 0; !g->recv && c < l->n_cres; c++) {
			uint32_t n = b->deliv[pe][c] ? b->deliv[pe][c] : 1;
			for (uint32_t k = 0; k < n; k++) {
				struct trace_msg *m = &t->msgs[b->msg_first[pe][c] + k];
				m->send_op = b->c_op[pe][c];
				m->t_send = l->cres[c].t;
				m->bytes = l->cres[c].bytes;
				m->sender = cre_tl(b, pe, (uint32_t)c);
				m->tag = r->sts.entries[l->cres[c].ep].region;
				if (b->deliv[pe][c] > 1 || l->cres[c].npes)
					m->flags |= MSGF_BROADCAST;
				if (cre_class(b, pe, (uint32_t)c))
					m->flags |= MSGF_RUNTIME;
			}
		}
		for (size_t i = 0; g->recv && i < l->n_execs; i++) {
			uint32_t id = b->x_msg[pe][i];
			if (id == NONE)
				continue;
			struct trace_msg *m = &t->msgs[id];
			m->recv_op = b->x_op[pe][i];
			m->t_recv = l->execs[i].t0;
			m->receiver = r->exec_tl[pe][i];
			m->tag = r->sts.entries[l->execs[i].ep].region;
			if (b->m_pe[pe][i] != NONE && b->m_pe[pe][i] != l->execs[i].srcpe)
				m->flags |= MSGF_REROUTED;
			if (b->m_pe[pe][i] == NONE && cre_runtime(b, m->receiver, l->execs[i].ep))
				m->flags |= MSGF_RUNTIME;
		}
	}
	return 0;
}

static void
fill_msgs(struct builder *b)
{
	uint32_t nw = par_workers();
	for (int recv = 0; recv < 2; recv++) {
		struct msg_fill g = { .b = b, .recv = recv };
		par_pieces_init(&g.pieces, b->pes, nw);
		par_run(nw, fill_worker, &g);
	}
}

/* A share of the timelines each: their ops counted per PE, and each
 * chare's PEs (a stamp per PE). */
struct pe_counts {
	struct trace *t;
	uint32_t pes;
	uint32_t *ops[PAR_MAX], *stamp[PAR_MAX];
};

static int
pe_count_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct pe_counts *g = ctx;
	struct trace *t = g->t;
	uint32_t from, to, *ops = g->ops[w], *stamp = g->stamp[w];
	memset(stamp, 0xff, ((size_t)g->pes + 1) * sizeof *stamp);
	par_share(t->n_timelines, w, nw, &from, &to);
	for (uint32_t tl = from; tl < to; tl++) {
		const struct trace_timeline *x = &t->timelines[tl];
		uint32_t n = 0;
		for (uint32_t o = x->op_first; o < x->op_first + x->op_count; o++) {
			ops[t->op_pe[o]]++;
			if (stamp[t->op_pe[o]] != tl) {
				stamp[t->op_pe[o]] = tl;
				n++;
			}
		}
		t->chares[tl].pes = n ? n : 1;
	}
	return 0;
}

/* PEs, idle intervals, chare PE counts, and the trace's summary. */
static int
fill_pes(struct builder *b)
{
	struct prj_reader *r = b->r;
	struct trace *t = b->t;
	struct trace_info *info = &t->info;
	size_t n_idles = 0;
	for (uint32_t pe = 0; pe < b->pes; pe++)
		n_idles += r->logs[pe].n_idles;
	t->idles = malloc((n_idles + 1) * sizeof *t->idles);
	if (!t->idles)
		return ERR_NOMEM;
	t->cap_idles = n_idles + 1;
	int any = 0;
	for (uint32_t pe = 0; pe < b->pes; pe++) {
		const struct prj_pe_log *l = &r->logs[pe];
		struct trace_pe *p = &t->pes[pe];
		memcpy(p->records, l->records, sizeof p->records);
		p->t_begin = l->has_begin_comp ? l->t_begin_comp : l->t_first;
		p->t_end = l->has_end_comp ? l->t_end_comp : l->t_last;
		p->idle_first = (uint32_t)t->n_idles;
		p->idle_count = (uint32_t)l->n_idles;
		if (l->n_idles)
			memcpy(t->idles + t->n_idles, l->idles, l->n_idles * sizeof *t->idles);
		t->n_idles += l->n_idles;
		for (int k = 0; k < CREC_COUNT; k++)
			info->events += l->records[k];
		for (int w = 0; w < WARN_COUNT; w++)
			info->warnings[w] += l->warnings[w];
		if (l->any || l->has_begin_comp) {
			if (!any || p->t_begin < info->t_begin)
				info->t_begin = p->t_begin;
			if (!any || p->t_end > info->t_end)
				info->t_end = p->t_end;
			any = 1;
		}
	}
	/* each PE's ops and how many PEs each chare ran on, on every core */
	struct pe_counts g = { .t = t, .pes = b->pes };
	uint32_t nw = par_workers();
	int rc = 0;
	for (uint32_t w = 0; w < nw && !rc; w++) {
		g.ops[w] = calloc((size_t)b->pes + 1, sizeof *g.ops[w]);
		g.stamp[w] = malloc(((size_t)b->pes + 1) * sizeof *g.stamp[w]);
		rc = g.ops[w] && g.stamp[w] ? 0 : ERR_NOMEM;
	}
	if (!rc)
		par_run(nw, pe_count_worker, &g);
	for (uint32_t w = 0; w < nw; w++) {
		for (uint32_t pe = 0; !rc && pe < b->pes; pe++)
			t->pes[pe].ops += g.ops[w][pe];
		free(g.ops[w]);
		free(g.stamp[w]);
	}
	return rc;
}

static void
free_table(uint32_t **tab, uint32_t n)
{
	if (!tab)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(tab[i]);
	free(tab);
}

/* A table per PE, a word an execution or a creation; zeroed only where
 * a count or a default of 0 is read (the others are written whole before
 * they are read: no clearing of their pages twice). */
static uint32_t **
new_table(const struct prj_reader *r, uint32_t pes, int per_exec, int zero)
{
	uint32_t **tab = calloc((size_t)pes + 1, sizeof *tab);
	if (!tab)
		return NULL;
	for (uint32_t pe = 0; pe < pes; pe++) {
		size_t n = per_exec ? r->logs[pe].n_execs : r->logs[pe].n_cres;
		tab[pe] = zero ? calloc(n + 1, sizeof **tab) : malloc((n + 1) * sizeof **tab);
		if (!tab[pe]) {
			free_table(tab, pes);
			return NULL;
		}
	}
	return tab;
}

int
prj_build(struct prj_reader *r, struct err *e)
{
	struct builder b = { .r = r, .t = r->t, .pes = r->sts.pes };
	int rc = ERR_NOMEM;
	b.m_pe = new_table(r, b.pes, 1, 0);          /* prj_match: every execution */
	b.m_cre = new_table(r, b.pes, 1, 0);
	b.x_msg = new_table(r, b.pes, 1, 0);         /* prj_number_msgs: every execution */
	b.x_op = new_table(r, b.pes, 1, 1);
	b.deliv = new_table(r, b.pes, 0, 1);
	b.msg_first = new_table(r, b.pes, 0, 0);     /* prj_number_msgs: every creation */
	b.c_op = new_table(r, b.pes, 0, 1);
	if (b.m_pe && b.m_cre && b.x_msg && b.x_op && b.deliv && b.msg_first && b.c_op &&
	    !(rc = regions(&b)) && !(rc = prj_match(&b)) && !(rc = prj_number_msgs(&b))) {
		if (!(rc = emit_ops(&b))) {
			fill_msgs(&b);
			rc = fill_pes(&b);
		}
	}
	free_table(b.m_pe, b.pes);
	free_table(b.m_cre, b.pes);
	free_table(b.x_msg, b.pes);
	free_table(b.x_op, b.pes);
	free_table(b.deliv, b.pes);
	free_table(b.msg_first, b.pes);
	free_table(b.c_op, b.pes);
	free(b.fb);
	if (rc == ERR_NOMEM)
		return err_set(e, rc, "out of memory");
	if (rc == ERR_LIMIT)
		return err_set(e, rc, "%s: more operations, messages or entry methods than skein "
			       "can index (%s)", r->sts.path, trace_limits_text());
	if (rc == ERR_FORMAT)     /* write_worker: not what was counted (a bug) */
		return err_set(e, rc, "%s: the operations built differ from their count", r->sts.path);
	return rc;
}

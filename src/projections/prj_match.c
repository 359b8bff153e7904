/* prj_match.c — which creation started each execution, and the
 * messages' ids (prj_build.c says how executions and creations are
 * matched; doc/charm.md). */
#include "prj_builder.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/vec.h"

static int
cmp_fb(const void *x, const void *y)
{
	const struct fb *a = x, *b = y;
	if (a->ep != b->ep)
		return a->ep < b->ep ? -1 : 1;
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->pe < b->pe ? -1 : a->pe > b->pe;
}

static int
build_fallback(struct builder *b)
{
	size_t n = 0;
	for (uint32_t pe = 0; pe < b->pes; pe++)
		n += b->r->logs[pe].n_cres;
	b->fb = malloc((n + 1) * sizeof *b->fb);
	if (!b->fb)
		return ERR_NOMEM;
	for (uint32_t pe = 0; pe < b->pes; pe++) {
		const struct prj_pe_log *l = &b->r->logs[pe];
		for (size_t i = 0; i < l->n_cres; i++)
			b->fb[b->n_fb++] = (struct fb){ .ep = l->cres[i].ep, .event = l->cres[i].event,
						       .t = l->cres[i].t, .pe = pe, .idx = (uint32_t)i };
	}
	if (b->n_fb > 1)
		qsort(b->fb, b->n_fb, sizeof *b->fb, cmp_fb);
	b->fb_built = 1;
	return 0;
}

/* The creation of x's entry and event on any PE: the latest before x
 * began, else the earliest. */
static int
reroute(struct builder *b, const struct prj_exec *x, uint32_t *pe, uint32_t *cre)
{
	if (!b->fb_built && build_fallback(b))
		return ERR_NOMEM;
	size_t lo = 0, hi = b->n_fb;
	struct fb key = { .ep = x->ep, .event = x->event, .t = 0, .pe = 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_fb(&b->fb[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pe = *cre = NONE;
	for (size_t i = lo; i < b->n_fb && b->fb[i].ep == x->ep && b->fb[i].event == x->event; i++) {
		if (*pe == NONE || b->fb[i].t <= x->t0) {
			*pe = b->fb[i].pe;
			*cre = b->fb[i].idx;
		}
		if (b->fb[i].t > x->t0)
			break;
	}
	return 0;
}

/* Is entry ep one of the runtime's, which delivers messages for others
 * (its chare type is the runtime's, and it is no reduction target)? */
static int
delivery(const struct prj_reader *r, uint32_t ep)
{
	const struct prj_entry_def *en = &r->sts.entries[ep];
	return r->sts.chares[en->chare].runtime;
}

/* What match_named did with an execution: MATCHED (its creation found,
 * or nothing to find), or REROUTE: the creation it names is missing or
 * of another entry, and match_rerouted must look further. */
enum { MATCHED, REROUTE };

/* x's creation where x names it. Counts the delivery in deliv[][]
 * (atomically: the executions of every PE deliver any PE's creations)
 * and an execution without one in *unmatched. */
static int
match_named(struct builder *b, uint32_t pe, size_t i, uint64_t *unmatched)
{
	struct prj_reader *r = b->r;
	const struct prj_exec *x = &r->logs[pe].execs[i];
	b->m_pe[pe][i] = b->m_cre[pe][i] = NONE;
	if (x->event < 0 || (x->flags & PRJ_X_RESUMED))
		return MATCHED;
	const struct prj_pe_log *src = &r->logs[x->srcpe];
	uint32_t c = prj_log_creation(src, x->event);
	if (c == NONE || src->cres[c].ep != x->ep)
		return REROUTE;
	if (x->srcpe == pe && src->cres[c].t > x->t0) {
		/* a creation on the same PE (one clock) after the execution
		 * began cannot have caused it: the records are wrong */
		(*unmatched)++;
		return MATCHED;
	}
	b->m_pe[pe][i] = x->srcpe;
	b->m_cre[pe][i] = c;
	__atomic_fetch_add(&b->deliv[x->srcpe][c], 1, __ATOMIC_RELAXED);
	return MATCHED;
}

/* x's creation where it names none of its entry: on another PE, or (logs
 * before 9.0) the runtime's delivery it names, whose entry becomes x's. */
static int
match_rerouted(struct builder *b, uint32_t pe, size_t i)
{
	struct prj_reader *r = b->r;
	const struct prj_exec *x = &r->logs[pe].execs[i];
	struct prj_pe_log *src = &r->logs[x->srcpe];
	uint32_t named = prj_log_creation(src, x->event), c, cpe;
	if (reroute(b, x, &cpe, &c))
		return ERR_NOMEM;
	/* logs before 9.0 name the runtime's delivery entry at the creation
	 * (CkLocMgr::deliver for an array element's entry): with no creation
	 * of x's own entry, the one x names is its message, an invocation of
	 * x's entry. (Later logs name the entry itself; there a runtime
	 * creation of another entry is not x's.) */
	if (c == NONE && named != NONE && !prj_sts_at_least(&r->sts, 9, 0) &&
	    delivery(r, src->cres[named].ep)) {
		c = named;
		cpe = x->srcpe;
		src->cres[c].ep = x->ep;
	}
	if (c != NONE && cpe == pe && r->logs[cpe].cres[c].t > x->t0)
		c = NONE;
	if (c == NONE) {
		r->t->info.warnings[WARN_UNMATCHED_RECV]++;
		return 0;
	}
	b->m_pe[pe][i] = cpe;
	b->m_cre[pe][i] = c;
	b->deliv[cpe][c]++;
	return 0;
}

/* Logs before 9.0 rename a creation's entry as they reroute (above), and
 * a later execution reads the new name: one core, in order. */
static int
match_in_order(struct builder *b)
{
	uint64_t unmatched = 0;
	for (uint32_t pe = 0; pe < b->pes; pe++)
		for (size_t i = 0; i < b->r->logs[pe].n_execs; i++)
			if (match_named(b, pe, i, &unmatched) == REROUTE && match_rerouted(b, pe, i))
				return ERR_NOMEM;
	b->r->t->info.warnings[WARN_UNMATCHED_RECV] += unmatched;
	return 0;
}

/* Later logs change no creation: a share of the PEs each matches what
 * its executions name and lists the rest (usually none), rerouted on one
 * core after (the fallback table is built at the first). */
struct matching {
	struct builder *b;
	uint32_t cut[PAR_MAX + 1];
	uint64_t unmatched[PAR_MAX];
	uint64_t *rest[PAR_MAX];   /* pe << 32 | execution */
	size_t n_rest[PAR_MAX], cap_rest[PAR_MAX];
	int rc[PAR_MAX];
};

static int
match_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct matching *g = ctx;
	(void)nw;
	for (uint32_t pe = g->cut[w]; pe < g->cut[w + 1]; pe++)
		for (size_t i = 0; i < g->b->r->logs[pe].n_execs; i++) {
			if (match_named(g->b, pe, i, &g->unmatched[w]) == MATCHED)
				continue;
			if (VEC_GROW(g->rest[w], g->n_rest[w], g->cap_rest[w]))
				return g->rc[w] = ERR_NOMEM;
			g->rest[w][g->n_rest[w]++] = (uint64_t)pe << 32 | i;
		}
	return 0;
}

int
prj_match(struct builder *b)
{
	uint32_t nw = prj_workers(b->r);
	if (nw < 2 || !prj_sts_at_least(&b->r->sts, 9, 0))
		return match_in_order(b);
	struct matching *g = calloc(1, sizeof *g);
	if (!g)
		return ERR_NOMEM;
	g->b = b;
	par_split(b->pes, nw, prj_exec_weight, b->r, g->cut);
	par_run(nw, match_worker, g);
	int rc = 0;
	for (uint32_t w = 0; w < nw && !rc; w++) {
		rc = g->rc[w];
		b->r->t->info.warnings[WARN_UNMATCHED_RECV] += g->unmatched[w];
	}
	for (uint32_t w = 0; w < nw && !rc; w++)
		for (size_t k = 0; k < g->n_rest[w] && !rc; k++)
			rc = match_rerouted(b, (uint32_t)(g->rest[w][k] >> 32), (uint32_t)g->rest[w][k]);
	for (uint32_t w = 0; w < PAR_MAX; w++)
		free(g->rest[w]);
	free(g);
	return rc;
}

/* The creations' first message ids and the messages' empty records,
 * on every core: each PE's creations counted (their messages: one a
 * delivery, one without any), the counts summed into each PE's first id
 * on one core, then each PE's ids given and the records cleared a share
 * at a time (the records' pages first touched on every core). */
struct msg_ids {
	struct builder *b;
	uint64_t *base;            /* per PE: its messages, then its first id */
	uint64_t *unsent;          /* per PE: creations delivered nowhere */
	uint64_t n;
	int round;                 /* 0: count; 1: ids; 2: clear the records */
};

static int
ids_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct msg_ids *g = ctx;
	struct builder *b = g->b;
	uint32_t from, to;
	if (g->round == 2) {
		par_share((uint32_t)g->n, w, nw, &from, &to);
		for (uint32_t m = from; m < to; m++)
			b->t->msgs[m] = (struct trace_msg){ .send_op = TRACE_NONE, .recv_op = TRACE_NONE,
							    .send_done_op = TRACE_NONE,
							    .sender = TRACE_NONE,
							    .receiver = TRACE_NONE, .comm = TRACE_NONE };
		return 0;
	}
	par_share(b->pes, w, nw, &from, &to);
	for (uint32_t pe = from; pe < to; pe++) {
		uint64_t n = g->round ? g->base[pe] : 0, unsent = 0;
		for (size_t c = 0; c < b->r->logs[pe].n_cres; c++) {
			if (g->round)
				b->msg_first[pe][c] = (uint32_t)(n < NONE ? n : NONE);
			n += b->deliv[pe][c] ? b->deliv[pe][c] : 1;
			unsent += !b->deliv[pe][c];
		}
		if (!g->round) {
			g->base[pe] = n;
			g->unsent[pe] = unsent;
		}
	}
	return 0;
}

/* The deliveries' message ids, each execution's, as one core giving
 * them in execution order would: the k-th delivery of a creation is its
 * first id + k, and the executions with no creation take the ids after
 * every creation's, in order. Most creations are delivered once, and
 * their deliveries' ids depend on nothing else: a share of the PEs each
 * gives them and lists the others (a creation delivered several times,
 * or none found) in order; one core then gives those, the lists in
 * worker order (PE order). deliv[][] holds each creation's deliveries
 * after, as before. */
struct deliveries {
	struct builder *b;
	uint32_t cut[PAR_MAX + 1];
	uint64_t *rest[PAR_MAX];   /* pe << 32 | execution, in order */
	size_t n_rest[PAR_MAX], cap_rest[PAR_MAX];
	int rc[PAR_MAX];
};

static int
deliv_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct deliveries *g = ctx;
	struct builder *b = g->b;
	(void)nw;
	for (uint32_t pe = g->cut[w]; pe < g->cut[w + 1]; pe++) {
		const struct prj_pe_log *l = &b->r->logs[pe];
		for (size_t i = 0; i < l->n_execs; i++) {
			const struct prj_exec *x = &l->execs[i];
			uint32_t cpe = b->m_pe[pe][i];
			if (cpe != NONE && b->deliv[cpe][b->m_cre[pe][i]] == 1) {
				b->x_msg[pe][i] = b->msg_first[cpe][b->m_cre[pe][i]];
			} else if (cpe != NONE || (x->event >= 0 && !(x->flags & PRJ_X_RESUMED))) {
				if (VEC_GROW(g->rest[w], g->n_rest[w], g->cap_rest[w]))
					return g->rc[w] = ERR_NOMEM;
				g->rest[w][g->n_rest[w]++] = (uint64_t)pe << 32 | i;
			} else {
				b->x_msg[pe][i] = NONE;
			}
		}
	}
	return 0;
}

static int
delivery_ids(struct builder *b, uint64_t *n)
{
	struct deliveries *g = calloc(1, sizeof *g);
	if (!g)
		return ERR_NOMEM;
	g->b = b;
	uint32_t nw = prj_workers(b->r);
	par_split(b->pes, nw, prj_exec_weight, b->r, g->cut);
	par_run(nw, deliv_worker, g);
	int rc = 0;
	for (uint32_t w = 0; w < nw && !rc; w++)
		rc = g->rc[w];
	/* the creations delivered several times count their deliveries again */
	for (uint32_t w = 0; w < nw && !rc; w++)
		for (size_t k = 0; k < g->n_rest[w]; k++) {
			uint32_t pe = (uint32_t)(g->rest[w][k] >> 32), i = (uint32_t)g->rest[w][k];
			if (b->m_pe[pe][i] != NONE)
				b->deliv[b->m_pe[pe][i]][b->m_cre[pe][i]] = 0;
		}
	for (uint32_t w = 0; w < nw && !rc; w++)
		for (size_t k = 0; k < g->n_rest[w]; k++) {
			uint32_t pe = (uint32_t)(g->rest[w][k] >> 32), i = (uint32_t)g->rest[w][k];
			uint32_t cpe = b->m_pe[pe][i];
			if (cpe != NONE) {
				uint32_t c = b->m_cre[pe][i];
				b->x_msg[pe][i] = b->msg_first[cpe][c] + b->deliv[cpe][c]++;
			} else {
				b->x_msg[pe][i] = (uint32_t)(*n < NONE ? *n : NONE);
				(*n)++;
			}
		}
	for (uint32_t w = 0; w < PAR_MAX; w++)
		free(g->rest[w]);
	free(g);
	return rc;
}

/* Message ids: each creation's deliveries together (one message if it
 * started nothing), then the executions whose creation is unknown. */
int
prj_number_msgs(struct builder *b)
{
	struct prj_reader *r = b->r;
	uint32_t nw = par_workers();
	struct msg_ids g = { .b = b, .base = malloc(((size_t)b->pes + 1) * sizeof *g.base),
			     .unsent = malloc(((size_t)b->pes + 1) * sizeof *g.unsent) };
	if (!g.base || !g.unsent) {
		free(g.base);
		free(g.unsent);
		return ERR_NOMEM;
	}
	par_run(nw, ids_worker, &g);
	uint64_t n = 0;
	for (uint32_t pe = 0; pe < b->pes; pe++) {
		uint64_t k = g.base[pe];
		g.base[pe] = n;
		n += k;
		r->t->info.warnings[WARN_UNMATCHED_SEND] += g.unsent[pe];
	}
	g.round = 1;
	par_run(nw, ids_worker, &g);
	free(g.base);
	free(g.unsent);
	int rc;
	if ((rc = delivery_ids(b, &n)))
		return rc;
	if (n >= NONE - 1)
		return ERR_LIMIT;
	b->n_msgs = n;
	struct trace *t = b->t;
	t->msgs = malloc((n + 1) * sizeof *t->msgs);
	if (!t->msgs)
		return ERR_NOMEM;
	memset(&t->msgs[n], 0, sizeof t->msgs[n]);
	t->n_msgs = t->cap_msgs = n;
	g.n = n;
	g.round = 2;
	par_run(nw, ids_worker, &g);
	return 0;
}


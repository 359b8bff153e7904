/* prj_chares.c — which chare every execution belongs to.
 *
 * The paper groups application tasks by their chare and all runtime tasks
 * by their PE (seed 004, §2.1). So:
 *
 *  - an execution of an entry whose chare type counts as the runtime's
 *    (projections_read_opts.runtime_chares) goes to its PE's runtime
 *    timeline — except an execution of a runtime entry with no message
 *    (event -1, as Charm++'s SDAG_RTS) that follows an execution of an
 *    array element on the same PE and whose object id begins with that
 *    element's index: it ran on the element's behalf, and joins it;
 *  - an execution of an array element (format 9 and later record the
 *    index, as many ids as the .sts gives the array dimensions) goes to
 *    the element's timeline;
 *  - any other application execution goes to its chare type on its PE: a
 *    group member, or a singleton chare such as the main chare when the
 *    type only ever ran on one PE. (Logs before format 9 do not record
 *    array indices, so array elements of one type on one PE share a
 *    timeline there.)
 *
 * Timelines are numbered for display: application chares by chare type
 * and index (or PE), then the runtime timelines by PE.
 */
#include "prj_impl.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/par.h"
#include "base/sort.h"
#include "base/vec.h"

const char *const projections_default_runtime[] = {
	"dummy_*", "null", "SDAG", "Chare", "Group", "ArrayElement", "ArrayBase",
	"Future*", "Ck*", "ck*", "waitqd_*", "Trace*", "KMeansBOC",
	"RRMap", "DefaultArrayMap", "FastArrayMap", "HilbertArrayMap", "ReadFileMap",
	"Simple1DFileMap", "BlockMap", "CldMap", "ConfigurableRRMap", "PropMap",
	"BaseLB", "NullLB", "LBDBInit", "LBDatabase", "LBMgrInit", "LBManager",
	"MetaLBInit", "MetaBalancer", "MetaBalancerRedn", "Tempo*", "PowerLogger",
	NULL,
};

/* Reduction targets: charmxi names their wrappers redn_wrapper_*, and
 * plain targets take a CkReductionMsg. */
const char *const projections_default_runtime_entries[] = {
	"redn_wrapper_*", "*(CkReductionMsg[*]*", NULL,
};

struct tmp_tl {
	uint64_t key_a, key_b;
	uint32_t chare;            /* index in sts.chares (id order), UINT32_MAX for runtime */
	uint32_t pe;               /* first PE */
	uint8_t kind, nids;
};

struct assigner {
	struct prj_reader *r;
	struct tmp_tl *tl;
	size_t n_tl, cap_tl;
	struct hmap *by_chare;     /* per chare defined: key -> tmp timeline */
	uint32_t *runtime_tl;      /* per PE, or UINT32_MAX */
	uint32_t *chare_pes;       /* per chare defined: distinct PEs seen, capped at 2 */
	uint32_t *chare_pe;        /* the first of them */
};

static int
new_tl(struct assigner *as, struct tmp_tl v, uint32_t *id)
{
	if (as->n_tl >= TRACE_NONE - 1)
		return ERR_LIMIT;
	if (VEC_GROW(as->tl, as->n_tl, as->cap_tl))
		return ERR_NOMEM;
	*id = (uint32_t)as->n_tl;
	as->tl[as->n_tl++] = v;
	return 0;
}

static int
runtime_of(struct assigner *as, uint32_t pe, uint32_t *id)
{
	if (as->runtime_tl[pe] != UINT32_MAX) {
		*id = as->runtime_tl[pe];
		return 0;
	}
	int rc = new_tl(as, (struct tmp_tl){ .chare = UINT32_MAX, .pe = pe, .kind = CHARE_RUNTIME }, id);
	if (!rc)
		as->runtime_tl[pe] = *id;
	return rc;
}

static int
keyed(struct assigner *as, uint32_t chare, uint64_t a, uint64_t b, uint8_t kind, uint8_t nids,
      uint32_t pe, uint32_t *id)
{
	uint32_t *v = hmap_get(&as->by_chare[chare], a, b);
	if (v) {
		*id = *v;
		return 0;
	}
	int rc = new_tl(as, (struct tmp_tl){ .key_a = a, .key_b = b, .chare = chare, .pe = pe,
					   .kind = kind, .nids = nids }, id);
	return rc ? rc : hmap_put(&as->by_chare[chare], a, b, *id);
}

/* Does runtime execution x (no message) run for array element prev? */
static int
runs_for(const struct prj_exec *x, const struct prj_exec *prev)
{
	if (x->event >= 0 || !(prev->flags & PRJ_X_INDEX) || x->nids < prev->nids ||
	    x->key_a == UINT64_MAX)
		return 0;
	int32_t a[6], b[6];
	prj_unkey(x->key_a, x->key_b, x->nids, a);
	prj_unkey(prev->key_a, prev->key_b, prev->nids, b);
	for (uint32_t i = 0; i < prev->nids; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static int
assign_pe(struct assigner *as, uint32_t pe)
{
	struct prj_reader *r = as->r;
	const struct prj_sts *s = &r->sts;
	const struct prj_pe_log *l = &r->logs[pe];
	uint32_t *out = r->exec_tl[pe];
	int rc = 0;
	for (size_t i = 0; i < l->n_execs && !rc; i++) {
		const struct prj_exec *x = &l->execs[i];
		uint32_t c = s->entries[x->ep].chare;
		uint32_t id;
		if (s->chares[c].runtime) {
			const struct prj_exec *prev = i ? &l->execs[i - 1] : NULL;
			if (prev && !s->chares[s->entries[prev->ep].chare].runtime && runs_for(x, prev)) {
				out[i] = out[i - 1];
				continue;
			}
			rc = runtime_of(as, pe, &id);
		} else if (x->flags & PRJ_X_INDEX) {
			rc = keyed(as, c, x->key_a, x->key_b, CHARE_ARRAY, x->nids, pe, &id);
		} else {
			rc = keyed(as, c, UINT64_C(3) << 56, pe, CHARE_GROUP, 0, pe, &id);
			if (!rc && as->chare_pes[c] < 2 && (as->chare_pes[c] == 0 || as->chare_pe[c] != pe)) {
				if (as->chare_pes[c] == 0)
					as->chare_pe[c] = pe;
				as->chare_pes[c]++;
			}
		}
		if (rc)
			break;
		out[i] = id;
	}
	/* creations outside any execution (the main chare's constructor runs
	 * before tracing starts) are the runtime's on that PE */
	for (size_t i = 0; i < l->n_cres && !rc; i++)
		if (l->cres[i].exec == UINT32_MAX) {
			uint32_t id;
			rc = runtime_of(as, pe, &id);
			break;
		}
	return rc;
}

static int
cmp_index(const struct tmp_tl *x, const struct tmp_tl *y)
{
	int32_t a[6] = { 0 }, b[6] = { 0 };
	prj_unkey(x->key_a, x->key_b, x->nids, a);
	prj_unkey(y->key_a, y->key_b, y->nids, b);
	for (uint32_t i = 0; i < x->nids && i < y->nids; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return (x->nids > y->nids) - (x->nids < y->nids);
}

/* Display order: application timelines by chare type, then index (arrays)
 * or PE; runtime timelines last, by PE. */
static int
cmp_tl(const struct tmp_tl *x, const struct tmp_tl *y)
{
	int xr = x->kind == CHARE_RUNTIME, yr = y->kind == CHARE_RUNTIME;
	if (xr != yr)
		return xr - yr;
	if (xr)
		return (x->pe > y->pe) - (x->pe < y->pe);
	if (x->chare != y->chare)
		return x->chare < y->chare ? -1 : 1;
	if (x->kind == CHARE_ARRAY && y->kind == CHARE_ARRAY)
		return cmp_index(x, y);
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (x->pe > y->pe) - (x->pe < y->pe);
}

static int
cmp_tl_ids(const void *ctx, uint32_t a, uint32_t b)
{
	const struct tmp_tl *tl = ctx;
	return cmp_tl(&tl[a], &tl[b]);
}

/* 1 if name matches one of the globs (n of them, or NULL-terminated). */
static int
matches(const char *const *globs, uint32_t n, const char *name)
{
	for (uint32_t k = 0; k < n && globs[k]; k++)
		if (fnmatch(globs[k], name, 0) == 0)
			return 1;
	return 0;
}

static int
check_globs(const char *const *globs, uint32_t n, const char *what, struct err *e)
{
	for (uint32_t k = 0; k < n && globs[k]; k++)
		if (!globs[k][0])
			return err_set(e, ERR_USAGE, "runtime %s pattern %u is empty", what, k + 1);
	return 0;
}

static int
mark_runtime(struct prj_reader *r, struct err *e)
{
	const struct projections_read_opts *o = r->opts;
	const char *const *cg = o && o->runtime_chares ? o->runtime_chares : projections_default_runtime;
	uint32_t cn = o && o->runtime_chares ? o->n_runtime_chares : UINT32_MAX;
	const char *const *eg = o && o->runtime_entries ? o->runtime_entries
		: projections_default_runtime_entries;
	uint32_t en = o && o->runtime_entries ? o->n_runtime_entries : UINT32_MAX;
	int rc = check_globs(cg, cn, "chare", e);
	if (rc || (rc = check_globs(eg, en, "entry", e)))
		return rc;
	struct prj_sts *s = &r->sts;
	for (uint32_t c = 0; c < s->n_chares; c++)
		s->chares[c].runtime = (uint8_t)matches(cg, cn, s->chares[c].name);
	for (uint32_t i = 0; i < s->n_entries; i++)
		s->entries[i].runtime = s->chares[s->entries[i].chare].runtime ||
					matches(eg, en, s->entries[i].name);
	return 0;
}

static int
fill_timelines(struct assigner *as, const uint32_t *order, uint32_t *final)
{
	struct prj_reader *r = as->r;
	struct trace *t = r->t;
	uint32_t n = (uint32_t)as->n_tl;
	int rc = trace_set_timelines(t, n);
	if (rc)
		return rc;
	t->chares = calloc(n ? n : 1, sizeof *t->chares);
	if (!t->chares)
		return ERR_NOMEM;
	t->n_chares = t->cap_chares = n;
	uint32_t runtime_name;
	if ((rc = trace_intern(t, "runtime", &runtime_name)))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		const struct tmp_tl *x = &as->tl[order[i]];
		final[order[i]] = i;
		struct trace_chare *c = &t->chares[i];
		c->pe = x->pe;
		c->pes = 1;
		c->kind = x->kind;
		c->runtime = x->kind == CHARE_RUNTIME;
		c->sts_id = x->chare == UINT32_MAX ? TRACE_NONE : r->sts.chares[x->chare].id;
		if (x->kind == CHARE_RUNTIME) {
			c->type = runtime_name;
		} else if ((rc = trace_intern(t, r->sts.chares[x->chare].name, &c->type))) {
			return rc;
		}
		if (x->kind == CHARE_ARRAY) {
			c->ndims = x->nids;
			prj_unkey(x->key_a, x->key_b, x->nids, c->index);
		} else if (x->kind == CHARE_GROUP && as->chare_pes[x->chare] <= 1) {
			c->kind = CHARE_SINGLE;
		}
		char label[128];
		trace_chare_label(t, i, label, sizeof label);
		t->timelines[i].location = c->pe;
		if ((rc = trace_intern(t, label, &t->timelines[i].name)))
			return rc;
	}
	return 0;
}

static int
assigner_init(struct assigner *as, struct prj_reader *r)
{
	const struct prj_sts *s = &r->sts;
	memset(as, 0, sizeof *as);
	as->r = r;
	as->by_chare = calloc(s->n_chares + 1, sizeof *as->by_chare);
	as->runtime_tl = malloc(((size_t)s->pes + 1) * sizeof *as->runtime_tl);
	as->chare_pes = calloc(s->n_chares + 1, sizeof *as->chare_pes);
	as->chare_pe = calloc(s->n_chares + 1, sizeof *as->chare_pe);
	if (!as->by_chare || !as->runtime_tl || !as->chare_pes || !as->chare_pe)
		return ERR_NOMEM;
	memset(as->runtime_tl, 0xff, ((size_t)s->pes + 1) * sizeof *as->runtime_tl);
	return 0;
}

static void
assigner_fini(struct assigner *as)
{
	if (as->by_chare)
		for (uint32_t c = 0; c <= as->r->sts.n_chares; c++)
			hmap_fini(&as->by_chare[c]);
	free(as->by_chare);
	free(as->runtime_tl);
	free(as->chare_pes);
	free(as->chare_pe);
	free(as->tl);
	memset(as, 0, sizeof *as);
}

/* The PEs a share each, with maps of each worker's own: its timelines
 * numbered as it meets them (round 0). One core then merges the
 * workers' timelines in PE order (one per chare: thousands, not the
 * executions' millions), and each worker maps its executions' ids to
 * the final ones (round 1). */
struct assign_job {
	struct prj_reader *r;
	uint32_t cut[PAR_MAX + 1];
	struct assigner as[PAR_MAX];
	uint32_t *map[PAR_MAX];    /* a worker's id -> the final one */
	int rc[PAR_MAX];
	int round;
};

static int
assign_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct assign_job *g = ctx;
	struct prj_reader *r = g->r;
	(void)nw;
	for (uint32_t pe = g->cut[w]; pe < g->cut[w + 1] && !g->rc[w]; pe++) {
		if (g->round) {
			uint32_t *v = r->exec_tl[pe];
			for (size_t i = 0; i < r->logs[pe].n_execs; i++)
				v[i] = g->map[w][v[i]];
			continue;
		}
		r->exec_tl[pe] = malloc((r->logs[pe].n_execs + 1) * sizeof **r->exec_tl);
		g->rc[w] = r->exec_tl[pe] ? assign_pe(&g->as[w], pe) : ERR_NOMEM;
	}
	return 0;
}

/* Worker w's timelines into the whole run's (as one core meeting them
 * in PE order would number them), map[w] their ids there. */
static int
merge_worker(struct assigner *all, struct assign_job *g, uint32_t w)
{
	struct assigner *as = &g->as[w];
	if (!(g->map[w] = malloc((as->n_tl + 1) * sizeof *g->map[w])))
		return ERR_NOMEM;
	for (size_t j = 0; j < as->n_tl; j++) {
		const struct tmp_tl *x = &as->tl[j];
		uint32_t id;
		int rc;
		if (x->kind == CHARE_RUNTIME) {
			if ((rc = new_tl(all, *x, &id)))
				return rc;
			all->runtime_tl[x->pe] = id;
		} else {
			uint32_t *v = hmap_get(&all->by_chare[x->chare], x->key_a, x->key_b);
			if (v)
				id = *v;
			else if ((rc = new_tl(all, *x, &id)) ||
				 (rc = hmap_put(&all->by_chare[x->chare], x->key_a, x->key_b, id)))
				return rc;
		}
		g->map[w][j] = id;
	}
	/* distinct PEs of each group, capped at 2: the workers' PEs differ */
	for (uint32_t c = 0; c < g->r->sts.n_chares; c++) {
		if (!as->chare_pes[c])
			continue;
		if (!all->chare_pes[c])
			all->chare_pe[c] = as->chare_pe[c];
		all->chare_pes[c] = all->chare_pes[c] + as->chare_pes[c] < 2 ? all->chare_pes[c] + as->chare_pes[c] : 2;
	}
	return 0;
}

int
prj_chares_assign(struct prj_reader *r, struct err *e)
{
	const struct prj_sts *s = &r->sts;
	int rc = mark_runtime(r, e);
	if (rc)
		return rc;
	struct assigner as;
	struct assign_job *g = calloc(1, sizeof *g);
	uint32_t nw = prj_workers(r);
	uint32_t *order = NULL, *final = NULL;
	r->exec_tl = calloc((size_t)s->pes + 1, sizeof *r->exec_tl);
	rc = assigner_init(&as, r);
	if (rc || !g || !r->exec_tl) {
		rc = ERR_NOMEM;
		goto out;
	}
	g->r = r;
	for (uint32_t w = 0; w < nw && !rc; w++)
		rc = assigner_init(&g->as[w], r);
	if (rc)
		goto out;
	par_split(s->pes, nw, prj_exec_weight, r, g->cut);
	par_run(nw, assign_worker, g);
	for (uint32_t w = 0; w < nw && !rc; w++)
		rc = g->rc[w];
	for (uint32_t w = 0; w < nw && !rc; w++)
		rc = merge_worker(&as, g, w);
	if (rc)
		goto out;
	uint32_t n = (uint32_t)as.n_tl;
	order = malloc(((size_t)n + 1) * sizeof *order);
	final = malloc(((size_t)n + 1) * sizeof *final);
	rc = ERR_NOMEM;
	if (!order || !final)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	if ((rc = sort_ids(order, n, cmp_tl_ids, as.tl)))
		goto out;
	if ((rc = fill_timelines(&as, order, final)))
		goto out;
	for (uint32_t w = 0; w < nw; w++)
		for (size_t j = 0; j < g->as[w].n_tl; j++)
			g->map[w][j] = final[g->map[w][j]];
	g->round = 1;
	par_run(nw, assign_worker, g);
	struct trace *t = r->t;
	t->pes = calloc((size_t)s->pes + 1, sizeof *t->pes);
	if (!t->pes) {
		rc = ERR_NOMEM;
		goto out;
	}
	t->n_pes = t->cap_pes = s->pes;
	for (uint32_t pe = 0; pe < s->pes; pe++)
		t->pes[pe].runtime = as.runtime_tl[pe] == UINT32_MAX ? TRACE_NONE : final[as.runtime_tl[pe]];
out:
	if (as.r)
		assigner_fini(&as);
	for (uint32_t w = 0; g && w < nw; w++) {
		if (g->as[w].r)
			assigner_fini(&g->as[w]);
		free(g->map[w]);
	}
	free(g);
	free(order);
	free(final);
	if (rc == ERR_NOMEM)
		err_set(e, rc, "out of memory");
	else if (rc == ERR_LIMIT)
		err_set(e, rc, "more chares than skein can index");
	return rc;
}
